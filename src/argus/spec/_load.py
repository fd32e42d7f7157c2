"""Read spec.json into the spec model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import read_json
from argus.schemas import validate
from argus.spec._checks import structural_issues
from argus.spec.model import (
    Canonical,
    CountExpectation,
    Expectation,
    FixtureCount,
    HierarchyOptions,
    Reference,
    SnapshotSettings,
    Spec,
    Target,
    Viewport,
)
from argus.spec.paths import find_repo_root, repo_path
from argus.spec.steps import parse_steps
from argus.spec.typed import parse_typed_checks


def read_spec_data(path: Path) -> dict[str, Any]:
    """The parsed spec.json; InputError when it is missing, oversized or not JSON."""
    data: Any = read_json(path, what="spec")
    return data  # type: ignore[no-any-return]


def load_spec(path: Path) -> Spec:
    """Load a spec that passes its schema and the structural checks; InputError otherwise.

    The files the spec names (tokens, references, fixtures) are not opened here; ``argus lint``
    checks them.
    """
    data = read_spec_data(path)
    validate("spec", data, source=path)
    root = find_repo_root(path.absolute().parent)
    issues = structural_issues(data, path.absolute(), root)
    if issues:
        more = f" (+{len(issues) - 1} more)" if len(issues) > 1 else ""
        raise InputError(f"{path}: {issues[0]}{more}; run 'argus lint {path}'")
    return build_spec(data, path.absolute(), root)


def _viewport(raw: dict[str, int] | None) -> Viewport | None:
    return None if raw is None else Viewport(raw["width"], raw["height"])


def _expectation(raw: dict[str, Any], root: Path) -> Expectation:
    texts = raw.get("texts") or {}
    counts = []
    for count in raw.get("counts", []):
        fixture = count.get("equals_fixture")
        counts.append(
            CountExpectation(
                role=count["role"],
                name=count.get("name"),
                equals=count.get("equals"),
                equals_fixture=None
                if fixture is None
                else FixtureCount(repo_path(root, root, fixture["file"]), fixture["pointer"]),
            )
        )
    return Expectation(
        aria_snapshot=raw.get("aria_snapshot"),
        counts=tuple(counts),
        focus_order=tuple(raw.get("focus_order", ())),
        texts=tuple(texts.get("expect", ())),
        texts_fixture=None if not texts.get("fixture") else repo_path(root, root, texts["fixture"]),
        typed=parse_typed_checks(raw),
    )


def _target(raw: dict[str, Any], spec_dir: Path, root: Path) -> Target:
    states = tuple(raw["states"])
    appearances = tuple(raw.get("appearances", ["light"]))
    canonical = raw.get("canonical", {})
    snapshot = raw.get("snapshot", {})
    references = tuple(
        Reference(
            state=ref["state"],
            appearance=ref["appearance"],
            status=ref["status"],
            source=ref.get("source"),
            file=repo_path(root, spec_dir, ref["file"]) if "file" in ref else None,
        )
        for ref in raw.get("references", [])
    )
    return Target(
        id=raw["id"],
        route=raw["route"],
        states=states,
        appearances=appearances,
        fixtures=dict(raw.get("fixtures", {})),
        canonical=Canonical(
            canonical.get("state", states[0]), canonical.get("appearance", appearances[0])
        ),
        a11y_contract=tuple(raw.get("a11y_contract", [])),
        references=references,
        component_contracts=tuple(raw.get("component_contracts", [])),
        viewport=_viewport(raw.get("viewport")),
        full_page=raw.get("full_page", False),
        primary_action=raw.get("primary_action"),
        primary_actions=dict(raw.get("primary_actions", {})),
        hierarchy=HierarchyOptions(
            headings=tuple(raw.get("hierarchy", {}).get("headings", [])),
            figures=tuple(raw.get("hierarchy", {}).get("figures", [])),
        ),
        allow_truncation=tuple(raw.get("allow_truncation", [])),
        expectations_cover_prose=bool(raw.get("expectations_cover_prose", False)),
        inert=_inert(raw.get("inert", [])),
        snapshot=SnapshotSettings(
            masks=tuple(snapshot.get("masks", [])),
            max_diff_pixels=snapshot.get("max_diff_pixels"),
            max_diff_pixel_ratio=snapshot.get("max_diff_pixel_ratio"),
            max_window_density=snapshot.get("max_window_density"),
            threshold=snapshot.get("threshold"),
        ),
        expectations={
            state: _expectation(expectation, root)
            for state, expectation in raw.get("expectations", {}).items()
        },
        gates=tuple(raw["gates"]) if "gates" in raw else None,
        steps={state: parse_steps(steps) for state, steps in raw.get("steps", {}).items()},
    )


def _inert(raw: list[str] | dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """A list names inert controls in every state ("*"); an object, per state."""
    if isinstance(raw, list):
        return {"*": tuple(raw)} if raw else {}
    return {state: tuple(selectors) for state, selectors in raw.items()}


def build_spec(data: dict[str, Any], path: Path, root: Path) -> Spec:
    """The model of a schema-valid spec whose paths were checked (see ``structural_issues``)."""
    spec_dir = path.parent
    design = data["design_system"]
    rubric = spec_dir / "rubric.json"
    return Spec(
        feature=data["feature"],
        adapter=data["adapter"],
        path=path,
        root=root,
        tokens_path=repo_path(root, root, design["tokens"]),
        contrast_pairs_path=repo_path(root, root, design["contrast_pairs"])
        if "contrast_pairs" in design
        else None,
        viewport=_viewport(data.get("viewport")),
        targets=tuple(_target(target, spec_dir, root) for target in data["targets"]),
        rubric_path=rubric if rubric.is_file() else None,
        raw=data,
        chart_series=dict(data.get("charts", {}).get("series", {})),
    )
