"""pbf export: the public copy holds what the thread has seen and nothing more (docs/archive.md)."""

from __future__ import annotations

import hashlib

from pbf import yamlio

from archive_support import SEED, run


def files_of(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def keys_anywhere(value):
    if isinstance(value, dict):
        yield from value
        for v in value.values():
            yield from keys_anywhere(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_anywhere(v)


def test_no_secret_reaches_the_export_of_a_running_private_hands_battle(tmp_path, capsys, private_running):
    c = private_running
    (c / "gm-notes.txt").write_text("楓は次に↑を出すはず", "utf-8")  # a GM's own file
    (c / "history" / "0001" / "memo.txt").write_text("GMメモ", "utf-8")
    before = files_of(c)
    code, out, err = run(capsys, "export", c, tmp_path / "public")
    assert code == 0, err
    assert "手札は伏せました" in out
    assert files_of(c) == before  # the campaign is untouched
    exported = files_of(tmp_path / "public")
    for name, data in exported.items():
        assert SEED.encode() not in data, name
        assert "GMメモ".encode() not in data and "楓は次に".encode() not in data, name
        if name.endswith(".yaml") and name != "export.yaml":  # export.yaml says seed: secret
            keys = set(keys_anywhere(yamlio.load_plain(data.decode("utf-8"), name)))
            assert not keys & {"hand", "deck", "discard", "draws", "seed"}, name
    assert not any("notices/" in n or n.endswith("gm-notes.txt") or n.endswith("memo.txt") for n in exported)
    assert "seed" not in exported["campaign.toml"].decode("utf-8")
    assert b"seed: secret\nhands: hidden\n" in exported["export.yaml"]
    # the posts are copied byte for byte, the commitment is kept
    assert exported["history/0001/post.txt"] == before["history/0001/post.txt"]
    assert b"seed_sha256: " + hashlib.sha256(SEED.encode()).hexdigest().encode() in exported["history/0000/dice.yaml"]


def test_replay_and_check_work_on_a_redacted_export(tmp_path, capsys, private_running):
    public = tmp_path / "public"
    assert run(capsys, "export", private_running, public)[0] == 0
    code, out, err = run(capsys, "replay", public)
    assert code == 0, err
    assert "手札が伏せてある" in out and "2ターン分" in out
    code, out, _ = run(capsys, "check", public, "--player", "美鈴", "↑→弱")
    assert code == 0 and "手札にそのカードがあるかは確かめていません" in out
    code, _, err = run(capsys, "check", public, "--player", "美鈴", "弱x")
    assert code == 1 and "2文字目" in err and "Traceback" not in err
    # a record that does not hold together is found
    orders = public / "history" / "0002" / "orders.txt"
    orders.write_text("[美鈴]弱\n[楓]\n", "utf-8")
    code, _, err = run(capsys, "replay", public)
    assert code == 1 and "第2ターン" in err


def test_a_finished_battle_shows_its_hands_and_replays_in_full_unless_told_never(tmp_path, capsys, private_finished):
    code, out, err = run(capsys, "export", private_finished, tmp_path / "shown")
    assert code == 0 and "手札は見せています" in out, err
    assert "hand:" in (tmp_path / "shown" / "state.yaml").read_text("utf-8")
    code, out, err = run(capsys, "replay", tmp_path / "shown")
    assert code == 0 and "すべて記録と一致" in out, err
    code, out, _ = run(capsys, "export", private_finished, tmp_path / "never", "--hands", "never")
    assert code == 0 and "手札は伏せました" in out
    assert "hand:" not in (tmp_path / "never" / "state.yaml").read_text("utf-8")


def test_the_seed_is_exported_only_when_revealed_and_matching(tmp_path, capsys, private_finished, private_running):
    code, _, err = run(capsys, "export", private_finished, tmp_path / "wrong", "--seed", "not-the-seed")
    assert code == 1 and "コミットメント" in err and not (tmp_path / "wrong").exists()
    code, out, err = run(capsys, "export", private_finished, tmp_path / "revealed", "--seed", SEED)
    assert code == 0 and "pbf verify" in out, err
    assert f'seed = "{SEED}"' in (tmp_path / "revealed" / "campaign.toml").read_text("utf-8")
    code, out, err = run(capsys, "verify", tmp_path / "revealed")
    assert code == 0 and "すべてのダイス" in out, err


def test_a_seed_cannot_be_revealed_while_hands_are_hidden(tmp_path, capsys, private_running):
    code, _, err = run(capsys, "export", private_running, tmp_path / "out", "--seed", SEED)
    assert code == 1 and "手札を伏せたまま" in err and not (tmp_path / "out").exists()


def test_export_refuses_a_non_empty_folder_and_replays_a_demo(tmp_path, capsys, demo_folders):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x", "utf-8")
    code, _, err = run(capsys, "export", demo_folders[1], tmp_path / "full")
    assert code == 1 and "空ではありません" in err
    for folder in demo_folders:
        out = tmp_path / folder.name
        assert run(capsys, "export", folder, out)[0] == 0
        code, text, err = run(capsys, "replay", out)
        assert code == 0 and "すべて記録と一致" in text, err
        assert folder.joinpath("campaign.toml").read_text("utf-8").count("seed") >= 1
        assert "seed =" not in (out / "campaign.toml").read_text("utf-8")
