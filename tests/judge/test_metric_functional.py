"""functional_correctness on hand-written probes: every check's outcome, the score rule, the
abstentions and the prose that stays unmeasured (no browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.evidence.content import clip
from argus.evidence.probe import parse_probe
from tests.judge.conftest import PacketFactory
from tests.judge.test_metric import el, good_page, measure, page
from tests.support.habits import copy_habits


@pytest.fixture(scope="module")
def habits_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the example per module (make_packet only reads it): quicker tests, so
    quicker mutation runs."""
    return copy_habits(tmp_path_factory.mktemp("habits"))


def functional(
    make_packet: PacketFactory,
    probe: dict[str, Any] | None = None,
    *,
    spec_md: bool = False,
    console: dict[str, Any] | None = None,
    extra: dict[str, Path] | None = None,
    **contract: Any,
) -> Any:
    """Measure functional_correctness; by default no prose criteria (no spec.md, no component
    contracts), so the score stands for the machine checks alone; no project word list and no
    declaration that the expectations cover the prose unless the test gives them."""
    contract.setdefault("component_contracts", [])
    contract.setdefault("words", [])
    contract.setdefault("expectations_cover_prose", False)
    packet = make_packet(
        probe=probe or good_page(),
        contract=contract,
        spec_md=spec_md,
        console=console,
        extra=extra,
    )
    return measure(packet, "functional_correctness")


def counts(*specs: tuple[str, str | None, int]) -> dict[str, Any]:
    return {"counts": [{"role": r, "name": n, "equals": e} for r, n, e in specs]}


BUTTONS = ("button", None, 2)  # good_page shows two buttons
HEADING = ("heading", None, 1)
PARAGRAPH = ("paragraph", None, 1)
WRONG = ("link", None, 1)  # no link on good_page


@pytest.mark.parametrize(
    ("checks", "score"),
    [
        ((BUTTONS, HEADING, PARAGRAPH), 1),
        ((BUTTONS, HEADING, WRONG), 0.5),  # 1 of 3 fails: fewer than half
        ((BUTTONS, WRONG), 0),  # 1 of 2: half is not fewer than half
        ((BUTTONS, HEADING, WRONG, WRONG), 0),  # 2 of 4
        ((BUTTONS, HEADING, PARAGRAPH, WRONG), 0.5),  # 1 of 4
        ((WRONG,), 0),
    ],
)
def test_the_score_is_1_all_pass_half_fewer_than_half_fail_else_0(
    make_packet: PacketFactory, checks: tuple[tuple[str, str | None, int], ...], score: float
) -> None:
    result = functional(make_packet, expectations=counts(*checks))
    assert result.score == score, result.evidence
    assert result.numbers["checks"] == len(checks)
    if score == 1:  # a pass says what held
        assert "button: 2 shown, 2 expected" in result.evidence
    assert result.numbers["failed"] == sum(1 for c in checks if c is WRONG)


def test_counts_report_what_was_expected_and_found(make_packet: PacketFactory) -> None:
    spec = {"counts": [{"role": "button", "name": "Delete", "equals": "2", "from": "habits"}]}
    result = functional(make_packet, expectations=spec)
    assert result.score == 0
    assert result.numbers["counts"] == [
        {"role": "button", "name": "Delete", "expected": 2, "found": 1}
    ]


def _named_buttons(*names: str, visible: bool = True, size: float = 40) -> dict[str, Any]:
    return page(
        *(
            el(
                i + 1,
                0,
                "button",
                role="button",
                name=name,
                interactive=True,
                visible=visible,
                box=(10, 10 + 50 * i, size, size),
            )
            for i, name in enumerate(names)
        )
    )


@pytest.mark.parametrize(
    ("name", "found"),
    [
        (None, 3),  # no name: every button
        ("Add habit", 1),  # a literal equals the whole (collapsed) name
        ("Add", 0),  # ... not a part of it
        ("/habit/", 2),  # a /regex/ is searched for in the name
        ("/^Add/", 1),
        ("//", 3),  # an empty pattern is found in every name
        ("/", 0),  # one slash is a literal name, not a pattern
        ("", 0),  # an empty literal: only a button without a name
    ],
)
def test_count_name_patterns(make_packet: PacketFactory, name: str | None, found: int) -> None:
    probe = _named_buttons("Add  habit", "Remove habit", "Delete")
    result = functional(make_packet, probe, expectations=counts(("button", name, found)))
    assert result.numbers["counts"][0]["found"] == found
    assert result.score == 1, result.evidence


