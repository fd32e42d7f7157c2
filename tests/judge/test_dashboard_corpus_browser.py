"""The Dashboard example's seeded defects through the real gates and the metric judge.

Every variant of examples/dashboard (the clean app, each refactor of refactors.json, each
defect of defects.json) is sensed once per session, in the views it needs, by the shared
browser (tests.support.corpus). Each defect must be refused by the gate and the rubric
dimension defects.json names; each refactor must sign off. The same defects are then judged
with no approved render: against a design mock (another font, a 2x export, a nudged title),
and with no reference at all, where only measurements that need no pixels can refuse.

A defect whose dimension is not functional_correctness is sensed without the dead-control
probe (``gates_sensor``): of such a defect these tests read only its gates and its own
dimension, and neither reads controls.json. The rest are sensed as the loop senses.

Detection that is not on main yet is marked ``xfail(strict=True)`` with the missing piece in
the reason, so the test turns red (XPASS) when that piece lands and the mark must go.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from argus.sense import Sensor
from tests.support.corpus import Corpus, Mode, dashboard_corpus
from tests.support.dashboard import load_dashboard_defects, load_dashboard_refactors
from tests.support.habits import Defect

pytestmark = pytest.mark.browser

DEFECTS = load_dashboard_defects()
REFACTORS = [r.name for r in load_dashboard_refactors()]
VIEWS = (
    "overview-populated-light",
    "overview-populated-dark",
    "overview-empty-light",
    "wizard-details-light",
)
# (defect, "gate" | "dimension") -> why it is not refused there on main yet.
PENDING: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="session")
def corpus(
    warm_sensor: Sensor, gates_sensor: Sensor, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Corpus]:
    workdir = tmp_path_factory.mktemp("dashboard-corpus")
    with dashboard_corpus(warm_sensor, workdir, unprobed=gates_sensor) as found:
        yield found


def cases(kind: str, defects: list[Defect] = DEFECTS) -> list[object]:
    out: list[object] = []
    for item in defects:
        reason = PENDING.get((item.name, kind))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(item, marks=marks, id=item.name))
    return out


def explain(
    corpus: Corpus, variant: str, mode: Mode = "candidate", slug: str | None = None
) -> object:
    run = corpus.run(variant, mode, slug)
    return (
        sorted(run.red_gates),
        [
            (d.name, d.status, d.evidence[:200])
            for d in run.verdict.dimensions
            if d.status != "pass"
        ],
    )


@pytest.mark.parametrize("slug", VIEWS)
def test_every_clean_view_signs_off(corpus: Corpus, slug: str) -> None:
    run = corpus.run("clean", "candidate", slug)
    assert run.signed_off, explain(corpus, "clean", slug=slug)
    assert "snapshot" not in run.red_gates


@pytest.mark.parametrize("mode", ["candidate", "design"])
@pytest.mark.parametrize("refactor", REFACTORS)
def test_each_benign_refactor_signs_off(corpus: Corpus, refactor: str, mode: Mode) -> None:
    assert corpus.run(refactor, mode).signed_off, explain(corpus, refactor, mode)


@pytest.mark.parametrize(
    "defect", cases("gate", [d for d in DEFECTS if d.gate]), ids=[d.name for d in DEFECTS if d.gate]
)
def test_each_defect_turns_its_gates_red(corpus: Corpus, defect: Defect) -> None:
    run = corpus.run(defect.name, "candidate")
    assert defect.gate in run.red_gates, explain(corpus, defect.name)
    assert set(defect.also_red) <= run.red_gates


@pytest.mark.parametrize("defect", cases("dimension"), ids=[d.name for d in DEFECTS])
def test_each_defect_fails_its_dimension(corpus: Corpus, defect: Defect) -> None:
    run = corpus.run(defect.name, "candidate")
    assert run.dimension(defect.dimension) == "fail", explain(corpus, defect.name)
    assert not run.signed_off


@pytest.mark.parametrize("mode", ["design", "absent"])
@pytest.mark.parametrize("defect", cases("dimension"), ids=[d.name for d in DEFECTS])
def test_without_an_approved_render_each_defect_still_fails_its_dimension(
    corpus: Corpus, defect: Defect, mode: Mode
) -> None:
    """What needs no pixel reference (typed checks, fixture texts, truncation, the palette)
    refuses the same defects against a design mock and with no reference at all."""
    run = corpus.run(defect.name, mode)
    assert run.dimension(defect.dimension) == "fail", explain(corpus, defect.name, mode)


def test_a_clean_view_with_no_reference_is_never_a_pass(corpus: Corpus) -> None:
    run = corpus.run("clean", "absent")
    assert run.dimension("visual_fidelity") == "unverified"
    assert run.verdict.outcome == "unverified" and not run.signed_off
