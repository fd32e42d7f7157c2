"""The four-state status: parsing an implementer's status line, ranking, exit codes."""

from __future__ import annotations

import pytest

from argus.loop.records.status import EXIT_CODES, Status, parse_status, worst


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("edited styles.css\nSTATUS: DONE\n", Status.DONE),
        ("STATUS: DONE_WITH_CONCERNS\nthe gap token is odd", Status.DONE_WITH_CONCERNS),
        ("status: blocked", Status.BLOCKED),
        ("**STATUS:** NEEDS_CONTEXT", Status.NEEDS_CONTEXT),
        ("> Status - DONE", Status.DONE),
        ("- STATUS = BLOCKED (no access)", Status.BLOCKED),
        # The last status line wins: an agent may quote the protocol before answering.
        ("print STATUS: DONE when done\n...\nSTATUS: BLOCKED\n", Status.BLOCKED),
        ("STATUS: DONE\nSTATUS: NEEDS_CONTEXT\n", Status.NEEDS_CONTEXT),
        ("all good, I am DONE\n", None),
        ("STATUS: FINISHED\n", None),
        ("", None),
        ("STATUS: DONEISH", None),
    ],
)
def test_parse_status(output: str, expected: Status | None) -> None:
    assert parse_status(output) == expected


def test_worst_orders_blocked_needs_context_concerns_done() -> None:
    assert worst([]) is Status.DONE
    assert worst([Status.DONE, Status.DONE_WITH_CONCERNS]) is Status.DONE_WITH_CONCERNS
    assert worst([Status.DONE_WITH_CONCERNS, Status.NEEDS_CONTEXT]) is Status.NEEDS_CONTEXT
    assert worst([Status.NEEDS_CONTEXT, Status.BLOCKED, Status.DONE]) is Status.BLOCKED


def test_exit_codes_follow_the_convention_and_done_is_zero() -> None:
    assert EXIT_CODES[Status.DONE] == 0
    # Both determinate failures: concerns after a sign-off, a failed report-only view.
    assert EXIT_CODES[Status.DONE_WITH_CONCERNS] == 1
    assert EXIT_CODES[Status.FAILED] == 1
    assert EXIT_CODES[Status.BLOCKED] == 2
    assert EXIT_CODES[Status.NEEDS_CONTEXT] == 3
    assert set(EXIT_CODES) == set(Status)


def test_a_failed_view_is_worse_than_concerns_and_better_than_needing_a_person() -> None:
    assert worst([Status.DONE_WITH_CONCERNS, Status.FAILED]) is Status.FAILED
    assert worst([Status.FAILED, Status.NEEDS_CONTEXT]) is Status.NEEDS_CONTEXT


def test_an_implementer_cannot_report_failed() -> None:
    assert parse_status("STATUS: FAILED") is None
