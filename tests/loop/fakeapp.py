"""A fake project for loop tests: no browser, deterministic, defects as data.

The "app" is ``app.json`` at the repository root: ``{"defects": [...]}``. Each defect is
``{"name", "kind", "target", "fixable"}`` where kind is ``gate`` (that gate is red),
``dimension`` (the judge fails that dimension), ``abstain`` (the judge cannot measure it) or
``sensor`` (the app does not render at all). ``FakeServices`` renders the app state into a
small PNG whose colour follows the defects, so an unchanged app gives a byte-identical render.
``fake_implementer.py`` is an implementer that removes one fixable defect named in its prompt.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from PIL import Image

from argus.closing import Closing
from argus.config import ProjectConfig
from argus.diff.unchanged import UnchangedResult, is_unchanged
from argus.io import atomic_write_json, read_json
from argus.loop.engine.services import GateReport, JudgeInputs, SenseResult
from argus.loop.records.layout import RunLayout
from argus.schemas import Rubric
from argus.spec.model import Spec, View
from argus.verdict import NormalizedVerdict, normalize_gate_result, normalize_verdict

FEATURE = "demo"
HERE = Path(__file__).resolve().parent
IMPLEMENTER = HERE / "fake_implementer.py"
HOSTILE = HERE / "hostile_implementer.py"
GATES = ("token_contrast", "a11y_ids", "console")


def write_png(path: Path, seed: str, size: tuple[int, int] = (32, 24)) -> None:
    digest = hashlib.sha256(seed.encode()).digest()
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGBA", size, (digest[0], digest[1], digest[2], 255)).save(path)


def make_repo(
    tmp_path: Path,
    defects: list[dict[str, Any]] | None = None,
    *,
    states: tuple[str, ...] = ("a",),
    reference: str = "present",
) -> Path:
    """A repository with feature ``demo``: one target ``list``, the given states, light only."""
    root = tmp_path / "repo"
    spec_dir = root / "argus" / "specs" / FEATURE
    (spec_dir / "references").mkdir(parents=True)
    (root / "argus.toml").write_text('[judge]\nbackend = "metric"\n')
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text("def test_app():\n    assert True\n")
    (root / "fixtures").mkdir()
    (root / "fixtures" / "items.json").write_text('{"items": [1, 2]}\n')
    (spec_dir / "tokens.json").write_text(
        json.dumps({"colors": {"text": "#111111", "bg": "#ffffff"}, "spacing": {"sm": 8}})
    )
    (spec_dir / "spec.md").write_text("# Demo\n\n- The list shows every item of the fixture.\n")
    ref: dict[str, Any] = {"state": states[0], "appearance": "light", "status": reference}
    if reference == "present":
        ref.update(source="human", file=f"references/list-{states[0]}-light.png")
        write_png(spec_dir / ref["file"], "reference")
    spec = {
        "feature": FEATURE,
        "adapter": "web",
        "design_system": {"tokens": f"argus/specs/{FEATURE}/tokens.json"},
        "targets": [
            {
                "id": "list",
                "route": "/",
                "states": list(states),
                "appearances": ["light"],
                "references": [ref],
            }
        ],
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec, indent=2) + "\n")
    # Where the fake implementers write besides app.json: files and a folder that exist before
    # the run, so a sandboxed implementer (argus.confine) may write them too.
    (root / "prompts-seen.txt").write_text("")
    (root / "scratch").mkdir()
    set_defects(root, defects or [])
    return root


def set_defects(root: Path, defects: list[dict[str, Any]]) -> None:
    atomic_write_json(root / "app.json", {"defects": defects})


def defects_of(root: Path) -> list[dict[str, Any]]:
    data: dict[str, Any] = read_json(root / "app.json")
    return list(data["defects"])


def implementer_command(*flags: str, script: Path = IMPLEMENTER) -> str:
    extra = " ".join(flags)
    return f"{sys.executable} {script} {{workdir}} {{prompt_file}} {extra}".strip()


class FakeServices(Closing):
    """LoopServices over app.json; counts its calls so tests can see what the loop did."""

    calls: dict[str, int]

    def __init__(
        self, spec: Spec, config: ProjectConfig, rubric: Rubric, layout: RunLayout
    ) -> None:
        self.spec = spec
        self.rubric = rubric
        self.layout = layout
        self.calls = {
            "sense": 0, "gates": 0, "probe": 0, "judge": 0, "unchanged": 0, "baseline": 0
        }  # fmt: skip
        self.order: list[str] = []  # the probe's and the judge's calls, in order

    def close(self) -> None:
        pass  # nothing to give back: no browser, no server

    def _state(self, sensed: Path) -> list[dict[str, Any]]:
        data: list[dict[str, Any]] = read_json(sensed / "app-state.json")
        return data

    def sense(self, view: View, out_dir: Path) -> SenseResult:
        self.calls["sense"] += 1
        defects = defects_of(self.spec.root)
        if any(d["kind"] == "sensor" for d in defects):
            return SenseResult(False, "the app would not start")
        out_dir.mkdir(parents=True, exist_ok=True)
        # An "invisible" defect (a console error, a missing id) does not change the pixels.
        visible = sorted(d["name"] for d in defects if not d.get("invisible"))
        write_png(out_dir / "render.png", json.dumps([view.slug, visible]))
        atomic_write_json(out_dir / "probe.json", {"version": 1, "elements": []})
        atomic_write_json(out_dir / "app-state.json", defects)
        return SenseResult(True)

    def gates(self, view: View, sensed: Path, *, iteration: int) -> GateReport:
        self.calls["gates"] += 1
        state = self._state(sensed)
        red = {d["target"] for d in state if d["kind"] == "gate"}
        gates: dict[str, str] = {g: "fail" if g in red else "pass" for g in GATES}
        details: dict[str, Any] = {g: {"summary": f"{g} is red in the fake app"} for g in red}
        if "snapshot" in red:  # a snapshot defect is a diff; "stale": the baseline is at fault
            gates["snapshot"] = "diff"
            stale = any(d.get("stale") for d in state if d["target"] == "snapshot")
            details["snapshot"]["findings"] = (
                [
                    {
                        "element": "baseline",
                        "property": "stale_baseline",
                        "value": "#c81ec8",
                        "expected": "a token colour",
                        "message": "the baseline may be stale (fake app)",
                    }
                ]
                if stale
                else []
            )
        raw = {
            "feature": view.feature,
            "target": view.target,
            "state": view.state,
            "appearance": view.appearance,
            "iteration": iteration,
            "gates": gates,
            "details": details,
        }
        result = normalize_gate_result(raw)
        atomic_write_json(sensed / "gate-result.json", result.to_json())
        evidence = {g: f"{g} is red in the fake app" for g in result.red_gates}
        return GateReport(result.all_green, result.red_gates, evidence, result.to_json())

    def probe(self, view: View, sensed: Path) -> None:
        self.calls["probe"] += 1  # the fake app has no controls to activate
        self.order.append("probe")

    def judge(self, view: View, sensed: Path, inputs: JudgeInputs) -> NormalizedVerdict:
        self.calls["judge"] += 1
        self.order.append("judge")
        state = self._state(sensed)
        failing = {d["target"] for d in state if d["kind"] == "dimension"}
        abstained = {d["target"] for d in state if d["kind"] == "abstain"}
        dimensions: dict[str, Any] = {}
        for name, dim in self.rubric.dimensions.items():
            if name in abstained:
                dimensions[name] = {
                    "score": None,
                    "abstained": True,
                    "anchor": dim.anchor,
                    "evidence": "cannot measure",
                }
            else:
                dimensions[name] = {
                    "score": 0 if name in failing else 1,
                    "anchor": dim.anchor,
                    "evidence": f"fake evidence for {name}"
                    + (" (failing)" if name in failing else ""),
                }
        raw = {
            "iteration": inputs.iteration,
            "feature": view.feature,
            "target": view.target,
            "state": view.state,
            "appearance": view.appearance,
            **self._reference_source(view),
            "dimensions": dimensions,
            "all_pass": not failing,
            "failed_dimensions": sorted(failing),
            "notes": "JUDGE NOTES MUST NOT REACH THE IMPLEMENTER",
        }
        verdict = normalize_verdict(raw, self.rubric)
        atomic_write_json(sensed / "verdict.json", verdict.to_json())
        return verdict

    def _reference_source(self, view: View) -> dict[str, str]:
        """As a packet says it: the view's own present reference's source, if any."""
        reference = self.spec.target(view.target).reference_for(view.state, view.appearance)
        if reference is None or reference.status != "present" or reference.source is None:
            return {}
        return {"reference_source": reference.source}

    def unchanged(self, previous: Path, current: Path) -> UnchangedResult:
        self.calls["unchanged"] += 1
        return is_unchanged(previous, current)  # the real check: method and ratio recorded

    def write_baseline(self, view: View, render: Path) -> str | None:
        self.calls["baseline"] += 1
        target = self.spec.spec_dir / "__snapshots__" / f"{view.slug}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(render, target)
        return target.relative_to(self.spec.root).as_posix()
