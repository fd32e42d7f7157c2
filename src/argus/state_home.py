"""Where Argus keeps a person's state outside every repository: open contract runs, pinned
contracts and the person key.

Three places may hold it, each read: ``$ARGUS_STATE_HOME`` when set, ``$XDG_STATE_HOME/argus``
when set, and the account's own ``~/.local/state/argus``, whose home directory comes from the
password database, not from ``$HOME``. The environment of the process that wrote a record is
not the environment of the process that checks it (the Stop hook runs with the agent's
client's environment), so a record is written to every place and looked for in every place:
pointing ``ARGUS_STATE_HOME`` elsewhere hides nothing.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path


def account_home() -> Path:
    """``~/.local/state/argus`` of the account this process runs as (not ``$HOME``)."""
    try:
        home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:  # an account without a password-database entry (some containers)
        home = Path.home()
    return home / ".local" / "state" / "argus"


def state_homes() -> list[Path]:
    """Every place Argus's per-user state may be, the first the one a person chose."""
    found: list[Path] = []
    chosen = os.environ.get("ARGUS_STATE_HOME")
    xdg = os.environ.get("XDG_STATE_HOME")
    for place in (
        Path(chosen) if chosen else None,
        Path(xdg) / "argus" if xdg else None,
        account_home(),
    ):
        if place is not None and place.is_absolute() and place not in found:
            found.append(place)
    return found
