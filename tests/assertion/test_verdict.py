"""Checking the judge's answer: only a reasoned, cited `passed` passes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from argus.assertion import AssertionPacket, check_answer, unanswered
from argus.assertion._verdict import FAILED, INCONCLUSIVE


def answer(packet: AssertionPacket, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "packet_id": packet.packet_id,
        "verdict": "passed",
        "reason": "The Pro tier card has the accent border; the others do not.",
        "citations": ["screenshot"],
    }
    return {**base, **fields}


def test_a_reasoned_cited_pass_passes(packet: AssertionPacket) -> None:
    result = check_answer(packet, answer(packet))
    assert (result.verdict, result.code, result.passed, result.accepted) == (
        "passed",
        None,
        True,
        True,
    )
    assert result.reason.startswith("The Pro tier card")
    doc = result.to_json(packet)
    assert doc["judge"] == {
        "verdict": "passed",
        "citations": ["screenshot"],
        "answer_accepted": True,
    }
    assert doc["assertion"] == packet.assertion and doc["packet_sha256"] == packet.digest
    assert doc["packet_id"] == packet.packet_id


def test_an_answer_without_a_packet_id_is_for_another_packet(packet: AssertionPacket) -> None:
    given = answer(packet)
    del given["packet_id"]
    result = check_answer(packet, given)
    assert (result.verdict, result.code, result.accepted) == ("failed", INCONCLUSIVE, False)
    assert "the judge's answer is for another packet" in result.reason


def test_failed_is_assertion_failed(packet: AssertionPacket) -> None:
    result = check_answer(
        packet, answer(packet, verdict="failed", reason="No card is highlighted.")
    )
    assert (result.verdict, result.code) == ("failed", FAILED)


def test_inconclusive_is_never_a_pass(packet: AssertionPacket) -> None:
    result = check_answer(
        packet, answer(packet, verdict="inconclusive", reason="The cards are cut off.")
    )
    assert (result.verdict, result.code, result.judge_verdict) == (
        "failed",
        INCONCLUSIVE,
        "inconclusive",
    )
    assert result.accepted


@pytest.mark.parametrize(
    "citation",
    ["screenshot", "ui-tree", "evidence/screenshot.png", "ui-tree.json", "SCREENSHOT_ABS"],
)
def test_evidence_may_be_cited_by_id_or_path(packet: AssertionPacket, citation: str) -> None:
    if citation == "SCREENSHOT_ABS":
        citation = str(packet.screenshot().path)
    assert check_answer(packet, answer(packet, citations=[citation])).passed


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"reason": ""}, "without a reason"),
        ({"reason": None}, "without a reason"),
        ({"citations": []}, "without citing the evidence"),
        ({"citations": "screenshot"}, "without citing the evidence"),
        ({"citations": ["screenshot", "/tmp/earlier-step.png"]}, "which is not in the packet"),
        ({"citations": ["transcript"]}, "which is not in the packet"),
        ({"verdict": "pass"}, "not one of passed, failed, inconclusive"),
        ({"verdict": True}, "not one of"),
        ({"citations": ["screenshot", 3]}, "citations are not all text"),
        ({"citations": [{"id": "screenshot"}]}, "citations are not all text"),
        ({"packet_id": None}, "is for another packet: it names no packet_id"),
        ({"packet_id": "0123456789abcdef"}, "is for another packet: it has another packet_id"),
        ({"packet_id": 7}, "is for another packet"),
    ],
)
def test_an_unsupported_answer_is_inconclusive_even_when_it_says_passed(
    packet: AssertionPacket, fields: dict[str, Any], why: str
) -> None:
    result = check_answer(packet, answer(packet, **fields))
    assert (result.verdict, result.code, result.accepted) == ("failed", INCONCLUSIVE, False)
    assert why in result.reason


@pytest.mark.parametrize("raw", ["passed", "{not json", "[1, 2]", json.dumps("passed")])
def test_an_answer_that_is_no_json_object_is_inconclusive(
    packet: AssertionPacket, raw: str
) -> None:
    result = check_answer(packet, raw)
    assert (result.verdict, result.code) == ("failed", INCONCLUSIVE)


def test_the_answer_may_arrive_as_text(packet: AssertionPacket) -> None:
    assert check_answer(packet, json.dumps(answer(packet))).passed


def test_a_long_reason_is_cut_and_marked(packet: AssertionPacket) -> None:
    result = check_answer(packet, answer(packet, reason="x" * 5000))
    assert len(result.reason) == 1000 and result.reason.endswith("…[truncated]")


def test_no_answer_at_all_is_inconclusive() -> None:
    result = unanswered("judge model openai/x: timed out")
    assert (result.verdict, result.code) == ("failed", INCONCLUSIVE)
    assert result.reason == "the judge could not answer: judge model openai/x: timed out"
