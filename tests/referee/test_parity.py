"""PBIR-aware parity: what the candidate lacks against an exemplar fails, additions pass."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from argus.referee._parity import parity_gate
from tests.layout.pbir import field, visual


def card() -> dict[str, Any]:
    doc = visual("kpi1", "card", 0, 0, 200, 100, "Values", "Category")
    doc["visual"]["objects"] = {
        "labels": [{"properties": {"fontSize": {"expr": {"Literal": {"Value": "28D"}}}}}],
        "categoryLabels": [{"properties": {"show": {"expr": {"Literal": {"Value": "true"}}}}}],
        "dataPoint": [{"$id": "default", "properties": {}}, {"$id": "sales", "properties": {}}],
    }
    return doc


def gate(tmp_path: Path, candidate: Any, reference: Any) -> tuple[str, dict[str, Any]]:
    (tmp_path / "cand.json").write_text(json.dumps(candidate))
    (tmp_path / "ref.json").write_text(json.dumps(reference))
    result = parity_gate(tmp_path / "cand.json", tmp_path / "ref.json").to_json()
    return result["status"], result


def mutated(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(card())
    change(doc["visual"])
    return doc


MISSING = {
    "role": (
        lambda v: v["query"]["queryState"].pop("Category"),
        "query.queryState.Category",
    ),
    "objects key": (lambda v: v["objects"].pop("labels"), "objects.labels"),
    "item id": (lambda v: v["objects"]["dataPoint"].pop(), "objects.dataPoint[$id_sales]"),
}


@pytest.mark.parametrize("what", sorted(MISSING))
def test_what_the_candidate_lacks_fails(tmp_path: Path, what: str) -> None:
    change, path = MISSING[what]
    status, result = gate(tmp_path, mutated(change), card())
    assert status == "fail" and result["deltas"] == [{"missing": path}]


@pytest.mark.parametrize("what", sorted(MISSING))
def test_the_same_difference_the_other_way_is_an_addition_and_passes(
    tmp_path: Path, what: str
) -> None:
    change, _ = MISSING[what]
    assert gate(tmp_path, card(), mutated(change))[0] == "pass"


def test_benign_additions_and_cosmetic_nested_paths_pass(tmp_path: Path) -> None:
    def add(v: dict[str, Any]) -> None:
        v["objects"]["accentBar"] = [{"properties": {}}]
        v["query"]["queryState"]["Tooltips"] = field("Tooltips")
        v["objects"]["labels"] = [{"properties": {"color": {}}}]  # nested: fontSize dropped

    assert gate(tmp_path, mutated(add), card())[0] == "pass"


def test_a_card_that_swapped_labels_for_callout_value_fails(tmp_path: Path) -> None:
    def swap(v: dict[str, Any]) -> None:
        v["objects"]["calloutValue"] = v["objects"].pop("labels")

    status, result = gate(tmp_path, mutated(swap), card())
    assert status == "fail" and result["measured"] == {"missing": 1}


@pytest.mark.parametrize(
    ("candidate", "reference", "reason"),
    [
        (visual("t", "tableEx", 0, 0, 1, 1, "Values"), card(), "same_visual_type"),
        ({"config": "legacy"}, card(), "pbir_visual"),
        (card(), ["not", "a", "visual"], "pbir_visual"),
        (card(), visual("empty", "card", 0, 0, 1, 1), "degenerate_reference"),
    ],
)
def test_not_comparable_is_not_captured_never_a_fail(
    tmp_path: Path, candidate: Any, reference: Any, reason: str
) -> None:
    status, result = gate(tmp_path, candidate, reference)
    assert status == "not_captured" and reason in result["measured"]


def test_a_degenerate_exemplar_does_not_launder_a_blank_candidate(tmp_path: Path) -> None:
    blank = visual("blank", "card", 0, 0, 1, 1)
    assert gate(tmp_path, blank, blank)[0] == "not_captured"  # a copy: no roles either way


def test_self_reference_and_decorative_exemplars(tmp_path: Path) -> None:
    (tmp_path / "ref.json").write_text(json.dumps(card()))
    same = parity_gate(tmp_path / "ref.json", tmp_path / "ref.json")
    assert same.status == "not_captured" and same.measured == {"self_reference": True}
    text = visual("t", "textbox", 0, 0, 1, 1)
    text["visual"]["objects"] = {"general": [{"properties": {}}]}
    assert gate(tmp_path, visual("t2", "textbox", 0, 0, 1, 1), text)[1]["deltas"] == [
        {"missing": "objects.general"}
    ]


def with_container_items(ids: list[str], values: list[str]) -> dict[str, Any]:
    """A card whose visualContainerObjects and role projections carry per-item ids."""
    doc = card()
    doc["visual"]["visualContainerObjects"] = {
        "title": [{"$id": item, "properties": {}} for item in ids]
    }
    projections = doc["visual"]["query"]["queryState"]["Values"]["projections"]
    projections[:] = [{**projections[0], "$id": value} for value in values]
    return doc


@pytest.mark.parametrize(
    ("candidate", "missing"),
    [
        # two of the exemplar's three title items: a partial match of the list
        (with_container_items(["a", "b"], ["v1", "v2"]), "visualContainerObjects.title[$id_c]"),
        # one projection of two in a bound role: the role is there, one of its items is not
        (
            with_container_items(["a", "b", "c"], ["v1"]),
            "query.queryState.Values.projections[$id_v2]",
        ),
        # the same id twice in the exemplar, once in the candidate
        (with_container_items(["a", "b", "c"], ["v1", "v2"]), "objects.dataPoint[$id_sales]"),
    ],
)
def test_a_candidate_matching_a_list_of_items_in_part_fails(
    tmp_path: Path, candidate: dict[str, Any], missing: str
) -> None:
    reference = with_container_items(["a", "b", "c"], ["v1", "v2"])
    if missing.startswith("objects"):
        points = reference["visual"]["objects"]["dataPoint"]
        points.append({"$id": "sales", "properties": {}})  # "sales" twice in the exemplar
    status, result = gate(tmp_path, candidate, reference)
    assert status == "fail" and result["deltas"] == [{"missing": missing}]
    assert gate(tmp_path, reference, candidate)[0] == "pass"  # the other way it is an addition


def test_a_selector_id_counts_as_an_item_id_and_a_missing_key_is_reported_once(
    tmp_path: Path,
) -> None:
    reference = card()
    reference["visual"]["objects"]["dataPoint"].append({"selector": {"id": "east"}})
    status, result = gate(tmp_path, card(), reference)
    assert status == "fail" and result["deltas"] == [{"missing": "objects.dataPoint[$id_east]"}]
    dropped = mutated(lambda v: v["objects"].pop("dataPoint"))
    _, result = gate(tmp_path, dropped, reference)
    assert result["deltas"] == [{"missing": "objects.dataPoint"}]  # not also each of its ids


def test_an_item_of_the_linters_own_page_format_is_a_visual_too(tmp_path: Path) -> None:
    inline = {"name": "kpi", **card()["visual"]}
    state = inline.pop("query")["queryState"]
    inline["queryState"] = state
    blank = {**inline, "queryState": {"Values": {"projections": []}}}
    status, result = gate(tmp_path, blank, inline)
    assert status == "fail" and result["deltas"][0] == {"missing": "query.queryState.Category"}
    mixed = {**card(), "visualType": "card"}  # both shapes at once: not comparable
    assert gate(tmp_path, mixed, card())[1]["measured"] == {"pbir_visual": False}
