"""The referee: captured evidence merged into one verdict with one next action.

Stateless: one config in, one verdict out, no memory of earlier calls (convergence across
iterations is the loop's business, `argus loop`). ``passed`` is a pure function of the
determinate gates (pass / fail / error): true when every one passed, false when any failed or
errored, null when none was determinate ("not captured" and "degraded" are states, not
failures) or when the only one is a passing SSIM (fidelity is not function: never ``ship``).
The verdict carries numbers, booleans and fixed words only, never text from the evidence: a
page can write anything into its console, and the verdict is read back as trusted.

Paths in the config are relative to the repository root, may not contain ``..``, and must
resolve inside the root (symlinks included); every file is capped at 5 MiB before parsing.
An evidence file that does not exist is ``not_captured`` and one holding a non-finite number
is an ``error``, each with its reason (argus.referee._evidence): the verdict is still written.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus import __version__
from argus.config import load_config
from argus.errors import InputError
from argus.io import read_json
from argus.referee import _sources as sources
from argus.referee._evidence import MISSING, NON_FINITE, Unusable
from argus.referee._sources import Gate

SCHEMA_VERSION = 1
DEFAULTS = {
    "lighthouse_accessibility_min": 90.0,
    "lighthouse_performance_min": 80.0,
    "lighthouse_best_practices_min": 80.0,
    "lighthouse_seo_min": 80.0,
    "max_console_errors": 0,
    "ssim_min": 0.90,
    "design_ratio_tolerance": 0.05,
}
KNOWN_KEYS = frozenset(
    {"surface", "layout", "gates", "parity", "console", "lighthouse", "design_schema", "ssim"}
    | {"thresholds"}
)
SURFACES = ("web", "web-dashboard", "pbir", "fabric", "tableau", "bi")
# The first failing gate decides what to do next.
FIX_FOR = {
    "layout": "fix-layout",
    "gates": "fix-gates",
    "parity": "match-reference-exemplar",
    "design_schema": "match-design-schema",
    "console": "fix-console-errors",
    "lighthouse": "improve-lighthouse-scores",
    "ssim": "improve-visual-fidelity",
}


@dataclass(frozen=True)
class RefereeVerdict:
    surface: str
    passed: bool | None
    gates: tuple[Gate, ...]
    next_action: str
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "argus_version": __version__,
            "surface": self.surface,
            "passed": self.passed,
            "gates": [g.to_json() for g in self.gates],
            "next_action": self.next_action,
            "notes": list(self.notes),
        }

    @property
    def exit_code(self) -> int:
        return 1 if self.passed is False else 0


def safe_path(root: Path, value: Any, what: str, config: Path) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{config}: {what} must be a repository-relative path")
    if "\0" in value:
        raise InputError(f"{config}: {what} contains a NUL character")
    relative = Path(value)
    if relative.is_absolute() or ".." in relative.parts:
        raise InputError(f"{config}: {what} {value!r} must be relative and free of '..'")
    resolved = (root / relative).resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise InputError(f"{config}: {what} {value!r} leads outside the repository")
    return resolved


def _thresholds(raw: Any, config: Path) -> dict[str, float]:
    values = dict(DEFAULTS)
    if raw is None:
        return values
    if not isinstance(raw, dict):
        raise InputError(f"{config}: thresholds must be an object")
    for key, value in raw.items():
        if key not in DEFAULTS:
            raise InputError(f"{config}: unknown threshold {key!r} ({', '.join(DEFAULTS)})")
        finite = isinstance(value, int | float) and math.isfinite(value)
        if isinstance(value, bool) or not finite or value < 0 or value > 1e9:
            raise InputError(f"{config}: threshold {key} must be a finite number >= 0")
        values[key] = float(value)
    return values


def referee(config_path: Path, root: Path) -> RefereeVerdict:
    config = read_json(config_path, what="referee config")
    if not isinstance(config, dict):
        raise InputError(f"{config_path}: a referee config is a JSON object")
    unknown = sorted(set(config) - KNOWN_KEYS)
    if unknown:
        raise InputError(f"{config_path}: unknown key(s) {', '.join(unknown)}")
    surface = config.get("surface", "web")
    if surface not in SURFACES:
        raise InputError(f"{config_path}: surface must be one of {', '.join(SURFACES)}")
    limits = _thresholds(config.get("thresholds"), config_path)

    def path(value: Any, what: str) -> Path:
        return safe_path(root, value, what, config_path)

    def pair(key: str) -> tuple[Path, Path]:
        both = sources.require_mapping(config[key], f"{config_path}: {key}")
        return path(both.get("candidate"), f"{key}.candidate"), path(
            both.get("reference"), f"{key}.reference"
        )

    gates: list[Gate] = []
    if "layout" in config:
        from argus.referee._layout_gate import layout_gate

        where = path(config["layout"], "layout")
        gates.append(_graded("layout", lambda: layout_gate(where, root.resolve())))
    if "gates" in config:
        where = path(config["gates"], "gates")
        gates.append(_graded("gates", lambda: sources.gates_gate(where)))
    if "parity" in config:
        from argus.referee._parity import parity_gate

        candidate, reference = pair("parity")
        gates.append(_graded("parity", lambda: parity_gate(candidate, reference)))
    if "design_schema" in config:
        design, tolerance = pair("design_schema"), limits["design_ratio_tolerance"]
        gates.append(_graded("design_schema", lambda: sources.design_gate(*design, tolerance)))
    if "console" in config:
        max_errors = int(limits["max_console_errors"])
        policy = load_config(root).gates.console.policy()  # the console gate's own policy
        where = path(config["console"], "console")
        gates.append(_graded("console", lambda: sources.console_gate(where, max_errors, policy)))
    else:
        gates.append(Gate("console", "not_captured"))
    if "lighthouse" in config:
        minimums = {
            "accessibility": limits["lighthouse_accessibility_min"],
            "performance": limits["lighthouse_performance_min"],
            "best-practices": limits["lighthouse_best_practices_min"],
            "seo": limits["lighthouse_seo_min"],
        }
        where = path(config["lighthouse"], "lighthouse")
        gates.append(_graded("lighthouse", lambda: sources.lighthouse_gate(where, minimums)))
    else:
        gates.append(Gate("lighthouse", "not_captured"))
    minimum = limits["ssim_min"]
    gates.append(
        _graded("ssim", lambda: sources.ssim_gate(config["ssim"], path, minimum))
        if "ssim" in config
        else Gate("ssim", "not_captured", thresholds={"ssim_min": minimum})
    )
    return merge(surface, tuple(gates))


def _graded(name: str, grade: Callable[[], Gate]) -> Gate:
    """One source's gate; evidence that cannot be graded is that gate's state, with why."""
    try:
        return grade()
    except Unusable as unusable:
        return Gate(name, unusable.status, {"reason": unusable.reason})


def _reason_notes(gates: tuple[Gate, ...]) -> list[str]:
    """Loud notes for evidence named but absent, and for corrupt numbers (gate names only)."""
    notes = []
    for reason, text in (
        (MISSING, "evidence named in the config does not exist (not captured)"),
        (NON_FINITE, "evidence holds a non-finite number (NaN or infinity), never a pass"),
    ):
        names = [g.name for g in gates if g.measured.get("reason") == reason]
        if names:
            notes.append(f"{text}: {', '.join(names)}")
    return notes


def merge(surface: str, gates: tuple[Gate, ...]) -> RefereeVerdict:
    determinate = [g for g in gates if g.status in ("pass", "fail", "error")]
    notes: list[str] = _reason_notes(gates)
    if any(g.status == "degraded" for g in gates):
        notes.append("a gate could not be verified with the tools at hand (degraded)")
    if any(g.measured.get("schema_drift") for g in gates):
        notes.append("the layout linter's envelope schema_version is not the one expected")
    if not determinate:
        return RefereeVerdict(surface, None, gates, "capture-runtime-evidence", tuple(notes))
    failing = [g for g in determinate if g.status != "pass"]
    if failing:
        first = failing[0]
        action = FIX_FOR[first.name]
        if first.name == "lighthouse":
            action = _lighthouse_action(first)
        return RefereeVerdict(surface, False, gates, action, tuple(notes))
    if all(g.name == "ssim" for g in determinate):
        # A fidelity score alone says nothing about whether the UI works: not a sign-off.
        notes.append("only visual fidelity was measured: no functional evidence, so no verdict")
        return RefereeVerdict(surface, None, gates, "capture-runtime-evidence", tuple(notes))
    ssim = next(g for g in gates if g.name == "ssim")
    if ssim.status != "pass":
        notes.append("visual fidelity not verified: no SSIM against a reference")
        return RefereeVerdict(surface, True, gates, "capture-ssim-evidence", tuple(notes))
    return RefereeVerdict(surface, True, gates, "ship", tuple(notes))


def _lighthouse_action(gate: Gate) -> str:
    """The first category (accessibility, performance, best-practices, seo) not passing."""
    from argus.lighthouse.score import CATEGORIES, NEXT_ACTION

    for name in CATEGORIES:
        if name not in gate.measured:
            continue
        score = gate.measured[name]
        minimum = gate.thresholds.get(f"{name}_min")
        if score is None or (isinstance(minimum, float) and score < minimum):
            return NEXT_ACTION[name]
    return "improve-lighthouse-scores"