def test_a_count_counts_visible_elements_even_visually_hidden_ones(
    make_packet: PacketFactory,
) -> None:
    tiny = _named_buttons("Add habit", size=1)  # visible, 1x1: still in the page's structure
    result = functional(make_packet, tiny, expectations=counts(("button", None, 1)))
    assert result.score == 1 and result.numbers["counts"][0]["found"] == 1
    hidden = _named_buttons("Add habit", visible=False)
    result = functional(make_packet, hidden, expectations=counts(("button", None, 1)))
    assert result.score == 0 and result.numbers["counts"][0]["found"] == 0


def test_a_bad_name_pattern_is_refused_naming_it(make_packet: PacketFactory) -> None:
    with pytest.raises(InputError, match=r"functional_correctness.*bad name pattern /\[/ \("):
        functional(make_packet, expectations=counts(("button", "/[/", 1)))


ARIA = (
    '- heading "Habits" [level=1]\n- paragraph: 2 of 5 done today\n'
    '- button "Add habit"\n- button "Delete"'
)


@pytest.mark.parametrize(
    ("snapshot", "template", "named"),
    [
        ('heading "Habits"', '- heading "Habits"', "probe.json aria_snapshot"),
        (ARIA, 'heading "Habits"', "spec aria_snapshot expectation"),
    ],
)
def test_a_malformed_snapshot_or_template_is_refused_naming_which(
    make_packet: PacketFactory, snapshot: str, template: str, named: str
) -> None:
    probe = {**good_page(), "aria_snapshot": snapshot}
    refusal = rf"functional_correctness: {named}: line 1 does not start with '- '"
    with pytest.raises(InputError, match=refusal):
        functional(make_packet, probe, expectations={"aria_snapshot": template})


@pytest.mark.parametrize("snapshot", [None, "", "  \n", 42])
def test_a_template_without_a_snapshot_to_match_abstains(
    make_packet: PacketFactory, snapshot: Any
) -> None:
    probe = {**good_page(), "aria_snapshot": snapshot}
    spec = {"aria_snapshot": '- heading "Habits"', **counts(BUTTONS)}
    result = functional(make_packet, probe, expectations=spec)
    assert result.score is None  # never a pass, never a fail of the page: not measured


@pytest.mark.parametrize(
    ("template", "matched"),
    [
        ('- heading "Habits" [level=1]\n- button "Add habit"', True),
        ('- button "Add habit"\n- heading "Habits"', False),  # out of order
        ('- button "Save"', False),
        ('- heading "Habits" [level=2]', False),
    ],
)
def test_the_aria_template_is_one_check(
    make_packet: PacketFactory, template: str, matched: bool
) -> None:
    probe = {**good_page(), "aria_snapshot": ARIA}
    result = functional(make_packet, probe, expectations={"aria_snapshot": template})
    assert result.score == (1 if matched else 0), result.evidence
    assert result.numbers["aria_template_matched"] is matched
    assert result.numbers["checks"] == 1
    if "Save" not in template:  # every node is there: none is named as missing
        assert "None" not in result.evidence


def test_a_template_failure_names_the_first_missing_node(make_packet: PacketFactory) -> None:
    probe = {**good_page(), "aria_snapshot": ARIA}
    spec = {"aria_snapshot": '- heading "Habits"\n- button "Save"\n- link "Help"'}
    result = functional(make_packet, probe, expectations=spec)
    assert result.score == 0
    assert 'button "Save"' in result.evidence and "Help" not in result.evidence


def test_an_unnamed_control_stands_in_place_for_the_template(make_packet: PacketFactory) -> None:
    # The missing label is accessibility's failure; the structure is still the template's.
    probe = {**good_page(), "aria_snapshot": '- heading "Habits" [level=1]\n- button'}
    spec = {"aria_snapshot": '- heading "Habits"\n- button "Add habit"'}
    result = functional(make_packet, probe, expectations=spec)
    assert result.score == 1 and result.numbers["aria_template_matched"] is True


