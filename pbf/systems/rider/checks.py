"""Checking a read order against the state and the data (cards held, options, names), and
what may still be posted after the battle is decided. ``parse`` is the whole of it: read the
text (orders.py), build the order, check it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from typing import Any

from ...errors import OrderError, Problem
from ...reader.text import position
from .data import NOT_ORDER_COUNTERS, RiderData, norm
from .names import find_fighter, near_fighter, roster
from .orders import MOVE_RULE_WORDS, Clause, ReadingProblem, RiderOrder, problem_at, build_order, canonical, read_clauses


def validate(order: RiderOrder, at: dict[str, int], player: str, state: dict[str, Any], data: RiderData,
             original: str, where: list[int], teams: dict[str, str | None] | None = None) -> RiderOrder:
    """Every problem of a readable order at once (OrderError). Returns the order with names
    resolved to the players' names."""
    from . import cards as fx

    problems: list[Problem] = []

    def bad(key: str, message: str, text: str | None = None, hint: str | None = None) -> None:
        index = at.get(key, 0)
        problems.append(problem_at(original, where, index, message, text, hint, player))

    fighter = state["fighters"].get(player)
    if fighter is None:  # pragma: no cover - the core checks players first
        raise OrderError([Problem("この戦闘に参加していません。", player=player)])
    is_monster = fighter.get("kind") == "monster"
    deck = fighter.get("deck", {}) or {}

    def check_card(card_id: str, key: str, phase: str) -> None:
        name = data.card_name(card_id)
        if is_monster:
            bad(key, "モンスターはカードを使えません。", name)
            return
        if deck.get(card_id, 0) < 1:
            if card_id in deck or card_id in (fighter.get("used_once") or []):
                bad(key, "このカードはもう使い切っています。", name)
            else:
                held = "、".join(data.card_name(c) for c, n in deck.items() if n > 0) or "なし"
                bad(key, "このカードを持っていません。", name, f"残りのカード：{held}")
            return
        if card_id in (fighter.get("used_once") or []):
            bad(key, "このカードは1回の戦闘で1度しか使えません。", name)
            return
        if not fx.phase_ok(data, card_id, phase):
            if phase == "active":
                bad(key, "このカードは受動フェイズ専用です（「受動: カード名」と書いてください）。", name)
            else:
                bad(key, "このカードは能動フェイズ専用です。", name)

    if order.card is not None:
        check_card(order.card, "card", "active")
    for i, rule in enumerate(order.passive):
        check_card(rule.card, f"passive{i}", "passive")

    # the vent after this order's 能動 card (a new vent replaces the old)
    vent_after = fighter.get("vent")
    if order.card is not None and data.cards.get(order.card, {}).get("vent"):
        vent_after = order.card
    passive_cards = [r.card for r in order.passive]
    final = order.card is not None and fx.has(data, order.card, "final")

    if order.aim:
        if not 1 <= order.aim <= 3:
            bad("aim", "隙狙いで無視できる防御力は1～3点です。", f"隙狙い {order.aim}")
        elif fx.stat(data, fighter, "attack") - 2 * order.aim < 1:
            bad("aim", f"隙狙い{order.aim}では攻撃力が0以下になります（攻撃力{fx.stat(data, fighter, 'attack')}、"
                       f"1点ごとに-2）。", f"隙狙い {order.aim}")
        if final:
            bad("aim", "ファイナルベントの攻撃には隙狙いを使えません。", f"隙狙い {order.aim}")
    if order.hold and final:
        bad("hold", "ファイナルベントを使うなら「攻撃しない」とは書けません。", "攻撃しない")
    if order.super_evasion:
        if not 1 <= order.super_evasion <= 3:
            bad("super_evasion", "超回避は1～3点です。", f"超回避 {order.super_evasion}")
        elif fighter["hp"] - order.super_evasion < 1:
            bad("super_evasion", f"超回避でHPを0にはできません（HP{fighter['hp']}）。",
                f"超回避 {order.super_evasion}")
        if order.parry or order.evasion == "attack":
            bad("super_evasion", "超回避は受けと併用できません。", f"超回避 {order.super_evasion}")
    if order.parry or order.evasion == "attack":
        if not (fx.has(data, vent_after, "parry") or any(fx.has(data, c, "parry") for c in passive_cards)):
            if fx.has(data, fighter.get("vent"), "parry"):  # the order's new vent replaces the sword
                bad("parry" if order.parry else "evasion",
                    f"{data.card_name(order.card)}をベントインすると{data.card_name(fighter.get('vent'))}が外れるので、"
                    "受けはできません。", "受け",
                    f"受けを使うなら{data.card_name(order.card)}を消し、{data.card_name(order.card)}を使うなら受けを消してください。")
            else:
                sword = next((c for c, n in deck.items() if n and fx.has(data, c, "parry")), None)
                bad("parry" if order.parry else "evasion",
                    "受けにはソードベント（ベントイン中か、この行動で使うもの）が必要です。", "受け",
                    f"例：{data.card_name(sword)} / 受け" if sword and order.card is None else None)
    if order.evasion == "defense":
        if not (fx.has(data, vent_after, "guard") or any(fx.has(data, c, "guard") for c in passive_cards)):
            bad("evasion", "防御力で回避するにはガードベントが必要です。", "回避: 防御力")
    if order.hold and order.aim:
        bad("aim", "攻撃しないときは隙狙いは使えません（隙狙いは攻撃の選び方です）。", f"隙狙い {order.aim}",
            "攻撃するなら「攻撃しない」を、しないなら「隙狙い」を消してください。")
    if order.parry and order.evasion in ("mobility", "defense"):
        bad("parry", "受けと「回避: 運動性／防御力」は同時に選べません。", "受け")

    # -- names: attack targets (priority list), the movement target, 庇う (複数人による戦闘) --------
    teams = teams or {}
    fighters = state["fighters"]
    multi = len(fighters) >= 3
    def ally(other: str) -> bool:
        return bool(teams.get(player)) and teams.get(player) == teams.get(other)

    def listing(names: list[str]) -> str:
        return "、".join(f"{n}（{_character_name(data, fighters[n])}）" for n in names) or "なし"

    living = [n for n, f in fighters.items() if n != player and f.get("alive", True)]
    foes = listing([n for n in living if not ally(n)])
    friends = listing([n for n in living if ally(n) or not any(teams.values())])

    noted: list[Problem] = []

    def resolve(raw: str, key: str, role: str) -> str | None:
        """A written name -> the player's name; a problem (with every valid name) when it is none.
        A name written loosely (ナイトさん, ゾルタ, 龍気) that is close to one fighter's only, by
        reading, is that fighter, with a note."""
        found = find_fighter(raw, fighters, data)
        if not found:
            near = near_fighter(raw, fighters, data)
            if near is not None:
                problem = problem_at(original, where, at.get(key, 0),
                                     f"を「{near}（{_character_name(data, fighters[near])}）」と読みました。", raw,
                                     player=player)
                noted.append(replace(problem, player=None))
                found = [near]
        if len(found) != 1:
            why = "この戦闘にいません" if not found else "に当たる人が複数います（プレイヤー名で書いてください）"
            valid = friends if role == "庇う相手" else foes
            ask = "庇う味方" if role == "庇う相手" else "対戦相手"
            bad(key, f"{role}「{raw}」{'は' if not found else ''}{why}（{ask}の名前を書いてください）。", raw,
                f"{'庇える相手' if role == '庇う相手' else '対戦相手'}：{valid}")
            return None
        return found[0]

    def opponent(raw: str, key: str, role: str) -> str | None:
        name = resolve(raw, key, role)
        if name is None:
            return None
        if name == player:
            bad(key, f"{role}に自分自身は選べません。", raw)
        elif not fighters[name].get("alive", True):
            bad(key, f"{role}「{name}」はもう倒れています。", raw)
        elif role == "庇う相手":
            return name
        elif ally(name):
            bad(key, f"{role}「{name}」は味方です（チーム{teams[player]}）。", raw)
        else:
            return name
        return None

    def opponents(key: str, raws: tuple[str, ...], role: str, one: str) -> tuple[str, ...]:
        """A priority list of opponents (攻撃: / 近寄る:) -> players' names; one name in a duel."""
        names: list[str] = []
        for i, raw in enumerate(raws):
            name = opponent(raw, f"{key}{i}" if f"{key}{i}" in at else key, role)
            if name is not None and name not in names:
                names.append(name)
        if len(raws) > 1 and not multi:
            bad(key, one, ", ".join(raws))
        return tuple(names)

    resolved: dict[str, Any] = {}
    if order.targets == ("最も近い相手",):  # 近くにいる人を攻撃します: the attack's own default (the nearest first)
        order = replace(order, targets=())
    if order.targets:
        resolved["targets"] = opponents("targets", order.targets, "攻撃の対象",
                                        "1対1の戦闘では対象は1人です。")
        if len(order.targets) > 1 and order.aim and multi:
            bad("aim", "隙狙いは攻撃の対象を1人にしたときだけ使えます（複数攻撃には使えません）。", f"隙狙い {order.aim}")
    if order.move == "stay" and (order.move_targets or order.move_rule):
        bad("move_targets" if order.move_targets else "move_rule",
            "留まるときは移動の相手を書けません。",
            ", ".join(order.move_targets) or MOVE_RULE_WORDS.get(order.move_rule or ""))
    elif order.move_targets:
        resolved["move_targets"] = opponents("move_targets", order.move_targets, "移動の相手",
                                             "1対1の戦闘では移動の相手は1人です。")
    if order.cover is not None:
        if is_monster:
            bad("cover", "モンスターは庇えません（ソードベントかガードベントが必要です）。",
                order.cover)
        elif not multi:
            bad("cover", "「庇う」は3人以上の戦闘でのみ使えます。", order.cover)
        else:
            name = resolve(order.cover, "cover", "庇う相手")
            if name is not None:
                if name == player:
                    bad("cover", "自分自身は庇えません。", order.cover)
                elif not fighters[name].get("alive", True):
                    bad("cover", f"庇う相手「{name}」はもう倒れています。", order.cover)
                elif any(teams.values()) and not ally(name):
                    bad("cover", f"庇えるのは味方だけです（「{name}」は対戦相手）。", order.cover,
                        f"庇える相手：{friends}")
                else:
                    resolved["cover"] = name
                    if not (fx.has(data, vent_after, "cover") or any(fx.has(data, c, "cover") for c in passive_cards)):
                        # the rule page: 庇う needs ソードベント or ガードベント vented in — legal to write, void when run
                        venting = data.card_name(vent_after) if vent_after else "なし"
                        problem = problem_at(original, where, at.get("cover", 0),
                                             f"の「庇う」は、ソードベントかガードベントがベントイン中でないとできません（この行動の後のベントイン：{venting}）。"
                                             "このままでは庇えません。", order.cover, player=player)
                        noted.append(replace(problem, player=None, severity="warning"))
    if multi and not problems and not is_monster:
        # among three or more, whom a move or an attack is against is the rule's default when the
        # order names no one (rider.md: the move toward the first attack target, else the nearest;
        # the attack on the nearest first) — read, and said, never guessed silently
        said = []
        if order.move in ("closer", "away") and not order.move_targets and not order.move_rule:
            verb = "近寄る" if order.move == "closer" else "離れる"
            targets = resolved.get("targets", order.targets)
            whom = f"攻撃の対象「{targets[0]}」" if targets else "そのときいちばん近い相手"
            said.append((f"{whom}{'から' if verb == '離れる' else 'に'}{verb}", f"「{verb}：名前」"))
        if not order.hold and not order.targets and not order.cover:
            said.append(("近い相手から順に攻撃する", "「攻撃：名前」"))
        if said:
            problem = problem_at(original, where, at.get("move", 0) if order.move != "stay" else 0,
                                 f"相手が書かれていないので、{'、'.join(w for w, _f in said)}として読みました"
                                 f"（相手を決めるなら{'や'.join(f for _w, f in said)}と書きます）。", None, player=player)
            noted.append(replace(problem, player=None, severity="warning"))
    if problems:
        raise OrderError(problems)
    if noted:
        resolved["notes"] = (*order.notes, *noted)
    return replace(order, **resolved)


