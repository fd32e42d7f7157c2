"""Verdict and gate-result normalizer: derive, don't trust.

A judge's ``all_pass`` and ``failed_dimensions`` and a gate runner's ``all_green`` are claims.
Whether a verdict passes is arithmetic over its scores and the rubric's thresholds, and whether
the gates are green is arithmetic over the gate statuses, so both are recomputed here and any
disagreeing self-report is replaced and listed as a correction.

A verdict must score exactly the rubric's dimensions, each against the rubric's own anchor. A
dimension nobody could verify is *abstained* (score null, with a reason) and reported as
unverified: it never counts as passed, so such a verdict is never a plain pass. A verdict whose
status is ``inconclusive`` (the judge could not produce a usable answer) never passes either.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from argus.errors import InputError
from argus.schemas import Rubric, validate_errors

SCORES = (0.0, 0.5, 1.0)
Outcome = Literal["pass", "fail", "unverified", "inconclusive"]
DimensionStatus = Literal["pass", "fail", "unverified"]
VerdictStatus = Literal["scored", "inconclusive"]

# Keys this module writes; in a raw verdict they are self-reports to check, never inputs.
_DERIVED_KEYS = frozenset({"all_pass", "failed_dimensions", "unverified_dimensions", "corrections"})
_VIEW_KEYS = frozenset({"feature", "target", "state", "appearance", "iteration"})


@dataclass(frozen=True)
class Correction:
    """A self-reported value that the scores (or the gate statuses) contradict."""

    field: str
    reported: Any
    derived: Any

    def __str__(self) -> str:
        return f"{self.field}: reported {_show(self.reported)}, derived {_show(self.derived)}"


@dataclass(frozen=True)
class DimensionScore:
    name: str
    anchor: str
    threshold: float
    score: float | None  # None exactly when abstained
    evidence: str  # for an abstention: why it could not be measured
    extra: Mapping[str, Any]  # measurements, judged_by: kept as given

    @property
    def abstained(self) -> bool:
        return self.score is None

    @property
    def status(self) -> DimensionStatus:
        if self.score is None:
            return "unverified"
        return "pass" if self.score >= self.threshold else "fail"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"score": _plain(self.score)}
        if self.abstained:
            data["abstained"] = True
        data.update(anchor=self.anchor, evidence=self.evidence, **self.extra)
        return data


@dataclass(frozen=True)
class NormalizedVerdict:
    feature: str
    target: str
    state: str | None
    appearance: str | None
    iteration: int
    status: VerdictStatus
    dimensions: tuple[DimensionScore, ...]  # in rubric order
    corrections: tuple[Correction, ...]
    other: Mapping[str, Any]  # remaining top-level keys (backend, usage, notes...), as given

    @property
    def failed_dimensions(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions if d.status == "fail")

    @property
    def unverified_dimensions(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions if d.status == "unverified")

    @property
    def outcome(self) -> Outcome:
        """pass: every dimension scored and passing; unverified: none failed but some abstained;
        inconclusive: the judge said so, or it scored nothing at all."""
        if self.status == "inconclusive" or all(d.abstained for d in self.dimensions):
            return "inconclusive"
        if self.failed_dimensions:
            return "fail"
        return "unverified" if self.unverified_dimensions else "pass"

    @property
    def all_pass(self) -> bool:
        """True only for a plain pass: an unverified or inconclusive verdict is never one."""
        return self.outcome == "pass"

    def dimension(self, name: str) -> DimensionScore:
        for dim in self.dimensions:
            if dim.name == name:
                return dim
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The normalized verdict; it validates against the ``verdict`` schema."""
        data: dict[str, Any] = {"iteration": self.iteration, "feature": self.feature}
        data["target"] = self.target
        if self.state is not None:
            data["state"] = self.state
        if self.appearance is not None:
            data["appearance"] = self.appearance
        data["status"] = self.status
        data.update(self.other)
        data.update(
            dimensions={d.name: d.to_json() for d in self.dimensions},
            all_pass=self.all_pass,
            failed_dimensions=list(self.failed_dimensions),
            unverified_dimensions=list(self.unverified_dimensions),
            corrections=[str(c) for c in self.corrections],
        )
        return data


