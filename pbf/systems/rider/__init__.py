"""The rider battle game (ライダーバトル): vent cards, 近/中/遠, keep-highest exploding dice.

Rules: shared seed page ``rider-battle.txt``, rulings in ``docs/rules/rider.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...dice import Dice
from ...errors import PbfError
from ...lazy import lazy
from ..base import Context, Player
from . import data as rider_data
from . import initiative as ini
from .cards import stat
from .data import RiderData
from .initiative import is_multi

if TYPE_CHECKING:
    from .orders import RiderOrder

# The order parser (lark) and the resolver are imported by the methods that use them: `pbf show`
# and `pbf list` need neither (start-up, benchmarks/bench.py).
_checks = lazy("pbf.systems.rider.checks")
_resolver = lazy("pbf.systems.rider.resolver")


_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")


class RiderSystem:
    name = "rider"
    title = "ライダーバトル"
    # Bumped whenever a ruling changes what a turn resolves to (see pbf/systems/base.py).
    # 2: initiative and the starting distance at turn 0; conditions on what actually happens;
    #    blocking by direction; 超回避 thresholds; movement-target lists; 庇う by a target refused.
    # 3: ガードベント's invented armor (+1 防御力 in the damage step while vented in).
    # 4: the armor only with the option guard_vent_armor (off: the page's damage formula);
    #    超回避 on every evasion roll (a contract monster's attack, 庇う), with a scope; 受動
    #    「攻撃なら」 = a weapon of the actor's reaches me (not whether it will attack); a coverer
    #    out of the attack's range cannot 庇う; the posts' words (アクション側, ＋ファイナルベント6, …).
    #    A turn archived under an older version is resolved (pbf replay) as that version did:
    #    RiderSystem.rules(ctx).
    rules_version = 4
    # After the battle is decided, a turn may still hold the winners' イベントファイナル (an
    # epilogue post); the engine lets such a turn through and parse_order/resolve handle it.
    accepts_epilogue = True
    # ... and in a thread, a line beginning with イベントファイナル: is such an order without the
    # marker (the winner posts it after the end, chat before it; docs/forum.md, section 3)
    epilogue_words = ("イベントファイナル", "event final")
    default_options: dict[str, Any] = {"turn_limit": 0, "hp": 20, "guard_vent_armor": False}

    def rules(self, ctx: Context) -> int:
        """The rules version a turn is resolved under: the context's (an archived turn, pbf
        replay), else this one's."""
        return int(getattr(ctx, "rules_version", 0) or self.rules_version)

    def armor_on(self, ctx: Context) -> bool:
        """ガードベント's invented armor (data ``armor``): always in rules version 3, never before,
        and from version 4 on only with the option ``guard_vent_armor``."""
        version = self.rules(ctx)
        if version <= 3:
            return version == 3
        return bool(ctx.options.get("guard_vent_armor", False))

    # -- options ---------------------------------------------------------------------------
    def coerce_option(self, key: str, value: Any) -> Any:
        if key not in self.default_options:
            known = "、".join(self.default_options)
            raise PbfError(f"ライダーバトルに「{key}」という設定はありません（{known}）。 / unknown option")
        if key == "guard_vent_armor":
            word = str(value).strip().lower()
            if isinstance(value, bool) or word in _TRUE or word in _FALSE:
                return value if isinstance(value, bool) else word in _TRUE
            raise PbfError(f"設定 {key} は true か false です（「{value}」）。 / {key} takes true or false")
        try:
            if isinstance(value, bool):
                raise ValueError
            number = int(str(value).strip())
        except ValueError:
            raise PbfError(f"設定 {key} は整数です（「{value}」）。 / {key} takes an integer") from None
        if key == "turn_limit" and number < 0:
            raise PbfError("turn_limit は0（制限なし）以上です。 / turn_limit >= 0")
        if key == "hp" and number < 1:
            raise PbfError("hp は1以上です。 / hp >= 1")
        return number

    # -- data ------------------------------------------------------------------------------
    def load_data(self, campaign_data: Path | None) -> RiderData:
        return rider_data.load(campaign_data)

    def check_players(self, players: dict[str, Player], data: RiderData) -> None:
        problems = []
        for name, player in players.items():
            if player.character not in data.riders and player.character not in data.monsters:
                riders = "、".join(f"{k}（{v.get('name', k)}）" for k, v in data.riders.items())
                monsters = "、".join(f"{k}（{v.get('name', k)}）" for k, v in data.monsters.items())
                problems.append(
                    f"【{name}】のキャラクター「{player.character}」はいません。ライダー：{riders}／モンスター：{monsters}"
                    " / unknown character")
        if len(players) < 2:
            problems.append(f"ライダーバトルには2人以上が必要です（{len(players)}人）。 / two fighters or more")
        else:
            sides = {f"team:{p.team}" if p.team else f"solo:{n}" for n, p in players.items()}
            if len(sides) < 2:
                problems.append("全員が同じチームです。対戦するチームが2つ以上必要です。 / every fighter is on one team")
        if problems:
            raise PbfError("\n".join(problems))

    # -- state -----------------------------------------------------------------------------
    def new_state(self, ctx: Context, dice: Dice) -> dict[str, Any]:
        """Turn 0: the sheets, then １：イニシアティブ with turn 0's dice — the initiative order and
        (one on one) the starting distance, so that players write turn 1 knowing both. The dice
        are kept under ``opening_rolls`` for the opening post (see :meth:`opening`)."""
        st = self.blank_state(ctx)
        order, rolls = ini.roll_order(st["fighters"], ctx.data, dice)
        st["initiative"] = order
        if not is_multi(st):  # 複数人による戦闘 rolls its distances per action instead
            st["distance"], roll = ini.roll_distance(order[0], dice)
            rolls.append(roll)
        st["opening_rolls"] = [{"actor": r.actor, "purpose": r.purpose, "face": r.value} for r in rolls]
        return st

    def blank_state(self, ctx: Context) -> dict[str, Any]:
        """The fighters' sheets at turn 0, before any die (no initiative, no distance)."""
        data: RiderData = ctx.data
        hp_option = int(ctx.options.get("hp", self.default_options["hp"]))
        fighters: dict[str, Any] = {}
        for name, player in ctx.players.items():
            kind, sheet = data.character(player.character)
            hp = int(sheet.get("hp", hp_option)) if kind == "monster" else int(sheet.get("hp") or hp_option)
            fighters[name] = {
                "character": player.character,
                "kind": kind,
                "hp": hp,
                "max_hp": hp,
                "alive": True,
                "vent": None,
                "deck": dict(sheet.get("deck", {}) or {}) if kind == "rider" else {},
                "used_once": [],
                "trick": None,
                "nasty": 0,
                "survive": [],
            }
        return {"turn": 0, "distance": None, "initiative": [], "winner": None, "fighters": fighters}

    # -- orders ----------------------------------------------------------------------------
    def parse_order(self, text: str, player: str, state: dict[str, Any], ctx: Context) -> RiderOrder:
        teams = {n: p.team for n, p in ctx.players.items()}
        return _checks().parse(text, player, state, ctx.data, teams)

    def canonical_order(self, order: RiderOrder | None) -> str:
        if order is None:
            return ""
        from .orders import canonical

        return order.canonical or canonical(order, _bundled())

    def resolve(self, state, orders, dice, ctx):
        return _resolver().resolve(state, orders, dice, ctx, rules=self.rules(ctx), armor=self.armor_on(ctx))

    def opening(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """Context for the opening post (templates/rider/opening.j2): who goes first (the
        initiative order with each 運動性), the starting distance (one on one; None in a battle of
        three or more), and turn 0's dice as roll dicts (faces included) in the order rolled."""
        rolls = [{"type": "roll", "actor": r["actor"], "purpose": r["purpose"], "dice": 1, "faces": [r["face"]],
                  "value": r["face"], "groups": [[r["face"]]], "bonus": 0, "achievement": r["face"], "kind": "D6",
                  "by": ""} for r in state.get("opening_rolls", [])]
        order = list(state.get("initiative", []))
        return {
            "initiative": order,
            "mobility": ini.mobility({n: state["fighters"][n] for n in order}, ctx.data),
            "tie_rolls": [r for r in rolls if r["purpose"] == "initiative"],
            "distance": None if is_multi(state) else state.get("distance"),
            "distance_roll": next((r for r in rolls if r["purpose"] == "distance"), None),
            "rolls": rolls,
            "multi": is_multi(state),
            "summary": self.summary(state, ctx),
        }

    # -- views -----------------------------------------------------------------------------
    def summary(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        data: RiderData = ctx.data
        fighters = {}
        for name, f in state["fighters"].items():
            kind, sheet = data.character(f["character"])
            fighters[name] = {
                "character": f["character"],
                "name": sheet.get("name", f["character"]),
                "kind": kind,
                "hp": f["hp"],
                "max_hp": f["max_hp"],
                "alive": f["alive"],
                "vent": data.card_name(f["vent"]),
                "deck": {data.card_name(c): n for c, n in f["deck"].items()},
                "trick": bool(f.get("trick")),
                "survive": bool(f.get("survive")),
                "used_once": [data.card_name(c) for c in f.get("used_once", [])],
                "team": ctx.players[name].team if name in ctx.players else None,
                # 攻撃力/防御力/運動性 with lasting modifiers (サバイブ), for pbf show
                "stats": {key: stat(data, f, key) for key in ("attack", "defense", "mobility")},
            }
        from ...npc import mark_npcs

        return mark_npcs({
            "system": "rider",
            "turn": state["turn"],
            # null in a battle of three or more: distances are rolled per action
            "distance": None if is_multi(state) else state.get("distance"),
            "multi": is_multi(state),
            "winner": state.get("winner"),
            "initiative": list(state.get("initiative", [])),
            "fighters": fighters,
        }, ctx)  # an NPC's level word under "npc" (pbf show, the posts)

    def order_view(self, order: RiderOrder, player: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        from .orders import MOVE_RULE_WORDS, POOL_WORDS, SUPER_KIND_WORDS, canonical

        data: RiderData = ctx.data
        f = state["fighters"][player]
        kind, sheet = data.character(f["character"])

        def cond(c):
            return None if c is None else ("攻撃" if c == "attack" else data.card_name(c))

        warnings = _checks().advice(order, player, state, data, armor=self.armor_on(ctx))
        return {
            "player": player,
            "character": f["character"],
            "character_name": sheet.get("name", f["character"]),
            "move": order.move,
            "move_targets": list(order.move_targets),
            "move_rule": MOVE_RULE_WORDS.get(order.move_rule or ""),
            "block_closer": order.block_closer,
            "block_away": order.block_away,
            "card": data.card_name(order.card),
            "passive": [{"card": data.card_name(r.card), "condition": cond(r.condition)} for r in order.passive],
            "targets": list(order.targets),
            "hold": order.hold,
            "aim": order.aim,
            "aim_dice": 2 * order.aim,
            "parry": order.parry,
            "evasion": POOL_WORDS.get(order.evasion) if order.evasion else None,
            "super_evasion": order.super_evasion,
            "super_threshold": order.super_threshold,
            # which evasion rolls (issue 22): [] = every one, else 本体の攻撃 / アドベント / 庇うとき
            "super_scope": [SUPER_KIND_WORDS[k] for k in order.super_scope],
            "cover": order.cover,
            "event_final": order.event_final,
            "canonical": canonical(order, data),
            "warnings": warnings,
            "advice": warnings,  # the name check.j2 had before (a campaign's own template may use it)
        }

    def order_data(self, order: RiderOrder, player: str, state: dict[str, Any], ctx: Context,
                   place: Any = None) -> dict[str, Any]:
        """The order as plain data (``pbf check --json``, docs/check.md): its fields, with cards
        as their names (and the rest as the order keeps them: ``move`` closer / away / 近 / 中 /
        遠 / stay, ``evasion`` mobility / defense / attack, ``move_rule`` farthest / nearest).
        A rider's order keeps no positions, so ``place`` is not needed."""
        data: RiderData = ctx.data
        return {
            "move": order.move,
            "block_closer": order.block_closer,
            "block_away": order.block_away,
            "card": data.card_name(order.card),
            # condition: null (always), "attack", or the name of the opponent's card it answers
            "passive": [{"card": data.card_name(r.card),
                         "condition": r.condition if r.condition in (None, "attack") else data.card_name(r.condition)}
                        for r in order.passive],
            "aim": order.aim,
            "hold": order.hold,
            "super_evasion": order.super_evasion,
            "super_threshold": order.super_threshold,
            "super_scope": list(order.super_scope),  # [] = every evasion roll; actor / advent / cover
            "parry": order.parry,
            "evasion": order.evasion,
            "targets": list(order.targets),
            "cover": order.cover,
            "move_targets": list(order.move_targets),
            "move_rule": order.move_rule,
            "event_final": order.event_final,
        }

    def notices(self, state: dict[str, Any], ctx: Context) -> dict[str, dict[str, Any]]:
        """After every turn, each rider's notice (templates/rider/notice.j2): what it has left —
        HP, the card vented in, the remaining cards. Nothing of a rider is private (the post
        says the same); turn 0 has none (the opening post lists every deck)."""
        if not state.get("turn"):
            return {}
        summary = self.summary(state, ctx)
        out = {}
        for name, f in summary["fighters"].items():
            if f["kind"] != "rider":
                continue  # a monster holds no cards
            out[name] = {
                "character_name": f["name"], "hp": f["hp"], "max_hp": f["max_hp"], "alive": f["alive"],
                "vent": f["vent"], "deck": f["deck"], "used_once": f["used_once"], "trick": f["trick"],
                "survive": f["survive"], "turn": summary["turn"], "next_turn": summary["turn"] + 1,
                "winner": summary["winner"],
            }
        return out

    def public_order_view(self, order: Any, player: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """How an order reads, for the thread (receipts): nothing of a rider is private."""
        return self.order_view(order, player, state, ctx)

    def public_summary(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """Nothing of a rider is private: stats, vented card and remaining deck are on the table
        (and an NPC's level, ``npc``: see summary)."""
        return self.summary(state, ctx)

    def template_filters(self) -> dict[str, Any]:
        from ...npc import npc_word

        return {"npc_word": npc_word}

    def catalogue(self, data: RiderData, options: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        """``pbf list``: riders, monsters and cards with their stats (see catalogue.py)."""
        from .catalogue import catalogue

        return catalogue(data, int(options.get("hp", self.default_options["hp"])))


_BUNDLED: list[RiderData] = []


def _bundled() -> RiderData:
    """For an order built by hand (tests): card names from the bundled data."""
    if not _BUNDLED:
        _BUNDLED.append(rider_data.load())
    return _BUNDLED[0]

SYSTEM = RiderSystem()
