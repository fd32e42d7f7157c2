"""Whether a person, not an agent, is taking a decision only a person may take.

Pausing, resuming and aborting a contract run, pinning a contract and approving a reference,
a spot-check or a baseline are a person's decisions. An agent runs as the same user, so
neither a terminal (``script -qec`` gives it one) nor a variable in its environment proves a
person. Two things do, and every such decision needs both:

- **Not confined.** A process Argus confined cannot take the decision, whatever its
  environment says. The fact checked is the kernel's: ``NoNewPrivs: 1`` in
  ``/proc/self/status``. Argus's Landlock sandbox and bubblewrap both set it before the
  confined program runs; the kernel keeps it for every descendant and offers no way to clear
  it. ``ARGUS_CONFINED`` (set by Argus's confinement too) is also honoured; it is a hint, not
  the proof, since a child can drop it.
- **The person key.** A passphrase only the person knows, set once with
  ``argus person init``; only its scrypt digest is kept, in the state home
  (``person-key.json``, argus.state_home). It is read from ``ARGUS_PERSON_KEY`` (which the
  command line takes out of its environment, so no program Argus starts inherits it), else asked
  on the terminal without echo (``getpass``), else read as one line of standard input (the
  MCP server passes what the person typed into its elicitation form that way). An agent that
  drives a pseudo-terminal can answer a prompt but does not know the passphrase. Every state
  home that holds a key must accept it, so pointing ``ARGUS_STATE_HOME`` at a folder with a
  key of one's own does not get past the person's.

What this does not stop, said plainly in docs/security.md: an unconfined process of the same
user can replace the key file (or, before the person set one, set its own), or rewrite
Argus's records directly.
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import hmac
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json
from argus.state_home import state_homes

KEY_FILE = "person-key.json"
SECRET_ENV = "ARGUS_PERSON_KEY"
CONFINED_ENV = "ARGUS_CONFINED"
MIN_LENGTH = 8
held_secret: str | None = None  # ARGUS_PERSON_KEY, taken out of the environment by argus.cli
SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def confinement(status: str | None = None) -> str | None:
    """Why this process counts as confined (None when nothing says so). ``status`` stands in
    for /proc/self/status in tests."""
    if status is None:
        try:
            status = Path("/proc/self/status").read_text("utf-8", "replace")
        except OSError:
            status = ""
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key == "NoNewPrivs" and value.strip() == "1":
            return "the kernel's no_new_privs flag is set on this process"
    if os.environ.get(CONFINED_ENV):
        return f"{CONFINED_ENV} is set"
    return None


def _digest(secret: str, salt: bytes, params: dict[str, int]) -> bytes:
    return hashlib.scrypt(
        secret.encode("utf-8"), salt=salt, n=params["n"], r=params["r"], p=params["p"], dklen=32
    )


def _keys() -> list[tuple[Path, dict[str, Any] | None]]:
    """Each state home's key file that exists, with its record (None when it cannot be
    read: an unreadable key refuses, never waves through)."""
    found: list[tuple[Path, dict[str, Any] | None]] = []
    for home in state_homes():
        path = home / KEY_FILE
        if not path.exists():
            continue
        record: dict[str, Any] | None = None
        with contextlib.suppress(OSError, ValueError, RecursionError):
            data = json.loads(path.read_bytes()[:4096])
            if isinstance(data, dict):
                record = data
        found.append((path, record))
    return found


def _accepts(record: dict[str, Any] | None, secret: str) -> bool:
    if record is None:
        return False
    try:
        salt = bytes.fromhex(str(record["salt"]))
        want = bytes.fromhex(str(record["scrypt"]))
        params = {k: int(record[k]) for k in ("n", "r", "p")}
        if params != SCRYPT:  # a weakened cost factor is not the person's key
            return False
        return hmac.compare_digest(_digest(secret, salt, params), want)
    except (KeyError, ValueError, TypeError, MemoryError):
        return False


def has_key() -> bool:
    return bool(_keys())


def verify(secret: str) -> bool:
    """True when at least one state home holds a key and every one that does accepts
    ``secret``."""
    keys = _keys()
    return bool(keys) and bool(secret) and all(_accepts(record, secret) for _, record in keys)


def _prompt(text: str) -> str:
    """Ask on the terminal without echo; standard input's first line when there is none."""
    if sys.stdin is not None and sys.stdin.isatty():
        return getpass.getpass(text)
    line = sys.stdin.readline() if sys.stdin is not None else ""
    return line.rstrip("\r\n")


def ask(text: str) -> str:
    """A passphrase asked for ``text`` ("" when none can be read)."""
    try:
        return _prompt(text)
    except (EOFError, OSError, UnicodeError, ValueError):
        return ""


def person_secret(action: str) -> str:
    """The passphrase offered for ``action``: ARGUS_PERSON_KEY, else asked."""
    given = held_secret or os.environ.get(SECRET_ENV)
    if given:
        return given
    return ask(f"{action} is a person's decision; your Argus person passphrase: ")


def require_person(action: str, secret: str | None = None) -> None:
    """InputError unless a person takes ``action``: refused from a confined process, without
    a person key, or with a passphrase that is not the person's."""
    confined = confinement()
    if confined:
        raise InputError(
            f"{action} is a person's decision and this process was confined by Argus "
            f"({confined}); a person runs it outside the confinement"
        )
    if not has_key():
        raise InputError(
            f"{action} is a person's decision and no person key is set; the person sets one "
            "with `argus person init` in their own terminal"
        )
    offered = person_secret(action) if secret is None else secret
    if not verify(offered):
        raise InputError(
            f"{action} is a person's decision: the Argus person passphrase was not given or "
            "is wrong (a terminal alone does not prove a person)"
        )


def set_key(new: str, current: str | None = None) -> Path:
    """Set the person key to ``new`` in the chosen state home; once a key exists, changing it
    takes the current passphrase. The key file's path."""
    confined = confinement()
    if confined:
        raise InputError(f"argus person init: refused from a confined process ({confined})")
    if has_key():
        offered = person_secret("argus person init") if current is None else current
        if not verify(offered):
            raise InputError(
                "argus person init: a person key is already set; give the current passphrase "
                "to change it"
            )
    if len(new) < MIN_LENGTH:
        raise InputError(f"argus person init: the passphrase needs {MIN_LENGTH} characters")
    salt = secrets.token_bytes(16)
    record = {**SCRYPT, "salt": salt.hex(), "scrypt": _digest(new, salt, SCRYPT).hex()}
    chosen = state_homes()[0] / KEY_FILE
    for path in [chosen, *(p for p, _ in _keys() if p != chosen)]:  # no old key left behind
        atomic_write_json(path, record)
        with contextlib.suppress(OSError):
            path.chmod(0o600)
    return chosen