def _character_name(data: RiderData, fighter: dict[str, Any]) -> str:
    try:
        return data.character(fighter["character"])[1].get("name", fighter["character"])
    except KeyError:  # pragma: no cover - checked at campaign creation
        return fighter["character"]


def parse(text: str, player: str, state: dict[str, Any], data: RiderData,
          teams: dict[str, str | None] | None = None) -> RiderOrder:
    fighter = state["fighters"].get(player) or {}
    if state.get("winner") is not None:  # イベントファイナル: 勝敗が決した後に…宣誓し
        clauses, _normalised, where = read_clauses(text, data, player)
        order = after_the_end(clauses, text, where, player, state, data, teams or {})
        return replace(order, canonical=canonical(order, data))
    if not fighter.get("alive", True):  # 複数人 (ruling): the fallen have left the battle; a post is ignored
        return RiderOrder(canonical="")
    signed: list[Problem] = []
    if "\n" in text:  # a signature under the order (-- M. Okochi, ――森, Regards, Makoto): cut off, with a note
        from ...reader.post import signature

        text, signed = signature(text)
    # the order language first, as written (what the guide documents reads exactly as it always
    # did); an order it refuses is read again the way a GM reads a post (sentences, shorthand,
    # labels, chat, near misses: rewrite.py) and taken when that reading holds, with its notes.
    # When neither holds, the problems are the order language's own (their hints name the form).
    try:
        order = _read(text, player, state, data, teams, natural=False)
    except _Refused as first:
        try:
            order = _read(text, player, state, data, teams, natural=True)
        except _Refused as second:
            order = _without_reasons(text, player, state, data, teams) or _without_talk(text, player, state, data, teams) \
                or _without_asides(text, player, state, data, teams) or _without_beliefs(text, player, state, data, teams)
            if order is None:
                # the reading that got further says what is wrong: the GM's reading when only the order
                # language could not read the words (回避は防御力 reads, and needs a ガードベント)
                # (at the same stage, the one whose first problem is further on: the order language stops at
                # the first sentence it cannot take, where the GM's reading may have read up to the real problem)
                further = second.stage == first.stage and _where(second) >= _where(first, past=True)
                # 受 of 受:GV is no unknown word: the order language lost its place before it
                second_first = not further and second.stage == first.stage and _known_to_the_gm(first, data)
                raise OrderError((second if second.stage > first.stage or further or second_first else first).problems) from None
    return replace(order, canonical=canonical(order, data), notes=(*order.notes, *signed))


