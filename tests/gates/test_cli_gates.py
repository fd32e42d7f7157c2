from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from argus.spec import View
from tests.conftest import RunArgus
from tests.gates.probes import el, page
from tests.gates.test_runner import CONTRACT_IDS
from tests.support.habits import copy_habits
from tests.support.sensed import seal_sensed

GATES = '["token_contrast", "a11y_ids", "axe", "console", "token_compliance"]'


def project(tmp_path: Path, page_errors: int = 0) -> tuple[Path, Path]:
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    config.write_text(re.sub(r"enabled = \[.*\]", f"enabled = {GATES}", config.read_text()))
    sensed = tmp_path / "sensed"
    sensed.mkdir()
    probe = page(*(el("div", testid=t) for t in CONTRACT_IDS), body_bg="rgb(245, 246, 248)")
    console = {"messages": [], "page_errors": [{"text": "x"}] * page_errors}
    (sensed / "probe.json").write_text(json.dumps(probe))
    (sensed / "console.json").write_text(json.dumps(console))
    (sensed / "axe.json").write_text(json.dumps({"violations": [], "incomplete": []}))
    seal_sensed(sensed, View("habits", "list", "populated", "light"))
    return root, sensed


VIEW = ("--feature", "habits", "--target", "list", "--state", "populated", "--appearance", "light")


def test_green_view_exits_0_and_writes_gate_result(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = project(tmp_path)
    out = tmp_path / "out"
    done = run_argus("gates", *VIEW, "--sensed", str(sensed), "--out", str(out), cwd=root)
    assert done.returncode == 0, done.stderr
    assert "all green" in done.stdout
    result = json.loads((out / "gate-result.json").read_text())
    assert result["all_green"] is True
    assert set(result["gates"]) == set(json.loads(GATES))


def test_red_gate_exits_1_and_names_it(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = project(tmp_path, page_errors=1)
    done = run_argus("gates", *VIEW, "--sensed", str(sensed), "--json", cwd=root)
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["gates"]["console"] == "fail" and result["all_green"] is False
    # Default --out: the view's run directory in the spec folder.
    written = root / "argus/specs/habits/.argus-runs/list-populated-light/gate-result.json"
    assert json.loads(written.read_text())["all_green"] is False


def test_bad_input_exits_2_with_one_line(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = project(tmp_path)
    wrong = [a if a != "populated" else "loading" for a in VIEW]
    done = run_argus("gates", *wrong, "--sensed", str(sensed), cwd=root)
    assert done.returncode == 2
    assert done.stderr.startswith("argus: ") and "no state 'loading'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    missing = run_argus("gates", *VIEW, "--sensed", str(tmp_path / "nope"), cwd=root)
    assert missing.returncode == 2 and "no sensed directory" in missing.stderr
    unknown = run_argus(
        "gates", *VIEW[:1], "shopping", *VIEW[2:], "--sensed", str(sensed), cwd=root
    )
    assert unknown.returncode == 2 and unknown.stderr.startswith("argus: ")


@pytest.mark.browser
@pytest.mark.parametrize(("defects", "code"), [((), 0), (("missing_id",), 1)])
def test_sense_then_gate(tmp_path: Path, run_argus: RunArgus, defects: tuple, code: int) -> None:
    """--sense starts the example's web server and a browser, renders, gates, exits 0 or 1."""
    root = copy_habits(tmp_path, defects)
    out = tmp_path / "out"
    done = run_argus("gates", *VIEW, "--sense", "--out", str(out), "--json", cwd=root)
    assert done.returncode == code, done.stderr
    result = json.loads(done.stdout)
    assert (out / "render.png").is_file() and (out / "probe.json").is_file()
    missing = result["gates"]["a11y_ids"]["missing"]
    assert missing == (["habits.title"] if defects else [])


def _meta(sensed: Path, state: str, appearance: str = "light") -> None:
    view = {"feature": "habits", "target": "list", "state": state, "appearance": appearance}
    slug = f"list-{state}-{appearance}"
    (sensed / "meta.json").write_text(json.dumps({"version": 1, "view": {**view, "slug": slug}}))


def test_sensed_files_of_another_view_are_exit_2(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = project(tmp_path)
    _meta(sensed, "empty", "dark")
    done = run_argus("gates", *VIEW, "--sensed", str(sensed), cwd=root)
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: ")
    assert "list-empty-dark" in lines[0] and "list-populated-light" in lines[0]
    seal_sensed(sensed, View("habits", "list", "populated", "light"))
    same = run_argus("gates", *VIEW, "--sensed", str(sensed), cwd=root)
    assert same.returncode == 0, same.stderr


@pytest.mark.browser
def test_gates_all_after_a_loop_senses_what_has_no_sensed_files(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    """A loop keeps its renders in iteration-N/ under the view's run directory; `gates --all`
    afterwards finds no sensed files there, says so and senses the view, instead of failing
    on a missing meta.json."""
    root = copy_habits(tmp_path)
    runs = root / "argus/specs/habits/.argus-runs"
    (runs / "add-open-light" / "iteration-1").mkdir(parents=True)
    (runs / "add-open-light" / "state.json").write_text("{}")
    done = run_argus("gates", "--feature", "habits", "--target", "add", "--all", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    assert "add-open-light: nothing sensed in its run directory yet" in done.stderr
    assert (runs / "add-open-light" / "meta.json").is_file()
    assert (runs / "add-open-light" / "gate-result.json").is_file()
    again = run_argus("gates", "--feature", "habits", "--target", "add", "--all", cwd=root)
    assert "sensing it now" not in again.stderr  # now there is evidence: it is gated as is
    assert again.returncode == done.returncode
