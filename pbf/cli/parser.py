"""The command line's parser, built from the command modules (each sub-command's ``cmd_NAME``),
in Japanese with the English after; only the sub-command that runs is built. ``pbf completion``
(the whole parser written for a shell) is here too."""

from __future__ import annotations

import argparse
import codecs
import re
import sys
from functools import lru_cache
from typing import TYPE_CHECKING

from .. import __version__
from ..lazy import lazy
from ..systems import SYSTEMS

if TYPE_CHECKING:
    from typing import Any


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help in Japanese first; the examples of the epilog keep their lines."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, "使い方: " if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        # argparse's own two groups, by the titles it gives them
        super().start_section(_ARGPARSE_JA.get(heading, heading) if heading in _HEADINGS else heading)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self.add_argument("-h", "--help", action="help", help="このヘルプを表示する / show this help")

    def error(self, message: str) -> None:  # usage errors: exit 2, Japanese first
        self.print_usage(sys.stderr)
        self.exit(2, f"pbf: 使い方が正しくありません：{argparse_japanese(message)}\n")


# argparse's own messages (Python 3.11–3.13), in Japanese: a usage error is Japanese throughout.
# argparse makes each in English (through gettext, which has no Japanese for it); _Parser.error
# reads the English message it is given against these and says it in Japanese (pbf's own
# messages are Japanese already). Only public parts of argparse are used: ArgumentParser.error,
# HelpFormatter.add_usage and start_section, an -h of pbf's own.
_ARGPARSE_JA = {
    "usage: ": "使い方: ",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s：%(message)s",
    "unrecognized arguments: %s": "知らない引数があります：%s",
    "not allowed with argument %s": "%s と一緒には使えません",
    "ignored explicit argument %r": "このオプションは値をとりません（%r）",
    "the following arguments are required: %s": "次の引数が必要です：%s",
    "one of the arguments %s is required": "%s のどれか一つが必要です",
    "expected one argument": "値を一つ指定してください",
    "expected at most one argument": "値は一つまでです",
    "expected at least one argument": "値を一つ以上指定してください",
    "ambiguous option: %(option)s could match %(matches)s": "オプション %(option)s はどれのことか分かりません（候補：%(matches)s）",
    "unexpected option string: %s": "ここにオプション %s は書けません",
    "invalid %(type)s value: %(value)r": "%(value)r は値として読めません（%(type)s）",
    "invalid choice: %(value)r (choose from %(choices)s)": "%(value)r は選べません（選べるもの：%(choices)s）",
    "can't open '%(filename)s': %(error)s": "「%(filename)s」を開けません：%(error)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "%(parser_name)r というコマンドはありません（あるのは %(choices)s）",
    "%(prog)s: error: %(message)s\n": "%(prog)s: 使い方が正しくありません：%(message)s\n",
    "show this help message and exit": "このヘルプを表示する / show this help",
    "positional arguments": "引数",
    "options": "オプション",
}


_ARGPARSE_JA_N = {"expected %s argument": "値を%s個指定してください"}


_HEADINGS = ("positional arguments", "options")


def _pattern(english: str) -> re.Pattern[str]:
    """An argparse message template as a pattern of the message made from it (each ``%(name)s``,
    ``%(name)r``, ``%s`` a group)."""
    out, number = [], 0
    for piece in re.split(r"(%\([a-z_]+\)[sr]|%[sr])", english):
        if piece.startswith("%(") :
            out.append(f"(?P<{piece[2:-2]}>.+?)")
        elif piece in ("%s", "%r"):
            number += 1
            out.append(f"(?P<_{number}>.+?)")
        else:
            out.append(re.escape(piece))
    return re.compile("".join(out) + r"\Z", re.S)


