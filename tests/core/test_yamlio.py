from pbf import yamlio


def test_merge_keeps_comments_and_key_order():
    doc = yamlio.load("turn: 1  # GMメモ\nfighters:\n  美鈴:\n    hp: 20  # 回復した\n    hand: [弱, 強]\n", "x")
    yamlio.merge_into(doc, {"turn": 2, "fighters": {"美鈴": {"hp": 17, "hand": ["弱"]}}, "winner": None})
    text = yamlio.dump(doc)
    assert text == "turn: 2  # GMメモ\nfighters:\n  美鈴:\n    hp: 17  # 回復した\n    hand: [弱]\nwinner: null\n"


def test_dump_keeps_japanese_readable():
    text = yamlio.dump(yamlio.merge_into(None, {"名前": "美鈴", "list": [{"a": "→"}]}))
    assert "美鈴" in text and "\\u" not in text


def test_malformed_yaml_gives_line_and_column():
    import pytest
    from pbf.errors import PbfError

    with pytest.raises(PbfError) as info:
        yamlio.load("turn: 1\nfighters: [\n  x: : :\n", "state.yaml")
    assert info.value.problems[0].line is not None
    assert "state.yaml" in info.value.problems[0].message