# a clause that says why (中距離で戦いたいので、): from a sentence's start or a comma to its ので/ため and a comma
_REASON = re.compile(r"(?:^|(?<=[。！？!?\n】、,]))[^。！？!?\n】、,]{1,40}?(?:な?ので|ため|だから)[、,]")


def _without_reasons(text: str, player: str, state: dict[str, Any], data: RiderData,
                     teams: dict[str, str | None] | None) -> RiderOrder | None:
    """A post neither reading takes, read again without the clauses that say why (中距離で戦いたいので、
    中へ移動いたします; ソードベントがないとできないと伺いましたので、): the GM reads the order after
    them. Taken when that holds, with a warning for each clause passed over; else None."""
    return _read_without(text, [(m.start(), m.end()) for m in _REASON.finditer(text)], player, state, data, teams,
                         "は理由の文として読みませんでした。", "理由の文にも行動があるなら、行動の文に書いてください。")


def _read_without(text: str, spans: list[tuple[int, int]], player: str, state: dict[str, Any], data: RiderData,
                  teams: dict[str, str | None] | None, message: str, hint: str) -> RiderOrder | None:
    """The post read again with ``spans`` blanked (their line breaks kept, so every position
    stays): the order with a warning (``message``, ``hint``) for each span passed over, or None
    when there is none or the rest does not read either."""
    if not spans:
        return None
    blanked = text
    for start, end in spans:
        blanked = blanked[:start] + "".join(ch if ch == "\n" else " " for ch in text[start:end]) + blanked[end:]
    try:
        order = _read(blanked, player, state, data, teams, natural=True)
    except _Refused:
        return None
    notes = []
    for start, end in spans:
        said = text[start:end]
        line, column = position(text, start + len(said) - len(said.lstrip()))
        notes.append(Problem(message, line=line, column=column, text=said.strip(), severity="warning", hint=hint))
    return replace(order, notes=(*notes, *order.notes))


