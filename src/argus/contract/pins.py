"""Contracts a person pinned: the only contracts a run may start under, retarget to or close.

The contract decides what "done" means, and the executor edits the repository the contract
lives in. So before an executor works under a contract, a person pins it
(``argus contract pin CONTRACT``, or ``--preset NAME``; a person's decision, argus.person):
its SHA-256 is kept outside the repository, in ``contract-pins/`` of every state home
(argus.state_home), keyed by the repository and the contract id. ``start``, ``retarget``,
``complete`` and the Stop hook honour a contract only when a pin names its digest now: a
contract never pinned, or edited after it was pinned, is refused with one line naming the
file, and a run under it cannot close. Every pin record found must name the same digest (a
second record of one's own does not outvote the person's).
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from argus.errors import InputError
from argus.io import atomic_write_json
from argus.state_home import state_homes

if TYPE_CHECKING:
    from argus.contract.model import Contract

PINS = "contract-pins"


def _key(root: Path, contract_id: str) -> str:
    return hashlib.sha256(f"{root.resolve()}\0{contract_id}".encode()).hexdigest()[:32]


def _records(root: Path, contract_id: str) -> list[object]:
    """Every state home's pin record for this repository and contract id (None for one that
    exists but cannot be read)."""
    found: list[object] = []
    for home in state_homes():
        path = home / PINS / f"{_key(root, contract_id)}.json"
        if path.exists():
            record: object = None
            with contextlib.suppress(OSError, ValueError, RecursionError):
                record = json.loads(path.read_bytes()[:65536])
            found.append(record)
    return found


def pin(root: Path, contract: Contract) -> str:
    """Record ``contract`` (as its file is now) as pinned by a person; its digest. The caller
    checked that a person asked for it."""
    from argus.contract.state import now

    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    record = {
        "root": str(root.resolve()),
        "contract_id": contract.id,
        "path": str(contract.path),
        "sha256": contract.digest,
        "pinned_at": now(),
        "by": user,
    }
    for home in state_homes():
        atomic_write_json(home / PINS / f"{_key(root, contract.id)}.json", record)
    return contract.digest


def pin_problem(root: Path, contract: Contract) -> str | None:
    """Why ``contract`` is not honoured as pinned (None when it is)."""
    records = _records(root, contract.id)
    if not records:
        return (
            f"{contract.path}: contract '{contract.id}' is not pinned; a person pins it "
            f"before work starts: argus contract pin {contract.path}"
        )
    digests = {r.get("sha256") if isinstance(r, dict) else None for r in records}
    if digests != {contract.digest}:
        return (
            f"{contract.path}: edited after it was pinned (or its pins disagree); a person "
            f"reviews it and pins it again: argus contract pin {contract.path}"
        )
    return None


def require_pinned(root: Path, contract: Contract) -> None:
    problem = pin_problem(root, contract)
    if problem:
        raise InputError(problem)
