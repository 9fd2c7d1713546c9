"""The rider game's data: cards, riders, monsters, traits (YAML, overridable per campaign)."""

from __future__ import annotations

import unicodedata
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import yamlio
from ...errors import PbfError
from ...record import record

DATA_DIR = Path(__file__).resolve().parent / "data"
KINDS = ("cards", "riders", "monsters", "traits")
BANDS = ("近", "中", "遠")
# counters no order has: a number before one (1話, 6歳, 3年目, 2周) is talk around the order, not its number
NOT_ORDER_COUNTERS = ("話", "歳", "才", "年生", "年目", "年", "ヶ月", "か月", "月", "日", "時", "分", "人", "戦目", "回目", "周", "巻")


# the effect primitives a card's ``effects`` may name (what each means: cards.py)
PRIMITIVES = (
    "weapon", "parry", "guard", "cover", "move_bonus", "advent", "final", "trick", "nasty",
    "confine", "unblockable_move", "reflect", "survive", "armor",
)


@lru_cache(maxsize=4096)
def norm(word: str) -> str:
    """How words are compared: NFKC, lower case, hiragana as katakana (ちかよる = チカヨル),
    inner spaces collapsed."""
    text = unicodedata.normalize("NFKC", word).lower()
    return " ".join("".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text).split())


@record
class RiderData:
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    riders: dict[str, dict[str, Any]] = field(default_factory=dict)
    monsters: dict[str, dict[str, Any]] = field(default_factory=dict)
    traits: dict[str, dict[str, Any]] = field(default_factory=dict)
    card_words: dict[str, str] = field(default_factory=dict)  # normalised spelling -> card id

    def card_name(self, card_id: str | None) -> str | None:
        if card_id is None:
            return None
        return self.cards.get(card_id, {}).get("name", card_id)

    def character(self, char_id: str) -> tuple[str, dict[str, Any]]:
        """("rider" | "monster", sheet)."""
        if char_id in self.riders:
            return "rider", self.riders[char_id]
        return "monster", self.monsters[char_id]


def _read(path: Path) -> dict[str, Any]:
    try:
        loaded = yamlio.load_data_file(path)  # parsed once per content (pbf's cache)
    except Exception as exc:  # a GM's hand-edited file: say where
        raise PbfError(f"データファイル {path} を読めません：{exc}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise PbfError(f"データファイル {path} は「id: 内容」の形で書いてください。")
    return loaded


_VERBS = frozenset({"move"})


def card_spellings(card_id: str, card: dict[str, Any]) -> list[str]:
    """Every way a player may write the card: name, name without ベント, English, aliases."""
    words = [card_id, card.get("name", card_id)]
    name = card.get("name", "")
    if name.endswith("ベント") and len(name) > 3:
        words.append(name[: -len("ベント")])
    english = card.get("english")
    if english:
        words.append(english)
        if english.lower().endswith(" vent") and english.lower()[: -len(" vent")] not in _VERBS:
            words.append(english[: -len(" vent")])  # (not "move": move closer / move in are movement)
        words.append(english.replace(" ", ""))
    words.extend(card.get("aliases", []) or [])
    words.extend(card.get("readings", []) or [])  # romaji (kana need none: ひらがな reads as カタカナ)
    return [norm(w) for w in words if w]


def load(campaign_data: Path | None = None) -> RiderData:
    merged: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        merged[kind] = dict(_read(DATA_DIR / f"{kind}.yaml"))
    if campaign_data is not None:
        for folder in (Path(campaign_data), Path(campaign_data) / "rider"):
            for kind in KINDS:
                path = folder / f"{kind}.yaml"
                if path.is_file():
                    for key, value in _read(path).items():
                        if value is None:  # `id: null` removes a bundled entry
                            merged[kind].pop(key, None)
                        else:
                            merged[kind][key] = value
    data = RiderData(**merged)
    _check(data)
    for card_id, card in data.cards.items():
        for word in card_spellings(card_id, card):
            data.card_words.setdefault(word, card_id)
    return data


def _check(data: RiderData) -> None:
    problems = []
    for card_id, card in data.cards.items():
        if card.get("phase", "either") not in ("active", "passive", "either"):
            problems.append(f"カード {card_id}: phase は active / passive / either です。")
        for effect in card.get("effects", {}) or {}:
            if effect not in PRIMITIVES:
                problems.append(f"カード {card_id}: 効果「{effect}」はありません（{' / '.join(PRIMITIVES)}）。")
    for rid, rider in data.riders.items():
        for key in ("attack", "defense", "mobility"):
            if not isinstance(rider.get(key), int) or rider[key] < 1:
                problems.append(f"ライダー {rid}: {key} は1以上の整数です。")
        for card_id in rider.get("deck", {}) or {}:
            if card_id not in data.cards:
                problems.append(f"ライダー {rid}: デッキのカード {card_id} がありません。")
        for card_id in rider.get("weapons", {}) or {}:
            if card_id not in (rider.get("deck") or {}):
                problems.append(f"ライダー {rid}: 武器のカード {card_id} がデッキにありません。")
        contract = rider.get("contract")
        if contract is not None and contract not in data.monsters:
            problems.append(f"ライダー {rid}: 契約モンスター {contract} がありません。")
    for mid, monster in data.monsters.items():
        for trait in monster.get("traits", []) or []:
            if trait not in data.traits:
                problems.append(f"モンスター {mid}: 特性 {trait} がありません。")
    if problems:
        raise PbfError("\n".join(problems))
