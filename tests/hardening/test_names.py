"""Point 5 of issue 12: player names are checked at ``pbf new``; notice file names are unique."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbf import campaign as campaigns

from .conftest import fuzz_examples


@pytest.mark.parametrize(
    "name, why",
    [
        ("a/b", "'/'"),
        ("a:b", "':'"),
        ("美鈴]", "']'"),
        ("美鈴】", "'】'"),
        ("美鈴］", "']'"),  # NFKC: ］ is ]
        ("【美鈴", "'【'"),
        ("a\\b", "'\\\\'"),
        ("ああ\x1bあ", "'\\x1b'"),
        ("あ" * 90, "長すぎます（90文字、24文字まで）"),
    ],
)
def test_new_refuses_a_name_that_cannot_head_an_order_or_name_a_file(tmp_path, pbf, name, why):
    code, out, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", f"{name}=plain",
                         "--player", "B=plain")
    assert code == 1
    assert "プレイヤー名が使えません" in err and why in err
    assert "Traceback" not in err
    assert not (tmp_path / "c").exists()


def test_a_name_of_24_kana_plays_a_private_hands_turn(tmp_path, pbf):
    name = "あ" * campaigns.MAX_NAME
    code, _, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", f"{name}=plain",
                       "--player", "B=plain")
    assert code == 0, err
    notices = list((tmp_path / "c" / "history" / "0000" / "notices").iterdir())
    assert sorted(p.name for p in notices) == sorted([f"{name}.txt", "B.txt"])


def test_names_that_shared_a_notice_file_get_their_own():
    names = ["a/b", "a:b", "a_b", "a%2Fb", "a*b", "a?b"]
    files = {campaigns.safe_filename(n) for n in names}
    assert len(files) == len(names)
    assert all("/" not in f and ":" not in f for f in files)


@settings(max_examples=fuzz_examples(), deadline=None)
@given(st.lists(st.text(min_size=1, max_size=120), min_size=2, max_size=2, unique=True))
def test_notice_file_names_are_unique_short_and_plain(names):
    a, b = (campaigns.safe_filename(n) for n in names)
    assert a != b
    for f in (a, b):
        assert len(f.encode("utf-8")) <= 200 + 13
        assert not any(ch in f for ch in '/\\\x00') and not f.startswith(".")
