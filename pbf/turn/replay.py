"""``pbf replay`` and ``pbf verify``: every archived turn resolved again and compared with its
record; on a public export whose hands are hidden, what its record allows is checked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import campaign as campaigns, yamlio
from ..campaign.layout import STATE_FILE
from ..campaign.records import archived, archived_meta, archived_yaml, state_before
from ..campaign.options import at_turn, options_by_turn
from ..dice import hmac_draws, seed_commitment, sha256_hex, turn_key
from ..errors import PbfError
from ..record import record
from .check import without_hand_check
from .orders import read_orders, sources_from_file
from .run import _has_npc, _npc, _with_npc, run_turn

if TYPE_CHECKING:
    from typing import Any
    from ..campaign.layout import Campaign


def replay(campaign: Campaign) -> list[str]:
    """Re-resolve every archived turn, in one pass; the differences of the first turn that differs.

    A turn starts from the state the turn before ended in, as just recomputed and found equal to
    its archive, unless the GM edited state.yaml in between (``before.yaml``). A public export
    whose hands are hidden cannot be re-resolved: what its record allows is checked instead."""
    from ..campaign.records import check_archive, hands_redacted

    check_archive(campaign)  # a turn folder or file missing, a record malformed: refused by name
    if hands_redacted(campaign.path):
        return public_replay(campaign)[0]
    previous: tuple[int, str, dict[str, Any]] | None = None  # turn, state text, state
    options = options_by_turn(campaign)
    for turn in campaign.archived_turns():
        if turn == 0:
            continue
        folder = campaign.turn_dir(turn)
        if previous is not None and previous[0] == turn - 1 and not (folder / "before.yaml").exists():
            _, before_text, before = previous
        else:
            before_text = state_before(campaign, turn)
            before = yamlio.load_plain(before_text, f"history/{folder.name}")
        draws = archived_yaml(campaign, turn, "dice.yaml").get("draws", [])
        orders_text = archived(campaign, turn, "orders.txt")
        meta = archived_meta(campaign, turn)
        # with the options the turn had (pbf set may have changed them since), under the rules it
        # was archived with (a turn.yaml without rules_version is from rules version 1)
        kept = {k: meta[k] for k in ("next_deadline", "gm_dice", "early", "deadline", "not_taken") if meta.get(k)}
        try:
            record = run_turn(at_turn(campaign, options[turn]), orders_text, draws=draws, state=before,
                              meta={"rules_version": int(meta.get("rules_version", 1)), **kept}, npc_archived=meta)
            if campaign.seed and (record.meta.get("npc") or meta.get("npc")):
                _npc().check_same(turn, record.meta.get("npc") or {}, meta.get("npc"))
        except PbfError as exc:
            if "NPC" not in str(exc):
                raise
            return [f"第{turn}ターンが一致しません：history/{folder.name}/turn.yaml", str(exc)]
        state_text, state = yamlio.merge_text(before_text, before, record.state, f"history/{folder.name}")
        for name, expected, actual in (
            (f"history/{folder.name}/{STATE_FILE}", archived(campaign, turn, STATE_FILE), state_text),
            (f"history/{folder.name}/post.txt", archived(campaign, turn, "post.txt"), record.post),
            (f"history/{folder.name}/events.yaml", archived(campaign, turn, "events.yaml"), yamlio.dump_data(record.events)),
        ):
            if expected != actual:
                import difflib

                diff = difflib.unified_diff(
                    expected.splitlines(), actual.splitlines(), f"{name}（記録）", f"{name}（再計算）", lineterm=""
                )
                head = [f"第{turn}ターンが一致しません：{name}"]
                from ..campaign.versions import describe, differences

                head += describe(differences(meta.get("made_with")))
                archived_rules = int(meta.get("rules_version", 1))
                if archived_rules != campaign.system.rules_version:
                    head.append(
                        f"このターンはルール版 {archived_rules} で処理されましたが、今の pbf はルール版"
                        f" {campaign.system.rules_version} です。ルールの変更（裁定の修正）によって結果が変わりました。"
                        "記録はそのときのルールで正しく処理されたものです。"
                    )
                return head + list(diff)
        previous = (turn, state_text, state)
    return []


def verify(campaign: Campaign, seed: str | None = None) -> list[str]:
    """Check the seed against its commitment and recompute every archived die from it.

    Returns what was checked, one line a turn; raises PbfError at the first mismatch.
    """
    seed = campaign.seed if seed is None else seed
    if not seed:
        raise PbfError("シードがありません。--seed で公開されたシードを指定してください。 / no seed")
    zero = archived_yaml(campaign, 0, "dice.yaml")
    committed = zero.get("seed_sha256")
    if committed != seed_commitment(seed):
        raise PbfError(
            f"シードがコミットメントと一致しません（記録：{committed}、計算：{seed_commitment(seed)}）。 / seed does not match the commitment"
        )
    lines = [f"シードはコミットメント {committed} と一致します。"]
    options = options_by_turn(campaign)
    for turn in campaign.archived_turns():
        record = archived_yaml(campaign, turn, "dice.yaml")
        canonical = record.get("orders_canonical", "")
        if turn > 0:
            before = yamlio.load_plain(state_before(campaign, turn), "state.yaml")
            orders_text = archived(campaign, turn, "orders.txt")
            then = at_turn(campaign, options[turn])
            sources = sources_from_file(then, orders_text)
            if _has_npc(then) and before.get("winner") is None:
                found = _npc().npc_orders(then, before, seed, archived_meta(campaign, turn).get("npc"))
                _npc().check_same(turn, {n: d.record() for n, d in found.items()},
                                  archived_meta(campaign, turn).get("npc"))
                sources = _with_npc(sources, found)[0]
            recomputed = read_orders(then, sources, before).canonical
            if recomputed != canonical:
                raise PbfError(f"第{turn}ターンの行動の正規形が記録と違います。 / canonical orders differ")
        if record.get("orders_sha256") != sha256_hex(canonical):
            raise PbfError(f"第{turn}ターンの行動のハッシュが記録と違います。 / orders hash differs")
        fixed = [face - 1 for face in record.get("fixed", [])]
        draws = record.get("draws", [])
        stream = hmac_draws(turn_key(seed, turn, canonical))
        expected = fixed[: len(draws)] + [next(stream) for _ in range(max(0, len(draws) - len(fixed)))]
        if draws != expected:
            bad = next(i for i, (a, b) in enumerate(zip(draws, expected)) if a != b)
            raise PbfError(f"第{turn}ターンの{bad + 1}個目のダイスがシードから計算した値と違います。 / die {bad + 1} differs")
        # a draw is a die or one step of a shuffle; turn 0 draws only the first hands (product.md)
        if turn == 0 and draws:
            lines.append(f"開始時：最初の手札のシャッフルの乱数{len(draws)}個を確認しました。")
        elif turn > 0:
            given = f"（うち指定{len(fixed)}個）" if fixed else ""
            lines.append(f"第{turn}ターン：乱数{len(draws)}個{given}を確認しました。")
            older = _npc().older_search(archived_meta(campaign, turn).get("npc"))
            for name in archived_meta(campaign, turn).get("npc") or {}:
                lines.append(f"第{turn}ターン：NPC（{name}）の行動は以前の版の探索で決めたもので、計算し直せません。"
                             "コミットメントとソルトを確かめました。" if name in older else
                             f"第{turn}ターン：NPC（{name}）の行動を、前の状態とシードから計算し直して確かめました。")
    return lines


# -- replay on a redacted export -------------------------------------------------------------------

def public_replay(c: campaigns.Campaign) -> tuple[list[str], list[str]]:
    """What a redacted export allows to check, per turn: the archived orders read again give the
    canonical orders of ``dice.yaml`` and its hash; HP after = HP before − the damage events.
    Returns (differences, what was checked)."""
    options = campaigns.options_by_turn(c)
    checked: list[str] = []
    for turn in c.archived_turns():
        if turn == 0:
            continue
        where = f"{campaigns.HISTORY}/{campaigns.turn_dir_name(turn)}"
        before = yamlio.load_plain(campaigns.state_before(c, turn), where)
        after = campaigns.archived_yaml(c, turn, campaigns.STATE_FILE)
        record = campaigns.archived_yaml(c, turn, "dice.yaml")
        then = without_hand_check(campaigns.at_turn(c, options[turn]))
        orders_text = campaigns.archived(c, turn, "orders.txt")
        canonical = read_orders(then, sources_from_file(then, orders_text), before).canonical
        if canonical != record.get("orders_canonical") or sha256_hex(canonical) != record.get("orders_sha256"):
            return [f"第{turn}ターンの行動の読み（正規形）が記録 {where}/dice.yaml と違います。"], checked
        events = campaigns.archived_events(c, turn)
        for name, fighter in after.get("fighters", {}).items():
            lost = sum(e.get("amount", 0) for e in events if e.get("type") == "damage" and e.get("target") == name)
            if before["fighters"][name]["hp"] - lost != fighter["hp"]:
                return [f"第{turn}ターンの{name}のHPが、前のHPから受けたダメージを引いた値と違います（{where}）。"], checked
        checked.append(turn)
    return [], [str(t) for t in checked]
