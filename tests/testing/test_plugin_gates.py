"""Which of a named target's gates the pytest plugin runs on the test's page, and which it
leaves to `argus gates`, said in the result, never skipped silently."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from argus.config import load_config
from argus.spec import View, load_spec
from argus.testing._assertion import SpecView, page_gates_for
from tests.support.habits import HABITS_SPEC, copy_habits


def _target_view(tmp_path: Path, gates: tuple[str, ...] | None) -> SpecView:
    root = copy_habits(tmp_path)
    spec = load_spec(root / HABITS_SPEC)
    targets = tuple(replace(t, gates=gates) if t.id == "list" else t for t in spec.targets)
    view = View("habits", "list", "populated", "light")
    return SpecView(replace(spec, targets=targets), view, load_config(root))


def test_page_gates_run_and_the_rest_are_named(tmp_path: Path) -> None:
    gates = ("a11y_ids", "focus_visible", "snapshot", "console", "build", "source_tokens")
    run, left = page_gates_for(_target_view(tmp_path, gates))
    assert run == ("a11y_ids", "focus_visible", "console", "source_tokens")
    assert left == ("build",)  # snapshot: compared here


def test_only_gates_needing_a_build_tool_or_lighthouse_are_left(tmp_path: Path) -> None:
    commands = ("build", "lint", "type_check", "flows", "lighthouse")
    gates = ("tell_tales", *commands, "focus_visible", "source_tokens")
    run, left = page_gates_for(_target_view(tmp_path, gates))
    assert run == ("tell_tales", "focus_visible", "source_tokens")
    assert left == commands


def test_a_target_of_page_gates_only_leaves_nothing(tmp_path: Path) -> None:
    run, left = page_gates_for(_target_view(tmp_path, ("axe", "snapshot")))
    assert (run, left) == (("axe",), ())
