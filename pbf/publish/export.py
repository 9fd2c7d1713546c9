"""``pbf export C OUT``: a public copy of a campaign, holding what the thread has seen and no more.

What is copied (docs/archive.md) is a whitelist, so that nothing new a GM keeps in the folder
(notes, drafts, ``history/undone/``, options not yet in force) can leak:

* ``campaign.toml`` without ``seed``, unless the revealed seed is given and matches the
  commitment (then anyone can ``pbf verify`` the export);
* ``state.yaml``, ``deadline.yaml``, ``data/``, ``templates/``;
* per turn ``orders.txt``, ``post*.txt``, ``turn.yaml``, ``options.yaml``, ``dice.yaml``,
  ``state.yaml``, ``before.yaml``, ``events.yaml`` (``notices/`` only when hands are shown).

A battle with private hands (Alter EGO, ``hands = "private"``) that is still going on is
exported *redacted*: every ``hand``, ``deck`` and ``discard`` is taken out of the states and
events, ``notices/`` is left out, and ``dice.yaml`` keeps only the number of draws (Alter EGO
draws only to shuffle decks, so the draws would tell the hands). ``export.yaml`` says so;
``pbf check`` and ``pbf replay`` read it and check what the public record allows.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import campaign as campaigns, yamlio
from ..campaign.deadlines import _deadline_file
from ..campaign.records import EXPORT_FILE
from ..dice import seed_commitment
from ..errors import PbfError, Problem
from ..fsutil import fsync_dir, read_bytes, write_file
from ..record import field, record

SECRET_KEYS = ("hand", "deck", "discard")  # what a private-hands battle keeps from the thread
HANDS_CHOICES = ("end", "never")  # shown once the battle is over / never shown
_TURN_FILES = ("orders.txt", "post.txt", "turn.yaml", "options.yaml", "dice.yaml")
_REDACTED_FILES = ("state.yaml", "before.yaml", "events.yaml")


@record
class ExportReport:
    path: Path
    turns: int
    seed: str  # "revealed" / "secret"
    hands: str  # "hidden" / "shown" / "none" (a game or option without private hands)
    left_out: list = field(default_factory=list)  # files of data/ and templates/ pbf does not read


def private_hands(c: campaigns.Campaign) -> bool:
    return c.ctx.options.get("hands") == "private"


def redact(value: Any) -> Any:
    """``value`` with every ``hand``/``deck``/``discard`` key taken out, at any depth."""
    if isinstance(value, dict):
        return {k: redact(v) for k, v in value.items() if k not in SECRET_KEYS}
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


def _revealed(c: campaigns.Campaign, seed: str | None) -> bool:
    if seed is None:
        return False
    committed = campaigns.archived_yaml(c, 0, "dice.yaml").get("seed_sha256")
    if seed_commitment(seed) != committed:
        raise PbfError(
            Problem(f"--seed がコミットメント {committed} と一致しません。シードは書き出していません。"
                    " / the seed does not match the commitment", text=seed)
        )
    return True


def export(c: campaigns.Campaign, out: "Path | str", seed: str | None = None, hands: str = "end") -> ExportReport:
    """Write the public copy of ``c`` into ``out`` (a new or empty folder), all at once."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PbfError(Problem("はすでにあり、空ではありません。新しいフォルダか空のフォルダを指定してください。"
                               " / refusing a non-empty folder", text=str(out)))
    if out.resolve() == c.path.resolve() or c.path.resolve() in out.resolve().parents:
        raise PbfError(Problem("書き出し先がキャンペーンのフォルダの中です。 / OUT is inside the campaign", text=str(out)))
    _replayable(c)
    revealed = _revealed(c, seed)
    finished = c.state.get("winner") is not None
    hidden = private_hands(c) and (hands == "never" or not finished)
    if revealed and hidden:
        # the seed gives every draw, and the draws give the hands: both or neither
        raise PbfError("手札を伏せたままシードは公開できません（シードから山札の順番が計算できます）。"
                       "シードを書き出すのは手札を見せられるバトルの終了後です。 / a revealed seed would tell the hidden hands")
    files = _public_files(c, seed if revealed else None, hidden)
    left_out = _read_files(c, files)
    report = ExportReport(out, max([0, *c.archived_turns()]), "revealed" if revealed else "secret",
                          "hidden" if hidden else ("shown" if private_hands(c) else "none"), left_out)
    files[EXPORT_FILE] = (
        "# pbf export が書いた公開用の記録です（docs/archive.md）。\n"
        "# hands: hidden は手札・山札・捨て札とダイスの記録を伏せたもの、seed: secret はシードなし。\n"
        + yamlio.dump_data({"export": 1, "seed": report.seed, "hands": report.hands, "turns": report.turns})
    )
    write_folder(out, files)
    return report


