"""`argus judge` through the real CLI: files, run store entry, exit codes, one-line errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from argus.sense.attempt import begin_attempt, fail_attempt
from argus.spec import View, load_spec
from argus.store import RunStore
from tests.conftest import RunArgus
from tests.judge.conftest import derived_gate_result, png, small_probe
from tests.support.habits import HABITS_SPEC
from tests.support.sensed import seal_sensed

VIEW = ("--feature", "habits", "--target", "list", "--state", "populated", "--appearance", "light")
RUN_DIR = Path("argus/specs/habits/.argus-runs/list-populated-light")


def _only_gates(root: Path, names: list[str]) -> None:
    """Configure the copy's gate list (the hand-made probe passes only page-blind gates)."""
    config = root / "argus.toml"
    lines = config.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("enabled = "))
    lines[at] = f"enabled = {json.dumps(names)}"
    config.write_text("\n".join(lines) + "\n")


def _sensed(root: Path, gates: dict[str, object] | None = None) -> Path:
    run_dir = root / RUN_DIR
    run_dir.mkdir(parents=True)
    (run_dir / "probe.json").write_text(json.dumps(small_probe()))
    png(run_dir / "render.png")
    seal_sensed(run_dir, View("habits", "list", "populated", "light"))
    _only_gates(root, ["token_contrast"])
    if gates is None:
        spec = load_spec(root / HABITS_SPEC)
        gates = derived_gate_result(spec, View("habits", "list", "populated", "light"), run_dir)
    (run_dir / "gate-result.json").write_text(json.dumps(gates))
    return run_dir


def test_a_failing_dimension_exits_1_and_is_recorded(
    run_argus: RunArgus, habits_root: Path
) -> None:
    run_dir = _sensed(habits_root)
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 1, result.stderr
    assert "functional_correctness" in result.stdout and "FAIL" in result.stdout
    verdict = json.loads((run_dir / "verdict.json").read_text())
    assert verdict["backend"] == "metric" and verdict["iteration"] == 1
    assert "functional_correctness" in verdict["failed_dimensions"]
    assert (run_dir / "packet" / "manifest.json").is_file()
    with RunStore.open(habits_root) as store:
        (event,) = store.events(feature="habits", kind="verdict")
    assert (
        event.iteration == 1 and event.payload["failed_dimensions"] == verdict["failed_dimensions"]
    )
    again = run_argus("judge", *VIEW, "--json", cwd=habits_root)
    assert json.loads(again.stdout)["iteration"] == 2  # the next iteration by default


def test_after_a_failed_sense_the_older_render_is_never_judged(
    run_argus: RunArgus, habits_root: Path
) -> None:
    run_dir = _sensed(habits_root)
    judged = run_argus("judge", *VIEW, cwd=habits_root)
    assert judged.returncode in (0, 1), judged.stderr  # a verdict on the view's latest sense
    (run_dir / "verdict.json").unlink()
    # The next sense fails (a state's step did nothing): the files left are the older render's.
    fail_attempt(run_dir, begin_attempt(run_dir), "list-populated-light: step 1 click did nothing")
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("argus: ") and len(result.stderr.strip().splitlines()) == 1
    assert "list-populated-light" in result.stderr and "failed" in result.stderr
    assert "argus gates --sense" in result.stderr
    assert not (run_dir / "verdict.json").exists()


def test_red_gates_exit_2_with_one_line(run_argus: RunArgus, habits_root: Path) -> None:
    _sensed(
        habits_root,
        {"feature": "habits", "target": "list", "gates": {"axe": "fail"}, "all_green": True},
    )
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 2
    assert result.stderr.startswith("argus: ") and len(result.stderr.strip().splitlines()) == 1
    assert "axe" in result.stderr and "red" in result.stderr
    assert not (habits_root / RUN_DIR / "verdict.json").exists()


def test_a_gate_result_missing_a_configured_gate_exits_2(
    run_argus: RunArgus, habits_root: Path
) -> None:
    _sensed(habits_root)
    _only_gates(habits_root, ["token_contrast", "source_tokens"])
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "source_tokens" in result.stderr and "did not run" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--state", "nowhere"), "nowhere"),
        (("--backend", "oracle"), "unknown judge 'oracle'"),
        (("--iteration", "0"), "--iteration: '0' must be 1 or more"),
    ],
)
def test_bad_input_exits_2(
    run_argus: RunArgus, habits_root: Path, args: tuple[str, ...], message: str
) -> None:
    _sensed(habits_root)
    view = list(VIEW)
    if args[0] == "--state":
        view[view.index("--state") + 1] = args[1]
        args = ()
    result = run_argus("judge", *view, *args, cwd=habits_root)
    assert result.returncode == 2
    assert result.stderr.startswith("argus: ") and message in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_sensed_files_exit_2(run_argus: RunArgus, habits_root: Path) -> None:
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 2 and "sense the view first" in result.stderr
    run_dir = habits_root / RUN_DIR
    run_dir.mkdir(parents=True)
    png(run_dir / "render.png")
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 2 and "run argus gates" in result.stderr


def test_an_inconclusive_judge_exits_2(
    run_argus: RunArgus, habits_root: Path, tmp_path: Path
) -> None:
    _sensed(habits_root)
    broken = tmp_path / "broken.py"
    broken.write_text("print('no verdict here')")
    config = habits_root / "argus.toml"
    text = config.read_text().replace(
        'backend = "metric"', f'backend = "command"\ncommand = "{sys.executable} {broken}"'
    )
    config.write_text(text)
    result = run_argus("judge", *VIEW, cwd=habits_root)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "inconclusive" in result.stdout
    verdict = json.loads((habits_root / RUN_DIR / "verdict.json").read_text())
    assert verdict["status"] == "inconclusive" and verdict["all_pass"] is False
