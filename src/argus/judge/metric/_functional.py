"""functional_correctness: the spec's machine-checkable expectations for this state.

From contract.json (spec.json narrowed to this view, fixture counts already resolved):
- ``aria_snapshot``: a Playwright-style template the probe's ARIA snapshot must match
  (argus.judge._aria);
- ``counts``: shown elements with a role (and an accessible name, literal or ``/regex/``) must
  number exactly ``equals`` (for example one list item per habit in the fixture);
- ``focus_order``: the ids keyboard focus visits (the probe's ``focus_order``, walked by the
  sensor after the capture); a probe without one fails the check, never passes it;
- the typed checks (``numeric_columns``, ``formats``, ``sort``, ``shown``, ``focus_trap``),
  one module each in argus.judge.metric.checks.
The console is evidence too: an uncaught page error or a console error means the page did not
work as rendered (counted, never quoted: a page can log anything). So is the sensor's
dead-control probe: a control whose activation changes nothing, unless the spec declares it
``inert``, is a failed check (argus.judge.metric.controls); a probe that measured nothing (no
controls.json, not run, failed, malformed or partial) leaves the dimension unverified unless
another check fails.

1 when every check passes; 0.5 when more than half pass; 0 otherwise. With no expectations
for the state (a prose-only contract) and a clean console, the dimension abstains, and so it
does when every machine check holds but prose criteria remain that nothing measured: what was
not measured is unverified, never passed. A failed check fails whatever the prose says.

Expectations rarely say everything the spec says. When the view also has prose criteria (the
spec.md acceptance criteria, component contracts for the state), the score stands for the
machine expectations only and the measurement is marked ``partial`` with what it left out
(``unmeasured``): the composite judge then also puts the dimension to its model judge (keeping
the lower score of a measured failure); the metric judge alone abstains on a measured pass.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from spellchecker import SpellChecker

from argus.errors import InputError
from argus.evidence.content import clip
from argus.judge._aria import TextPattern, collapse, first_unmatched, parse_aria, template_matches
from argus.judge.metric._context import Measured, MetricContext, Node
from argus.judge.metric.checks import typed_checks
from argus.judge.metric.controls import dead_controls, unmeasured
from argus.spec.prose import are_prose, prose_criteria

# A word as the spelling check reads it: letters, with one inner apostrophe (don't).
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
MIN_WORD = 3  # shorter tokens (initials, units) are not spell-checked
MAX_LISTED = 3


def _name_pattern(name: str | None) -> TextPattern | None:
    if name is None:
        return None
    if len(name) >= 2 and name.startswith("/") and name.endswith("/"):
        try:
            return TextPattern(regex=re.compile(name[1:-1]))
        except re.error as exc:
            raise InputError(f"spec expectations: bad name pattern {name} ({exc})") from exc
    return TextPattern(literal=name)


def count_matching(nodes: tuple[Node, ...], role: str, name: str | None) -> int:
    pattern = _name_pattern(name)
    return sum(
        1
        for n in nodes
        if n.element.visible
        and n.role == role
        and (pattern is None or pattern.matches(collapse(n.name)))
    )


def _console_errors(ctx: MetricContext) -> tuple[int, int] | None:
    console = ctx.optional_json("console")
    if console is None:
        return None
    # The console gate's policy, so one console.json gets one count.
    counts = ctx.config.gates.console.policy().count(console)
    return counts.console_errors, counts.page_errors


def visible_text(ctx: MetricContext) -> str:
    """The shown elements' own text, in document order, white space collapsed."""
    return collapse(" ".join(n.element.text for n in ctx.nodes if n.shown and n.element.has_text))


def _text_checks(
    ctx: MetricContext, wanted: list[str], numbers: dict[str, Any]
) -> list[tuple[str, bool]]:
    """Each text the spec's templates rendered from the fixture must be shown."""
    shown = visible_text(ctx)
    missing = [t for t in wanted if collapse(t) not in shown]
    numbers["texts"] = {"expected": len(wanted), "missing": [clip(t, 80) for t in missing]}
    found = len(wanted) - len(missing)
    shown_ok = f"{found} of {len(wanted)} text(s) the fixture implies are shown"
    out = [(shown_ok, True)] if found else []
    return out + [
        (f"the text {clip(t, 80)!r} (from the fixture) is not shown", False) for t in missing
    ]


def _spelling(ctx: MetricContext, numbers: dict[str, Any]) -> tuple[str, bool] | None:
    """Visible words that are in neither the dictionary, the spec's own words nor the
    project's word list (contract ``words``). A finding, never silent; None when all known."""
    known = {str(w).lower() for w in ctx.contract.get("words") or []}
    words: dict[str, str] = {}
    for node in ctx.nodes:
        if node.shown and node.element.has_text:
            for word in WORD.findall(node.element.text):
                if len(word) >= MIN_WORD and word.lower() not in known:
                    words.setdefault(word.lower(), ctx.probe.selector(node.element))
    unknown = sorted(dictionary().unknown(list(words))) if words else []
    numbers["spelling"] = {"checked_words": len(words), "unknown": len(unknown)}
    if not unknown:
        return None
    listed = ", ".join(f"{clip(w, 30)!r} in {clip(words[w], 60)}" for w in unknown[:MAX_LISTED])
    more = f" and {len(unknown) - MAX_LISTED} more" if len(unknown) > MAX_LISTED else ""
    return (
        f"{len(unknown)} word(s) in no dictionary, the spec or the project's word list: "
        f"{listed}{more}",
        False,
    )


@cache
def dictionary() -> SpellChecker:
    """pyspellchecker's English word frequency list, loaded once per process."""
    return SpellChecker(language="en")


