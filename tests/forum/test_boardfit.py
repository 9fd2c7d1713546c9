import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbf.board.boardfit import CP932_MAP, board_bytes, board_lines, board_safe, cp932_safe, fits, join_parts, split_post, survives, unsafe_chars
from pbf.errors import PbfError
from pbf.board.forum import results_marker_line


def test_every_mapped_target_survives_cp932():
    for source, target in CP932_MAP.items():
        assert not survives(source), f"U+{ord(source):04X} needs no mapping"
        assert survives(target), f"U+{ord(source):04X} → {target!r} does not survive"


def test_known_mappings():
    assert cp932_safe("〜−‖—¢£¬") == "～－∥―￠￡￢"
    assert cp932_safe("弱→強　ＨＰ－３") == "弱→強　ＨＰ－３"  # already safe: unchanged
    out = cp932_safe("café ½ 😀 ♥")
    assert survives(out) and out.startswith("cafe ")
    assert out.endswith("〓 〓")


def test_unsafe_chars_and_other_encodings():
    assert unsafe_chars("a〜b−〜") == ["〜", "−"]
    assert board_safe("〜😀", "utf-8") == "〜😀"
    assert survives(board_safe("〜—é", "shift_jis"), "shift_jis")


@given(st.text(max_size=40))
def test_cp932_safe_always_survives(text):
    # the oracle is the codec itself, not survives(): the text must encode and come back unchanged
    safe = cp932_safe(text)
    assert safe.encode("cp932").decode("cp932") == safe
    try:
        unchanged = text.encode("cp932").decode("cp932") == text and not unsafe_chars(text)
    except UnicodeEncodeError:
        unchanged = False
    if unchanged:  # a text that is already safe is left alone
        assert safe == text


def test_board_counting():
    assert board_bytes("あ") == 2
    assert board_bytes("a\nb") == 6  # newline as <br>
    assert board_bytes("a\nb", newline="\n") == 3
    assert board_bytes("<&>") == len("&lt;&amp;&gt;")
    assert board_bytes("<&>", html=False) == 3
    assert board_lines("a\nb\n") == 3
    with pytest.raises(PbfError) as e:
        board_bytes("😀")
    assert "cp932" in str(e.value)


def test_short_post_is_one_part_without_numbering():
    footer = results_marker_line(1)
    assert split_post(["一", "二"], 10, 1000, footer=footer) == [f"一\n二\n{footer}"]
    assert split_post(["一", "二"], None, None) == ["一\n二"]
    assert split_post([], 5, 100) == [""]


def test_split_at_step_boundaries():
    blocks = ["1手目：美鈴の弱", "2手目：咲夜の強", "3手目：美鈴の→"]
    posts = split_post(blocks, max_lines=3, max_bytes=None, footer="［pbf］第1ターン結果")
    assert posts == [
        "（1/3）\n1手目：美鈴の弱\n［pbf］第1ターン結果",
        "（2/3）\n2手目：咲夜の強\n［pbf］第1ターン結果",
        "（3/3）\n3手目：美鈴の→\n［pbf］第1ターン結果",
    ]
    two = split_post(blocks + ["4手目"], max_lines=1 + 2, max_bytes=None)
    assert two == ["（1/2）\n1手目：美鈴の弱\n2手目：咲夜の強", "（2/2）\n3手目：美鈴の→\n4手目"]


def test_oversized_block_splits_at_lines():
    block = "\n".join(f"行{i}" for i in range(1, 8))
    posts = split_post(["前", block, "後"], max_lines=4, max_bytes=None)
    assert posts == ["（1/4）\n前", "（2/4）\n行1\n行2\n行3", "（3/4）\n行4\n行5\n行6", "（4/4）\n行7\n後"]
    assert join_parts(posts) == "\n".join(["前", block, "後"])
    assert all(board_lines(p) <= 4 for p in posts)


def test_numbering_width_grows_with_part_count():
    blocks = [f"{i:02d}" for i in range(12)]
    posts = split_post(blocks, max_lines=None, max_bytes=len("（10/12）".encode("cp932")) + 4 + 2)
    assert len(posts) == 12 and posts[-1] == "（12/12）\n11"
    assert all(fits(p, None, 16) for p in posts)


def test_custom_numbering():
    posts = split_post(["a", "b", "c"], 2, None, numbering=lambda i, n: f"[{i}of{n}]")
    assert posts == ["[1of3]\na", "[2of3]\nb", "[3of3]\nc"]


def test_line_too_long_and_limits_too_small():
    with pytest.raises(PbfError) as e:
        split_post(["短い", "あ" * 100], None, 50)
    assert "1行" in str(e.value)
    with pytest.raises(PbfError) as e:
        split_post(["a", "b"], 2, None, footer="［pbf］第1ターン結果")
    assert "小さすぎ" in str(e.value)


_ALPHABET = st.sampled_from(list("あいう弱強→↑ab<&> ＜〜") + ["\n"])
_block = st.text(alphabet=_ALPHABET, max_size=30)


@settings(max_examples=300, deadline=None)
@given(
    blocks=st.lists(_block, max_size=12),
    max_lines=st.one_of(st.none(), st.integers(3, 12)),
    max_bytes=st.one_of(st.none(), st.integers(20, 200)),
    use_footer=st.booleans(),
)
def test_split_post_properties(blocks, max_lines, max_bytes, use_footer):
    footer = results_marker_line(7) if use_footer else None
    try:
        posts = split_post(blocks, max_lines, max_bytes, footer=footer)
    except PbfError:
        # only when a single line (with numbering and footer) cannot fit an empty part
        header = "（99/99）"
        extra = [header] + ([footer] if footer else [])
        assert any(
            not fits("\n".join([header, line] + extra[1:]), max_lines, max_bytes)
            for block in (blocks or [""])
            for line in block.split("\n")
        ) or not fits("\n".join(extra + [""]), max_lines, max_bytes)
        return
    assert posts
    for post in posts:
        assert fits(post, max_lines, max_bytes)
        if footer:
            assert post.endswith("\n" + footer) or post == footer
    assert join_parts(posts, footer=footer) == "\n".join(blocks)
    if len(posts) > 1:
        assert all(p.startswith(f"（{i}/{len(posts)}）\n") for i, p in enumerate(posts, 1))