@pytest.mark.parametrize(
    ("walked", "found"),
    [
        ([{"id": "name", "testid": "", "tag": "input"}], ["name"]),  # the id when no test id
        ([{"id": "", "testid": "", "tag": "input"}], ["input"]),  # then the tag
        ([{"testid": "", "id": ""}], ["?"]),
        ([{"testid": "t", "id": "i", "tag": "input"}], ["t"]),  # the test id first
        (["habits.add"], ["nothing"]),  # not an element record
    ],
)
def test_the_focus_order_names_each_stop(
    make_packet: PacketFactory, walked: list[Any], found: list[str]
) -> None:
    probe = {**good_page(), "focus_order": walked}
    wanted = ["habits.add"] if found == ["nothing"] else found
    result = functional(make_packet, probe, expectations={"focus_order": wanted})
    assert result.numbers["focus_order"] == {"expected": wanted, "found": found}
    assert result.score == (1 if wanted == found else 0)


@pytest.mark.parametrize("walked", [None, "habits.add", {"0": "habits.add"}])
def test_a_focus_order_that_is_not_a_list_fails(make_packet: PacketFactory, walked: Any) -> None:
    probe = {**good_page(), "focus_order": walked}
    spec = {"focus_order": ["habits.add"], **counts(BUTTONS, HEADING)}
    result = functional(make_packet, probe, expectations=spec)
    assert result.score == 0.5 and result.numbers["failed"] == 1  # 1 of 3 checks
    assert "focus_order" not in result.numbers


def test_focus_ids_are_compared_as_text(make_packet: PacketFactory) -> None:
    probe = {**good_page(), "focus_order": [{"testid": "7", "id": "", "tag": "button"}]}
    result = functional(make_packet, probe, expectations={"focus_order": [7]})
    assert result.score == 1 and result.numbers["focus_order"]["expected"] == ["7"]


def test_texts_are_one_check_shown_and_one_per_missing_text(make_packet: PacketFactory) -> None:
    texts = ["2 of 5   done today", "Habits", "Nowhere", "Missing too"]
    result = functional(make_packet, expectations={"texts": texts})
    # 2 shown (one check), 2 missing (two checks): 2 of 3 fail.
    assert result.numbers["texts"] == {"expected": 4, "missing": ["Nowhere", "Missing too"]}
    assert result.numbers["checks"] == 3 and result.numbers["failed"] == 2
    assert result.score == 0
    assert result.numbers["counts"] == []  # no count expectations


def test_texts_none_shown_are_only_failures(make_packet: PacketFactory) -> None:
    result = functional(make_packet, expectations={"texts": ["Nowhere", "Missing too"]})
    assert result.numbers["checks"] == 2 and result.numbers["failed"] == 2
    assert result.score == 0


def test_one_missing_text_among_passing_checks_scores_half(make_packet: PacketFactory) -> None:
    spec = {"texts": ["Habits", "Nowhere"], **counts(BUTTONS, HEADING)}
    result = functional(make_packet, expectations=spec)
    assert result.numbers["checks"] == 4 and result.numbers["failed"] == 1
    assert result.score == 0.5


def test_texts_of_hidden_or_tiny_elements_are_not_shown(make_packet: PacketFactory) -> None:
    probe = page(
        el(1, 0, "p", role="paragraph", text="Hidden words", visible=False),
        el(2, 0, "p", role="paragraph", text="Tiny words", box=(0, 30, 1, 1)),
        el(3, 0, "p", role="paragraph", text="Shown words", box=(0, 60, 100, 20)),
    )
    spec = {"texts": ["Hidden words", "Tiny words", "Shown words"]}
    result = functional(make_packet, probe, expectations=spec)
    assert result.numbers["texts"]["missing"] == ["Hidden words", "Tiny words"]


def test_a_missing_text_is_clipped_to_80_characters(make_packet: PacketFactory) -> None:
    long = "word " * 30
    result = functional(make_packet, expectations={"texts": [long]})
    (missing,) = result.numbers["texts"]["missing"]
    assert len(missing) == 80 and long.startswith(missing[:60]) and missing != long[:80]