# a line of romaji that ends as talk does (kyou wa ugokan ken, …naka made todoku hazu.): its "no" is the particle の
_ROMAJI_TALK_END = r"(?<![a-z])(?:ken|kedo|ne|yo|zo|ze|tai|kana|yone|dane|dayo|hazu|kamo|desu|masu|deshou|darou)\s*[!?.]*\s*$"
# a later line written as talk: a laugh, a trailing …/～, a sentence-final particle, あ、 or a word
# to the GM at its start (初手から殴りにいきますｗ, あ、今回はFVまだ温存で, 城戸のサバイブは怖いので…)
_TALK = re.compile(r"[ｗ笑草!！♡♥♪☆★\U0001F300-\U0001FAFF]\s*$|(?<![a-z])w+\s*$|[…‥～〜]+\s*$|\.{3}\s*$|(?:ね|よ|な|ぞ|ぜ|わ|かな|はず|かも|っす|もん|じゃん|ます|です)[!！?？ｗw笑。]*\s*$"
                   r"|[(（][^()（）\n]{0,12}[ω∀´｀・ﾟ゜＾^;；_＿∇▽≧≦ﾉノ][^()（）\n]{0,12}[)）][و۶ノﾉゞ/]*\s*$"  # a face: 今回は盾役で(｀・ω・´)
                   r"|(?:か|かな|でしょうか|ますか|ですか|よね|だよね)\s*[?？。.]*\s*$|[?？]\s*$"
                   r"|^\s*(?:あ[、,]|あっ|えっと|【\s*GM|GMさん)"
                   r"|^\s*[※＊]"  # ※息子の代筆です: a note under the order
                   r"|" + _ROMAJI_TALK_END, re.I)  # romaji talk: kyou wa ugokan ken
# a なりきり board's line of roleplay only: the rider's words in quotes and what they do in ＊…＊ or
# brackets (「これで決めるぜ！」＊ドラグレッダーが吠える＊, *Dragreder ga hoeru* "Kore de kimeru ze!!") — in
# character, not the order, whatever words it holds (a condition said in a quote is the character's)
_ROLEPLAY = re.compile(r'^\s*(?:(?:「[^」\n]*」|『[^』\n]*』|"[^"\n]*"|“[^”\n]*”|＊[^＊\n]+＊|\*[^*\n]+\*|（[^）\n]*）|\([^)\n]*\))[\s、。,.!！?？ｗw]*)+$')
# what a talk line must not hold to be passed over: a correction or a negation (やっぱりSVやめｗ), a
# condition or a scope (阻止しないのは近づく時だけね) — each may change the order above
_NOT_TALK = re.compile(r"やっぱ|やめ|じゃなく|訂正|変更|取り消|なし|ない|ません|せず|ず[、。,.!！\s]|なら|たら|れば|とき|時|場合|だけ|のみ|以外|優先|"
                       r"\b(?:if|only|except|not|no|don'?t|instead)\b", re.I)


# a line of English under the order (burst window, FV is off CD; zolda FV hurts, pre-mitigating): talk when it is
# words and commas only, begun by no label of the order (passive:, target, evade:) — its order words are checked
_ENGLISH_TALK = re.compile(r"(?!(?:passive|target|evade|order|koudou|action|judou|kougeki|block|allow|cover)\b)"
                           r"[a-z][a-z'\-]*(?:[ ,]+[a-z0-9][a-z0-9'\-]*){2,}[.!]*", re.I)
# talk of a later turn (FVは次のターンかな〜, サバイブはまだ温存ｗ): the cards it names are not this turn's order
_LATER = re.compile(r"次の?ターン|来ターン|次回|次こそ|次は|まだ温存|温存で|温存しと|next turn|later", re.I)


def _left_open(line: str) -> bool:
    """The line leaves a part of the order to the GM (移動はＧＭ様にお任せ): the reading asks, never passes it over."""
    from .rewrite import LEFT_TO_GM

    return LEFT_TO_GM.search(unicodedata.normalize("NFKC", line)) is not None


def _romaji_particles(line: str) -> str:
    return re.sub(r"(?i)\bno\b", " ", line) if re.search(_ROMAJI_TALK_END, line.strip(), re.I) else line


def _without_talk(text: str, player: str, state: dict[str, Any], data: RiderData,
                  teams: dict[str, str | None] | None) -> RiderOrder | None:
    """A post neither reading takes, read again without its later lines written as talk
    (``_TALK``: 初手から殴りにいきますｗ under the order): the GM reads them as chat about the order.
    Only a line after the first, holding no correction, negation, condition or scope
    (``_NOT_TALK``), and — among three or more, where a name may say whom — naming no fighter.
    Taken when the rest holds, with a warning for each line passed over; else None."""
    lines = text.split("\n")
    multi = sum(1 for f in state["fighters"].values() if f.get("alive", True)) > 2
    names = [w for n, f in state["fighters"].items() for w in (n, _character_name(data, f))] if multi else []
    starts = [sum(len(line) + 1 for line in lines[:k]) for k in range(len(lines))]
    talk = [k for k, line in enumerate(lines)
            if k > 0 and line.strip() and not _left_open(line) and (
                _ROLEPLAY.match(line) or ((_TALK.search(line.strip()) or _ENGLISH_TALK.fullmatch(line.strip()))
                                          and not _NOT_TALK.search(_romaji_particles(line))))
            and not any(w and w in line and not re.search(re.escape(w) + r"(?:さん|くん|君|氏|先生)?の", line) for w in names)
            and any(ln.strip() for ln in lines[:k])]
    # never a line that names a card or a move the rest of the post does not (ストライクベントで殴りまーす)
    # a line that says more than the rest is order, and what the lines under it say is compared
    # with it too: the first such line goes back to the order, one at a time (ソードベントを使います。
    # above 庇うのはソードベントでもできると…でしょうか。)
    for _round in range(min(len(talk), 12)):
        rest = norm("\n".join(line for k, line in enumerate(lines) if k not in talk))
        rest_options = _options(rest, data)
        failing = next((k for k in talk if not _LATER.search(lines[k]) and not _said_elsewhere(norm(lines[k]), rest, rest_options, data)), None)
        if failing is None:
            break
        talk = [k for k in talk if k != failing]
    else:
        talk = []
    talk = [(starts[k], starts[k] + len(lines[k])) for k in talk]
    return _read_without(text, talk, player, state, data, teams, "は行動として読めないので、雑談として読みませんでした。",
                         "行動の続きなら、行動の語（例：受動: 攻撃ならガードベント）で書き直してください。")