def _read_files(c: campaigns.Campaign, files: dict[str, str]) -> list[str]:
    """data/ and templates/ into ``files``: only what pbf reads there, the data's YAML files (from
    their parsed content: a comment is the GM's, not the game's) and the ``.j2`` templates.
    Returns what was left out (a GM's notes, drafts, other files), by path."""
    left_out: list[str] = []
    for sub, suffixes in (("data", (".yaml", ".yml")), ("templates", (".j2",))):
        root = c.path / sub
        if not root.is_dir() or root.is_symlink():
            continue
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(c.path).as_posix()
            if path.is_dir() and not path.is_symlink():
                continue
            if path.is_symlink() or not path.is_file() or path.suffix not in suffixes or path.name.startswith("."):
                left_out.append(rel)
                continue
            try:
                text = read_bytes(path, rel).decode("utf-8-sig")
                if sub == "data":
                    text = yamlio.dump_data(yamlio.load_plain(text, rel))
            except (PbfError, UnicodeDecodeError):
                left_out.append(rel)  # not a file pbf could read either
                continue
            files[rel] = text
    return left_out


def _replayable(c: campaigns.Campaign) -> None:
    """An export is a record others check: an archive that ``pbf replay`` would not accept (a
    turn folder or file missing, a record malformed or not what the turn gives) is refused."""
    from ..turn.replay import replay

    diff = replay(c)
    if diff:
        raise PbfError(
            Problem("記録が再計算と一致しないので書き出しません（pbf replay で確かめられます）：" + diff[0]
                    + " / the archive does not replay", hint="記録を直すか、pbf replay の示す違いを確かめてください。")
        )


def write_folder(out: Path, files: dict[str, str], copies: dict[str, Path] | None = None, replace: bool = False,
                 keep: "list[str] | None" = None) -> None:
    """``out`` with exactly ``files`` (and the folders ``copies``), all at once: written into a
    temporary folder beside it, then renamed into place (``replace``: an old ``out`` goes;
    ``keep``: the entries of the old ``out`` copied into the new one as they are)."""
    parent = out.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    try:
        for name, source in (copies or {}).items():
            shutil.copytree(source, tmp / name)
        for name in keep or ():
            source = out / name
            if source.is_dir() and not source.is_symlink():
                shutil.copytree(source, tmp / name, symlinks=True)
            else:
                shutil.copy2(source, tmp / name, follow_symlinks=False)
        for name, text in sorted(files.items()):
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            write_file(tmp / name, text)
        if out.exists() and replace:
            # the old folder is moved aside first: a run killed here loses nothing of it
            aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=parent))
            os.rename(out, aside / out.name)
            os.rename(tmp, out)
            fsync_dir(parent)
            shutil.rmtree(aside, ignore_errors=True)
            return
        elif out.exists():
            out.rmdir()  # an empty folder given as OUT
        os.rename(tmp, out)
        fsync_dir(parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _public_files(c: campaigns.Campaign, seed: str | None, hidden: bool) -> dict[str, str]:
    import tomli_w

    config = {k: v for k, v in c.config.items() if k != "seed"}
    if seed is not None:
        config = {"system": config.pop("system"), "seed": seed, **config}
    files = {campaigns.CAMPAIGN_FILE: tomli_w.dumps(config)}
    files[campaigns.STATE_FILE] = _yaml_file(c.state_text, campaigns.STATE_FILE, hidden)
    held = _deadline_file(c.path / campaigns.DEADLINE_FILE)
    if held is not None:  # written again from what it says: a GM's comment stays out
        files[campaigns.DEADLINE_FILE] = campaigns.deadline_text(held[0], held[1], held[2])
    for turn in c.archived_turns():
        folder = c.turn_dir(turn)
        where = f"{campaigns.HISTORY}/{folder.name}"
        for path in sorted(folder.iterdir()):
            name = path.name
            if name in _REDACTED_FILES:
                files[f"{where}/{name}"] = _yaml_file(campaigns.archived(c, turn, name), f"{where}/{name}", hidden)
            elif name == "dice.yaml" and hidden:
                files[f"{where}/{name}"] = yamlio.dump_data(_withheld_draws(campaigns.archived_yaml(c, turn, name)))
            elif name.endswith(".yaml") and name in _TURN_FILES:  # turn.yaml, options.yaml, dice.yaml
                files[f"{where}/{name}"] = _yaml_file(campaigns.archived(c, turn, name), f"{where}/{name}", False)
            elif name.startswith("thread") and name.endswith((".dat", ".txt")):  # the thread as the turn read it: public, its own bytes
                files[f"{where}/{name}"] = path.read_bytes()
            elif name in _TURN_FILES or (name.startswith("post-") and name.endswith(".txt")):
                files[f"{where}/{name}"] = campaigns.archived(c, turn, name)
            elif name == "notices" and not hidden and path.is_dir():
                for notice in sorted(path.iterdir()):
                    files[f"{where}/notices/{notice.name}"] = notice.read_bytes().decode("utf-8")
    return files


def _yaml_file(text: str, where: str, hidden: bool) -> str:
    """A public YAML file written again from its parsed content (``hidden``: without the hands):
    a comment in it is a GM's note, never the record's. A file pbf wrote comes out as it was."""
    data = yamlio.load_plain(text, where)
    return yamlio.dump_data(redact(data) if hidden else data)


def _withheld_draws(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k not in ("draws", "fixed")}
    out["draws_withheld"] = record.get("draws_withheld", len(record.get("draws", [])))  # an export exported again
    return out
