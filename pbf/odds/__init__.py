"""``pbf odds DIR --player NAME ORDER``: how one order fares, exactly, from the player's own view.

The rider game (pbf/odds/rider.py): chances from the dice model, computed from the distribution.
Alter EGO (pbf/odds/alterego.py): the plot against every plot the opponent can legally make.
Neither reads another player's private hand or this turn's orders (docs/odds.md). Imported only
by the commands that compute odds (``pbf odds``, ``pbf check --odds``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import PbfError, Problem

NOTE_EXACT = "※確率は分布からの厳密計算（1の振り足しは残りの確率が1e-9未満のところで打ち切り）。"
NOTE_RIDER = "※相手の今ターンの行動は見えないので既定として計算（移動は阻止、留まる、今の武器で攻撃、隙狙い・超回避・受動カードなし）。"
POOL = {"mobility": "運動性", "defense": "防御力", "attack": "受け（攻撃力）"}


def pct(p: Any) -> str:
    value = float(p) * 100
    if value < 1e-7:  # below 1e-9: what the truncation leaves
        return "0%"
    if value < 0.05:
        return "0.1%未満"
    if 99.95 < value < 100:
        return "99.9%超"
    return f"{value:.1f}%"


def num(x: Any) -> str:
    return f"{float(x):.2f}"


def compute(campaign: Any, player: str, text: str, hand: str | None = None, best: bool = True) -> dict[str, Any]:
    """Read ``text`` as ``pbf check`` does (the same errors), then the odds as data."""
    from ..turn.check import read_order

    state = campaign.state
    if state.get("winner") is not None:
        raise PbfError("このバトルはもう決着しています（オッズはありません）。 / the battle is over")
    cards = None
    if hand is not None:
        if campaign.system.name != "alterego":
            raise PbfError("--hand は Alter EGO の手札です（ライダーバトルにはありません）。 / --hand is for Alter EGO")
        cards = _hand_cards(hand)
    read = read_order(campaign, player, text)
    name, ctx = read.name, campaign.ctx
    if campaign.system.name == "rider":
        from . import rider

        out = rider.odds(state, ctx, name, read.order)
    else:
        from . import alterego

        out = alterego.odds(state, ctx, name, read.order, hand=cards, best=best)
    out["canonical"] = campaign.system.canonical_order(read.order)
    out["turn"] = int(state.get("turn", 0)) + 1
    return out


def _hand_cards(text: str) -> list[str]:
    from ..systems.alterego.plot import parse_plot

    try:
        plot = parse_plot(text)
    except PbfError as exc:
        raise PbfError(Problem(f"--hand を手札として読めません：{exc.problems[0].message}", text=text,
                               hint="例：--hand 弱弱強→←↑↑")) from None
    if plot.cancels or len(plot.cards) != len(plot.items):
        raise PbfError(Problem("--hand にはカード（弱 強 → ← ↑）だけを書いてください。", text=text))
    return list(plot.cards)


# -- text ------------------------------------------------------------------------------------------

def render(data: dict[str, Any]) -> str:
    lines = render_rider(data) if data["system"] == "rider" else render_alterego(data)
    return "\n".join(lines) + "\n"


def _band_word(bands: dict[str, Any]) -> str:
    return "・".join(f"{b}{pct(p)}" for b, p in bands.items() if p)


def render_rider(d: dict[str, Any]) -> list[str]:
    out = [f"【オッズ】{d['player']}：{d['canonical'] or '（行動なし）'}（第{d['turn']}ターン）"]
    if d["card_skipped"]:
        out.append("※能動カードは使い切っているので、出ない前提で計算。")
    move = d["move"]
    if move is not None:
        if move.get("unblockable"):
            out.append(f"■移動：{move['from']}→{move['goal']}　阻止されない（ムーブベント）")
        elif not move["contest"]:
            out.append(f"■移動：もう{move['goal']}にいます")
        else:
            steps = "／".join(f"{s}段階 {pct(p)}" if s else f"失敗 {pct(p)}" for s, p in sorted(move["steps"].items(),
                                                                                        reverse=True))
            star = "（☆：同値か+1で1段階、+2以上で2段階）" if move["star"] else ""
            out.append(f"■移動：{move['from']}→{move['goal']}　成功 {pct(move['success'])}（{steps}）")
            out.append(f"　運動性{move['mover_dice']}個{_plus(move['mover_bonus'])} 対 {move['blocker']}の"
                       f"{move['blocker_dice']}個{_plus(move['blocker_bonus'])}{star}")
    if d["multi"]:
        out.append("※3人以上の戦闘：距離は行動ごとに1D6（近・中・遠 各1/3）。移動は各距離の見込みに含めていません。")
    if not d["attacks"]:
        out.append("■攻撃：届く相手がいません（攻撃しない、または射程外）")
    for a in d["attacks"]:
        rows = a["rows"]
        weapon = "・".join(dict.fromkeys(_weapon_word(r) for _, r in rows))
        out.append(f"■{a['target']}への攻撃（{weapon}）")
        out.append(f"　命中 {pct(a['hit'])}　ダメージ 平均{num(a['mean'])}・中央値{a['median']}"
                   f"・HP0にする {pct(a['ko'])}")
        if len(d["bands"]) > 1 or a["reach"] != 1:
            out.append("　距離別：" + "／".join(f"{r['band']}（{pct(p)}）命中{pct(r['hit'])}" for p, r in rows)
                       + (f"／届かない {pct(1 - a['reach'])}" if a["reach"] != 1 else ""))
        first = rows[0][1]
        out.append(f"　攻撃力{first['dice']}個{_plus(first['modifier'])} 対 {POOL[first['evasion']]}"
                   f"{first['evasion_dice']}個{_plus(first['evasion_bonus'])}・防御力{first['defense']}")
        if len(first["by_evasion"]) > 1:
            out.append("　回避の能力別の命中：" + "／".join(f"{POOL[o]} {pct(p)}" for o, p in first["by_evasion"].items()))
        if "advent" in first:
            adv = first["advent"]
            out.append(f"　アドベント（{adv['weapon']}）：命中 {pct(adv['hit'])}　合計ダメージ 平均{num(adv['total'].mean())}"
                       f"・HP0にする {pct(adv['ko'])}")
    if d["aim_table"]:
        out.append(f"■隙狙い（{d['aim_table'][0]['target']}へ）")
        for r in d["aim_table"]:
            out.append(f"　{r['aim']}：命中 {pct(r['hit'])}　期待ダメージ {num(r['mean'])}　HP0 {pct(r['ko'])}")
    for r in d["defense"]:
        weapon = "・".join(dict.fromkeys(_weapon_word(x) for _, x in r["rows"]))
        first = r["rows"][0][1]
        extra = f"・超回避{first['super']}" if first["super"] else ""
        out.append(f"■{r['attacker']}の攻撃（{weapon}）への回避：{POOL[first['evasion']]}{first['evasion_dice']}個{extra}")
        out.append(f"　被命中 {pct(r['hit'])}　被ダメージ 平均{num(r['mean'])}・HP0になる {pct(r['ko'])}")
    if d["super_table"]:
        t = d["super_table"][0]
        cond = f"、達成値{t['threshold']}以上なら" if t["threshold"] else ""
        out.append(f"■超回避（{t['attacker']}の攻撃に{cond}）")
        for r in d["super_table"]:
            out.append(f"　{r['super']}：被命中 {pct(r['hit'])}　支払いHP {num(r['paid'])}＋被ダメージ {num(r['damage'])}"
                       f"＝{num(r['loss'])}　HP0 {pct(r['ko'])}")
    for p, c in d["cover"]:
        if c.get("refused"):
            out.append(f"■{c['covered']}を庇う：ベントしたカードでは庇えません")
            break
        out.append(f"■{c['covered']}を庇う（{c['attacker']}の攻撃、{c['band']} {pct(p)}）：{POOL[c['evasion']]}"
                   f"{c['evasion_dice']}個−1　被命中 {pct(c['hit'])}")
    out.append(NOTE_RIDER)
    out.append(NOTE_EXACT)
    return out


def _weapon_word(r: dict[str, Any]) -> str:
    return {"unarmed": "無手−1", "visor": "バイザー", "monster": "武器"}.get(r["weapon_kind"], r["weapon"])


def _signed(x: Any) -> str:
    x = float(x)
    return "±0.00" if abs(x) < 0.005 else f"{x:+.2f}"


def _plus(n: int) -> str:
    return f"+{n}" if n > 0 else (str(n) if n < 0 else "")


SPREAD = {"free": "手札なしのルール：出しうるすべてのプロット", "open": "公開の手札から出せるすべてのプロット",
          "private": "見えない手札（枚数だけ公開）から出しうるすべてのプロット、手札の組み合わせの数で重み付け",
          "locked": "相手は今ターン動けない（ガードの構え／強攻撃のため）"}


def render_alterego(d: dict[str, Any]) -> list[str]:
    s, r = d["spread"], d["result"]
    out = [f"【オッズ】{d['player']}：{d['canonical'] or '（なし）'}（第{d['turn']}ターン、相手：{d['opponent']}）",
           f"相手：{SPREAD[s['how']]}　{s['plots']:,}通り（結果の違う{s['distinct']:,}通り）",
           f"勝ち {pct(r['win'])}／負け {pct(r['loss'])}／互角 {pct(r['draw'])}"
           + (f"（KO勝ち {pct(r['ko_win'])}・KO負け {pct(r['ko_loss'])}）" if r["ko_win"] or r["ko_loss"] else ""),
           f"与ダメージ 平均{num(r['dealt'])}／被ダメージ 平均{num(r['taken'])}",
           f"隙：自分 {pct(r['my_suki'])}／相手 {pct(r['their_suki'])}"]
    for t in r["threats"]:
        out.append(f"要注意：相手の{t['plot']}（{pct(t['share'])}）で 与{t['dealt']}・被{t['taken']}")
    if d["best"]:
        out.append("■手札から結果のよいプロット（与−被ダメージの平均順）")
        for i, b in enumerate(d["best"], 1):
            out.append(f"　{i}．{b['plot'] or '（なし）'}　差{_signed(b['net'])}（勝ち {pct(b['win'])}・負け {pct(b['loss'])}）")
        note = d["best_note"] or {}
        if note.get("screened_with"):
            out.append(f"※候補{note['candidates']:,}通りを相手の重い{note['screened_with']}通り（重みの{pct(note['screen_share'])}）"
                       f"で選び、上位{len(d['best'])}つを全体で計算。")
    elif d["best_note"] == "hand_unknown":
        out.append("※自分の手札が記録にないため、手札からの候補は出していません（--hand で手札を指定）。")
    out.append("※勝ち・負け＝このターンに与えるダメージが受けるダメージより多い・少ない（KOを含む）。")
    return out


def short_line(d: dict[str, Any]) -> str:
    """The one line ``pbf check --odds`` adds to the reading."""
    if d["system"] == "rider":
        parts = []
        if d["move"] is not None and d["move"]["contest"]:
            parts.append(f"移動成功 {pct(d['move']['success'])}")
        for a in d["attacks"]:
            parts.append(f"{a['target']}へ命中 {pct(a['hit'])}・期待ダメージ{num(a['mean'])}")
        for r in d["defense"]:
            parts.append(f"{r['attacker']}から被命中 {pct(r['hit'])}")
        return "オッズ：" + ("、".join(parts) or "攻撃なし") + "（詳しくは pbf odds）\n"
    r = d["result"]
    return (f"オッズ：勝ち {pct(r['win'])}・負け {pct(r['loss'])}、与{num(r['dealt'])}／被{num(r['taken'])}"
            f"（相手の{d['spread']['plots']:,}通りに対して。詳しくは pbf odds）\n")


# -- JSON --------------------------------------------------------------------------------------------

def as_json(data: Any) -> Any:
    """Probabilities as floats; distributions as {value: p}; a band row without its internals."""
    if isinstance(data, dict):
        if type(data).__name__ == "Dist":
            return {str(k): float(v) for k, v in sorted(data.items()) if v}
        return {str(k): (as_json([{"share": p, **row} for p, row in v]) if k in ("rows",) else as_json(v))
                for k, v in data.items() if k not in ("lost",)}
    if isinstance(data, (list, tuple)):
        return [as_json(v) for v in data]
    if isinstance(data, Fraction):
        return float(data)
    return data
