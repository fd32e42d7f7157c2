"""What the working tree holds, as one digest: a stage passed on one tree is stale on another.

The digest is taken from the files' bytes as they are on disk, never from a diff git renders
(a ``textconv`` driver or an external diff named in ``.git/info/attributes`` could make a change
render as nothing). Git only says which paths exist and how it classes them:

- HEAD's commit id;
- every tracked path (``git ls-files``, which lists a path whatever its skip-worktree or
  assume-unchanged flag says): its bytes read from disk (a symlink: its target), or "missing";
- every untracked path git does not ignore: its bytes;
- what is ignored follows only the ``.gitignore`` files, and each of them (tracked, untracked
  or itself ignored) is fingerprinted by its bytes: ``.git/info/exclude`` and
  ``core.excludesFile`` are not honoured, so a file cannot be hidden from the digest without
  changing it. What an existing ``.gitignore`` rule ignores (build output, caches, node_modules,
  a virtualenv) is not fingerprinted: a stage's own command writes there, and a pass that went
  stale every time a test wrote a cache would never close (docs/contract.md names this limit).

Argus's own ``.argus/`` directory (the run's state lives there) and ``.git/`` are left out. Git
runs with the repository's fsmonitor and untracked cache switched off, so no hook of the
repository's can answer for it. Outside a git repository there is nothing to compare with: the
digest is None and staleness cannot be detected (docs/contract.md says so).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

EXCLUDE = ":(exclude).argus"
# Repository settings that would let the repository answer for git (run a program, or serve
# a cached listing); our -c settings win over .git/config.
SAFE = (
    "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
    "-c", "core.attributesFile=/dev/null", "-c", "core.sparseCheckout=false",
    "-c", "core.excludesFile=/dev/null",
)  # fmt: skip


def _git(root: Path, *args: str) -> bytes | None:
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_EXTERNAL_DIFF"):
        env.pop(name, None)
    try:
        done = subprocess.run(
            ["git", *SAFE, *args], cwd=root, capture_output=True, timeout=120, check=False, env=env
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _names(listing: bytes | None) -> list[bytes]:
    return sorted(set(filter(None, (listing or b"").split(b"\0"))))


def _content(digest: hashlib._Hash, path: Path) -> None:
    try:
        if path.is_symlink():
            digest.update(b"link " + os.fsencode(os.readlink(path)))
            return
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except FileNotFoundError:
        digest.update(b"(missing)")
    except OSError:
        digest.update(b"(unreadable)")


def worktree_digest(root: Path) -> str | None:
    inside = _git(root, "rev-parse", "--is-inside-work-tree")
    if inside is None or inside.strip() != b"true":
        return None
    top = _git(root, "rev-parse", "--show-toplevel")
    base = Path(os.fsdecode(top.strip())) if top else root
    digest = hashlib.sha256()
    head = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    digest.update(b"HEAD " + (head.strip() if head else b"(none)") + b"\n")
    rules = "--exclude-per-directory=.gitignore"
    listings = (
        (b"tracked", ("ls-files", "-z", "--full-name", "--", ".", EXCLUDE)),
        (b"untracked", ("ls-files", "-z", "--full-name", "--others", rules, "--", ".", EXCLUDE)),
        (b"rules", ("ls-files", "-z", "--full-name", "--others", "--ignored", rules, "--",
                    ":(glob)**/.gitignore", EXCLUDE)),
    )  # fmt: skip
    for kind, args in listings:
        listing = _git(root, *args)
        if listing is None:
            return None  # git could not list: no fingerprint is better than a blind one
        for name in _names(listing):
            digest.update(b"\0" + kind + b" " + name + b"\0")
            _content(digest, base / os.fsdecode(name))
    return digest.hexdigest()
