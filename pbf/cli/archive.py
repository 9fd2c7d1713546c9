"""The commands of the archive: ``pbf replay``, ``undo``, ``reveal``, ``verify``, ``log``, ``export``, ``html``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .. import campaign as campaigns
from ..board.boardfit import PART_BREAK
from ..errors import PbfError, Problem
from .common import _board_now, _output_encoding, _past, _write, _year_label, _zone, replays, turns
from .thread import _next_thread_post

if TYPE_CHECKING:
    import argparse


def cmd_replay(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    if campaigns.hands_hidden(c.path):  # a public export of a battle still going on (docs/archive.md)
        diff, checked = replays.public_replay(c)
        if diff:
            print("\n".join(diff), file=sys.stderr)
            return 1
        print(f"公開用の記録です。手札が伏せてあるため再計算はできません。{len(checked)}ターン分の行動の読みと"
              "ダイスの記録のハッシュ、HPとダメージの辻褄を確かめました。 / public export: checked what it holds")
        return 0
    diff = replays.replay(c)
    if diff:
        print("\n".join(diff), file=sys.stderr)
        return 1
    turns = [t for t in c.archived_turns() if t > 0]
    if not turns:
        print("まだ処理したターンがないので、再計算するものはありません。 / no turns to replay")
    else:
        span = f"第{turns[0]}ターン" if len(turns) == 1 else f"第{turns[0]}～{turns[-1]}ターン"
        print(f"再計算しました：{span}の状態と結果は、すべて記録と一致します。 / replay OK")
        from ..campaign.versions import replay_note

        for line in replay_note(c, turns):  # the same bytes from other versions: say which
            print(line, file=sys.stderr)
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    plan = campaigns.undo_plan(c)
    _board_now(c)  # the clock is read (and a bad PBF_NOW refused) before anything is written
    if args.dry_run:
        print(f"pbf undo は第{plan.turn}ターンを取り消します（--dry-run：何も書き込んでいません）。 / would undo turn {plan.turn}")
    else:
        turn = campaigns.undo(c)
        print(f"第{turn}ターンを取り消しました（記録は history/undone/ に移しました）。 / undid turn {turn}")
    for line in _reopened(c, plan, done=not args.dry_run):
        print(line)
    return 0


def _reopened(c: campaigns.Campaign, plan: campaigns.UndoPlan, done: bool) -> list[str]:
    """What the re-opened turn will be: its deadline, where the next turn reads the thread,
    the next turn's deadline kept."""
    from ..board.forum import deadline_label, parse_deadline, time_left
    from ..board.markers import opening_marker_line, results_marker_line

    turn = plan.turn
    undone = "取り消した" if done else "取り消す"
    if plan.deadline:
        left = time_left(_board_now(c), parse_deadline(plan.deadline), _zone(c))
        when = "締切は過ぎています：pbf turn はすぐに処理できます" if _past(c, plan.deadline) else (
            f"締切まで{left}" if left else "締切の分の最中です")
        lines = [f"やり直す第{turn}ターンの締切：{_year_label(c, plan.deadline)}（このターンを処理したときの締切。{when}）"]
    else:
        lines = [f"やり直す第{turn}ターンの締切：なし（このターンは締切なしで処理されました。"
                 f"決めるなら pbf deadline {c.path} \"YYYY-MM-DD HH:MM\"）"]
    before = plan.previous_window
    if before and before.get("last_post") is not None:
        start = (f"スレッド「{before.get('title') or '（題名なし）'}」なら、第{turn - 1}ターンが読んだ "
                 f">>{before['last_post']} の次（>>{int(before['last_post']) + 1}）から")
    else:
        footer = opening_marker_line() if turn == 1 else results_marker_line(turn - 1)
        start = f"スレッドの「{footer}」の書き込みの後から（なければスレッドの最初から）"
    lines.append(f"次の pbf turn --thread は、{start}読みます（--since N で指定もできます）。")
    if plan.window:
        w = plan.window
        lines.append(f"{undone}第{turn}ターンが読んだのは「{w.get('title') or '（題名なし）'}」の "
                     f">>{w.get('first_post')}〜>>{w.get('last_post')} です。スレッドに残った第{turn}ターンの"
                     "結果の書き込みは雑談として読み飛ばします。")
    else:
        lines.append(f"{undone}第{turn}ターンの行動は行動ファイル（--orders）から読みました。")
    if plan.next_deadline:
        lines.append(f"第{turn + 1}ターンの締切（{_year_label(c, plan.next_deadline)}）は、やり直しの pbf turn が"
                     "次回締切に使います（変えるなら --next-deadline）。")
    return lines