# a sentence that says what the player thought, not what they do: 阻止されても勝てると思いました,
# 隙狙いを使っても大丈夫だと考えました（…）, …と理解しています — never one that says what they will do
# (使おうと思いました, 使いたいと思いました: an intention is the order)
_BELIEF = re.compile(r"(?:^|(?<=[。！？!?\n]))[^。！？!?\n]{2,120}?(?<!おう)(?<!よう)(?<!たい)と(?:思いました|考えました|気づきました|気付きました|"
                     r"判断しました|読みました|理解しています|思っています|考えています)(?:[(（][^()（）\n]{0,80}[)）])?[。.!！]?")


def _without_beliefs(text: str, player: str, state: dict[str, Any], data: RiderData,
                     teams: dict[str, str | None] | None) -> RiderOrder | None:
    """A post none of the readings takes, read again without its sentences that say what the
    player thought (``_BELIEF``: 北岡さんは運動性が2なので、阻止されても勝てると思いました。): the GM
    reads the order around them. Only a sentence whose order words the rest names too — a word
    in the passive (阻止されても) is the opponent's, not the order's. Warned; else None."""
    spans = []
    for m in _BELIEF.finditer(text):
        said = re.sub(r"[ァ-ヶー一-龯a-zA-Z]+(?=\s*(?:され|られ))", " ", m.group())  # 阻止されても: theirs
        said = re.sub(r"(?:運動性|攻撃力|防御力)\s*(?:が|は)\s*\d+|(?:近|中|遠)距離\s*(?:なので|だから|ですので)", " ", said)  # 運動性が2: a stat
        rest = text[:m.start()] + text[m.end():]
        if _concepts(said, data, state["fighters"], player) <= _concepts(rest, data, state["fighters"], player):
            spans.append((m.start(), m.end()))
    return _read_without(text, spans, player, state, data, teams, "は考えを述べた文として読みませんでした。",
                         "この文にも行動があるなら、行動の文に書いてください。")


# what a later line must not hold to be passed over as an aside: a correction of the order above
_CORRECTS = re.compile(r"やっぱ|やはり|やめ|訂正|変更|取り消|とりけし|じゃなく|ではなく|代わり|かわりに|instead|actually"
                       r"|(?:間違|まちが)(?!(?:っ?て(?:い)?たら|いがあれば|いあれば|ってるなら|っていれば|っていましたら))", re.I)
# (間違っていたら教えてください asks the GM to check: no correction)
# a question about the rules (not about the order): どちらが強い, 上がるんだっけ, あるのですか, 質問です
_ASKS_ABOUT = re.compile(r"どちら|どっち|なに|何が|何を|何で|いつ|どう|だれ|誰|っけ|のですか|のでしょうか|んですか|んでしょうか|質問|教えて")
# talk written anywhere in a line: a laugh, a face, a request to the others (笑ってやってください)
_CHAT_MARK = re.compile(r"[ｗw]{2,}|笑|草|[(（][^()（）\n]{0,12}[ω∀´｀・ﾟ゜＾^;；_＿∇▽≧≦ﾉノ震][^()（）\n]{0,12}[)）]|ください|下さい|てね|からね|[!！]{2,}")
# a request said to someone (逃げないでね, 来てよ♡)
_SAID_TO = re.compile(r"(?:ないで|てね|でね|てよ|でよ|ないでよ|ないでね)[♡♥♪☆★!！?？ｗw笑〜~ー]*\s*$")
_ANCHOR_NUMBER = re.compile(r"[>＞]{1,2}\s*\d+(?:\s*[-,、]\s*\d+)*")
_NOT_ORDER_NUMBER = re.compile(r"\d+\s*(?:" + "|".join(NOT_ORDER_COUNTERS) + ")")
_MOVE_WAYS = {"head:近寄る": "closer", "head:近へ": "closer", "head:離れる": "away", "head:遠へ": "away"}


