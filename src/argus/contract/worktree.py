"""What the working tree holds, as one digest: a stage passed on one tree is stale on another.

The digest covers HEAD, the tracked changes against it (``git diff HEAD --binary``) and the
content of untracked files git does not ignore, leaving out Argus's own ``.argus/`` directory
(the run's state lives there). Outside a git repository there is nothing to compare with: the
digest is None and staleness cannot be detected (docs/contract.md says so).
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

EXCLUDE = ":(exclude).argus"


def _git(root: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def worktree_digest(root: Path) -> str | None:
    inside = _git(root, "rev-parse", "--is-inside-work-tree")
    if inside is None or inside.strip() != b"true":
        return None
    digest = hashlib.sha256()
    head = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    digest.update(b"HEAD " + (head.strip() if head else b"(none)") + b"\n")
    against = ["HEAD"] if head else ["--cached"]
    changes = _git(
        root, "diff", "--no-color", "--no-ext-diff", "--binary", *against, "--", ".", EXCLUDE
    )
    digest.update(changes or b"")
    untracked = _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".", EXCLUDE)
    for name in sorted(filter(None, (untracked or b"").split(b"\0"))):
        path = root / name.decode("utf-8", "surrogateescape")
        digest.update(b"\0untracked " + name + b"\0")
        try:
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
        except OSError:
            digest.update(b"(unreadable)")
    return digest.hexdigest()
