"""The metric judge on real renders of the Habits example and its seeded defects.

Each variant is sensed once per test worker in a real Chromium (tests/support/metric_variants.py).
The gates are not the subject here: every packet gets a gate result made by the gates runner
over that very render, running only a gate that looks at the tokens (green whatever the page
shows), so the judge can be seen to find, on its own, the faults the gates also catch. Each
defect must fail exactly the dimension defects.json names. This module reads the clean app's
four views and the later defects; test_metric_variants_browser.py the earlier defects, the
refactors and the page text that talks to the judge.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from argus.config import load_config
from argus.gates import run_gates
from argus.gates.inputs import gate_inputs
from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.support.habits import HABITS_SPEC, copy_habits
from tests.support.metric_variants import (
    CANONICAL,
    LATER_DEFECTS,
    PROSE,
    Variants,
    assert_defect_fails_its_dimension,
    assert_human_reference_fails_only_composition,
    verdict_of,
)

pytestmark = pytest.mark.browser


def test_the_clean_page_fails_nothing_and_says_what_it_could_not_see(
    metric_variants: Variants,
) -> None:
    verdict = verdict_of(metric_variants, "clean")
    assert verdict.failed_dimensions == (), [
        (d.name, d.evidence) for d in verdict.dimensions if d.status != "pass"
    ]
    assert verdict.unverified_dimensions == PROSE
    assert len(verdict.dimensions) == 7
    for dim in verdict.dimensions:
        assert (
            dim.evidence
            and dim.extra["measurements"] is not None
            and dim.extra["judged_by"] == "metric"
        )
    visual = verdict.dimension("visual_fidelity")
    assert visual.score == 1 and visual.extra["measurements"]["differing_pixels"] == 0


@pytest.mark.parametrize("view", [("populated", "dark"), ("empty", "light"), ("empty", "dark")])
def test_other_clean_views_fail_nothing_and_say_what_they_could_not_see(
    metric_variants: Variants, view: tuple[str, str]
) -> None:
    verdict = verdict_of(metric_variants, "clean", *view)
    assert verdict.failed_dimensions == ()
    # No reference exists for these views: composition is unverified, never passed.
    assert verdict.unverified_dimensions == ("visual_fidelity", *PROSE)
    assert verdict.outcome == "unverified"


@pytest.mark.parametrize("name", [d.name for d in LATER_DEFECTS])
def test_each_defect_fails_its_dimension(metric_variants: Variants, name: str) -> None:
    assert_defect_fails_its_dimension(metric_variants, name)


@pytest.mark.parametrize(
    ("name", "kind", "under"),
    [
        ("card_nudged", "position", "habits.list"),
        ("surface_swapped", "colour", "habits.list"),
    ],
)
def test_a_regression_names_what_changed_and_where(
    metric_variants: Variants, name: str, kind: str, under: str
) -> None:
    visual = verdict_of(metric_variants, name).dimension("visual_fidelity")
    assert visual.score == 0.5, visual.evidence
    regions = visual.extra["measurements"]["regions"]
    assert regions[0]["kind"] == kind, regions
    assert any(under in e for r in regions for e in r["elements"]), regions


def test_against_a_human_reference_design2code_fails_only_a_composition_change(
    metric_variants: Variants,
) -> None:
    # The example's reference is an approved candidate; labelled "human", the same image takes
    # the lenient Design2Code path (block match, position, colour): a mockup is not the render,
    # so a 2 px offset or a neighbouring fill is not a departure from it; a moved region is.
    # (The earlier defects: test_metric_variants_browser.py.)
    clean = verdict_of(metric_variants, "clean", labelled="human")
    visual = clean.dimension("visual_fidelity")
    assert visual.score == 1 and "block_match" in visual.extra["measurements"], visual.evidence
    assert_human_reference_fails_only_composition(metric_variants, [d.name for d in LATER_DEFECTS])


def test_cli_on_the_clean_page_fails_nothing(
    metric_variants: Variants, run_argus: RunArgus, tmp_path: Path
) -> None:
    root = copy_habits(tmp_path)
    run_dir = root / "argus/specs/habits/.argus-runs/list-populated-light"
    shutil.copytree(metric_variants.dir("clean", *CANONICAL), run_dir)
    # The project's own gates, as argus gates would run them: all green on the clean page.
    spec = load_spec(root / HABITS_SPEC)
    inputs = gate_inputs(
        spec, View("habits", "list", *CANONICAL), run_dir, config=load_config(root)
    )
    floor = run_gates(inputs, record=False)
    assert floor.all_green, floor.red_gates
    floor.write(run_dir / "gate-result.json")
    result = run_argus(
        "judge",
        "--feature",
        "habits",
        "--target",
        "list",
        "--state",
        "populated",
        "--appearance",
        "light",
        cwd=root,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    written = json.loads((run_dir / "verdict.json").read_text())
    assert written["failed_dimensions"] == [] and written["unverified_dimensions"] == list(PROSE)