def unmeasured_prose(ctx: MetricContext) -> list[str]:
    """The view's prose criteria, which no machine expectation checks."""
    return prose_criteria(ctx.packet.text("spec_md"), ctx.contract.get("component_contracts") or [])


def _focus_check(
    ctx: MetricContext, wanted: list[str], numbers: dict[str, Any]
) -> tuple[str, bool]:
    """The keyboard's path against the spec's focus_order. Not measured is not passed."""
    walked = ctx.probe_raw.get("focus_order")
    if not isinstance(walked, list):
        return ("the focus order was not measured (the probe has no focus_order)", False)
    have = [
        (e.get("testid") or e.get("id") or e.get("tag", "?")) if isinstance(e, dict) else "nothing"
        for e in walked
    ]
    numbers["focus_order"] = {"expected": wanted, "found": have}
    if have == wanted:
        return (f"focus moves {' -> '.join(wanted)}", True)
    return (f"focus moves {' -> '.join(have)}, expected {' -> '.join(wanted)}", False)


def functional_correctness(ctx: MetricContext) -> Measured:
    expectations: dict[str, Any] | None = ctx.contract.get("expectations")
    results: list[tuple[str, bool]] = []  # (what was checked, passed)
    numbers: dict[str, Any] = {}
    if expectations:
        template = expectations.get("aria_snapshot")
        if template:
            snapshot = ctx.probe_raw.get("aria_snapshot")
            if not isinstance(snapshot, str) or not snapshot.strip():
                return Measured.abstain(
                    "The probe has no ARIA snapshot to match the spec's template against."
                )
            tree = parse_aria(snapshot, where="probe.json aria_snapshot")
            wanted = parse_aria(template, where="spec aria_snapshot expectation")
            # A control without a name is accessibility's failure; here it still stands in place.
            matched = template_matches(tree, wanted, unnamed_controls=True)
            missing = None if matched else first_unmatched(tree, wanted, unnamed_controls=True)
            label = "the ARIA snapshot matches the spec's template"
            if not matched:
                label = (
                    f"the ARIA snapshot does not match the spec's template "
                    f"(first missing: {missing})"
                    if missing
                    else "the ARIA snapshot has the template's nodes, not in its order or nesting"
                )
            results.append((label, matched))
            numbers["aria_template_matched"] = matched
        counts = []
        for count in expectations.get("counts") or []:
            role, name, want = str(count["role"]), count.get("name"), int(count["equals"])
            have = count_matching(ctx.nodes, role, name)
            label = f"{role}{f' {name!r}' if name else ''}: {have} shown, {want} expected"
            if count.get("from"):
                label += f" (length of {count['from']})"
            results.append((label, have == want))
            counts.append({"role": role, "name": name, "expected": want, "found": have})
        numbers["counts"] = counts
        wanted_focus = expectations.get("focus_order")
        if wanted_focus:
            results.append(_focus_check(ctx, [str(i) for i in wanted_focus], numbers))
        wanted_texts = expectations.get("texts")
        if wanted_texts:
            results.extend(_text_checks(ctx, [str(t) for t in wanted_texts], numbers))
        results.extend(typed_checks(ctx, expectations, numbers))
    skipped = unmeasured(ctx)
    unrun = f"{skipped}, so dead controls were not measured"
    dead = dead_controls(ctx, numbers)
    if dead:  # a finding when a control does nothing; working controls alone measure nothing
        results.append(dead)
    misspelt = _spelling(ctx, numbers)
    if misspelt:  # a finding when words are unknown; a clean check alone measures nothing
        results.append(misspelt)
    console = _console_errors(ctx)
    if console is not None:
        errors, page_errors = console
        numbers.update(console_errors=errors, page_errors=page_errors)
        if errors or page_errors:
            results.append(
                (f"{page_errors} uncaught page error(s) and {errors} console error(s)", False)
            )
    if not results and skipped is not None:
        return Measured.abstain(f"Unverified: {unrun}; the console is clean.", **numbers)
    if not results:
        return Measured.abstain(
            "The spec has no machine-checkable expectations for this state (prose only) and the "
            "console is clean, so functional correctness cannot be measured here.",
            **numbers,
        )
    failed = [label for label, ok in results if not ok]
    numbers["checks"] = len(results)
    numbers["failed"] = len(failed)
    prose = unmeasured_prose(ctx) if expectations else []
    rest = ""
    if prose:
        numbers.update(partial=True, unmeasured=prose)
        rest = f" The {are_prose(prose)}: not measured here."
    if not failed:
        summary = "; ".join(label for label, _ in results)
        if skipped is not None:
            # What was measured holds, but one check was never made: a pass would claim it.
            return Measured.abstain(
                f"Unverified: the {len(results)} machine check(s) hold ({summary}), but {unrun}."
                + rest,
                **numbers,
            )
        if prose and ctx.contract.get("expectations_cover_prose") is True:
            numbers["covered_by_declaration"] = True
            return Measured(
                1,
                f"All expectations hold: {summary}. The spec declares they cover its "
                f"{' and '.join(prose)}.",
                numbers,
            )
        if prose:
            # What was measured holds, but the criteria also say what nothing measured: a pass
            # here would claim the unmeasured part. Abstain; a model judge takes the prose.
            return Measured.abstain(
                f"Unverified: the {len(results)} machine check(s) hold ({summary}), but the "
                f"{are_prose(prose)}: not measured here.",
                **numbers,
            )
        return Measured(1, f"All expectations hold: {summary}.", numbers)
    score = 0.5 if len(failed) < len(results) / 2 else 0
    return Measured(
        score,
        f"{len(failed)} of {len(results)} checks fail: "
        + "; ".join(failed)
        + "."
        + rest
        + (f" Not measured: {unrun}." if skipped is not None else ""),
        numbers,
    )