def normalize_verdict(
    raw: object, rubric: Rubric, *, source: Path | str = "verdict"
) -> NormalizedVerdict:
    """Check ``raw`` against ``rubric`` and re-derive its outcome; InputError when invalid.

    Invalid means: not the rubric's dimensions exactly (one missing or one extra), a score other
    than 0, 0.5 or 1, an anchor other than the rubric's, a score without evidence, an
    abstention without a reason, or anything else the verdict schema refuses.
    """
    where = f"{source}: invalid verdict"
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: expected a JSON object, got {_kind(raw)}")
    status = raw.get("status", "scored")
    if status not in ("scored", "inconclusive"):
        raise InputError(f"{where}: status must be 'scored' or 'inconclusive', got {status!r}")
    iteration = raw.get("iteration")
    if not isinstance(iteration, int) or isinstance(iteration, bool) or iteration < 1:
        raise InputError(f"{where}: 'iteration' must be a whole number >= 1, got {iteration!r}")
    error = raw.get("error")
    if status == "inconclusive" and (not isinstance(error, str) or not error.strip()):
        raise InputError(f"{where}: an inconclusive verdict needs an 'error' saying why")
    dimensions = _dimensions(raw, rubric, where, inconclusive_error=error)
    other = {k: v for k, v in raw.items() if k not in _VIEW_KEYS | _DERIVED_KEYS | {"status"}}
    other.pop("dimensions", None)
    verdict = NormalizedVerdict(
        feature=_text(raw, "feature", where, required=True) or "",
        target=_text(raw, "target", where, required=True) or "",
        state=_text(raw, "state", where),
        appearance=_text(raw, "appearance", where),
        iteration=iteration,
        status=status,
        dimensions=dimensions,
        corrections=(),
        other=other,
    )
    verdict = replace(verdict, corrections=_verdict_corrections(raw, verdict))
    # The schema catches what the checks above do not name (unknown keys, bad usage...).
    _check_schema("verdict", verdict.to_json(), where)
    return verdict


def _dimensions(
    raw: Mapping[str, Any], rubric: Rubric, where: str, *, inconclusive_error: object
) -> tuple[DimensionScore, ...]:
    inconclusive = raw.get("status") == "inconclusive"
    given = raw.get("dimensions", {} if inconclusive else None)
    if not isinstance(given, Mapping):
        raise InputError(f"{where}: 'dimensions' must be an object with one entry per dimension")
    expected = list(rubric.dimensions)
    extra = sorted(set(given) - set(expected))
    if extra:
        raise InputError(
            f"{where}: dimension(s) {', '.join(extra)} not in the rubric "
            f"(expected exactly: {', '.join(expected)})"
        )
    missing = [name for name in expected if name not in given]
    if missing and not inconclusive:
        raise InputError(
            f"{where}: dimension(s) {', '.join(missing)} missing; score every rubric "
            "dimension or abstain with a reason"
        )
    out: list[DimensionScore] = []
    for name in expected:
        rule = rubric.dimensions[name]
        if name in given:
            out.append(_dimension(name, given[name], rule.anchor, rule.threshold, where))
        else:  # an inconclusive verdict may leave dimensions out: none of them was judged
            why = f"not judged: {inconclusive_error}"
            out.append(DimensionScore(name, rule.anchor, rule.threshold, None, why, {}))
    return tuple(out)


def _dimension(
    name: str, entry: object, anchor: str, threshold: float, where: str
) -> DimensionScore:
    at = f"{where}: dimension '{name}'"
    if not isinstance(entry, Mapping):
        raise InputError(f"{at} must be an object, got {_kind(entry)}")
    if entry.get("anchor") != anchor:
        raise InputError(f"{at} has anchor {entry.get('anchor')!r}; the rubric says {anchor!r}")
    evidence = entry.get("evidence")
    if not isinstance(evidence, str) or not evidence.strip():
        raise InputError(f"{at} needs 'evidence': the observation behind the score")
    abstained = entry.get("abstained", False)
    if abstained not in (True, False):
        raise InputError(f"{at}: 'abstained' must be true or false")
    score = entry.get("score")
    extra = {
        k: v for k, v in entry.items() if k not in {"score", "anchor", "evidence", "abstained"}
    }
    if abstained:
        if score is not None:
            raise InputError(f"{at} abstains but also has a score; give one or the other")
        return DimensionScore(name, anchor, threshold, None, evidence, extra)
    if score is None:
        raise InputError(f"{at} has no score; score it 0, 0.5 or 1, or abstain with a reason")
    if isinstance(score, bool) or not isinstance(score, int | float) or score not in SCORES:
        raise InputError(f"{at} has score {score!r}; scores are 0, 0.5 or 1")
    return DimensionScore(name, anchor, threshold, float(score), evidence, extra)


def _verdict_corrections(
    raw: Mapping[str, Any], verdict: NormalizedVerdict
) -> tuple[Correction, ...]:
    found: list[Correction] = []
    if "all_pass" in raw and raw["all_pass"] is not verdict.all_pass:
        found.append(Correction("all_pass", raw["all_pass"], verdict.all_pass))
    for key, derived in (
        ("failed_dimensions", verdict.failed_dimensions),
        ("unverified_dimensions", verdict.unverified_dimensions),
    ):
        if key not in raw:
            continue
        reported = raw[key]
        if not isinstance(reported, list) or sorted(map(str, reported)) != sorted(derived):
            found.append(Correction(key, reported, list(derived)))
    return tuple(found)


# -- gate results -------------------------------------------------------------------------

_RED = frozenset({"fail", "error", "diff"})
# Statuses that checked nothing: a skip, and a snapshot baseline written where none existed.
_UNMEASURED = frozenset({"skip", "new"})