def _text_page(*texts: str) -> dict[str, Any]:
    return page(
        *(
            el(i + 1, 0, "p", role="paragraph", text=t, testid=f"t{i}", box=(0, 30 * i, 200, 20))
            for i, t in enumerate(texts)
        )
    )


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Habits done today", 0),
        ("Habits dnoe today", 1),
        ("xq zz today", 0),  # under three letters: initials, units
        ("xqz today", 1),  # three letters are checked
        ("It isn't here, don't worry", 0),  # one inner apostrophe keeps the word whole
        ("done123 today_now", 0),  # digits and underscores end a word
    ],
)
def test_spelling_counts_unknown_words(make_packet: PacketFactory, text: str, unknown: int) -> None:
    result = functional(make_packet, _text_page(text), expectations=None)
    assert result.numbers["spelling"]["unknown"] == unknown, result.evidence
    if unknown:
        assert result.score == 0 and result.numbers["checks"] == 1
    else:
        assert result.score is None  # a clean spelling check alone measures nothing


def test_spelling_counts_distinct_words_case_blind(make_packet: PacketFactory) -> None:
    probe = _text_page("Dnoe dnoe DNOE today", "today again")
    result = functional(make_packet, probe, expectations=None)
    assert result.numbers["spelling"] == {"checked_words": 3, "unknown": 1}


def test_spelling_accepts_the_projects_words_whatever_their_case(
    make_packet: PacketFactory,
) -> None:
    probe = _text_page("Habitz and Streakly today")
    result = functional(make_packet, probe, expectations=None, words=["HABITZ", "streakly"])
    assert result.numbers["spelling"] == {"checked_words": 2, "unknown": 0}
    assert result.score is None


def test_spelling_reads_only_shown_text(make_packet: PacketFactory) -> None:
    probe = page(
        el(1, 0, "p", role="paragraph", text="Dnoe hidden", visible=False),
        el(2, 0, "p", role="paragraph", text="Dnoe tiny", box=(0, 30, 200, 1)),
        el(3, 0, "p", role="paragraph", text="today", box=(0, 60, 200, 20)),
    )
    result = functional(make_packet, probe, expectations=None)
    assert result.numbers["spelling"] == {"checked_words": 1, "unknown": 0}


def test_spelling_names_where_a_word_first_appears(make_packet: PacketFactory) -> None:
    probe = _text_page("today", "Dnoe here", "dnoe again")
    result = functional(make_packet, probe, expectations=None)
    assert result.numbers["spelling"]["unknown"] == 1
    assert "t1" in result.evidence and "t2" not in result.evidence


def test_spelling_lists_three_words_and_counts_the_rest(make_packet: PacketFactory) -> None:
    probe = _text_page("aaqz bbqz ccqz ddqz eeqz")
    result = functional(make_packet, probe, expectations=None)
    assert result.numbers["spelling"]["unknown"] == 5 and result.score == 0
    assert "ccqz" in result.evidence and "ddqz" not in result.evidence
    assert " 2 more" in result.evidence
    three = functional(make_packet, _text_page("aaqz bbqz ccqz"), expectations=None)
    assert "more" not in three.evidence


def test_spelling_without_any_word_checks_nothing(make_packet: PacketFactory) -> None:
    probe = page(el(1, 0, "p", role="paragraph", text="12 34 ok"))
    result = functional(make_packet, probe, expectations=None)
    assert result.numbers["spelling"] == {"checked_words": 0, "unknown": 0}
    assert result.score is None


@pytest.mark.parametrize(
    ("console", "errors", "page_errors", "score"),
    [
        ({"messages": [], "page_errors": []}, 0, 0, 1),
        ({"messages": [{"level": "error", "text": "x"}], "page_errors": []}, 1, 0, 0.5),
        ({"messages": [], "page_errors": ["boom"]}, 0, 1, 0.5),
        ({"messages": [{"level": "warning", "text": "x"}], "page_errors": []}, 0, 0, 1),
    ],
)
def test_console_errors_are_one_failed_check(
    make_packet: PacketFactory,
    console: dict[str, Any],
    errors: int,
    page_errors: int,
    score: float,
) -> None:
    result = functional(make_packet, console=console, expectations=counts(BUTTONS, HEADING))
    assert result.numbers["console_errors"] == errors
    assert result.numbers["page_errors"] == page_errors
    assert result.score == score
    assert result.numbers["checks"] == (2 if score == 1 else 3)


