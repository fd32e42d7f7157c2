"""Semantic checks of a schema-valid spec.json: what JSON Schema alone cannot express.

These need no file contents, so ``load_spec`` runs them too; the checks that open the files a
spec names are in ``argus.spec._files`` (run by ``argus lint``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.spec.paths import SPECS_DIR, escape_problem
from argus.spec.selectors import supported_selector
from argus.spec.typed import typed_check_issues


@dataclass(frozen=True)
class Issue:
    """One problem, located by the JSON path of the offending value in spec.json."""

    path: str
    message: str
    # The file the value names cannot be read as JSON at all (missing, not UTF-8, not JSON,
    # too large): bad input, exit 2, rather than an invalid spec (exit 1).
    unreadable: bool = False

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _feature_dir_issues(data: dict[str, Any], spec_path: Path, root: Path) -> Iterator[Issue]:
    # Runs, references and baselines live under argus/specs/{feature}/: the name must agree.
    spec_dir = spec_path.parent
    if spec_dir.parent.resolve() == (root / SPECS_DIR).resolve() and (
        data["feature"] != spec_dir.name
    ):
        yield Issue(
            "$.feature",
            f"'{data['feature']}' does not match its directory argus/specs/{spec_dir.name}/",
        )


def _not_in(
    where: str, label: str, value: str, allowed: list[str], kind: str, target_id: str
) -> Iterator[Issue]:
    """An issue when ``value`` is not one of the target's ``allowed`` states or appearances."""
    if value not in allowed:
        yield Issue(
            where,
            f"{label} is not {'an' if kind[0] in 'aeiou' else 'a'} {kind} of target "
            f"'{target_id}' ({kind}s: {', '.join(allowed)})",
        )


def _target_issues(i: int, target: dict[str, Any]) -> Iterator[Issue]:
    at = f"$.targets[{i}]"
    tid: str = target["id"]
    states: list[str] = target["states"]
    appearances: list[str] = target.get("appearances", ["light"])
    canonical = target.get("canonical", {})
    if "state" in canonical:
        state = canonical["state"]
        yield from _not_in(f"{at}.canonical.state", f"'{state}'", state, states, "state", tid)
    if "appearance" in canonical:
        look = canonical["appearance"]
        yield from _not_in(
            f"{at}.canonical.appearance", f"'{look}'", look, appearances, "appearance", tid
        )
    for key in target.get("fixtures", {}):
        label = f"fixture for '{key}', which"
        yield from _not_in(f"{at}.fixtures", label, key, states, "state", tid)
    for key in target.get("steps", {}):
        label = f"steps for '{key}', which"
        yield from _not_in(f"{at}.steps", label, key, states, "state", tid)
    for key in target.get("expectations", {}):
        label = f"expectations for '{key}', which"
        yield from _not_in(f"{at}.expectations", label, key, states, "state", tid)
    for key in target.get("primary_actions", {}):
        label = f"primary action for '{key}', which"
        yield from _not_in(f"{at}.primary_actions", label, key, states, "state", tid)
    yield from _inert_issues(target, at, states, tid)
    seen: dict[tuple[str, str], int] = {}
    for j, reference in enumerate(target.get("references", [])):
        ref_at = f"{at}.references[{j}]"
        state, look = reference["state"], reference["appearance"]
        yield from _not_in(f"{ref_at}.state", f"'{state}'", state, states, "state", tid)
        yield from _not_in(
            f"{ref_at}.appearance", f"'{look}'", look, appearances, "appearance", tid
        )
        if (state, look) in seen:
            yield Issue(
                ref_at, f"second reference for {state}/{look} (first: [{seen[state, look]}])"
            )
        seen.setdefault((state, look), j)


def _inert_issues(target: dict[str, Any], at: str, states: list[str], tid: str) -> Iterator[Issue]:
    """``inert``: state keys the target has, selectors of the form the judge can match."""
    inert = target.get("inert", [])
    lists = {"": inert} if isinstance(inert, list) else inert
    for key, selectors in lists.items():
        where = f"{at}.inert" + (f".{key}" if key else "")
        if key:
            yield from _not_in(f"{at}.inert", f"inert controls for '{key}', which", key, states,
                               "state", tid)  # fmt: skip
        for j, selector in enumerate(selectors):
            if not supported_selector(selector):
                yield Issue(
                    f"{where}[{j}]",
                    f"'{selector}' is not a selector the judge can match; use #id, "
                    "[data-testid=x], an element id or a tag name",
                )


def spec_paths(data: dict[str, Any]) -> Iterator[tuple[str, str, bool]]:
    """(JSON path, path text, relative to the feature dir?) for every path the spec names."""
    design = data["design_system"]
    yield "$.design_system.tokens", design["tokens"], False
    if "contrast_pairs" in design:
        yield "$.design_system.contrast_pairs", design["contrast_pairs"], False
    for i, target in enumerate(data["targets"]):
        for j, reference in enumerate(target.get("references", [])):
            if "file" in reference:
                yield f"$.targets[{i}].references[{j}].file", reference["file"], True
        for state, expectation in target.get("expectations", {}).items():
            for k, count in enumerate(expectation.get("counts", [])):
                if "equals_fixture" in count:
                    where = f"$.targets[{i}].expectations.{state}.counts[{k}].equals_fixture.file"
                    yield where, count["equals_fixture"]["file"], False


def consistency_issues(data: dict[str, Any], spec_path: Path, root: Path) -> list[Issue]:
    """Names that must agree within the spec: ids, states, appearances, the feature directory."""
    issues = list(_feature_dir_issues(data, spec_path, root))
    first_index: dict[str, int] = {}
    for i, target in enumerate(data["targets"]):
        if target["id"] in first_index:
            issues.append(
                Issue(
                    f"$.targets[{i}].id",
                    f"duplicate target id '{target['id']}' "
                    f"(first used by $.targets[{first_index[target['id']]}])",
                )
            )
        first_index.setdefault(target["id"], i)
        issues.extend(_target_issues(i, target))
        for state, expectation in target.get("expectations", {}).items():
            at = f"$.targets[{i}].expectations.{state}"
            issues.extend(
                Issue(where, problem)
                for where, problem in typed_check_issues(at, expectation, data["adapter"])
            )
        if target.get("steps") and data["adapter"] != "web":
            issues.append(
                Issue(
                    f"$.targets[{i}].steps",
                    f"steps run only in the built-in web sensor, not adapter "
                    f"'{data['adapter']}'; reach the state in the adapter's fixture instead",
                )
            )
    return issues


def path_issues(data: dict[str, Any], spec_path: Path, root: Path) -> list[Issue]:
    """Every path the spec names that would leave the repository."""
    issues = []
    for where, text, in_feature in spec_paths(data):
        problem = escape_problem(root, spec_path.parent if in_feature else root, text)
        if problem:
            issues.append(Issue(where, problem))
    return issues


def structural_issues(data: dict[str, Any], spec_path: Path, root: Path) -> list[Issue]:
    """Everything wrong with a schema-valid spec that can be found without opening its files."""
    return consistency_issues(data, spec_path, root) + path_issues(data, spec_path, root)
