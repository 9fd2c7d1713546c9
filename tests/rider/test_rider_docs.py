"""docs/rules/rider.md points at the cases and tests that pin each rule: every case it quotes is
in the file its key names (X: included), every test function it names is in the file its key names,
and the docs stand alone (no paths outside the repository)."""

from __future__ import annotations

import re

from ruamel.yaml import YAML

from rider_support import CASES, ROOT

DOC = (ROOT / "docs" / "rules" / "rider.md").read_text("utf-8")
CASE_FILES = {"A": "rules_attack", "M": "rules_movement", "C": "rules_cards", "T": "rules_turn", "X": "rules_multi",
              "OK": "orders_good", "BAD": "orders_bad"}
TEST_FILES = {"S": "test_rider_system.py", "D": "test_rider_demo.py", "MT": "test_rider_multi.py",
              "CLI": "test_rider_cli.py"}


def _names(stem: str) -> list[str]:
    cases = YAML(typ="safe").load((CASES / f"{stem}.yaml").read_text("utf-8"))
    return [str(c.get("name") or c.get("text")) for c in cases]


def test_every_quoted_case_is_in_the_file_its_key_names():
    refs = re.findall(r"\b(A|M|C|T|X|OK|BAD): ((?:\"[^\"]+\"(?:, )?)+)", DOC)
    assert len([r for r in refs if r[0] == "X"]) > 10
    for key, quoted in refs:
        names = _names(CASE_FILES[key])
        for name in re.findall(r"\"([^\"]+)\"", quoted):
            assert any(name.rstrip("…") in n for n in names), (key, name)


def test_every_named_test_function_is_in_the_file_its_key_names():
    refs = re.findall(r"\b(S|D|MT|CLI): ((?:`test_\w+`(?:, )?)+)", DOC)
    assert {key for key, _ in refs} == set(TEST_FILES)
    for key, named in refs:
        source = (ROOT / "tests" / "rider" / TEST_FILES[key]).read_text("utf-8")
        for name in re.findall(r"`(test_\w+)`", named):
            assert f"def {name}(" in source, (key, name)


def test_the_rules_doc_stands_alone():
    for text in (DOC, (ROOT / "README.md").read_text("utf-8")):
        assert "shared/" not in text and "spec/" not in text and "/work/" not in text
    assert "高速移動" in DOC and "not implemented" in DOC
    assert DOC.count("独自裁定") >= 15
