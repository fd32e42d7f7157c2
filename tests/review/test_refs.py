"""Closing references in a PR body: the usual keywords and forms, and what closes nothing."""

from __future__ import annotations

import pytest

from argus.config import ReviewConfig
from argus.review.refs import closing_references

PATTERN = ReviewConfig().task_id_pattern
REPO = "acme/habits"


def ids(body: str, repo: str | None = REPO) -> list[str]:
    return [r.task_id for r in closing_references(body, PATTERN, repo)[0]]


@pytest.mark.parametrize(
    "keyword",
    ["close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves", "resolved",
     "CLOSES", "Fixes", "ReSoLvEd", "Closes:"],
)  # fmt: skip
def test_every_keyword_in_any_case_closes(keyword: str) -> None:
    assert ids(f"This {keyword} #7 at last.") == ["#7"]
    assert ids(f"{keyword} ARGUS-385") == ["ARGUS-385"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Closes #7", ["#7"]),
        ("Closes #007.", ["#7"]),
        ("Fixes acme/habits#12", ["#12"]),
        ("fixes ACME/Habits#12", ["#12"]),
        ("Resolves ARGUS-385", ["ARGUS-385"]),
        ("(closes ARGUS-385)", ["ARGUS-385"]),
        ("Closes #1, closes ARGUS-2\nFixes #3", ["#1", "ARGUS-2", "#3"]),
        ("Closes #1, #2 and ARGUS-3", ["#1", "#2", "ARGUS-3"]),
        ("Closes #1, fixes #1, resolves #1", ["#1"]),
        ("Closes #4 and updates the docs", ["#4"]),
        ("Closes #1, and #2", ["#1", "#2"]),
        ("Fixes ARGUS-1,ARGUS-2", ["ARGUS-1", "ARGUS-2"]),
        ("Closes #1 #2", ["#1"]),
        ("Closes #1, <!-- the other one: -->#2", ["#1", "#2"]),  # a comment is a space
    ],
)
def test_references_are_found_in_order_each_once(body: str, expected: list[str]) -> None:
    assert ids(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "",
        "Refactors the alert formatter.",
        "See #7 and ARGUS-385 for context.",
        "This closes the door on flaky tests.",
        "prefixes #7 and hotfix #8 and unfixed #9",
        "Closes argus-385",  # not the project's form
        "Closes ARGUS-385x",
        "Closes #7X",
        "Fixes ARGUS-12X.",
        "Closes #",
        "<!-- Closes #ISSUE: write the issue this closes -->\n<!-- Fixes #1 -->",
        "Do not write `Closes #7` in a commit.",
        "```\ngit commit -m 'Closes #7'\n```",
        "~~~text\nFixes ARGUS-1\n~~~",
        "Closes\n#7",
        "<!-- Closes #1 (a comment never closed)",
        "```\nCloses #1 (a fence never closed)",
        "the fixed-width #7 font",
        "Closes #1234567890",
    ],
)
def test_what_closes_nothing(body: str) -> None:
    refs, aside = closing_references(body, PATTERN, REPO)
    assert refs == () and aside == ()


def test_after_a_code_block_references_count_again() -> None:
    assert ids("```\nCloses #1\n```\nCloses #2 and `fixes #3`") == ["#2"]


def test_another_repositorys_issue_is_set_aside_with_the_reason() -> None:
    refs, aside = closing_references("Closes other/lib#5, closes #6", PATTERN, REPO)
    assert [r.task_id for r in refs] == ["#6"]
    assert [(a.text, a.reason) for a in aside] == [
        (
            "Closes other/lib#5",
            "an issue of other/lib, not of acme/habits: its task does not live here",
        )
    ]
    _, unknown = closing_references("Closes acme/habits#5", PATTERN, None)
    assert "--repo OWNER/NAME" in unknown[0].reason, "a repository nobody named is not assumed"


def test_the_project_chooses_the_form_of_its_task_ids() -> None:
    refs, _ = closing_references("Closes HAB-12 and fixes ARGUS-3", r"HAB-[0-9]+", REPO)
    assert [r.task_id for r in refs] == ["HAB-12"]
    assert refs[0].text == "Closes HAB-12"


def test_the_first_mention_of_a_task_is_the_one_kept() -> None:
    refs, _ = closing_references("Closes #1, then fixes #1 again", PATTERN, REPO)
    assert [(r.task_id, r.text) for r in refs] == [("#1", "Closes #1")]