def _without_asides(text: str, player: str, state: dict[str, Any], data: RiderData,
                    teams: dict[str, str | None] | None) -> RiderOrder | None:
    """A post neither reading takes, read again without its later lines that are asides: a line
    (after the first) that does not read as an order alone, corrects nothing (``_CORRECTS``) and
    names nothing of the order the rest does not — a card of another fighter's (刃さんのFV来たら泣くｗ,
    刃さんのストライク痛すぎませんか) is theirs, not the order's; or a question about the rules
    (``_ASKS_ABOUT``: ストライクとソードはどちらが強いのでしょうか？). The GM reads past them; each is
    warned. Taken when the rest holds; else None."""
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    fighters = state["fighters"]
    multi = sum(1 for f in fighters.values() if f.get("alive", True)) > 2
    others = [w for n, f in fighters.items() if n != player for w in (n, _character_name(data, f)) if w]
    names = others if multi else []

    def talk_shaped(line: str) -> bool:  # romaji or shorthand (ga-do bento, 的 蓮>城戸) read alone is no sure guide; a name may say whom
        question = re.search(r"[?？]", line) is not None and _ASKS_ABOUT.search(line) is not None
        talk = _TALK.search(line.strip()) is not None or _CHAT_MARK.search(line) is not None or question
        return talk and sum(ch.isascii() for ch in line) * 2 <= len(line) and not any(
            w and w in line and not re.search(r"[>＞]\s*" + re.escape(w), line)
            and not re.search(re.escape(w) + r"(?:さん|くん|君|氏|先生)?の", line) for w in names)

    shaped = {k for k, line in enumerate(lines) if k and line.strip() and not _CORRECTS.search(line) and talk_shaped(line)}
    if not shaped:
        return None  # no line could be passed over: nothing to read again (each line read alone costs a reading)
    asides = []
    for k, line in enumerate(lines):
        if k == 0 or not line.strip() or _CORRECTS.search(line) or not any(ln.strip() for ln in lines[:k]) or _left_open(line):
            continue  # (移動はＧＭ様にお任せ: a choice left open is never an aside — the reading asks)
        try:
            _read(line, player, state, data, teams, natural=True)
            continue  # it reads as an order alone: part of the order
        except _Refused:
            pass
        asides.append(k)
    if not asides:
        return None
    rest = "\n".join(ln for k, ln in enumerate(lines) if k not in asides)
    rest_words = _concepts(rest, data, fighters, player)
    rest_ways = {_MOVE_WAYS.get(w) for w in rest_words} - {None}
    kept = []
    for k in asides:
        if k not in shaped:
            continue
        line = lines[k]
        said = _concepts(line, data, fighters, player)
        own = {w for w in said if w not in rest_words and _MOVE_WAYS.get(w) not in rest_ways}
        bound = _NOT_TALK.search(line) is not None  # a condition, scope or negation: it may change what it names
        if _SAID_TO.search(line) and (any(line.strip().startswith(w) for w in others) or (said and said <= set(_MOVE_WAYS))):
            kept.append(k)  # 刃さん逃げないでね♡, 逃げないでね？笑: said to another fighter, of what they do
            continue
        question = re.search(r"[?？]", line) is not None and _ASKS_ABOUT.search(line) is not None
        # a number with a counter no order has (息子（6歳）, 3年目), or an anchor's (>>20), is no number of the order
        counted = re.search(r"\d", _NOT_ORDER_NUMBER.sub("", _ANCHOR_NUMBER.sub("", line))) is not None
        if (not said and not (bound and counted)) or (not own and not bound) or (question and not bound):
            kept.append(k)
    if not kept:
        return None
    starts = [sum(len(line) + 1 for line in lines[:k]) for k in range(len(lines))]
    return _read_without(text, [(starts[k], starts[k] + len(lines[k])) for k in kept], player, state, data, teams,
                         "は行動ではない話として読みませんでした。",
                         "行動の続きなら、行動の語（例：受動: 攻撃ならガードベント）で書き直してください。")


def _concepts(text: str, data: RiderData, fighters: dict[str, Any], player: str) -> set[str]:
    """The order's words a text names (cards, moves, options, fighters), but not a card said as
    another fighter's (刃さんのFV, 北岡のストライク) nor a fighter's name after ＞ (＞北岡さん: to whom
    the line is said)."""
    from ...reader.scan import resolve_unknowns, scan
    from ...reader.text import Text
    from .rewrite import lexicon

    def owner(before: str) -> str | None:  # 刃さんの: whose the next word is
        m = re.search(r"(?:さん|くん|君|氏|先生)?の\s*$", before)
        if m is None:
            return None
        head = before[:m.start()]
        for size in range(1, min(len(head), 8) + 1):
            named = find_fighter(head[-size:], fighters, data)
            if len(named) == 1:
                return named[0]
        return None

    said = Text(text)
    found: set[str] = set()
    lex = lexicon(data)
    for tok in resolve_unknowns(scan(said, lex, None, remarks="chatty", readings=True), said, lex, grammar=True):
        word = said.norm[tok.start:tok.end]
        before, after = said.norm[:tok.start], said.norm[tok.end:]
        if tok.kind == "word" and tok.word is not None:
            concept = str(tok.word.concept)
            if not concept.startswith(("card:", "head:", "keyword:", "attack:", "pool:", "rule:", "evade:")):
                continue
            if concept.startswith("card:") and owner(before) not in (None, player):
                continue  # 刃さんのFV: theirs
            found.add(concept)
        elif tok.kind in ("unknown", "symbol") and len(fighters) > 2 and not re.search(r"[>＞]\s*$", before) \
                and not re.match(r"\s*(?:さん|くん|君|氏|先生)?の", after):
            named = find_fighter(word, fighters, data) or ([n] if (n := near_fighter(word, fighters, data)) else [])
            if len(named) == 1 and named[0] != player:
                found.add("name:" + named[0])
    return found


# idioms of luck (あとは運に任せる, 運次第): 運 is no 運動性 there
_LUCK = re.compile(r"運\s*(?:に|を|が)?\s*(?:任せ|まかせ|次第|しだい|ゲー|頼み|だのみ|良|いい|よ[くけ]|悪)")


_MOVE_STEMS = ("近寄", "近づ", "近付", "離れ", "下が", "距離を取", "詰め", "遠へ", "近へ", "中へ")


