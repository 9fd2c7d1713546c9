"""The game's data: cards, techniques, characters and the matchup table (YAML, overridable).

Bundled files live in ``data/``; a campaign's ``data/`` folder may replace ``common.yaml`` or
``matchups.yaml`` and add or replace characters (``data/characters/*.yaml``, by ``id``).
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from ... import yamlio
from ...errors import PbfError
from ...record import record

DATA_DIR = Path(__file__).resolve().parent / "data"

CARDS = ("弱", "強", "→", "←", "↑")
KINDS = ("weak", "strong", "guard", "throw", "jump", "anti_air", "move")
ATTACK_KINDS = ("weak", "strong", "throw", "anti_air")
CLASSES = ("normal", "special", "super")


@record(frozen=True)
class Technique:
    """One technique a character can read from its cards."""

    id: str
    name: str
    command: str  # card symbols, e.g. "↑→弱"
    kind: str  # a matchup kind, or "move"
    cls: str = "normal"  # normal / special (必殺技) / super (特殊必殺技)
    reach: int | None = None
    damage: int = 0
    move: int = 0  # +1 toward the enemy, -1 away
    charge: bool = False  # comes out next turn (強攻撃)
    ends_plot: bool = False  # later cards of the plot are void once it is done
    knockdown: bool = False
    chain: bool = False  # 弱 chains: every second consecutive contact pushes back
    readings: tuple[str, ...] = ()  # other spellings a plot may use for its cards (kana, romaji)

    @property
    def is_attack(self) -> bool:
        return self.kind in ATTACK_KINDS


@record(frozen=True)
class Character:
    id: str
    name: str
    techniques: tuple[Technique, ...]  # the common ones first, then its own

    def technique(self, technique_id: str) -> Technique:
        for tech in self.techniques:
            if tech.id == technique_id:
                return tech
        raise PbfError(f"キャラクター「{self.name}」に技「{technique_id}」はありません。")


@record(frozen=True)
class Matchups:
    kinds: dict[str, str]  # kind -> Japanese label
    table: dict[str, dict[str, str]]  # mine -> theirs -> ○ × △ ＼ ―

    def result(self, mine: str, theirs: str) -> str:
        return self.table[mine][theirs]


@record
class GameData:
    cards: list[dict[str, Any]]
    classes: dict[str, str]
    common: tuple[Technique, ...]
    characters: dict[str, Character]
    matchups: Matchups
    sources: list[str] = field(default_factory=list)
    empty_words: tuple[str, ...] = ()  # なし / パス: a plot of no cards
    _plot_words: dict[str, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)

    def plot_words(self, character: Character) -> dict[str, str]:
        """Words a plot may hold for cards → the cards they stand for: each card's readings,
        each technique's name (every part of ガード／後退) and readings, and the empty plot.
        A character's own technique overrides a common one of the same word. Built once per
        character (the same dict each time: the plot reader keeps its lookup table by it)."""
        kept = self._plot_words.get(character.id)
        if kept is not None:
            return kept
        words: dict[str, str] = {w: "" for w in self.empty_words}
        for card in self.cards:
            for word in card.get("readings") or ():
                words[str(word)] = card["symbol"]
        for tech in character.techniques:
            for word in (*tech.name.split("／"), *tech.readings):
                words[word] = tech.command
        self._plot_words[character.id] = words
        return words

    def deck(self) -> list[str]:
        """A fresh, unshuffled deck in the data's card order."""
        return [c["symbol"] for c in self.cards for _ in range(int(c["count"]))]

    def card_names(self) -> dict[str, str]:
        return {c["symbol"]: c["name"] for c in self.cards}


def _read(path: Path) -> Any:
    try:
        return yamlio.load_data_file(path)  # parsed once per content (pbf's cache)
    except Exception as exc:  # ruamel raises many kinds
        raise PbfError(f"データファイル {path} を読めません：{exc}") from None


