"""A repository with a contract: a mechanical check and a judgment stage graded by a script."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

GRADER = """
import json, os, re, sys
prompt = sys.stdin.read()
with open(os.environ["GRADER_LOG"], "a") as fh:
    fh.write(prompt + "\\n=====\\n")
nonce = re.search(r"dispatch nonce: ([0-9a-f]{32})", prompt)
answer = os.environ.get("GRADER_ANSWER", "").replace("@NONCE@", nonce.group(1) if nonce else "")
if answer == "CRASH":
    sys.exit(4)
print(answer)
"""


def write_contract(root: Path, **changes: Any) -> Path:
    grader = root.parent / "grader.py"
    grader.write_text(GRADER, "utf-8")
    contract: dict[str, Any] = {
        "id": "ship-it",
        "name": "Ship the feature",
        "stages": [
            {
                "id": "check",
                "name": "The check passes",
                "type": "mechanical",
                "command": f'{sys.executable} -c "import pathlib,sys; '
                "sys.exit(0 if pathlib.Path('done.txt').exists() else 3)\"",
            },
            {
                "id": "review",
                "name": "Code review",
                "type": "judgment",
                "requires": ["check"],
                "pass_criteria": "done.txt says done",
                "grader": {"command": f"{sys.executable} {grader}", "rounds": 2},
            },
        ],
        "budget": {"max_attempts_per_stage": 2, "max_total_attempts": 5},
        "timeout": 60,
    }
    contract.update(changes)
    path = root / "contract.json"
    path.write_text(json.dumps(contract, indent=2), "utf-8")
    return path


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "argus.toml").write_text('[implementer]\nmodel = "anthropic/the-builder"\n')
    monkeypatch.setenv("GRADER_LOG", str(tmp_path / "grader.log"))
    return root


SUMMARY = """## Summary
The feature is done.

## Stage state
check: passed; review: passed

## Blockers
none

## Failures
none

## Evidence
the check exited 0

## Recommendations
none
"""


def summarize(root: Path, contract_id: str = "ship-it") -> Path:
    """The executor's closure summary for the run as it stands now."""
    from argus.contract import run

    return run.summary_write(root, contract_id, SUMMARY)
