"""ARIA snapshot templates: Playwright's matching rules, kept to what a spec needs."""

from __future__ import annotations

import pytest

from argus.errors import InputError
from argus.judge._aria import first_unmatched, parse_aria, template_matches

SNAPSHOT = """\
- main:
  - heading "Habits" [level=1]
  - paragraph: 2 of 5 done today
  - button "Add habit"
  - region "Your habits":
    - heading "Your habits" [level=2]
    - list:
      - listitem:
        - button "Complete Morning run" [pressed]
        - paragraph: Morning run
      - listitem:
        - button "Complete Read 20 pages"
        - paragraph: Read 20 pages
      - 'listitem "Key: value"'
    - link "Docs":
      - /url: https://example.com/docs
"""


@pytest.mark.parametrize(
    ("template", "matches"),
    [
        ('- heading "Habits" [level=1]', True),
        ('- heading "Habits" [level=2]', False),
        ('- heading "habits"', False),
        ("- heading /^Hab/", True),
        ("- heading /^Your/ [level=2]", True),
        ('- button "Add habit"', True),
        ('- button "Add  habit"', True),  # white space collapses
        ('- button "Add"', False),  # names are whole, not substrings
        ("- list:\n  - listitem\n  - listitem", True),
        ("- list:\n  - listitem\n  - listitem\n  - listitem\n  - listitem", False),
        ("- list:\n  - listitem:\n    - paragraph: Read 20 pages", True),
        # Order matters: the second listitem's text cannot come before the first's.
        (
            "- list:\n  - listitem:\n    - paragraph: Read 20 pages\n"
            "  - listitem:\n    - paragraph: Morning run",
            False,
        ),
        ('- button "Complete Morning run" [pressed]', True),
        ('- button "Complete Read 20 pages" [pressed]', False),
        ('- button "Complete Read 20 pages" [pressed=false]', True),
        ("- paragraph: /\\d+ of \\d+ done/", True),
        # Top-level siblings are matched in order under one parent.
        ('- heading "Habits"\n- button "Add habit"', True),
        ('- button "Add habit"\n- heading "Habits"', False),
        ("- list:\n  - /children: equal\n  - listitem\n  - listitem", False),
        ('- listitem "Key: value"', True),
        ('- link "Docs":\n  - /url: /example\\.com/', True),
        ('- link "Docs":\n  - /url: https://other.example', False),
        ("", True),
    ],
)
def test_template_semantics(template: str, matches: bool) -> None:
    tree = parse_aria(SNAPSHOT)
    assert template_matches(tree, parse_aria(template)) is matches


def test_first_unmatched_names_the_missing_line() -> None:
    tree = parse_aria(SNAPSHOT)
    template = parse_aria('- heading "Habits"\n- button "Remove all"')
    assert first_unmatched(tree, template) == 'button "Remove all"'


def test_children_equal_accepts_the_exact_list() -> None:
    tree = parse_aria("- list:\n  - listitem: a\n  - listitem: b")
    exact = parse_aria("- list:\n  - /children: equal\n  - listitem: a\n  - listitem: b")
    assert template_matches(tree, exact)


@pytest.mark.parametrize(
    "bad",
    ["heading 'x'", "- heading /[/", "- list:\n  - /children: some", '- heading "open'],
)
def test_bad_templates_are_input_errors(bad: str) -> None:
    with pytest.raises(InputError):
        parse_aria(bad, where="spec")


def test_deep_equal_reaches_down_until_a_node_says_contain() -> None:
    tree = parse_aria("- list:\n  - listitem:\n    - text: a\n    - text: b")
    deep = "- list:\n  - /children: deep-equal\n  - listitem:\n    - text: a"
    assert not template_matches(tree, parse_aria(deep))
    relaxed = deep.replace("  - listitem:\n", "  - listitem:\n    - /children: contain\n")
    assert template_matches(tree, parse_aria(relaxed))


def test_an_unnamed_control_can_stand_in_for_a_named_one_when_asked() -> None:
    tree = parse_aria("- listitem:\n  - paragraph: Read\n  - button")
    template = parse_aria('- listitem:\n  - paragraph: Read\n  - button "Delete Read"')
    assert not template_matches(tree, template)
    assert template_matches(tree, template, unnamed_controls=True)
    wrong_name = parse_aria('- listitem:\n  - paragraph: Read\n  - button "Delete"')
    named = parse_aria('- listitem:\n  - paragraph: Read\n  - button "Remove"')
    assert not template_matches(
        named, wrong_name, unnamed_controls=True
    )  # a wrong name still fails