def test_a_clean_console_alone_abstains_with_its_numbers(make_packet: PacketFactory) -> None:
    clean = {"messages": [], "page_errors": []}
    result = functional(make_packet, console=clean, expectations=None)
    assert result.score is None
    assert result.numbers["console_errors"] == 0 and result.numbers["page_errors"] == 0
    assert "checks" not in result.numbers


def test_without_a_console_capture_nothing_is_counted(make_packet: PacketFactory) -> None:
    result = functional(make_packet, expectations=counts(BUTTONS))
    assert result.score == 1 and "console_errors" not in result.numbers


def test_a_malformed_console_capture_is_refused(make_packet: PacketFactory) -> None:
    with pytest.raises(InputError):
        functional(make_packet, console={"messages": "nope"}, expectations=None)


def _spec_md(tmp_path: Path, text: str) -> dict[str, Path]:
    path = tmp_path / "spec-prose.md"
    path.write_text(text, "utf-8")
    return {"spec_md": path}


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        ("# List\n\n- [ ] one row per habit\n", True),
        ("# List\n\n* [x] one row per habit\n", True),
        ("# List\n\n  - [X] one row per habit\n", True),
        ("# Acceptance Criteria\n\nrows\n", True),
        ("# List\n\nOne row per habit.\n- plain bullet\n", False),
        ("# List\n\n-[ ] not a checklist item\n", False),
    ],
)
def test_prose_criteria_in_spec_md(
    make_packet: PacketFactory, tmp_path: Path, text: str, prose: bool
) -> None:
    result = functional(make_packet, expectations=counts(BUTTONS), extra=_spec_md(tmp_path, text))
    if prose:
        assert result.score is None  # the machine check holds; the prose is not measured
        assert result.numbers["unmeasured"] == ["spec.md acceptance criteria"]
        assert result.numbers["partial"] is True
    else:
        assert result.score == 1 and "partial" not in result.numbers


@pytest.mark.parametrize(
    ("n", "said", "verb"), [(1, "1 component contract", "is"), (2, "2 component contracts", "are")]
)
def test_component_contracts_are_prose(
    make_packet: PacketFactory, n: int, said: str, verb: str
) -> None:
    contracts = [{"state": "populated", "expects": f"part {i}"} for i in range(n)]
    result = functional(make_packet, expectations=counts(BUTTONS), component_contracts=contracts)
    assert result.score is None and result.numbers["unmeasured"] == [said]
    assert f"the {said} {verb} prose: not measured here" in result.evidence


def test_prose_is_only_weighed_against_expectations(make_packet: PacketFactory) -> None:
    # No machine expectations, only a console error: the failure stands, and no prose is
    # reported as left out of a measurement that measured no criterion at all.
    console = {"messages": [{"level": "error", "text": "x"}], "page_errors": []}
    contracts = [{"state": "populated", "expects": "a header"}]
    result = functional(
        make_packet,
        console=console,
        expectations=None,
        spec_md=True,
        component_contracts=contracts,
    )
    assert result.score == 0 and "partial" not in result.numbers


@pytest.mark.parametrize("declared", [False, None, "yes", 1])
def test_only_a_true_declaration_covers_the_prose(
    make_packet: PacketFactory, declared: Any
) -> None:
    contracts = [{"state": "populated", "expects": "a header"}]
    result = functional(
        make_packet,
        expectations=counts(BUTTONS),
        component_contracts=contracts,
        expectations_cover_prose=declared,
    )
    assert result.score is None and "covered_by_declaration" not in result.numbers
    covered = functional(
        make_packet,
        expectations=counts(BUTTONS),
        component_contracts=contracts,
        expectations_cover_prose=True,
    )
    assert covered.score == 1 and covered.numbers["covered_by_declaration"] is True
    assert "button: 2 shown, 2 expected" in covered.evidence


def test_a_failure_with_prose_keeps_its_score_and_says_what_was_left(
    make_packet: PacketFactory,
) -> None:
    contracts = [{"state": "populated", "expects": "a header"}]
    result = functional(
        make_packet,
        expectations=counts(BUTTONS, HEADING, WRONG),
        component_contracts=contracts,
        spec_md=True,
    )
    assert result.score == 0.5
    assert result.numbers["unmeasured"] == ["spec.md acceptance criteria", "1 component contract"]
    assert "criteria and 1 component contract are prose: not measured" in result.evidence


