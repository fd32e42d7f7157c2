"""The referee's ``layout`` gate: ``argus layout lint --format json`` run as a separate process.

The linter is treated as a command with a versioned envelope, not imported, so its internals
are no dependency of the referee; the envelope's ``schema_version`` must be the one this gate
was built against (a drift is an error and a note, never a silent reading). Exit codes map:

    0 -> pass    1 -> fail    2 -> error (the layout file is broken)    3 -> degraded

and the envelope is cross-checked: an exit 0 or 3 whose envelope counts an error finding is a
fail or an error, so a failing lint can never be turned into ``degraded``. Only counts and
check ids reach the verdict, never visual names or messages from the file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from argus.io import loads_json
from argus.referee._evidence import require_present
from argus.referee._sources import Gate

LINT_SCHEMA_VERSION = 1
LINT_TIMEOUT_S = 120.0
STATUS_FOR_EXIT = {0: "pass", 1: "fail", 2: "error", 3: "degraded"}


def _envelope(stdout: str) -> dict[str, Any] | None:
    try:
        data = loads_json(stdout)
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _count(summary: Any, key: str) -> int:
    value = summary.get(key) if isinstance(summary, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def layout_gate(path: Path, root: Path) -> Gate:
    require_present(path)  # a layout not written yet is not captured, not a broken one
    command = [sys.executable, "-m", "argus", "layout", "lint", "--format", "json"]
    command += ["--root", str(root), str(path)]
    try:
        proc = subprocess.run(
            command, capture_output=True, text=True, timeout=LINT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return Gate("layout", "error", {"linter_ran": False})
    code = proc.returncode
    if code == 2:
        return Gate("layout", "error", {"linter_exit": 2})
    envelope = _envelope(proc.stdout)
    if envelope is None or code not in STATUS_FOR_EXIT:
        return Gate("layout", "error", {"linter_exit": code, "envelope": False})
    version = envelope.get("schema_version")
    if version != LINT_SCHEMA_VERSION:
        drift = {"linter_exit": code, "schema_drift": True, "expected_schema": LINT_SCHEMA_VERSION}
        return Gate("layout", "error", drift)
    summary = envelope.get("summary")
    errors, warnings = _count(summary, "errors"), _count(summary, "warnings")
    measured: dict[str, Any] = {"linter_exit": code, "errors": errors, "warnings": warnings}
    checks = sorted(
        {str(f.get("check"))[:10] for f in envelope.get("findings", []) if isinstance(f, dict)}
    )
    if checks:
        measured["checks"] = checks
    if envelope.get("exit_code") != code or errors < 0:
        return Gate("layout", "error", {**measured, "envelope": False})
    status = STATUS_FOR_EXIT[code]
    if errors > 0 and status != "fail":
        status = "fail"  # whatever the exit code said, an error finding is a failing layout
    return Gate("layout", status, measured)
