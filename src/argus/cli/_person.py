"""`argus person init`: set (or change) the person key, the passphrase only a person knows,
which every person's decision asks for (argus.person)."""

from __future__ import annotations

import argparse
from typing import Any

from argus.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "person",
        help="the person key: the passphrase a person's decisions (pause, resume, abort, pin, "
        "approve) ask for",
        description="Set the person key, a passphrase only you know; Argus keeps its scrypt "
        "digest in its state home, never the passphrase. Pausing, resuming and aborting a "
        "contract run, pinning a contract and approving ask for it, so an agent (which can "
        "drive a terminal) cannot take those decisions. Changing it asks for the current one.",
    )
    actions = parser.add_subparsers(dest="person_action", metavar="ACTION", required=True)
    init = actions.add_parser("init", help="set or change the person key (asked twice, no echo)")
    init.set_defaults(func=run_init)


def run_init(args: argparse.Namespace) -> int:
    from argus import person

    current = None
    if person.has_key():
        current = person.person_secret("argus person init (the current passphrase)")
    new = person.ask("a new Argus person passphrase: ")
    if person.ask("the same passphrase again: ") != new:
        raise InputError("argus person init: the two passphrases differ; nothing was changed")
    path = person.set_key(new, current)
    print(f"person key set: {path} (only its digest is kept)")
    return 0