def test_a_text_may_run_across_shown_elements_in_document_order(
    make_packet: PacketFactory,
) -> None:
    across = functional(make_packet, expectations={"texts": ["Habits 2 of 5 done today"]})
    assert across.score == 1 and across.numbers["texts"]["missing"] == []
    glued = functional(make_packet, expectations={"texts": ["Habits2 of 5"]})
    assert glued.numbers["texts"]["missing"] == ["Habits2 of 5"]  # elements are words apart


def test_the_evidence_names_the_missing_text_as_the_numbers_do(
    make_packet: PacketFactory,
) -> None:
    long = "a" * 50 + " " + "b" * 60
    result = functional(make_packet, expectations={"texts": [long]})
    (missing,) = result.numbers["texts"]["missing"]
    assert missing == clip(long, 80) and repr(missing) in result.evidence


def test_the_evidence_clips_a_long_unknown_word_to_30_characters(
    make_packet: PacketFactory,
) -> None:
    word = "qz" * 20
    result = functional(make_packet, _text_page(f"today {word}"), expectations=None)
    assert result.numbers["spelling"]["unknown"] == 1
    assert repr(clip(word, 30)) in result.evidence


def test_empty_expectation_lists_check_nothing(make_packet: PacketFactory) -> None:
    spec = {"focus_order": [], "texts": [], "aria_snapshot": "", **counts(BUTTONS)}
    result = functional(make_packet, expectations=spec)
    assert result.score == 1 and result.numbers["checks"] == 1
    assert "focus_order" not in result.numbers and "texts" not in result.numbers
    assert "aria_template_matched" not in result.numbers


def test_the_first_missing_node_is_found_as_the_match_is(make_packet: PacketFactory) -> None:
    # The unnamed button stands in for "Add habit" when naming what is missing too: the
    # first missing node is the link.
    probe = {**good_page(), "aria_snapshot": '- heading "Habits" [level=1]\n- button'}
    spec = {"aria_snapshot": '- button "Add habit"\n- link "Help"'}
    result = functional(make_packet, probe, expectations=spec)
    assert result.score == 0
    assert 'link "Help"' in result.evidence and "Add habit" not in result.evidence


def test_the_evidence_clips_where_a_word_is_to_60_characters(
    make_packet: PacketFactory,
) -> None:
    probe = page(el(1, 0, "p", role="paragraph", text="Dnoe today", testid="row." + "x" * 80))
    result = functional(make_packet, probe, expectations=None)
    where = parse_probe(probe, "probe.json").selector(parse_probe(probe, "probe.json").elements[1])
    assert len(where) > 60 and f"in {clip(where, 60)}" in result.evidence


def test_a_typed_check_is_one_of_the_checks_with_its_numbers(make_packet: PacketFactory) -> None:
    # A focus trap the walk shows holding, beside a count that holds and one that fails.
    trap = {"region": "wizard", "traps": True, "start": "s0", "presses": 2}
    stops = [{"id": "", "testid": f"s{i}", "tag": "input", "inside": True} for i in range(3)]
    probe = {**good_page(), "focus_trap": {"region": "wizard", "from": "s0", "stops": stops}}
    spec = {"focus_trap": trap, **counts(BUTTONS, WRONG)}
    result = functional(make_packet, probe, expectations=spec)
    assert result.score == 0.5, result.evidence
    assert (result.numbers["checks"], result.numbers["failed"]) == (3, 1)
    assert list(result.numbers["typed"]) == ["focus_trap"], result.numbers


def test_a_failed_count_says_what_was_counted(make_packet: PacketFactory) -> None:
    spec = {
        "counts": [
            {"role": "button", "name": "Delete", "equals": 2, "from": "habits"},
            {"role": "link", "name": None, "equals": 1},
        ]
    }
    result = functional(make_packet, expectations=spec)
    assert result.score == 0
    assert "button 'Delete': 1 shown, 2 expected (length of habits)" in result.evidence
    assert "link: 0 shown, 1 expected;" in result.evidence or result.evidence.endswith(
        "link: 0 shown, 1 expected."
    )