def _said(japanese: str, found: re.Match[str]) -> str:
    """The Japanese template with what the English message held in its places (a ``%r`` was
    already written as repr in the English one)."""
    groups, number = found.groupdict(), 0

    def put(place: re.Match[str]) -> str:
        nonlocal number
        if place.group(1):
            value = groups[place.group(1)]
            return argparse_japanese(value) if place.group(1) == "message" else value
        number += 1
        return groups[f"_{number}"]

    return re.sub(r"%\(([a-z_]+)\)[sr]|%[sr]", put, japanese)


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    table = {k: v for k, v in _ARGPARSE_JA.items() if "%" in k and not k.endswith("\n")}
    table.update({"expected %s argument": _ARGPARSE_JA_N["expected %s argument"],
                  "expected %s arguments": _ARGPARSE_JA_N["expected %s argument"]})
    return [(_pattern(english), japanese) for english, japanese in table.items()]


def argparse_japanese(message: str) -> str:
    """An argparse error message in Japanese, when it is one of those above (else as it is)."""
    if message in _ARGPARSE_JA:
        return _ARGPARSE_JA[message]
    for pattern, japanese in _patterns():
        found = pattern.match(message)
        if found is not None:
            return _said(japanese, found)
    return message


def _minutes(value: str) -> float:
    try:
        minutes = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"分の数ではありません：{value}") from None
    if not minutes >= 1:
        raise argparse.ArgumentTypeError(f"{value}分は短すぎます。板への負担を避けるため1分以上にしてください")
    return minutes


