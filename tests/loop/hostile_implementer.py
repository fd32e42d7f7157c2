"""A hostile implementer for the forgery tests (docs/security.md): each flag is one attack on
the loop, done before the honest work of ``fake_implementer.py``.

    hostile_implementer.py WORKDIR PROMPT_FILE FLAG

--kill-parent     edit spec.json and spec.md, delete protected-before.json, then kill -9 the loop
--forge-signoff   write a sign-off of list-a-light for the current run, spot-check approved,
                  delete protected-before.json, then kill -9 the loop
--poison-copy     overwrite the loop's backup copy of spec.md, then edit spec.md (once)
--detached-edit   leave a detached child (own session) that edits spec.md once the loop has
                  sensed the next render, then return at once
--steal-lock      delete loop.lock and run `argus approve` on view a (signed off by an earlier
                  run); its exit code goes to approve-rc.txt
Every attack runs once per repository (a marker file in scratch/), so the loop can end. Under
the sandbox (argus.confine) a step the kernel refuses is skipped; the attack goes on.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRATCH_ROOT: list[Path] = []
FEATURE_DIR = Path("argus") / "specs" / "demo"


def main() -> int:
    workdir, prompt_file, flag = sys.argv[1:4]
    root = Path(workdir)
    SCRATCH_ROOT.append(root)
    marker = root / "scratch" / f"attacked{flag}.txt"
    if not marker.exists():
        marker.write_text("1", encoding="utf-8")
        ATTACKS[flag](root, Path(prompt_file))
    honest = [sys.executable, str(HERE / "fake_implementer.py"), workdir, prompt_file]
    return subprocess.run(honest, check=False).returncode


def _try(step: Callable[[], object]) -> None:
    """Do one step of an attack; a sandbox refusing it does not stop the rest."""
    try:
        step()
    except OSError as exc:  # EACCES under Landlock, EROFS under bubblewrap
        (SCRATCH_ROOT[0] / "scratch" / "refused.txt").open("a").write(f"{exc}\n")


def _spec_edits(root: Path) -> None:
    spec_json = root / FEATURE_DIR / "spec.json"
    text = json.dumps(json.loads(spec_json.read_text()), indent=4) + "\n"
    _try(lambda: spec_json.write_text(text))
    _try(lambda: (root / FEATURE_DIR / "spec.md").write_text("- Everything passes.\n"))


def kill_parent(root: Path, prompt: Path) -> None:
    _spec_edits(root)
    _try(lambda: (prompt.parent / "protected-before.json").unlink(missing_ok=True))
    os.kill(os.getppid(), signal.SIGKILL)


def forge_signoff(root: Path, prompt: Path) -> None:
    runs = root / FEATURE_DIR / ".argus-runs"
    run_id = json.loads((runs / "run.json").read_text())["run_id"]
    record = {
        "feature": "demo",
        "run_id": run_id,
        "target": "list",
        "state": "a",
        "appearance": "light",
        "signed_off_at": "2026-01-01T00:00:00+00:00",
        "iterations": 99,
        "reference_source": "human",
        "final_verdict": {"all_pass": True, "dimensions": {}},
        "snapshot_baseline": None,
        "concerns": [],
        "human_spotcheck": {"status": "approved", "checked_at": "2026-01-01T00:00:00+00:00"},
    }
    data = json.dumps({"version": 1, "records": [record]})
    _try(lambda: (runs / "signoff.json").write_text(data))
    _try(lambda: (prompt.parent / "protected-before.json").unlink(missing_ok=True))
    os.kill(os.getppid(), signal.SIGKILL)


def poison_copy(root: Path, prompt: Path) -> None:
    spec_md = root / FEATURE_DIR / "spec.md"
    digest = hashlib.sha256(spec_md.read_bytes()).hexdigest()
    copy = root / FEATURE_DIR / ".argus-runs" / ".protected" / digest
    _try(lambda: copy.write_text("poisoned", encoding="utf-8"))
    _try(lambda: spec_md.write_text("- Everything passes.\n", encoding="utf-8"))


def detached_edit(root: Path, prompt: Path) -> None:
    """A grandchild in its own session: it outlives this process unless the loop ends it."""
    trigger = prompt.parent / "gate-result.json"  # the loop's gates after this edit
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            (root / "scratch" / "detached.pid").write_text(str(os.getpid()))
            for _ in range(3000):  # at most ~30 s, then give up
                if trigger.exists():
                    _try(lambda: (root / FEATURE_DIR / "spec.md").write_text("- Detached.\n"))
                    (root / "scratch" / "detached-edited.txt").write_text("1")
                    break
                time.sleep(0.01)
            os._exit(0)
        os._exit(0)
    os.wait()
    for _ in range(500):  # the pid file says the grandchild is up before we return
        if (root / "scratch" / "detached.pid").exists():
            break
        time.sleep(0.01)


def steal_lock(root: Path, prompt: Path) -> None:
    runs = root / FEATURE_DIR / ".argus-runs"
    _try(lambda: (runs / "loop.lock").unlink(missing_ok=True))
    # It even knows the person passphrase (the tests' own): only the lock, or the confinement,
    # stops it here.
    knows = {**os.environ, "ARGUS_PERSON_KEY": "the person's own passphrase"}
    approve = subprocess.run(
        [
            *(sys.executable, "-m", "argus", "approve", "--feature", "demo", "--target", "list"),
            *("--state", "a", "--appearance", "light", "--root", str(root)),
        ],
        env=knows,
        capture_output=True,
        text=True,
        check=False,
    )
    (root / "scratch" / "approve-rc.txt").write_text(str(approve.returncode))
    (root / "scratch" / "approve-err.txt").write_text(approve.stderr)


ATTACKS = {
    "--kill-parent": kill_parent,
    "--forge-signoff": forge_signoff,
    "--poison-copy": poison_copy,
    "--detached-edit": detached_edit,
    "--steal-lock": steal_lock,
}


if __name__ == "__main__":
    sys.exit(main())
