"""Which paths run the dead-control probe: those whose views may be judged (argus sense, the
loop), never those that sense only to gate. Each path's meta.json says whether it ran, and
controls.json is there exactly when it did (argus.sense.controls_choice)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from argus.cli import main
from argus.cli._assert import _sense_now
from argus.config import load_config
from argus.gates.inputs import check_sensed_view
from argus.judge.assemble import packet_for_view
from argus.judge.metric import MetricJudge
from argus.judge.metric._context import Measured
from argus.loop.engine.web_services import ArgusServices
from argus.loop.records.layout import RunLayout
from argus.schemas import load_rubric
from argus.spec import View, load_spec
from tests.support.habits import HABITS_SPEC, copy_habits

pytestmark = pytest.mark.browser

VIEW = ["--feature", "habits", "--target", "list", "--state", "populated", "--appearance", "light"]


def _controls(sensed: Path) -> tuple[dict[str, object], bool]:
    """meta.json's controls record and whether controls.json was written."""
    meta = json.loads((sensed / "meta.json").read_text("utf-8"))
    record = meta["controls"]
    assert isinstance(record, dict)
    return record, (sensed / "controls.json").is_file()


@pytest.fixture(scope="module")
def habits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_habits(tmp_path_factory.mktemp("choice"))


def test_argus_sense_runs_the_probe(habits: Path, tmp_path: Path) -> None:
    out = tmp_path / "sensed"
    assert main(["sense", *VIEW, "--root", str(habits), "--out", str(out)]) == 0
    record, written = _controls(out)
    assert record["ran"] is True and written, record


def test_gates_sensing_one_view_leaves_the_probe_out(habits: Path, tmp_path: Path) -> None:
    out = tmp_path / "gated"
    code = main(["gates", *VIEW, "--root", str(habits), "--sense", "--out", str(out)])
    assert code in (0, 1)
    record, written = _controls(out)
    assert record == {"ran": False, "why": "no reader: gates only (argus gates)"}
    assert not written


def test_gates_sensing_a_shard_of_views_leaves_the_probe_out(habits: Path, tmp_path: Path) -> None:
    out = tmp_path / "shard"
    args = ["gates", "--feature", "habits", "--all", "--sense", "--shard", "1/4"]
    assert main([*args, "--root", str(habits), "--out", str(out)]) in (0, 1)
    slugs = [v.slug for v in load_spec(habits / HABITS_SPEC).views()]
    sensed = [out / slug for slug in slugs if (out / slug / "meta.json").is_file()]
    assert sensed, "the shard sensed no view"
    for directory in sensed:
        record, written = _controls(directory)
        assert record["ran"] is False and not written, directory


def _functional(root: Path, sensed: Path, run_dir: Path) -> Measured:
    spec = load_spec(root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    packet = packet_for_view(
        spec, view, sensed=sensed, gate_result=sensed / "gate-result.json", run_dir=run_dir,
        iteration=1,
    )  # fmt: skip
    config = load_config(root)
    return MetricJudge(config).measure(packet, ("functional_correctness",))[
        "functional_correctness"
    ]


def test_a_view_gated_without_the_probe_is_judged_unverified(habits: Path, tmp_path: Path) -> None:
    off = tmp_path / "off"
    assert main(["gates", *VIEW, "--root", str(habits), "--sense", "--out", str(off)]) == 0
    skipped = _functional(habits, off, tmp_path / "run-off")
    assert skipped.score is None, skipped.evidence
    assert "dead-control probe did not run (no reader: gates only" in skipped.evidence
    # The same view sensed with the probe (argus sense), gated and judged: as before.
    on = tmp_path / "on"
    assert main(["sense", *VIEW, "--root", str(habits), "--out", str(on)]) == 0
    assert main(["gates", *VIEW, "--root", str(habits), "--sensed", str(on), "--out", str(on)]) == 0
    judged = _functional(habits, on, tmp_path / "run-on")
    assert judged.score == 1, judged.evidence
    assert judged.numbers["controls"]["measured"] is True


def test_the_loop_runs_the_probe_once_the_gates_are_green(habits: Path, tmp_path: Path) -> None:
    spec = load_spec(habits / HABITS_SPEC)
    layout = RunLayout(spec.spec_dir)
    view = View("habits", "list", "populated", "light")
    sensed = tmp_path / "loop"
    with ArgusServices(spec, load_config(habits), load_rubric(None), layout) as services:
        assert services.sense(view, sensed).ok
        # The sense leaves it for later: no gate reads controls.json.
        record, written = _controls(sensed)
        assert record == {
            "ran": False,
            "why": "deferred: the loop runs it once the view's gates are green, before the judge",
        }
        assert not written
        assert services.gates(view, sensed, iteration=1).all_green
        services.probe(view, sensed)
        record, written = _controls(sensed)
        why = "read by the judge: the loop ran it once the view's gates were green"
        assert record == {"ran": True, "why": why}
        assert written
        check_sensed_view(sensed, view)  # added to the sense's own files: the judge reads it
        meta = json.loads((sensed / "meta.json").read_text("utf-8"))
        assert meta["timings_ms"]["controls"] > 0
        judged = _functional(habits, sensed, tmp_path / "run")
        assert judged.score == 1, judged.evidence
        assert judged.numbers["controls"]["measured"] is True
        services.probe(view, sensed)  # collected once: never again on the same files
        assert json.loads((sensed / "meta.json").read_text("utf-8")) == meta


def test_assert_judge_sensing_a_view_leaves_the_probe_out(habits: Path, tmp_path: Path) -> None:
    args = argparse.Namespace(
        feature="habits", target="list", state="populated", appearance="light",
        out=tmp_path / "assertion", base_url=None,
    )  # fmt: skip
    evidence, _ = _sense_now(args, habits, load_config(habits))
    record, written = _controls(evidence["screenshot"].parent)
    assert record == {
        "ran": False, "why": "no reader: the assertion reads the render and probe only"
    }  # fmt: skip
    assert not written
