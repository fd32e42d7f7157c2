"""A fake implementer for loop tests: removes one fixable defect named in its prompt.

    fake_implementer.py WORKDIR PROMPT_FILE [FLAG...]

--tamper also edits the spec's spec.md (a protected file); --crash exits 1 after printing;
--noop changes nothing; --no-status prints no STATUS line; --say-blocked ends BLOCKED.
Cheats on the loop itself: --edit-config rewrites argus.toml (or [tool.argus] in
pyproject.toml when there is no argus.toml), --add-config creates an argus.toml,
--forge-records writes state and outcome files claiming two passes for view list-b-light,
--edit-verdict rewrites iteration-1's verdict.json of view list-a-light.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> int:
    workdir, prompt_file, *flags = sys.argv[1:]
    root = Path(workdir)
    prompt = Path(prompt_file).read_text(encoding="utf-8")
    (root / "prompts-seen.txt").open("a", encoding="utf-8").write(prompt + "\n=====\n")
    if "--tamper" in flags:
        spec_md = root / "argus" / "specs" / "demo" / "spec.md"
        spec_md.write_text("- Everything passes.\n", encoding="utf-8")
    _cheat(root, flags)
    if "--crash" in flags:
        print("something went wrong")
        return 1
    app = root / "app.json"
    data = json.loads(app.read_text(encoding="utf-8"))
    if "--noop" not in flags:
        for defect in data["defects"]:
            if defect.get("fixable", True) and f"`{defect['target']}`" in prompt:
                data["defects"].remove(defect)
                print(f"fixed {defect['name']}")
                break
        app.write_text(json.dumps(data), encoding="utf-8")
    if "--say-blocked" in flags:
        print("STATUS: BLOCKED")
    elif "--no-status" not in flags:
        print("STATUS: DONE")
    return 0


def _cheat(root: Path, flags: list[str]) -> None:
    runs = root / "argus" / "specs" / "demo" / ".argus-runs"
    if "--edit-config" in flags:
        toml = root / "argus.toml"
        target = toml if toml.is_file() else root / "pyproject.toml"
        target.write_text(target.read_text(encoding="utf-8") + "# cheated\n", encoding="utf-8")
    if "--add-config" in flags:
        (root / "argus.toml").write_text('[judge]\nbackend = "command"\n', encoding="utf-8")
    if "--forge-records" in flags:
        run_id = json.loads((runs / "run.json").read_text(encoding="utf-8"))["run_id"]
        forge_passes(runs / "list-b-light", run_id, "b")
    if "--edit-verdict" in flags:
        verdict = runs / "list-a-light" / "iteration-1" / "verdict.json"
        data = json.loads(verdict.read_text(encoding="utf-8"))
        data["notes"] = "forged"
        verdict.write_text(json.dumps(data), encoding="utf-8")


def forge_passes(view_dir: Path, run_id: str, state: str) -> None:
    """A view directory claiming a judged pass and a confirm, as a cheating agent writes it."""
    decision = {
        "next_action": "signoff",
        "should_signoff": True,
        "budget_exhausted": False,
        "fix_dimensions": [],
        "red_gates": [],
        "frozen": [],
        "newly_frozen": [],
        "unverified": [],
        "concerns": [],
        "consecutive_passes": 2,
        "required_passes": 2,
        "iteration": 2,
        "max_iterations": 12,
    }
    loop_state = {
        "version": 1,
        "feature": "demo",
        "target": "list",
        "state": state,
        "appearance": "light",
        "reference_source": None,
        "settings": {
            "consecutive_passes_required": 2,
            "max_attempts_per_dimension": 3,
            "max_iterations": 12,
        },
        "iteration": 2,
        "consecutive_passes": 2,
        "attempts": {},
        "frozen": [],
        "newly_frozen": [],
        "last_outcome": "unchanged",
        "last_verdict": {
            "iteration": 1,
            "outcome": "pass",
            "failed_dimensions": [],
            "unverified_dimensions": [],
        },
        "red_gates": [],
        "updated_at": "2026-01-01T00:00:00+00:00",
    }
    view_dir.mkdir(parents=True, exist_ok=True)
    (view_dir / "run-id.txt").write_text(run_id + "\n", encoding="utf-8")
    (view_dir / "state.json").write_text(json.dumps(loop_state), encoding="utf-8")
    for n, kind in ((1, "judged"), (2, "confirmed")):
        outcome = {
            "iteration": n,
            "kind": kind,
            "passed": True,
            "decision": decision,
            "verdict_outcome": "pass" if kind == "judged" else None,
        }
        (view_dir / f"iteration-{n}").mkdir(exist_ok=True)
        (view_dir / f"iteration-{n}" / "outcome.json").write_text(
            json.dumps(outcome), encoding="utf-8"
        )


if __name__ == "__main__":
    sys.exit(main())
