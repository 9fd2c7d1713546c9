"""docs/rules/ says which test covers which rule: every test it names must exist."""

import re
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
TEST_FUNCTIONS = {
    name for path in (ROOT / "tests").rglob("*.py") for name in re.findall(r"def (test_\w+)", path.read_text("utf-8"))
}


def case_names(path: Path) -> set[str]:
    data = YAML(typ="safe").load(path.read_text("utf-8")) or []
    if isinstance(data, dict):  # a file of cases under a key
        data = next((v for v in data.values() if isinstance(v, list)), [])
    return {str(case["name"]) for case in data if isinstance(case, dict) and "name" in case}


def named_functions(doc: str) -> set[str]:
    return set(re.findall(r"`(?:[\w/.]+::)?(test_\w+)(?:…)?`", doc))


def test_every_test_function_named_in_the_rules_docs_exists():
    for doc_path in (ROOT / "docs" / "rules").glob("*.md"):
        doc = doc_path.read_text("utf-8")
        names = named_functions(doc)
        assert names, doc_path
        for name in names:
            assert name in TEST_FUNCTIONS or any(t.startswith(name) for t in TEST_FUNCTIONS), (doc_path.name, name)


def test_every_alterego_case_named_exists():
    doc = (ROOT / "docs" / "rules" / "alterego.md").read_text("utf-8")
    refs = [ref for ref in re.findall(r"cases/(\w+):([\w\-]+)", doc) if ref[0] != "FILE"]
    assert len(refs) > 20
    by_file = {file: case_names(ROOT / "tests" / "alterego" / "cases" / f"{file}.yaml") for file in {f for f, _ in refs}}
    for file, name in refs:
        names = by_file[file]
        assert name in names or (name.endswith("-") and any(n.startswith(name) for n in names)), (file, name)


def test_every_rider_case_named_exists():
    """The rider doc quotes its cases by name, or by a telling part of the name."""
    doc = (ROOT / "docs" / "rules" / "rider.md").read_text("utf-8")
    files = {"A": "rules_attack", "M": "rules_movement", "C": "rules_cards", "T": "rules_turn",
             "OK": "orders_good", "BAD": "orders_bad"}
    cases = {key: case_names(ROOT / "tests" / "rider" / "cases" / f"{file}.yaml") for key, file in files.items()}
    every = {n for p in (ROOT / "tests" / "rider" / "cases").glob("*.yaml") for n in case_names(p)}
    refs = re.findall(r"\b(A|M|C|T|OK|BAD): ((?:\"[^\"]+\"(?:, )?)+)", doc)
    assert len(refs) > 20
    for key, quoted in refs:
        for name in (n.rstrip("…") for n in re.findall(r"\"([^\"]+)\"", quoted)):
            if name.startswith(("all ", "every ")):
                continue  # "all three initiative cases": a group, named in words
            assert any(name in n for n in cases[key] | every), (key, name)
