"""An independent oracle for a rider turn's HP: what each fighter must have lost, recomputed from the
dice faces of the turn's ``roll`` events and the rule page's formulas — never from the resolver's
own ``damage`` or ``hit`` amounts.

The page (■戦闘): a check keeps the highest of N d6, a 1 is rolled again and added
(「１＋１＋５＝７」); 「達成値が同じ場合は防御側優先で回避成功」; damage is
「[攻撃側の達成値]−[回避側の達成値]＋１Ｄ６」 plus the weapon's modifier, less the defender's
＜防御力＞ (less what 隙狙い ignores), at least 0; 超回避 pays 1 HP per +1, at most 3, 「自身のＨＰを０に
する事は出来ません」; リフレクトベント (docs/rules/rider.md) deals (evasion − attack) + 1D6 − the
attacker's 防御力; 庇う: both take the one hit, each less their own 防御力. A fighter never loses
more than the HP it has.

What the oracle takes from the events is only *which* dice were rolled for what (a roll's purpose and
the modifiers it declares) and who was attacked with which weapon; every number of damage — the
achievements, the die sums, the weapon's modifier (from the card / sheet data), the defence (sheet,
サバイブ, a vented guard's armour) and the HP paid for 超回避 (from the order and the HP the oracle
itself tracks) — is computed here.
"""

from __future__ import annotations

from typing import Any


def groups_of(faces: list[int]) -> list[list[int]]:
    """The faces of a pool split into dice: a die's run ends at its first face that is not 1."""
    out: list[list[int]] = []
    run: list[int] = []
    for face in faces:
        assert 1 <= face <= 6, faces
        run.append(face)
        if face != 1:
            out.append(run)
            run = []
    assert not run, f"a die ended on a 1 (it must be rolled again): {faces}"
    return out


def achievement(roll: dict[str, Any]) -> int:
    """達成値 of a pool (the highest exploded die) or the sum of a damage 1D6, plus its modifiers."""
    dice = groups_of(roll["faces"])
    assert len(dice) == roll["dice"], f"{roll['dice']} dice rolled, faces say {len(dice)}: {roll}"
    value = max(sum(d) for d in dice) if roll["kind"] == "B6" else sum(dice[0])
    return value + int(roll.get("bonus", 0))


def _effects(data, card: str | None) -> dict[str, Any]:
    return (data.cards.get(card, {}) or {}).get("effects", {}) or {} if card else {}


def _survive(data, fighter: dict[str, Any], key: str) -> int:
    return sum(int(_effects(data, c).get("survive", {}).get(key, 0)) for c in fighter.get("survive") or [])


def _defense(data, fighter: dict[str, Any], armor: bool = False) -> int:
    """＜防御力＞ in the damage step: the sheet's, サバイブ's, and a vented guard's invented armour
    only when the campaign has it on (option guard_vent_armor; always under rules version 3)."""
    _, sheet = data.character(fighter["character"])
    extra = int(_effects(data, fighter.get("vent")).get("armor", 0) or 0) if armor else 0
    return int(sheet["defense"]) + _survive(data, fighter, "stats") + extra


def _weapon_damage(data, fighter: dict[str, Any], weapon: str) -> int:
    """The damage modifier of what an attack was made with, from the data."""
    kind, sheet = data.character(fighter["character"])
    if weapon == "unarmed":
        return 0
    if weapon == "visor":
        return int((sheet.get("visor") or {}).get("damage", 0))
    if weapon == "monster":
        return int((sheet.get("weapon") or {}).get("damage", 0))
    if weapon == "contract":
        return int((data.monsters[sheet["contract"]].get("weapon") or {}).get("damage", 0))
    eff = _effects(data, weapon)
    if "final" in eff:
        return int(eff["final"].get("damage", 0))
    return int(eff["weapon"].get("damage", 0)) + _survive(data, fighter, "weapon_damage")