@dataclass(frozen=True)
class GateEntry:
    name: str
    status: str  # pass, fail, skip, error; the snapshot gate also says diff
    counts: Mapping[str, Any] | None = None  # the a11y_ids block, when given as one

    @property
    def red(self) -> bool:
        return self.status in _RED

    def to_json(self) -> Any:
        return self.status if self.counts is None else {**self.counts, "status": self.status}


@dataclass(frozen=True)
class NormalizedGateResult:
    feature: str
    target: str
    gates: tuple[GateEntry, ...]
    corrections: tuple[Correction, ...]
    other: Mapping[str, Any]  # state, appearance, iteration, details...: as given

    @property
    def red_gates(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.gates if g.red)

    @property
    def nothing_measured(self) -> bool:
        """Every gate skipped (or only wrote a new snapshot baseline, which compares nothing):
        nothing was checked, which is never green."""
        return all(g.status in _UNMEASURED for g in self.gates)

    @property
    def all_green(self) -> bool:
        return not self.red_gates and not self.nothing_measured

    @property
    def not_green_reason(self) -> str:
        """Why the result is not green, in a few words ("" when it is)."""
        if self.red_gates:
            return f"gate(s) {', '.join(self.red_gates)} are red"
        if self.nothing_measured:
            return "every gate skipped (or only wrote a new baseline), so nothing was measured"
        return ""

    def to_json(self) -> dict[str, Any]:
        """The normalized gate result; it validates against the ``gate-result`` schema."""
        data: dict[str, Any] = {"feature": self.feature, "target": self.target}
        data.update(self.other)
        data["gates"] = {g.name: g.to_json() for g in self.gates}
        data["all_green"] = self.all_green
        return data


def normalize_gate_result(
    raw: object, *, source: Path | str = "gate result"
) -> NormalizedGateResult:
    """Re-derive ``all_green``: false when any non-skip gate failed, errored or diffed, the
    a11y_ids block lists missing ids (or counts fewer present than expected), or every gate
    skipped (nothing measured). A result with no gates at all is an InputError."""
    where = f"{source}: invalid gate result"
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: expected a JSON object, got {_kind(raw)}")
    gates = raw.get("gates")
    if not isinstance(gates, Mapping):
        raise InputError(f"{where}: 'gates' must be an object of gate name -> status")
    if not gates:
        raise InputError(f"{where}: 'gates' is empty; a result in which no gate ran proves nothing")
    entries = tuple(_gate_entry(str(name), value, where) for name, value in gates.items())
    other = {k: v for k, v in raw.items() if k not in {"feature", "target", "gates", "all_green"}}
    result = NormalizedGateResult(
        feature=_text(raw, "feature", where, required=True) or "",
        target=_text(raw, "target", where, required=True) or "",
        gates=entries,
        corrections=(),
        other=other,
    )
    corrections: list[Correction] = []
    if "all_green" in raw and raw["all_green"] is not result.all_green:
        corrections.append(Correction("all_green", raw["all_green"], result.all_green))
    for entry in entries:
        claimed = entry.counts.get("status") if entry.counts is not None else None
        if claimed is not None and claimed != entry.status:
            corrections.append(Correction(f"gates.{entry.name}.status", claimed, entry.status))
    result = replace(result, corrections=tuple(corrections))
    _check_schema("gate-result", result.to_json(), where)
    return result


def _gate_entry(name: str, value: object, where: str) -> GateEntry:
    if isinstance(value, str):
        return GateEntry(name, value)  # the schema check vets the word
    if name != "a11y_ids" or not isinstance(value, Mapping):
        raise InputError(f"{where}: gate '{name}' must be a status word, got {_kind(value)}")
    # The id lists are the evidence: a block missing any id is red whatever it claims, and a
    # reported failure is never upgraded to a pass.
    missing, expected, present = value.get("missing"), value.get("expected"), value.get("present")
    if (
        not isinstance(missing, list)
        or not isinstance(expected, int)
        or not isinstance(present, int)
    ):
        raise InputError(f"{where}: gate 'a11y_ids' needs 'expected', 'present' and 'missing'")
    claimed = value.get("status")
    if missing or present < expected:
        status = "fail"
    elif claimed in ("fail", "error", "skip"):
        status = str(claimed)
    else:
        status = "pass"
    return GateEntry(name, status, value)


# -- small helpers -------------------------------------------------------------------------


def _check_schema(name: str, data: Any, where: str) -> None:
    errors = validate_errors(name, data)
    if errors:
        raise InputError(f"{where}: {errors[0]}; see 'argus schema {name}'")


def _text(raw: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
    value = raw.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise InputError(f"{where}: '{key}' must be a non-empty string")
    return value


def _plain(number: float | None) -> float | int | None:
    """Write 0 and 1 as integers, as a person would."""
    if number is None or not number.is_integer():
        return number
    return int(number)


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _kind(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", type(None): "null"}
    return names.get(type(value), type(value).__name__)