def _thread_parsers(command: Any) -> None:
    p = command("thread", "キャンペーンのスレッドのアドレスを登録する（--next で次スレ）/ store the campaign's thread URL",
                "pbf thread battle1 https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1700000000/",
                "pbf thread battle1 https://example.5ch.net/test/read.cgi/gameswf/1700000000/ --next",
                "pbf thread battle1", campaign=True, writes=True,
                about="status・turn・watch は --thread なしでこのスレッドを読みます。URL なしで登録済みのスレッドを表示します。")
    p.add_argument("url", nargs="?", metavar="URL", help="スレッドのアドレス / the thread's URL")
    p.add_argument("--next", action="store_true", help="次スレとして足す / add it as the next thread")

    p = command("watch", "締切までスレッドを見張り、受付が変わるたびに表示する / watch the thread until the deadline",
                "pbf watch battle1", "pbf watch battle1 --every 5 --take-turn --next-deadline '2026-12-06 22:00'",
                "pbf watch battle1 --take-turn --follow", campaign=True, writes=True,
                about="締切の後でもう一度読み、最後の受付を表示します。--take-turn でそのままターンを処理します。\n"
                      "Ctrl-C でいつでも止まります（書きかけのものは残りません）。")
    _path(p, "--thread", metavar="FILE|URL", help="スレッド（省略時は pbf thread で登録したもの）/ the thread")
    _thread_options(p)
    p.add_argument("--every", type=_minutes, default=5.0, metavar="MINUTES",
                   help="取得の間隔（分、1以上。既定5）/ minutes between fetches (at least 1)")
    p.add_argument("--take-turn", action="store_true", help="締切の後でターンを処理する / take the turn at the deadline")
    p.add_argument("--follow", action="store_true",
                   help="ターンを処理したら次のターンの締切まで続ける（--take-turn と）/ go on to the next deadline")
    p.add_argument("--next-deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="次のターンの締切（--take-turn のとき）/ the next turn's deadline")


def version_text() -> str:
    """pbf's version, and those of the libraries that shape its files and posts (a replay on
    another machine is byte-identical only with the same parser, templates and YAML writer)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for dist in ("lark", "jinja2", "ruamel.yaml"):
        try:
            found.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            found.append(f"{dist} （なし）")
    return f"pbf {__version__}\n{', '.join(found)}, Python {platform.python_version()}\n"


class _Version(argparse.Action):
    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        sys.stdout.write(version_text())
        parser.exit(0)


# -- parser -------------------------------------------------------------------------------------
# Every command is made by command() below, which asks for a one-line description and at least
# one example; tests/core/test_cli_gm.py checks that every option has a help text, and the shell
# completion (pbf completion) is generated from this parser at run time.

# What a shell should complete an argument with (the same values as shtab.DIRECTORY / shtab.FILE,
# written out so that building the parser does not import shtab).
_DIRECTORY = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/", "tcsh": "d"}


_FILE = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}


def _post_number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"書き込み番号は1以上の整数です（{value}）")
    return number


def _turn_number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"ターンの番号は0以上の整数です（{value}）") from None


def _encoding(value: str) -> str:
    try:
        known = codecs.lookup(value)
    except LookupError:
        raise argparse.ArgumentTypeError(f"文字コード「{value}」が分かりません（例：utf-8, cp932）") from None
    try:
        "a".encode(known.name)  # str.encode refuses a codec that is not a text encoding (base64, rot13, …)
    except LookupError:
        raise argparse.ArgumentTypeError(f"「{value}」は文字の文字コードではありません（例：utf-8, cp932）") from None
    return value


def _path(p: argparse.ArgumentParser, *names: str, kind: dict[str, str] = _FILE, **kwargs: Any) -> argparse.Action:
    action = p.add_argument(*names, **kwargs)
    action.complete = kind  # type: ignore[attr-defined]  # read by shtab
    return action


def _thread_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--since", type=_post_number, metavar="N",
                   help="この番号の書き込みからを今ターンの行動とする（--thread と）/ first post of this turn")
    p.add_argument("--deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="締切（板の時刻、JST）。後の書き込みは遅刻。省略時は pbf deadline で設定したもの"
                        "（--thread と）/ deadline")
    p.add_argument("--encoding", metavar="ENC", type=_encoding,
                   help="出力（結果の書き込み）の文字コード（例：cp932）/ encoding of the output")
    p.add_argument("--input-encoding", metavar="ENC", type=_encoding,
                   help="読むファイル（スレッドか行動ファイル）の文字コード。省略時は自動判定"
                        "（スレッド：UTF-8・CP932・EUC-JP、行動ファイル：UTF-8・BOM付き・CP932）/ input encoding")
    p.add_argument("--offline", action="store_true",
                   help="スレッドを取得せず、手元の写し（前に取得したもの）をそのまま使う / use pbf's copy of the thread as it is")


class _Unbuilt:
    """A sub-command left unbuilt: ``main`` builds only the command it runs (start-up: each
    sub-parser costs argparse and gettext work; benchmarks/bench.py)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        return argparse.Namespace()  # _path() sets .complete on it


# the modules of the groups of commands, each imported when a command of it is built (start-up)
_GROUPS = (
    (lazy("pbf.cli.play"), ("new", "check", "odds", "turn", "status", "deadline", "commit", "show")),
    (lazy("pbf.cli.thread"), ("thread", "watch")),
    (lazy("pbf.cli.archive"), ("replay", "undo", "reveal", "verify", "log", "export", "html")),
    (lazy("pbf.cli.catalogue"), ("demo", "balance", "list", "set")),
)


def _command(name: str) -> Any:
    """The function of the sub-command ``name``: ``cmd_NAME`` of the module of its group."""
    for module, names in _GROUPS:
        if name in names:
            return getattr(module(), f"cmd_{name}")
    return globals()[f"cmd_{name}"]  # pbf completion: the parser itself, for a shell


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only``, that sub-command alone (the others are not built, so
    ``pbf --help`` and a wrong command name need the whole one)."""
    parser = _Parser(
        prog="pbf",
        description="掲示板（PBF）バトルの一括処理：Alter EGO ―オルタリゴ― とライダーバトル"
                    " / play-by-forum batch processor",
        epilog="例：\n  pbf demo\n  pbf list riders\n  pbf new battle1 --system alterego --player 美鈴=meiling"
               " --player 名無し=plain\n\n各コマンドの説明：pbf COMMAND --help",
    )
    parser.add_argument("--version", action=_Version,
                        help="pbf と lark・jinja2・ruamel.yaml の版を表示する / show the versions")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND",
                                title="コマンド")

    def command(name: str, summary: str, *examples: str, campaign: bool = False, writes: bool = False,
                about: str = "") -> argparse.ArgumentParser:
        """A subcommand: ``summary`` is its one line (also in ``pbf --help``), ``examples`` are shown
        under 例 in its --help (tests/core/test_cli_gm.py asks every command for one); ``writes``:
        it changes files (an error then says nothing was written)."""
        if only is not None and name != only:
            return _Unbuilt()  # type: ignore[return-value]
        p = sub.add_parser(name, help=summary, description=summary + (f"\n\n{about}" if about else ""),
                           epilog="例：\n" + "\n".join(f"  {e}" for e in examples) if examples else None)
        if campaign:
            _path(p, "dir", kind=_DIRECTORY, metavar="DIR", help="キャンペーンのフォルダ / campaign folder")
        p.set_defaults(func=_command(name), writes=writes)
        return p

    p = command("new", "キャンペーンのフォルダを作る / create a campaign folder",
                "pbf new battle1 --system alterego --player 美鈴=meiling --player 名無し=plain",
                "pbf new battle2 --system rider --player 城戸=ryuki --player 蓮=knight --set turn_limit=10",
                campaign=True, writes=True,
                about="campaign.toml・state.yaml・history/ を作り、ダイスのシード・コミットメントを表示します。\n"
                      "選べるキャラクターとオプション：pbf list")
    p.add_argument("--system", required=True, choices=SYSTEMS,
                   help="ゲーム：alterego（Alter EGO ―オルタリゴ―）か rider（ライダーバトル）/ the game")
    p.add_argument("--player", action="append", metavar="NAME=CHARACTER",
                   help="参加者と使うキャラクターのID（繰り返し可）。NAME◆TRIP=… でトリップ、=CHARACTER@TEAM でチームも"
                        " / a player and their character id")
    p.add_argument("--seed", help="ダイスの秘密のシード（省略時は自動生成）/ the secret dice seed")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="オプション（繰り返し可。一覧は pbf list options）/ an option")
    p.add_argument("--deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="第1ターンの締切（開始の投稿に載せる）/ the first turn's deadline")
    p.add_argument("--thread", metavar="URL",
                   help="キャンペーンのスレッドのアドレス（status・turn・watch が読む）/ the campaign's thread URL")

    p = command("check", "行動がどう読まれるか確かめる（何も書き込みません）/ check how one order reads",
                "pbf check battle1 --player 美鈴 '↑→弱弱'",
                "echo '近寄る / ソードベント' | pbf check battle2 --player 城戸 -",
                "pbf check battle1 --player 美鈴 '↑→弱弱' --json", campaign=True)
    p.add_argument("--player", required=True, metavar="NAME",
                   help="プレイヤーの名前（その人だけが使うキャラクターの名前でも）/ the player")
    p.add_argument("order", help="行動（- で標準入力から）/ the order (- reads stdin)")
    p.add_argument("--json", action="store_true",
                   help="読み取りを JSON で出力する（誤りがあっても。docs/check.md）/ the reading as JSON")
    p.add_argument("--odds", action="store_true",
                   help="読み取りの後にオッズを1行（docs/odds.md）/ add one line of odds")

    p = command("odds", "行動の見込み（命中・ダメージ・移動の確率、相手の全プロットへの結果）を計算する / exact odds of an order",
                "pbf odds battle2 --player 城戸 '近寄る / ソードベント'",
                "pbf odds battle1 --player 美鈴 '↑→弱弱'",
                "pbf odds battle1 --player 美鈴 '↑→弱弱' --json", campaign=True,
                about="自分から見える情報だけで計算します（相手の非公開の手札や今ターンの行動は読みません）。")
    p.add_argument("--player", required=True, metavar="NAME",
                   help="プレイヤーの名前 / the player")
    p.add_argument("order", help="行動（- で標準入力から）/ the order (- reads stdin)")
    p.add_argument("--hand", metavar="CARDS",
                   help="Alter EGO：自分の手札（公開用の記録で手札が伏せてあるとき）/ your own hand")
    p.add_argument("--no-best", action="store_true",
                   help="Alter EGO：手札からの上位プロットを計算しない / skip the best plots")
    p.add_argument("--json", action="store_true", help="JSON で出力する（docs/odds.md）/ print JSON")

    p = command("turn", "次のターンを処理して結果の書き込みを表示する / resolve the next turn",
                "pbf turn battle1 --orders turn1.txt --dry-run",
                "pbf turn battle1 --orders turn1.txt",
                "pbf turn battle1 --thread thread.dat --deadline '2026-11-29 22:00' --encoding cp932 > post.txt",
                campaign=True, writes=True,
                about="行動は --orders（行動ファイル）か --thread（スレッド）のどちらかから読みます。\n"
                      "行動に一つでも誤りがあれば、すべての問題を表示して何も書き込みません。")
    _path(p, "--orders", metavar="FILE",
          help="行動ファイル（[名前] 行動 …。- で標準入力）/ the orders file")
    _path(p, "--thread", metavar="FILE|URL",
          help="スレッド（.dat か read.cgi のコピー、またはスレッドのアドレス）から行動を読む。"
               "pbf thread で登録したスレッドなら省略可 / read the orders from a thread (a file or its URL)")
    _thread_options(p)
    p.add_argument("--dry-run", action="store_true", help="何も書き込まずに結果だけ表示する / write nothing")
    p.add_argument("--json", action="store_true", help="結果の代わりに JSON を出力する / print JSON instead of the post")
    p.add_argument("--dice", metavar="FACES",
                   help="先に使うダイスの目（例：4,1,1,5,4,4）。実物のダイスを振るとき / dice faces to use first")
    p.add_argument("--next-deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="次のターンの締切（結果の投稿に載せ、保存する）/ the next turn's deadline")
    p.add_argument("--early", action="store_true",
                   help="締切の前に処理する（GM判断。turn.yaml と結果の投稿に載る）/ resolve before the deadline")

    p = command("status", "スレッドの行動の受付状況（受理／エラー／未提出）を表示する / receipts",
                "pbf status battle1 --thread thread.dat",
                "pbf status battle1 --thread thread.dat --deadline '2026-11-29 22:00'", campaign=True)
    _path(p, "--thread", metavar="FILE|URL",
          help="スレッド（.dat か read.cgi のコピー、またはスレッドのアドレス）。pbf thread で登録したスレッドなら省略可"
               " / the thread file or its URL")
    _thread_options(p)

    p = command("commit", "秘密の行動の【コミット】行と【公開】行を作る / commit-reveal lines",
                "pbf commit --player 刃 '近寄る / ソードベント'",
                "pbf commit --campaign battle2 --player 刃 '近寄る / ソードベント'",
                about="締切までに【コミット】行を、締切の後で【公開】行を書き込みます\n"
                      "（オプション orders=commit のキャンペーン）。")
    _path(p, "--campaign", kind=_DIRECTORY, metavar="DIR",
          help="キャンペーン（指定すると行動を先に確かめる）/ check the order against this campaign")
    p.add_argument("--player", required=True, metavar="NAME", help="プレイヤーの名前 / the player")
    p.add_argument("order", help="行動（- で標準入力から）/ the order (- reads stdin)")

    p = command("show", "現在の状況（距離、HP、ライダーの能力値、デッキ、締切、行動の有無）を表示する / current status",
                "pbf show battle1", "pbf show battle1 --thread thread.dat", "pbf show battle1 --hands",
                "pbf show battle1 --json", campaign=True,
                about="次のターンの締切と、各プレイヤーの行動の有無（--thread でスレッドの行動・コミット）も表示します。")
    p.add_argument("--json", action="store_true",
                   help="JSON で出力する（GM用：非公開の手札も含む）/ JSON, the GM's view with private hands")
    p.add_argument("--hands", action="store_true",
                   help="各自の手札も表示する（GM用：スレッドに貼らない）/ show the private hands (GM only)")
    _path(p, "--thread", metavar="FILE|URL",
          help="スレッド（ファイルかアドレス）から、だれが行動（コミット）を書き込んだかも表示する / who has posted an order")
    p.add_argument("--input-encoding", metavar="ENC", type=_encoding,
                   help="スレッドの文字コード（省略時は自動判定）/ the thread's encoding")

    command("replay", "記録から全ターンを再計算して照合する / re-resolve every archived turn",
            "pbf replay battle1", campaign=True)

    p = command("undo", "最後のターンを取り消す（記録は history/undone/ へ）/ roll back the last turn",
                "pbf undo battle1 --dry-run", "pbf undo battle1", campaign=True, writes=True,
                about="締切は、取り消したターンを処理したときのもの（turn.yaml）に戻ります。")
    p.add_argument("--dry-run", action="store_true",
                   help="何も書き込まず、取り消すターンとやり直すターンの締切・読む範囲を表示する / write nothing")

    p = command("verify", "シードでダイスを検証する / verify every die from the seed",
                "pbf verify battle1 --seed 公開されたシード", campaign=True)
    p.add_argument("--seed", help="公開されたシード（省略時は campaign.toml の seed）/ the revealed seed")

    p = command("reveal", "シードの公開の書き込み（シードとコミットメント）を表示する / print the seed line to post",
                "pbf reveal battle1", "pbf reveal battle1 > reveal.txt", campaign=True,
                about="キャンペーンの終わりにスレッドに書き込みます。だれでも pbf verify でダイスを確かめられます。\n"
                      "バトルが続いている間は --force が必要です（シードを知るとダイスを先読みできるため）。")
    p.add_argument("--force", action="store_true",
                   help="バトルが終わる前でも表示する / show it before the battle's end")

    p = command("log", "全ターンの結果の書き込みを順に表示する / print every results post",
                "pbf log battle1", "pbf log battle1 --turn 3", "pbf log battle1 --turn 0", campaign=True)
    p.add_argument("--turn", type=_turn_number, metavar="N",
                   help="このターンの投稿だけを、板に合わせた分割のまま表示（0は開始の投稿）/ one turn's post")
    p.add_argument("--next-thread", action="store_true",
                   help="第Nターン（--turn、省略時は最後のターン）までの状況で、次スレの最初の書き込みを表示する"
                        " / the opening post of the next thread")

    p = command("deadline", "今のターンの締切を設定する / set the current turn's deadline",
                "pbf deadline battle1 '2026-12-05 22:00'", campaign=True, writes=True,
                about="pbf status と pbf turn が使い、結果の投稿に載ります。過去の日時は --force なしでは断ります。")
    p.add_argument("deadline", metavar="'YYYY-MM-DD HH:MM'", help="締切（板の時刻、JST）/ the deadline")
    p.add_argument("--force", action="store_true", help="過去の日時でも設定する / accept a date in the past")

    for name, summary, example, out in (
        ("export", "公開用の記録（シードと進行中の手札を除いたコピー）を書き出す / a public copy of the campaign",
         "pbf export battle1 battle1-public", "書き出し先（新しいか空のフォルダ）/ the new folder"),
        ("html", "キャンペーンの静的サイト（目次、ターンごとのページ、グラフ）を作る / a static site of the campaign",
         "pbf html battle1 site/", "サイトのフォルダ（新しいか、前に pbf html が作ったもの）/ the site folder"),
    ):
        p = command(name, summary, example, f"{example} --seed 公開されたシード", campaign=True, writes=True,
                    about="スレッドに出たものだけを使います（docs/archive.md）。")
        _path(p, "out", kind=_DIRECTORY, metavar="OUT", help=out)
        p.add_argument("--seed", help="公開されたシード（コミットメントと一致すれば含める）/ the revealed seed")
        p.add_argument("--hands", choices=("end", "never"), default="end",
                       help="非公開の手札：end＝バトル終了後は見せる（既定）、never＝見せない / private hands after the end")

    p = command("demo", "同梱のデモを実行して結果を表示する / run the bundled demos",
                "pbf demo", "pbf demo --keep demo-campaigns", writes=True)
    _path(p, "--keep", kind=_DIRECTORY, metavar="DIR",
          help="デモのキャンペーンをこのフォルダ（新しいか空のもの）に残す / keep the campaigns there")

    p = command("list", "選べるもの（キャラクター、ライダー、モンスター、カード、オプション）を表示する"
                        " / what a GM or player can choose",
                "pbf list", "pbf list riders", "pbf list cards --system alterego", "pbf list options --json",
                "pbf list characters --campaign battle1",
                about="能力値、技（カード → 技、射程、ダメージ）、デッキ、\nオプションの既定値と意味を表示します。")
    if not isinstance(p, _Unbuilt):
        from ..campaign.catalogue import KINDS

        p.add_argument("what", nargs="?", choices=KINDS, metavar="{" + ",".join(KINDS) + "}",
                       help="表示するもの（省略時はすべて）/ what to list (all when omitted)")
    p.add_argument("--system", choices=SYSTEMS, help="このゲームだけ（省略時は両方）/ only this game")
    _path(p, "--campaign", kind=_DIRECTORY, metavar="DIR",
          help="このキャンペーンのデータ（data/ を含む）とオプションの今の値で / with this campaign's data and options")
    p.add_argument("--json", action="store_true", help="JSON で出力する / print JSON")

    p = command("set", "キャンペーンのオプションを変える（次のターンから）/ change a campaign's options",
                "pbf set battle1 hands=open", "pbf set battle2 turn_limit=10 max_lines=32",
                campaign=True, writes=True,
                about="値は pbf new --set と同じように確かめ、campaign.toml に書きます（数は数として）。\n"
                      "変更は次のターンの記録（history/NNNN/options.yaml）に残り、\n"
                      "pbf replay は各ターンをその時のオプションで再計算します。\n"
                      "今の値の一覧：pbf list options --campaign DIR")
    p.add_argument("assignments", nargs="+", metavar="KEY=VALUE", help="オプションと新しい値 / option and value")

    p = command("balance", "全部の組み合わせをNPC同士で戦わせた勝率の表 / a win-rate table, NPC against NPC",
                "pbf balance --system rider --battles 50",
                "pbf balance --system alterego --level hard --battles 20 --html balance.html",
                "pbf balance --system rider --data battle2 --fighters ryuki,knight,blade_wolf",
                about="固定のシードで対戦するので、同じデータからは同じ表になります（docs/npc.md）。\n"
                      "勝率は引き分けを0.5勝として数え、95%信頼区間（Wilson）を添えます。")
    p.add_argument("--system", required=True, choices=SYSTEMS, help="ゲーム / the game")
    _path(p, "--data", kind=_DIRECTORY, metavar="DIR",
          help="このデータ（キャンペーンのフォルダか data/ フォルダ）で / with this data folder or campaign")
    p.add_argument("--battles", type=int, default=20, metavar="N", help="各組の対戦数（既定20）/ battles per pair")
    p.add_argument("--level", choices=("random", "normal", "hard"), default="normal",
                   help="NPCの強さ（既定 normal）/ the NPCs' level")
    p.add_argument("--versus", choices=("random", "normal", "hard"),
                   help="参加者Bの強さ（既定は --level と同じ）/ the second fighter's level")
    p.add_argument("--fighters", metavar="ID,ID,…", help="このファイターだけ / only these fighters")
    p.add_argument("--html", metavar="FILE", help="グラフ付きのページも書き出す / also write an HTML page")
    p.add_argument("--json", action="store_true", help="JSON で出力する / print JSON")

    p = command("completion", "シェルの補完スクリプトを出力する / print a shell completion script",
                "eval \"$(pbf completion bash)\"",
                "pbf completion bash > ~/.local/share/bash-completion/completions/pbf",
                "pbf completion zsh > \"${fpath[1]}/_pbf\"",
                about="いまの pbf のコマンドとオプションから作ります（版が上がったら作り直してください）。")
    p.add_argument("shell", choices=("bash", "zsh"), help="シェルの種類 / the shell")
    _thread_parsers(command)
    return parser


def cmd_completion(args: argparse.Namespace) -> int:
    import shtab

    # from the parser as it is now, so that every command and option is in it
    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    return 0


# The sub-commands (each has its cmd_NAME above); main() builds only the one it runs.
_COMMANDS = ("new", "check", "odds", "turn", "status", "commit", "show", "replay", "undo", "verify", "reveal", "log", "deadline",
             "export", "html",
             "demo", "list", "set", "balance", "completion", "thread", "watch")