def _said_elsewhere(line: str, rest: str, rest_options: set[str], data: RiderData) -> bool:
    """Every card, move and option a line of talk names is named by the rest of the post too
    (``rest_options``: the options of ``rest``, by ``_options``; a
    line that names one of its own may be more of the order: ストライクベントで殴りまーす,
    隙狙い2もつけとくかな… are never passed over) — but a card kept for later (FVまだ温存で) is no
    card played, and 運 in an idiom of luck (あとは運に任せる！) is no 運動性."""
    line = re.sub(r"[^\s、。,!！?？]{1,12}?(?:は|を)?\s*(?:まだ|今回は)?\s*温存", " ", line)
    line = _LUCK.sub(" ", line)
    spellings: dict[str, list[str]] = {}
    for spelling, card_id in data.card_words.items():
        spellings.setdefault(card_id, []).append(spelling)

    def named(spelling: str) -> bool:  # a short spelling only as a whole ASCII word (sv, not the sv of svelte)
        if len(spelling) >= 3:
            return spelling in line
        return spelling.isascii() and re.search(rf"(?<![a-z]){re.escape(spelling)}(?![a-z])", line) is not None

    cards = {card_id for card_id, said in spellings.items() if any(named(s) for s in said)}
    return all(any(s in rest for s in spellings[c] if len(s) >= 2) for c in cards) and \
        all(norm(stem) in rest for stem in _MOVE_STEMS if norm(stem) in line) and \
        _options(line, data) <= rest_options


def _options(text: str, data: RiderData) -> set[str]:
    """The options a text names by what they mean (超回避, 隙狙い, 庇う, 回避: …, and the
    ability it evades with: 回避は防御力です is not 回避: 運動性), with the numbers it holds when it
    names one (隙狙い2 is not 隙狙い1)."""
    from ...reader.scan import scan
    from ...reader.text import Text
    from .rewrite import lexicon

    said = Text(text)
    tokens = scan(said, lexicon(data), None, remarks="chatty", readings=True)
    words = {tok.word.concept for tok in tokens if tok.kind == "word" and tok.word is not None}
    evades = "keyword:回避:" in words or any(w.startswith("evade:") for w in words)
    # an ability counts where the line evades with it (回避は防御力です), not in talk (完全防御の構えｗ)
    found = {w for w in words if w.startswith("keyword:") or (evades and w.startswith("pool:"))}
    if found:
        found |= {"number:" + said.norm[tok.start:tok.end] for tok in tokens if tok.kind == "number"}
    return found


def _known_to_the_gm(refused: OrderError, data: RiderData) -> bool:
    """The order language's first problem is a 「知らない語」 that the GM's reading knows as an order
    word (受 of 受:GV): its place says only where the order language stopped, not what is wrong."""
    from ...reader import kana
    from .rewrite import lexicon

    if not refused.problems or not refused.problems[0].text or refused.problems[0].message != "知らない語です。":
        return False
    word = kana.fold(refused.problems[0].text.strip())
    found = [lexicon(data).exact.get(w) for w in (word, word + ":")]  # 受 is a label's (受:)
    return any(w is not None and w.kind not in ("function", "negation") for w in found)


def _where(refused: OrderError, past: bool = False) -> tuple[int, int]:
    """(line, column) of the first problem; ``past``: just after its words (ソードメンチ's メンチ is
    not past ソードメンチ)."""
    if not refused.problems:
        return (0, 0)
    first = refused.problems[0]
    return first.line or 0, (first.column or 0) + (max(len(first.text or ""), 1) if past else 0)


class _Refused(OrderError):
    def __init__(self, problems: list[Problem], stage: float):
        super().__init__(problems)
        self.stage = stage  # 0: the words, 0.5: the GM's reading of them, 1: the order's clauses, 2: what the state allows


def _read(text: str, player: str, state: dict[str, Any], data: RiderData, teams: dict[str, str | None] | None,
          natural: bool) -> RiderOrder:
    stage = 0
    try:
        clauses, _normalised, where = read_clauses(text, data, player, natural,
                                                   roster(state) if natural else ())
        stage = 1
        order, at = build_order(clauses, text, where, player, data)
        stage = 2
        return validate(order, at, player, state, data, text, where, teams)
    except ReadingProblem as exc:
        raise _Refused(exc.problems, 0.5) from None  # the words read, and say something is wrong
    except OrderError as exc:
        raise _Refused(exc.problems, stage) from None


def winners(state: dict[str, Any], teams: dict[str, str | None]) -> list[str]:
    """The living fighters of the side that won (none after a draw)."""
    winner = state.get("winner")
    return [n for n, f in state["fighters"].items()
            if f.get("alive", True) and winner not in (None, "draw") and winner in (n, teams.get(n))]


def after_the_end(clauses: list[Clause], original: str, where: list[int], player: str, state: dict[str, Any],
                  data: RiderData, teams: dict[str, str | None]) -> RiderOrder:
    """After the battle is decided only a winner's イベントファイナル may be posted (once)."""
    allowed = winners(state, teams)
    form = "書ける形：イベントファイナル: 自由な演出（行末まで）"
    over = f"この戦闘はもう決着しています（勝者：{winner_word(state)}）。"
    finale = [c for c in clauses if c.kind == "event_final"]
    problems = []
    if player not in allowed:
        problems.append(problem_at(original, where, 0, over + "決着後に書き込めるのは勝者のイベントファイナルだけです。",
                                 None, f"書き込める人：{'、'.join(allowed) or 'なし'}", player))
    elif player in (state.get("event_finals") or {}):
        problems.append(problem_at(original, where, 0, "イベントファイナルはもう演出されています（1回の戦闘で1度）。", None, player=player))
    elif not clauses:
        problems.append(problem_at(original, where, 0, over + "勝者はイベントファイナルを書き込めます。", None, form, player))
    else:
        kept = finale[0] if finale else None  # the first イベントファイナル; everything else is refused
        for c in clauses:
            if c is not kept:
                problems.append(problem_at(original, where, c.pos, over + "決着後に書けるのはイベントファイナルだけです。", c.text, form, player))
    if problems:
        raise OrderError(problems)
    return RiderOrder(event_final=finale[0].value)


def winner_word(state: dict[str, Any]) -> str:
    winner = state.get("winner")
    return "引き分け" if winner == "draw" else (winner if winner in state["fighters"] else f"チーム{winner}")


# -- advice for ``pbf check``: orders that read, but perhaps not as meant ----------------------

