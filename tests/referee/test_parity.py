"""PBIR-aware parity: what the candidate lacks against an exemplar fails, additions pass."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from argus.referee.parity import parity_gate
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
