"""Dashboard-aware hierarchy: figures (KPI values, numeric cells) are measured as data, not as
headings set larger than the h1, unless the spec says otherwise; a state may name its own
primary action, or none."""

from __future__ import annotations

from typing import Any

import pytest

from argus.judge.packet import Packet
from tests.judge.conftest import PacketFactory
from tests.judge.test_metric import el, good_page, measure

BIG = "40px"  # larger than good_page's 28px h1


def _with(*extra: dict[str, Any]) -> dict[str, Any]:
    probe = good_page()
    probe["elements"].extend(extra)
    return probe


def _hierarchy(make_packet: PacketFactory, probe: dict[str, Any], **contract: Any) -> Any:
    packet: Packet = make_packet(probe=probe, contract=contract or None)
    return measure(packet, "hierarchy")


def _big(index: int, parent: int, tag: str, text: str, **more: Any) -> dict[str, Any]:
    return el(index, parent, tag, text=text, font_size=BIG, box=(10, 70, 200, 48), **more)


@pytest.mark.parametrize(
    "text",
    [
        "$12,480",
        "€1.2M",
        "42%",
        "+3.5 %",
        "−1,204",
        "1 204,50 €",
        "3.4k",
        "2026-12-02",
        "12/02/2026",
        "Dec 2, 2026",
        "2 December 2026",
        "$",
    ],
)
def test_a_kpi_figure_larger_than_the_h1_is_data_not_a_heading(
    make_packet: PacketFactory, text: str
) -> None:
    result = _hierarchy(make_packet, _with(_big(5, 0, "p", text)))
    assert result.score == 1, result.evidence
    assert result.numbers["figures_larger_than_h1"] == 1
    assert "h1_largest" not in result.numbers["failed_checks"]


@pytest.mark.parametrize(
    ("wrapper", "role"),
    [
        ("td", "cell"),
        ("div", "gridcell"),
        ("table", "table"),
        ("data", "generic"),
        ("meter", "meter"),
        ("output", "status"),
    ],
)
def test_text_in_a_cell_a_table_data_meter_or_output_is_a_figure(
    make_packet: PacketFactory, wrapper: str, role: str
) -> None:
    holder = el(5, 0, wrapper, role=role, box=(10, 70, 200, 48))
    word = _big(6, 5, "span", "Revenue")  # not a number: a figure by where it stands
    result = _hierarchy(make_packet, _with(holder, word))
    assert result.score == 1, result.evidence
    assert result.numbers["figures_larger_than_h1"] == 1


def test_a_word_or_a_heading_larger_than_the_h1_still_fails(make_packet: PacketFactory) -> None:
    word = _hierarchy(make_packet, _with(_big(5, 0, "p", "Welcome back")))
    assert word.numbers["failed_checks"] == ["h1_largest"] and word.score == 0.5
    number_heading = _big(5, 0, "h2", "42", role="heading", level=2)
    heading = _hierarchy(make_packet, _with(number_heading))
    assert heading.numbers["failed_checks"] == ["h1_largest"]
    sentence = _hierarchy(make_packet, _with(_big(5, 0, "p", "3 habits left today")))
    assert sentence.numbers["failed_checks"] == ["h1_largest"]


def test_the_spec_says_which_are_headings_and_which_are_figures(
    make_packet: PacketFactory,
) -> None:
    kpi = _big(5, 0, "p", "$12,480", testid="kpi.total")
    as_heading = _hierarchy(
        make_packet, _with(kpi), hierarchy={"headings": ["[data-testid=kpi.total]"]}
    )
    assert as_heading.numbers["failed_checks"] == ["h1_largest"]
    card = el(5, 0, "section", testid="hero", box=(10, 70, 300, 60))
    tagline = _big(6, 5, "p", "Every habit counts")
    marked = _hierarchy(
        make_packet, _with(card, tagline), hierarchy={"figures": ["[data-testid=hero]"]}
    )
    assert marked.score == 1 and marked.numbers["figures_larger_than_h1"] == 1
    unmatched = _hierarchy(make_packet, _with(kpi), hierarchy={"figures": ["#nowhere"]})
    assert unmatched.numbers["hierarchy_selectors_unmatched"] == ["#nowhere"]


def test_a_state_without_a_primary_action_is_judged_on_its_headings(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][3]["testid"] = "wizard.back"  # the step has no Add habit button
    missing = _hierarchy(make_packet, probe)
    assert missing.score == 0 and "is not shown" in missing.evidence
    none = _hierarchy(make_packet, probe, primary_action=None, no_primary_action=True)
    assert none.score == 1, none.evidence
    assert "no primary action" in none.evidence
    assert "primary_leads" not in none.numbers["failed_checks"]
    assert none.numbers["no_primary_action"] is True


def test_a_figure_set_as_large_as_the_h1_is_not_larger(make_packet: PacketFactory) -> None:
    level = el(5, 0, "p", text="$12,480", font_size="28px", box=(10, 70, 200, 48))
    result = _hierarchy(make_packet, _with(level))
    assert result.score == 1 and result.numbers["h1_px"] == 28, result.evidence
    assert result.numbers["figures_larger_than_h1"] == 0


@pytest.mark.parametrize(
    ("text", "figure"),
    [
        ("1,204", True),
        ("  42 % ", True),
        ("£ 3", True),
        ("12 bn", True),
        ("2.5×", True),
        ("14:30", True),
        ("9:05 pm", True),
        ("Sept 2026", True),
        ("2026-1-5", True),
        ("Revenue", False),
        ("3 habits left today", False),
        ("v2", False),
        ("Q3", False),
        ("Step 2 of 4", False),
        ("", False),
        ("$ per month", False),
        ("12 apples", False),
    ],
)
def test_what_text_is_a_figure(text: str, figure: bool) -> None:
    from argus.judge.metric.figures import is_figure_text

    assert is_figure_text(text) is figure


def test_a_figure_holder_counts_above_the_parent_and_a_heading_does_not_stop_the_search(
    make_packet: PacketFactory,
) -> None:
    """A word two levels inside a table is a figure; one the spec names a heading is measured as
    a heading, and a figure after it is still found."""
    table = el(5, 0, "table", role="table", box=(10, 70, 300, 60))
    row = el(6, 5, "tr", role="row", box=(10, 70, 300, 60))
    word = _big(7, 6, "span", "Revenue")
    nested = _hierarchy(make_packet, _with(table, row, word))
    assert nested.score == 1 and nested.numbers["figures_larger_than_h1"] == 1
    named = _big(5, 0, "p", "$9", testid="kpi.first")
    kpi = _big(6, 0, "p", "$12,480")
    result = _hierarchy(
        make_packet, _with(named, kpi), hierarchy={"headings": ["[data-testid=kpi.first]"]}
    )
    assert result.numbers["failed_checks"] == ["h1_largest"]
    assert result.numbers["figures_larger_than_h1"] == 1


def test_the_spec_may_name_the_root_as_figures(make_packet: PacketFactory) -> None:
    result = _hierarchy(
        make_packet, _with(_big(5, 0, "p", "Welcome back")), hierarchy={"figures": ["body"]}
    )
    assert result.score == 1 and "h1_largest" not in result.numbers["failed_checks"]


def test_a_hierarchy_section_that_is_not_an_object_names_nothing(
    make_packet: PacketFactory,
) -> None:
    result = _hierarchy(make_packet, _with(_big(5, 0, "p", "$12,480")), hierarchy=["#nowhere"])
    assert result.score == 1 and result.numbers["figures_larger_than_h1"] == 1
