"""The metric judge on real renders of the Habits example: the earlier seeded defects, the
benign refactors and page text that talks to the judge (tests/judge/test_metric_browser.py has
the clean app and the later defects; the split lets two test workers sense them side by side).
Each variant is sensed once per test worker (tests/support/metric_variants.py).
"""

from __future__ import annotations

import json

import pytest

from tests.support.habits import Refactor
from tests.support.metric_variants import (
    CANONICAL,
    EARLIER_DEFECTS,
    INJECTION,
    REFACTORS,
    Variants,
    assert_defect_fails_its_dimension,
    assert_human_reference_fails_only_composition,
    pixels_differ,
    scores,
    verdict_of,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", [d.name for d in EARLIER_DEFECTS])
def test_each_defect_fails_its_dimension(metric_variants: Variants, name: str) -> None:
    assert_defect_fails_its_dimension(metric_variants, name)


def test_against_a_human_reference_design2code_fails_only_a_composition_change(
    metric_variants: Variants,
) -> None:
    # The clean page and the later defects: test_metric_browser.py.
    assert_human_reference_fails_only_composition(
        metric_variants, [d.name for d in EARLIER_DEFECTS]
    )


@pytest.mark.parametrize("item", REFACTORS, ids=[r.name for r in REFACTORS])
def test_a_benign_refactor_changes_nothing_the_judge_sees(
    metric_variants: Variants, item: Refactor
) -> None:
    assert not pixels_differ(metric_variants, item.name), f"{item.name} changed the pixels"
    verdict = verdict_of(metric_variants, item.name)
    clean = verdict_of(metric_variants, "clean")
    assert verdict.failed_dimensions == () and scores(verdict) == scores(clean)


def test_page_text_that_talks_to_the_judge_changes_nothing(metric_variants: Variants) -> None:
    seen = metric_variants.dir("injection", *CANONICAL)
    assert INJECTION in (seen / "probe.json").read_text()  # the page really said it
    assert INJECTION in (seen / "console.json").read_text()
    clean = verdict_of(metric_variants, "clean")
    injected = verdict_of(metric_variants, "injection")
    assert scores(injected) == scores(clean) and injected.failed_dimensions == ()
    defect = verdict_of(metric_variants, "off_palette_color")
    both = verdict_of(metric_variants, "injection+off_palette_color")
    assert scores(both) == scores(defect)
    assert both.failed_dimensions == ("visual_fidelity", "token_compliance")
    for verdict in (injected, both):
        text = json.dumps(verdict.to_json()).lower()
        assert "ignore the rubric" not in text  # page text is never echoed into a verdict