def advice(order: RiderOrder, player: str, state: dict[str, Any], data: RiderData,
           armor: bool = False) -> list[dict[str, Any]]:
    """Warnings shown with the reading (``templates/rider/warning.j2`` words them):

    * ``swallowed``: イベントファイナル's free text runs to the end of its line, so a clause
      written after it on the same line (``/ 受動: リフレクト``) is part of the flourish;
    * ``guard_no_help``: a 受動 card whose only evasion help is the 防御力 pool, for a rider whose
      防御力 is not above its 運動性 (the higher pool is used anyway; ``armor``: the campaign has
      ガードベント's armour on, option guard_vent_armor, which the warning then mentions);
    * ``vent_replaced``: two vent cards of this order, the 能動 one and a 受動 one: only one card
      is vented in at a time (「別のカードをベントインした場合は、古いカードは破棄されます」), so the
      one vented in first is discarded when the other is (which first: the initiative order);
    * ``evasion_lost``: 回避: 防御力 (or 受け) with a 受動 vent card that lacks it. The 受動 card is
      vented in before this rider's evasion in the same action, discarding the ガードベント (the
      ソードベント), and the evasion is rolled with the larger pool instead."""
    from . import cards as fx
    from .orders import _KEYWORDS, PHRASES

    out: list[dict[str, Any]] = []
    if order.event_final:
        for part in re.split(r"[/／]", order.event_final)[1:]:
            word = norm(part.split(":")[0].split("：")[0])
            if word and (word in PHRASES or word in data.card_words or any(word.startswith(norm(k)) for k in _KEYWORDS)):
                out.append({"kind": "swallowed", "text": part.strip()})
    fighter = state["fighters"].get(player) or {}
    if fighter.get("kind") != "monster":
        defense, mobility = fx.stat(data, fighter, "defense"), fx.stat(data, fighter, "mobility")
        for rule in order.passive:
            if fx.has(data, rule.card, "guard") and defense <= mobility:
                out.append({"kind": "guard_no_help", "card": data.card_name(rule.card), "defense": defense,
                            "mobility": mobility,
                            "armor": int(fx.effects(data, rule.card).get("armor", 0) or 0) if armor else 0})
        out += _vent_warnings(order, player, state, data)
    return out


def _condition_name(data: RiderData, condition: str | None) -> str | None:
    return None if condition is None else ("攻撃" if condition == "attack" else data.card_name(condition))


def _vent_warnings(order: RiderOrder, player: str, state: dict[str, Any], data: RiderData) -> list[dict[str, Any]]:
    """``vent_replaced`` and ``evasion_lost`` (see :func:`advice`). 受動 cards are played in the
    opponents' actions, before this rider's own action (its 能動 card) or after it, by the
    initiative order (both, before it is rolled); the first standing order that matches is played,
    so a rule after one that always matches (no condition) is never played, and when this rider
    is attacked, nor is one after a 攻撃なら rule."""
    from . import cards as fx

    def vents(card: str | None) -> bool:
        return card is not None and bool(data.cards.get(card, {}).get("vent"))

    def played(until: tuple[str | None, ...]) -> list[Any]:
        """The 受動 rules that can be played: up to the first whose condition is in ``until``."""
        out = []
        for rule in order.passive:
            out.append(rule)
            if rule.condition in until:
                break
        return out

    fighters = state["fighters"]
    turn_order = [n for n in state.get("initiative") or [] if fighters.get(n, {}).get("alive", True)]
    if player in turn_order:
        at = turn_order.index(player)
        before, after = bool(turn_order[:at]), bool(turn_order[at + 1:])
    else:
        before = after = True
    active = order.card if vents(order.card) else None
    now = fighter_vent(state, player)
    out: list[dict[str, Any]] = []
    seen: list[str] = []
    for rule in played((None,)):
        if active is None or not vents(rule.card) or rule.card in seen:
            continue
        seen.append(rule.card)
        common = {"active": data.card_name(active), "passive": data.card_name(rule.card),
                  "condition": _condition_name(data, rule.condition), "same": rule.card == active}
        if rule.card == active:
            out.append({"kind": "vent_replaced", "first": "active" if after else "passive",
                        "discarded": data.card_name(active), "by": data.card_name(active), **common})
            continue
        if after:  # 能動 first, then the 受動 card in a later action discards it
            out.append({"kind": "vent_replaced", "first": "active", "discarded": data.card_name(active),
                        "by": data.card_name(rule.card), **common})
        if before:  # the 受動 card in an earlier action, then this rider's 能動 card discards it
            out.append({"kind": "vent_replaced", "first": "passive", "discarded": data.card_name(rule.card),
                        "by": data.card_name(active), **common})
    wanted = ("parry" if order.parry or order.evasion == "attack" else
              "guard" if order.evasion == "defense" else None)
    if wanted is not None:
        # what is vented in when an opponent attacks, before this rider's 受動 card: the card vented
        # now (an action before this rider's), or this order's 能動 vent card (an action after it)
        then = ([now] if before else []) + ([active or now] if after else [])
        needed = next((c for c in then if fx.has(data, c, wanted)), None)
        for rule in played((None, "attack")):
            if vents(rule.card) and not fx.has(data, rule.card, wanted):
                out.append({"kind": "evasion_lost", "pool": "attack" if wanted == "parry" else "defense",
                            "parry": wanted == "parry", "needed": data.card_name(needed),
                            "by": data.card_name(rule.card), "condition": _condition_name(data, rule.condition)})
    return out


def fighter_vent(state: dict[str, Any], player: str) -> str | None:
    """The card this fighter has vented in now (before this turn)."""
    return (state["fighters"].get(player) or {}).get("vent")
