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
    monkeypatch.setattr(
        mutate, "equivalents", lambda: {"key-m.eq": "same behaviour", "key-m.k2": "x"}
    )
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
    keys = {name: f"key-{name}" for name in statuses}
    table, _ = mutate.summarise({"src/argus/x.py": statuses}, {"src/argus/x.py": keys})
    row = next(line for line in table.splitlines() if line.startswith("| src/argus/x.py"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # mutants, killed (timeout too), survived (no tests too), equivalent, wording, not run
    assert cells[1:7] == ["8", "3", "2", "1", "1", "1"]
    assert cells[7] == "60.0 %"  # 3 / (3 + 2)
    assert cells[8] == "37.5 %"  # 3 / 8
    assert "- m.n (no tests)" in table and "- m.s (survived)" in table
    assert "m.eq" not in table.split("Surviving", 1)[1]


# What mutmut writes in .mutate/<module>/mutants/src/...: each mutated function's original as
# x_f__mutmut_orig, its mutants numbered in order, a method's names carrying its class.
GENERATED = """
def f(a, b):
    return _trampoline(a, b)


def x_f__mutmut_orig(a, b):
    total = a + b
    if total > 3:
        return total
    return 0


def x_f__mutmut_1(a, b):
    total = a - b
    if total > 3:
        return total
    return 0


def x_f__mutmut_2(a, b):
    total = a + b
    if total >= 3:
        return total
    return 0


class C:
    def xǁCǁm__mutmut_orig(self):
        return self.n + 1

    def xǁCǁm__mutmut_1(self):
        return self.n - 1
"""

# The same module after an edit above the comparison: mutmut renumbers f's mutants.
RENUMBERED = (
    GENERATED.replace("def x_f__mutmut_2(", "def x_f__mutmut_3(").replace(
        "def x_f__mutmut_1(", "def x_f__mutmut_2("
    )
    + """

def x_f__mutmut_1(a, b):
    total = None
    if total > 3:
        return total
    return 0
"""
)


def test_a_mutant_is_keyed_by_its_change_not_its_number(mutate: ModuleType) -> None:
    before = mutate.mutant_keys("src/argus/a/b.py", GENERATED)
    after = mutate.mutant_keys("src/argus/a/b.py", RENUMBERED)
    assert set(before) == {
        "argus.a.b.x_f__mutmut_1",
        "argus.a.b.x_f__mutmut_2",
        "argus.a.b.xǁCǁm__mutmut_1",
    }
    assert before["argus.a.b.x_f__mutmut_2"] == after["argus.a.b.x_f__mutmut_3"]  # >= 3, moved
    assert before["argus.a.b.x_f__mutmut_1"] == after["argus.a.b.x_f__mutmut_2"]  # a - b, moved
    assert after["argus.a.b.x_f__mutmut_1"] not in before.values()  # total = None, new
    assert len(set(after.values())) == 4
    assert before["argus.a.b.x_f__mutmut_2"].startswith("argus.a.b.x_f@")
    assert before["argus.a.b.xǁCǁm__mutmut_1"].startswith("argus.a.b.xǁCǁm@")


def test_a_mutants_change_is_its_lines_with_one_line_of_context(mutate: ModuleType) -> None:
    changes = mutate.mutant_changes(GENERATED)
    assert changes["x_f__mutmut_2"] == [
        " total = a + b",
        "-if total > 3:",
        "+if total >= 3:",
        " return total",
    ]
    assert changes["xǁCǁm__mutmut_1"] == [
        " def xǁCǁm(self):",
        "-return self.n + 1",
        "+return self.n - 1",
    ]


def test_the_same_change_in_two_places_gets_two_keys(mutate: ModuleType) -> None:
    twice = """
def x_g__mutmut_orig(a):
    save(a)
    log()
    save(a)
    flush()

def x_g__mutmut_1(a):
    save(None)
    log()
    save(a)
    flush()

def x_g__mutmut_2(a):
    save(a)
    log()
    save(None)
    flush()
"""
    keys = mutate.mutant_keys("src/argus/g.py", twice)
    assert keys["argus.g.x_g__mutmut_1"] != keys["argus.g.x_g__mutmut_2"]  # context differs
    # The same change amid the same lines (mutmut makes the same mutant twice): order decides.
    same = twice.replace(
        "def x_g__mutmut_2(a):\n    save(a)\n    log()\n    save(None)",
        "def x_g__mutmut_2(a):\n    save(None)\n    log()\n    save(a)",
    )
    keys = mutate.mutant_keys("src/argus/g.py", same)
    first, second = keys["argus.g.x_g__mutmut_1"], keys["argus.g.x_g__mutmut_2"]
    assert second == first + "#2"  # the same lines around it: told apart by order


def test_module_names_are_mutmuts(mutate: ModuleType) -> None:
    assert mutate.module_name("src/argus/judge/metric/__init__.py") == "argus.judge.metric"
    assert mutate.module_name("src/argus/diff/_kernel.py") == "argus.diff._kernel"
    assert mutate.key_module("argus.diff._kernel.x_pair_runs@0123456789") == "argus.diff._kernel"
    assert mutate.key_module("argus.a.xǁCǁm__mutmut_4") == "argus.a"


def test_the_equivalents_file_keeps_each_reason(mutate: ModuleType) -> None:
    text = "# header\n\nargus.a.x_f@0123456789  a - b reads the same: b is 0\n"
    assert mutate.parse_equivalents(text) == {
        "argus.a.x_f@0123456789": "a - b reads the same: b is 0"
    }


def test_an_entry_that_marks_no_mutant_is_stale(mutate: ModuleType) -> None:
    keys = mutate.mutant_keys("src/argus/a/b.py", GENERATED)
    live = keys["argus.a.b.x_f__mutmut_2"]
    known = {
        live: "equivalent",
        "argus.a.b.x_f@ffffffffff": "the change is gone",
        "argus.a.b.x_f__mutmut_1": "an old numbered entry",
        "argus.other.x_f@ffffffffff": "another module's entry",
    }
    stale = mutate.stale_entries("src/argus/a/b.py", keys, known)
    assert len(stale) == 2
    assert stale[0].startswith("argus.a.b.x_f@ffffffffff (no mutant of src/argus/a/b.py")
    assert stale[1].startswith("argus.a.b.x_f__mutmut_1 (a mutmut number")
    unkeyed = mutate.stale_entries("src/argus/a/b.py", None, known)
    assert len(unkeyed) == 3 and all("not checked" in s for s in unkeyed)
    assert mutate.stale_entries("src/argus/none.py", keys, known) == []


def test_equivalents_count_by_key_and_stale_entries_are_reported(
    mutate: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = mutate.mutant_keys("src/argus/a/b.py", GENERATED)
    f1, f2, m1 = "argus.a.b.x_f__mutmut_1", "argus.a.b.x_f__mutmut_2", "argus.a.b.xǁCǁm__mutmut_1"
    known = {keys[f2]: "why", keys[m1]: "why", "argus.a.b.x_f@ffffffffff": "gone"}
    monkeypatch.setattr(mutate, "equivalents", lambda: known)
    statuses = {f1: "survived", f2: "survived", m1: "killed"}
    text, stale = mutate.summarise({"src/argus/a/b.py": statuses}, {"src/argus/a/b.py": keys})
    row = next(line for line in text.splitlines() if line.startswith("| src/argus/a/b.py"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:5] == ["3", "1", "1", "1"]  # mutants, killed, survived, equivalent
    gone = "argus.a.b.x_f@ffffffffff (no mutant of src/argus/a/b.py makes this change now)"
    assert stale == [f"- src/argus/a/b.py: {gone}"]
    assert "STALE: 1 entries" in text and stale[0] in text
    assert f"- {keys[m1]} ({m1})" in text.split("killed (the entry can go)", 1)[1]
    assert f"- {f1} (survived) key {keys[f1]}" in text
    # The same statuses renumbered: the entry still marks the >= mutant, now number 3.
    moved = mutate.mutant_keys("src/argus/a/b.py", RENUMBERED)
    renumbered = {"argus.a.b.x_f__mutmut_3": "survived", "argus.a.b.x_f__mutmut_2": "survived"}
    text, _ = mutate.summarise({"src/argus/a/b.py": renumbered}, {"src/argus/a/b.py": moved})
    row = next(line for line in text.splitlines() if line.startswith("| src/argus/a/b.py"))
    assert [c.strip() for c in row.strip("|").split("|")][1:5] == ["2", "0", "1", "1"]


def test_a_run_with_a_stale_entry_says_so_and_exits_1(
    mutate: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    equivalent = tmp_path / "equivalent.txt"
    equivalent.write_text("argus.verdict.x_f@ffffffffff  the change is gone\n", "utf-8")
    monkeypatch.setattr(mutate, "OUT", tmp_path / "out")
    monkeypatch.setattr(mutate, "EQUIVALENT", equivalent)
    monkeypatch.setattr(
        mutate, "run_module", lambda *a, **k: {"argus.verdict.x_f__mutmut_1": "killed"}
    )
    monkeypatch.setattr(
        mutate,
        "module_keys",
        lambda m: {"argus.verdict.x_f__mutmut_1": "argus.verdict.x_f@0123456789"},
    )
    assert mutate.main(["--collect", "src/argus/verdict.py=tests/verdict"]) == 1
    err = capsys.readouterr().err
    assert "1 stale entries" in err and "argus.verdict.x_f@ffffffffff" in err
    assert "STALE" in (tmp_path / "out" / "summary.md").read_text("utf-8")
    equivalent.write_text("argus.verdict.x_f@0123456789  listed and killed\n", "utf-8")
    assert mutate.main(["--collect", "src/argus/verdict.py=tests/verdict"]) == 0
