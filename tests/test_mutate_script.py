"""scripts/mutate.py's counting (``make mutate``): which mutants are wording only, and how the
per-module score and strict score are computed from mutmut's statuses."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "mutate.py"


@pytest.fixture(scope="module")
def mutate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("argus_mutate_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def diff(old: str, new: str) -> str:
    return f"--- a.py\n+++ b.py\n@@ -1 +1 @@\n-{old}\n+{new}\n"


@pytest.mark.parametrize(
    ("old", "new", "wording"),
    [
        (
            '    raise InputError(f"{path}: not a list")',
            '    raise InputError(f"XX{path}: not a listXX")',
            True,
        ),
        ('    why = "no stop was on screen"', "    why = None", True),
        ('    kind = "axe"', '    kind = "XXaxeXX"', False),  # an identifier-like string: a value
        ("    limit = 3", "    limit = 4", False),
        ('    msg = "a b" if x else "c d"', '    msg = "XXa bXX" if y else "c d"', False),
        ('    return "a b", 1', '    return "a b", 2', False),
    ],
)
def test_only_a_single_prose_string_change_is_wording(
    mutate: ModuleType, old: str, new: str, wording: bool
) -> None:
    assert mutate.is_wording(diff(old, new)) is wording


def test_two_changed_lines_are_never_wording(mutate: ModuleType) -> None:
    two = '--- a\n+++ b\n-    a = "x y"\n-    b = "z w"\n+    a = "XXx yXX"\n+    b = "z w"\n'
    assert mutate.is_wording(two) is False


def test_the_score_leaves_out_equivalent_wording_and_unrun_and_strict_counts_all(
    mutate: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mutate, "equivalents", lambda: {"m.eq": "same behaviour", "m.k2": "x"})
    statuses = {
        "m.k1": "killed",
        "m.k2": "killed",  # listed as equivalent, but killed: counts as killed
        "m.t": "timeout",
        "m.s": "survived",
        "m.n": "no tests",
        "m.eq": "survived",
        "m.w": "wording (survived)",
        "m.u": "skipped",
    }
    table = mutate.summarise({"src/argus/x.py": statuses})
    row = next(line for line in table.splitlines() if line.startswith("| src/argus/x.py"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # mutants, killed (timeout too), survived (no tests too), equivalent, wording, not run
    assert cells[1:7] == ["8", "3", "2", "1", "1", "1"]
    assert cells[7] == "60.0 %"  # 3 / (3 + 2)
    assert cells[8] == "37.5 %"  # 3 / 8
    assert "- m.n (no tests)" in table and "- m.s (survived)" in table
    assert "m.eq" not in table.split("Surviving", 1)[1]
