"""Checks that open the files a spec names: references, tokens, contrast pairs, fixtures, rubric.

Run only after ``structural_issues`` found no path escape, since these open the paths.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.errors import InputError
from argus.io import read_json
from argus.schemas import load_rubric
from argus.spec._checks import Issue
from argus.spec._fixtures import fixture_count
from argus.spec.paths import repo_path

if TYPE_CHECKING:
    from argus.tokens import Tokens

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_problem(path: Path) -> str | None:
    """Why ``path`` is not a readable PNG file, or None when it is one."""
    if not path.exists():
        return f"file not found: {path}"
    if not path.is_file():
        return f"not a regular file: {path}"
    try:
        with path.open("rb") as fh:
            head = fh.read(len(PNG_SIGNATURE))
    except OSError as exc:
        return f"cannot read {path} ({exc.strerror})"
    if head != PNG_SIGNATURE:
        return f"not a PNG image (wrong file signature): {path}"
    return None


def _reference_issues(data: dict[str, Any], spec_dir: Path, root: Path) -> Iterator[Issue]:
    for i, target in enumerate(data["targets"]):
        for j, reference in enumerate(target.get("references", [])):
            if reference["status"] != "present":
                continue
            problem = png_problem(repo_path(root, spec_dir, reference["file"]))
            if problem:
                yield Issue(f"$.targets[{i}].references[{j}].file", f"marked present but {problem}")


def _tokens_issues(data: dict[str, Any], root: Path) -> tuple[Tokens | None, list[Issue]]:
    # Imported here: the colour library behind tokens costs ~0.4 s, and only lint needs it.
    from argus.tokens import load_tokens

    where = "$.design_system.tokens"
    path = repo_path(root, root, data["design_system"]["tokens"])
    unreadable = _unreadable(path, "tokens file", where)
    if unreadable is not None:
        return None, [unreadable]
    try:
        tokens = load_tokens(path)
    except InputError as err:
        return None, [Issue(where, str(err))]
    issues = [
        Issue(
            f"$.targets[{i}].appearances",
            f"appearance '{appearance}' has no colours in {tokens.source.name} "
            f"(it defines {', '.join(tokens.appearances)})",
        )
        for i, target in enumerate(data["targets"])
        for appearance in target.get("appearances", ["light"])
        if not tokens.has_appearance(appearance)
    ]
    issues.extend(
        Issue(
            f"$.charts.series.{series}",
            f"names colour token '{token}', which {tokens.source.name} does not define",
        )
        for series, token in data.get("charts", {}).get("series", {}).items()
        if token not in tokens.colors
    )
    return tokens, issues


def _unreadable(path: Path, what: str, where: str) -> Issue | None:
    """An issue when ``path`` cannot be read as JSON at all (exit 2 in lint), else None;
    its contents are checked by the loaders."""
    try:
        read_json(path, what=what)
    except InputError as err:
        return Issue(where, str(err), unreadable=True)
    return None


def _pair_issues(path: Path, tokens: Tokens | None) -> Iterator[Issue]:
    from argus.color import parse_color
    from argus.tokens.contrast import load_pairs, whitelist_problems

    where = "$.design_system.contrast_pairs"
    unreadable = _unreadable(path, "contrast pairs", where)
    if unreadable is not None:
        yield unreadable
        return
    try:
        pairs = load_pairs(path)
    except InputError as err:
        yield Issue(where, str(err))
        return
    if tokens is None:
        return  # the tokens problem is already reported
    for problem in whitelist_problems(tokens, pairs, path):
        yield Issue(where, problem)
    for k, pair in enumerate(pairs):
        for role, name in (("fg", pair.fg), ("bg", pair.bg)):
            if name not in tokens.colors:
                yield Issue(
                    where,
                    f"{path.name}: pairs[{k}].{role} '{name}' is not a colour token "
                    f"in {tokens.source.name}",
                )
        if pair.surface not in tokens.colors:
            try:
                parse_color(pair.surface)
            except InputError:
                yield Issue(
                    where,
                    f"{path.name}: pairs[{k}].surface '{pair.surface}' is neither a colour "
                    f"token in {tokens.source.name} nor a colour",
                )


def _fixture_count_issues(data: dict[str, Any], root: Path) -> Iterator[Issue]:
    for i, target in enumerate(data["targets"]):
        for state, expectation in target.get("expectations", {}).items():
            for k, count in enumerate(expectation.get("counts", [])):
                fixture = count.get("equals_fixture")
                if fixture is None:
                    continue
                where = f"$.targets[{i}].expectations.{state}.counts[{k}].equals_fixture"
                try:
                    fixture_count(repo_path(root, root, fixture["file"]), fixture["pointer"])
                except InputError as err:
                    yield Issue(where, str(err))


def _rubric_issues(spec_dir: Path) -> Iterator[Issue]:
    rubric = spec_dir / "rubric.json"
    if rubric.exists():
        try:
            load_rubric(rubric)
        except InputError as err:
            yield Issue("rubric.json", str(err))


def file_issues(data: dict[str, Any], spec_path: Path, root: Path) -> list[Issue]:
    """Problems with the files a (structurally sound) spec names."""
    spec_dir = spec_path.parent
    issues = list(_reference_issues(data, spec_dir, root))
    tokens, token_issues = _tokens_issues(data, root)
    issues.extend(token_issues)
    pairs = data["design_system"].get("contrast_pairs")
    if pairs is not None:
        issues.extend(_pair_issues(repo_path(root, root, pairs), tokens))
    issues.extend(_fixture_count_issues(data, root))
    issues.extend(_rubric_issues(spec_dir))
    return issues