def cmd_reveal(args: argparse.Namespace) -> int:
    """The seed line to paste at the campaign's end: the seed and the commitment it matches."""
    from ..dice import seed_commitment

    c = campaigns.load(args.dir)
    if not c.seed:
        raise PbfError("campaign.toml に seed がありません（公開用のコピーには入っていません）。GM のフォルダで"
                       "実行してください。 / no seed in this folder")
    committed = campaigns.archived_yaml(c, 0, "dice.yaml").get("seed_sha256")
    if committed != seed_commitment(c.seed):
        raise PbfError(
            Problem(f"campaign.toml の seed が、開始時に公開したコミットメント（{committed}）と一致しません。"
                    "seed を書き換えていませんか。 / the seed does not match the commitment",
                    hint="開始の投稿（pbf log DIR --turn 0）のコミットメントと、campaign.toml の seed を確かめてください。")
        )
    if c.state.get("winner") is None and not args.force:
        raise PbfError(
            Problem(f"バトルはまだ続いています（第{c.turn}ターンまで処理済み）。シードを知った人は、行動ごとのダイスを"
                    "先に計算できます。 / the battle is not over",
                    hint=f"それでも公開するなら：pbf reveal {c.path} --force")
        )
    from .. import render

    text = render.render(c.system, "common/reveal.j2", c.path, seed=c.seed, commitment=committed,
                         turns=c.turn, over=c.state.get("winner") is not None)
    print(f"pbf: スレッドに書き込むシードの公開です。だれでも pbf verify {c.path} --seed … で全ダイスを確かめられます。",
          file=sys.stderr)
    _write(text, _output_encoding(c, args))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    for line in replays.verify(c, args.seed):
        print(line)
    print("すべてのダイスがシードから再計算した値と一致しました。 / every die verified")
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    campaigns.check_archive(c)  # a damaged archive is refused, as load refuses a damaged state.yaml
    if getattr(args, "next_thread", False):
        _write(_next_thread_post(c, args.turn), _output_encoding(c, args))
        return 0
    if args.turn is not None:
        _write(PART_BREAK.join(turns.post_parts(c, args.turn)), _output_encoding(c, args))
        return 0
    posts = [campaigns.archived(c, turn, "post.txt") for turn in c.archived_turns() if turn > 0]
    _write("\n".join(posts), _output_encoding(c, args))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..publish import export

    report = export.export(campaigns.load(args.dir), args.out, seed=args.seed, hands=args.hands)
    seed = "シードあり（pbf verify できます）" if report.seed == "revealed" else "シードなし"
    hands = {"hidden": "手札は伏せました", "shown": "手札は見せています（バトル終了）", "none": "非公開の手札なし"}[report.hands]
    print(f"公開用の記録を「{report.path}」に書き出しました（{report.turns}ターン、{seed}、{hands}）。 / exported")
    if report.left_out:  # never silent: what the copy does not hold
        print("pbf の読まないファイルは公開用の記録に入れませんでした：" + "、".join(report.left_out) + " / left out",
              file=sys.stderr)
    return 0


def cmd_html(args: argparse.Namespace) -> int:
    from ..publish.site import build_site, foreign_files

    kept = foreign_files(Path(args.out))
    pages = build_site(campaigns.load(args.dir), args.out, seed=args.seed, hands=args.hands)
    print(f"サイトを「{args.out}」に書き出しました（{pages}ページ。index.html から読めます）。 / site written")
    if kept:  # never silent: the files of the folder that pbf html did not write stay as they were
        print(f"pbf html の書いたものでないファイルはそのまま残しました：{'、'.join(kept)} / kept", file=sys.stderr)
    return 0
