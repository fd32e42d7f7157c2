"""source_tokens: hard-coded colours and spacing in the feature's source files.

Which files: the ``paths`` globs of ``[gates.source_tokens]`` (relative to the repo root),
or the files changed against ``git_base`` (both set: changed files matching the globs);
``!glob`` entries exclude files (a tokens module written in JS, say).
The scanning itself is argus.gates._source_scan.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from argus.color import parse_color
from argus.config import SourceTokensConfig
from argus.errors import ConfigError, InputError
from argus.gates._registry import register_gate
from argus.gates._source_scan import SourceHit, language_for, scan_source
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.io import read_bytes
from argus.tokens import Tokens

MAX_FINDINGS = 100
GIT_TIMEOUT = 30
REM_PX = 16.0  # the browser default root font size, for suggestions only


def select_files(root: Path, patterns: Sequence[str], git_base: str = "") -> list[Path]:
    """The files to scan, repo-relative, sorted; ConfigError for a pattern escaping the repo.

    A pattern starting with ``!`` excludes what it matches (e.g. a JS tokens module).
    """
    root = root.resolve()
    include = [p for p in patterns if not p.startswith("!")]
    exclude = [p[1:] for p in patterns if p.startswith("!")]
    matched = _globbed(root, include, must_match=True)
    if git_base:
        changed = set(changed_files(root, git_base))
        matched = matched & changed if include else changed
    matched -= _globbed(root, exclude)
    return sorted(p for p in matched if language_for(p) is not None)


def _globbed(root: Path, patterns: Sequence[str], *, must_match: bool = False) -> set[Path]:
    found: set[Path] = set()
    for pattern in patterns:
        if not pattern or Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            raise ConfigError(
                f"[gates.source_tokens] paths: {pattern!r} must be a glob inside the repository"
            )
        files = {p.relative_to(root) for p in root.glob(pattern) if p.is_file()}
        if must_match and not files:
            # A configured path that names nothing is a typo or a moved file, never "clean".
            raise ConfigError(
                f"[gates.source_tokens] paths: {pattern!r} matches no file under {root}; "
                "fix the path or remove it"
            )
        found.update(files)
    return found


def changed_files(root: Path, base: str) -> list[Path]:
    """Files under ``root`` changed, added or untracked since ``base`` (deleted ones dropped)."""
    diff = _git(root, "diff", "--name-only", "--relative", "--diff-filter=d", base, "--")
    untracked = _git(root, "ls-files", "--others", "--exclude-standard")
    return sorted({Path(line) for line in (diff + untracked).splitlines() if line.strip()})


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"{root}: cannot run git for source_tokens ({exc})") from exc
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["unknown error"])[0]
        raise ConfigError(f"[gates.source_tokens] git_base: git {args[0]} failed: {reason}")
    return done.stdout


def check_source_tokens(
    root: Path, files: Sequence[Path], tokens: Tokens | None = None, appearance: str = ""
) -> GateOutcome:
    """Scan each repo-relative file; any hit fails, naming file:line, property and literal."""
    findings: list[Finding] = []
    for rel in files:
        language = language_for(rel)
        if language is None:
            continue
        text = read_bytes(root / rel, what="source file").decode("utf-8", errors="replace")
        for hit in scan_source(text, language):
            findings.append(_finding(rel, hit, tokens, appearance))
    colors = sum(1 for f in findings if f.property.startswith("color"))
    data = {
        "files": [str(f) for f in files],
        "hard_coded_colors": colors,
        "hard_coded_spacing": len(findings) - colors,
    }
    summary = (
        f"{len(findings)} hard-coded value(s) in {len(files)} file(s) "
        f"({colors} colour, {len(findings) - colors} spacing)"
    )
    status = GateStatus.FAIL if findings else GateStatus.PASS
    return GateOutcome("source_tokens", status, summary, tuple(findings[:MAX_FINDINGS]), data)


def _finding(rel: Path, hit: SourceHit, tokens: Tokens | None, appearance: str) -> Finding:
    prop = f"{hit.kind}:{hit.property}" if hit.property else hit.kind
    return Finding(
        element=f"{rel}:{hit.line}",
        property=prop,
        value=hit.literal,
        expected=_suggestion(hit, tokens, appearance),
        message=f"hard-coded {hit.kind} {hit.literal!r}; use a design token "
        f"(or mark the line with {'argus-allow'!r})",
    )


def _suggestion(hit: SourceHit, tokens: Tokens | None, appearance: str) -> str:
    """The token nearest to the literal, when the literal can be read as a value."""
    if tokens is None:
        return "a design token"
    try:
        if hit.kind == "color":
            nearest = tokens.nearest_color(parse_color(hit.literal), appearance)
        else:
            m = re.search(r"(-?\d*\.?\d+)(rem)?", hit.literal)
            if m is None:
                return "a design token"
            px = abs(float(m.group(1))) * (REM_PX if m.group(2) else 1.0)
            nearest = tokens.nearest_spacing(px)
    except (InputError, ValueError):
        return "a design token"
    return f"token {nearest[0]}" if nearest else "a design token"


def source_tokens_gate(inputs: GateInputs) -> GateOutcome:
    settings = inputs.config.gates.source_tokens
    if not settings.paths and not settings.git_base:
        return GateOutcome(
            "source_tokens", GateStatus.SKIP, "no source paths or git_base configured"
        )
    files = select_files(inputs.root, settings.paths, settings.git_base)
    if not files and not settings.git_base:
        raise ConfigError(
            "[gates.source_tokens] paths: the globs match no CSS/SCSS/JS/TS/Swift/HTML file; "
            "fix the patterns"
        )
    return check_source_tokens(inputs.root, files, inputs.tokens, inputs.view.appearance)


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("source_tokens", settings=SourceTokensConfig)(source_tokens_gate)
