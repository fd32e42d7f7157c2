"""Apply a Landlock write ruleset to this process, then exec the implementer.

    python -m argus.loop.landlock_exec RULES.json -- COMMAND [ARG...]

RULES.json is ``{"abi": N, "dirs": [...], "files": [...]}`` (absolute paths, written by
argus.loop.sandbox): every write-like access is denied except beneath ``dirs`` and to the
existing ``files``; reading and executing stay allowed everywhere. The ruleset is inherited by
everything the command starts, detached or not, and cannot be lifted. Standard library only:
this runs once per implementer call, before the implementer itself.

Exit 126 with one line on stderr when the ruleset cannot be applied (nothing runs then).
"""

from __future__ import annotations

import ctypes
import json
import os
import sys

# Syscall numbers are the same on every architecture Linux gives Landlock (the generic table).
SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

WRITE_FILE = 1 << 1
REMOVE_DIR, REMOVE_FILE = 1 << 4, 1 << 5
MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK = 1 << 6, 1 << 7, 1 << 8, 1 << 9
MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 10, 1 << 11, 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
WRITES_V1 = (
    WRITE_FILE
    | REMOVE_DIR
    | REMOVE_FILE
    | MAKE_CHAR
    | MAKE_DIR
    | MAKE_REG
    | MAKE_SOCK
    | MAKE_FIFO
    | MAKE_BLOCK
    | MAKE_SYM
)
FAILED = 126


class _RulesetAttr(ctypes.Structure):
    _fields_ = (("handled_access_fs", ctypes.c_uint64),)


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 when it has none (or it is disabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        version = int(_libc().syscall(SYS_CREATE_RULESET, None, 0, CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(version, 0)


def handled_writes(abi: int) -> int:
    """The write-like rights this ABI can deny."""
    handled = WRITES_V1
    if abi >= 2:
        handled |= REFER
    if abi >= 3:
        handled |= TRUNCATE
    return handled


def _check(result: int, what: str) -> int:
    if result < 0:
        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")
    return result


def restrict(abi: int, dirs: list[str], files: list[str]) -> None:
    """Deny writes to this process (and all it starts) except beneath ``dirs`` and to
    ``files``. OSError when the kernel refuses."""
    libc = _libc()
    handled = handled_writes(abi)
    attr = _RulesetAttr(handled)
    ruleset = _check(
        libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0),
        "landlock_create_ruleset",
    )
    try:
        file_rights = handled & (WRITE_FILE | TRUNCATE)
        for paths, rights, flags in ((dirs, handled, os.O_DIRECTORY), (files, file_rights, 0)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW | flags)
                except OSError:
                    continue  # gone since the rules were written: nothing to allow
                try:
                    rule = _PathBeneathAttr(rights, fd)
                    _check(
                        libc.syscall(
                            SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0
                        ),
                        f"landlock_add_rule {path}",
                    )
                finally:
                    os.close(fd)
        _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
        _check(libc.syscall(SYS_RESTRICT_SELF, ruleset, 0), "landlock_restrict_self")
    finally:
        os.close(ruleset)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print(
            "usage: python -m argus.loop.landlock_exec RULES.json -- COMMAND ...", file=sys.stderr
        )
        return 2
    try:
        with open(argv[0], encoding="utf-8") as fh:
            rules = json.load(fh)
        restrict(int(rules["abi"]), list(rules["dirs"]), list(rules["files"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"argus-sandbox-failed: {exc}", file=sys.stderr, flush=True)
        return FAILED
    try:
        os.execvp(argv[2], argv[2:])
    except OSError as exc:
        print(f"argus: could not start {argv[2]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127
    return 0  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