def _technique(raw: dict[str, Any], where: str) -> Technique:
    try:
        tech = Technique(
            id=str(raw["id"]),
            name=str(raw["name"]),
            command=str(raw["command"]),
            kind=str(raw["kind"]),
            cls=str(raw.get("class", "normal")),
            reach=None if raw.get("reach") is None else int(raw["reach"]),
            damage=int(raw.get("damage", 0)),
            move=int(raw.get("move", 0)),
            charge=bool(raw.get("charge", False)),
            ends_plot=bool(raw.get("ends_plot", False)),
            knockdown=bool(raw.get("knockdown", False)),
            chain=bool(raw.get("chain", False)),
            readings=tuple(str(r) for r in raw.get("readings") or ()),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PbfError(f"{where}：技のデータが不完全です（{exc}）。") from None
    if tech.kind not in KINDS:
        raise PbfError(f"{where}：技「{tech.name}」の kind「{tech.kind}」は {' / '.join(KINDS)} のどれかです。")
    if tech.cls not in CLASSES:
        raise PbfError(f"{where}：技「{tech.name}」の class「{tech.cls}」は {' / '.join(CLASSES)} のどれかです。")
    if not tech.command or any(c not in CARDS for c in tech.command):
        raise PbfError(f"{where}：技「{tech.name}」のコマンド「{tech.command}」はカード（{''.join(CARDS)}）の並びです。")
    if tech.is_attack and tech.reach is None:
        raise PbfError(f"{where}：攻撃技「{tech.name}」に reach がありません。")
    return tech


def _matchups(raw: dict[str, Any]) -> Matchups:
    kinds = {str(k): str(v) for k, v in raw["kinds"].items()}
    order = list(kinds)
    table: dict[str, dict[str, str]] = {}
    for mine, row in raw["table"].items():
        if len(row) != len(order):
            raise PbfError(f"相性表の「{mine}」の行は{len(order)}列です。")
        # parenthesised entries count as the plain symbol (alterego.md)
        table[str(mine)] = {theirs: str(cell).strip("（）()") for theirs, cell in zip(order, row)}
    return Matchups(kinds, table)


def _character(raw: dict[str, Any], common: tuple[Technique, ...], where: str) -> Character:
    own = tuple(_technique(t, where) for t in raw.get("techniques") or [])
    for tech in own:
        # 「弱強」は常に投げ (alterego.md): no character command may swallow it
        if "弱強" in tech.command:
            raise PbfError(f"{where}：技「{tech.name}」のコマンドに「弱強」（投げ）を含めることはできません。")
    return Character(id=str(raw["id"]), name=str(raw["name"]), techniques=common + own)


def load(campaign_data: Path | None = None) -> GameData:
    folders = [DATA_DIR]
    if campaign_data is not None and Path(campaign_data).is_dir():
        folders.append(Path(campaign_data))
    common_raw = matchups_raw = None
    char_raw: dict[str, tuple[dict[str, Any], str]] = {}
    sources: list[str] = []
    for folder in folders:
        if (folder / "common.yaml").is_file():
            common_raw = _read(folder / "common.yaml")
            sources.append(str(folder / "common.yaml"))
        if (folder / "matchups.yaml").is_file():
            matchups_raw = _read(folder / "matchups.yaml")
            sources.append(str(folder / "matchups.yaml"))
        for path in sorted((folder / "characters").glob("*.yaml")) if (folder / "characters").is_dir() else []:
            raw = _read(path)
            if not isinstance(raw, dict) or "id" not in raw:
                raise PbfError(f"{path}：キャラクターのデータに id がありません。")
            char_raw[str(raw["id"])] = (raw, str(path))
            sources.append(str(path))
    for name, raw, keys in (("common.yaml", common_raw, ("techniques", "cards")), ("matchups.yaml", matchups_raw, ())):
        where = next((s for s in reversed(sources) if s.endswith(name)), name)
        if not isinstance(raw, dict) or any(not isinstance(raw.get(k), list) for k in keys):
            raise PbfError(f"データファイル {where} の形が正しくありません（{'・'.join(keys) or '表'} が必要です）。 / malformed data file")
    common = tuple(_technique(t, "common.yaml") for t in common_raw["techniques"])
    characters = {cid: _character(raw, common, where) for cid, (raw, where) in sorted(char_raw.items())}
    return GameData(
        cards=list(common_raw["cards"]),
        classes=dict(common_raw.get("classes") or {}),
        common=common,
        characters=characters,
        matchups=_matchups(matchups_raw),
        sources=sources,
        empty_words=tuple(str(w) for w in common_raw.get("empty_plot") or ()),
    )