def expected_hp(before: dict[str, Any], events: list[dict[str, Any]], data, orders: dict[str, Any],
                armor: bool = False, rules: int = 4) -> dict[str, int]:
    """Each fighter's HP after the turn, by the oracle. ``orders``: the parsed orders (None = none);
    ``armor``: ガードベント's invented armour on; ``rules``: the rules version (from 4, 超回避 is paid
    on every evasion roll its scope names, a contract monster's attack and 庇う included)."""
    fighters = {n: dict(f, survive=list(f.get("survive") or [])) for n, f in before["fighters"].items()}
    hp = {n: int(f["hp"]) for n, f in fighters.items()}

    def lose(name: str, amount: int) -> None:
        hp[name] -= min(max(0, amount), hp[name])

    attack = weapon = evasion = dmg = None  # the rolls and the weapon of the attack being resolved
    attacker = None
    aim = 0
    for e in events:
        kind = e["type"]
        if kind == "vent":
            fighters[e["actor"]]["vent"] = e["card"]
        elif kind == "status" and e["effect"] == "survive":
            fighters[e["actor"]]["survive"].append(next(c for c, v in data.cards.items() if v.get("name") == e["card_name"]))
        elif kind == "attack":
            attacker, weapon, aim, attack = e["actor"], e["weapon"], int(e["aim"]), None
            assert 0 <= aim <= 3, e
        elif kind == "roll":
            if e["purpose"] == "attack":
                attack = achievement(e)
            elif e["purpose"] == "evasion":
                evasion = achievement(e)
            elif e["purpose"] in ("damage", "reflect"):
                dmg = achievement(e)
        elif kind == "evasion":
            order = orders.get(e["actor"])
            wanted = int(getattr(order, "super_evasion", 0) or 0) if order is not None else 0
            if e["super_evasion"]:  # 超回避: ＨＰ１点ごとに＋１、最大＋３、ＨＰを０にはできない
                assert wanted, f"超回避 paid without an order: {e}"
                assert e["super_evasion"] == min(wanted, 3, hp[e["actor"]] - 1), (e, hp[e["actor"]])
                lose(e["actor"], e["super_evasion"])
            elif wanted and e["super_skipped"] is None and (
                    rules >= 4 or (e["covering"] is None and e["attacker"] in fighters)):
                # ordered, not skipped by its threshold or an attack that cannot hit: nothing to pay only at 1 HP
                assert hp[e["actor"]] <= 1 or e["pool"] == "attack", (e, hp[e["actor"]])
            if e["super_evasion"] and rules >= 4:  # 「ソードベントの［受け］と併用する事は出来ません」
                assert e["pool"] != "attack", e
            if e["super_skipped"] == "scope":
                kind = "cover" if e["covering"] else ("actor" if e["attacker"] in fighters else "advent")
                assert kind not in getattr(orders.get(e["actor"]), "super_scope", ()), e
            if e["super_skipped"] == "cannot_hit":
                assert attack is not None and attack <= 3, (e, attack)
            if e["super_skipped"] == "threshold":
                assert attack is not None and attack < e["super_threshold"], (e, attack)
        elif kind == "whiff":
            assert attack is not None and evasion is not None and attack <= evasion, ("a whiff", attack, evasion, e)
        elif kind == "hit":
            assert attack is not None and evasion is not None and dmg is not None, e
            assert attack > evasion, ("a hit", attack, evasion, e)  # ties go to the defender
            target = fighters[e["target"]]
            defense = _defense(data, target, armor)
            bonus = _weapon_damage(data, fighters[attacker], weapon)
            lose(e["target"], attack - evasion + dmg + bonus - (defense - min(aim, defense)))
        elif kind == "reflect":
            assert dmg is not None and evasion is not None and attack is not None, e
            assert evasion >= attack, e
            # 「相手の防御力」: the attacker's 防御力 (a vented guard's armour is for its own damage step)
            lose(e["target"], evasion - attack + dmg - _defense(data, dict(fighters[e["target"]], vent=None)))
    return hp


def assert_hp(before, after, events, data, orders, armor: bool = False, rules: int = 4) -> None:
    """HP after the turn = the oracle's; a fighter at 0 HP is out, above 0 in."""
    want = expected_hp(before, events, data, orders, armor, rules)
    got = {n: f["hp"] for n, f in after["fighters"].items()}
    assert got == want, f"HP {got}, the dice and the rules say {want}\nevents: {events}"
    for name, f in after["fighters"].items():
        assert f["alive"] == (f["hp"] > 0), (name, f)
