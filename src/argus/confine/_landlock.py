"""The Landlock backend: an allow-list of writes, applied in the child between fork and exec.

Where bubblewrap cannot run (no user namespaces), Linux 5.13+ still offers Landlock. The
ruleset is built in Argus's process (``Ruleset``: every write-like access denied except beneath
the allowed folders and to the allowed files), and the child only calls
``prctl(PR_SET_NO_NEW_PRIVS)`` and ``landlock_restrict_self`` on it, from ``preexec_fn``: after
fork, before exec. No new interpreter starts and nothing is imported on the way, so no code the
confined program could have planted (a ``.pth`` file in a site-packages folder, a
``sitecustomize``) runs before the restriction holds. The alternative, a helper started as
``python -I -S``, would skip site-packages too, but it must import its own module from
Argus's installation, which is one more file to trust; the fork-and-exec route has none. The
child's two calls go through function pointers resolved in the parent, since ``dlopen`` after
fork in a threaded process can deadlock.

The ruleset is inherited by everything the program starts, detached or not, and cannot be
lifted. Landlock has no right for metadata (chmod, utime, xattrs, ownership; no ABI up to 7
has one): under this backend those stay possible, and the hash checks are what catch a
changed protected file (docs/security.md).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass

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
# Devices any program writes to; writing one is a write Landlock would otherwise deny.
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty")


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


@dataclass(frozen=True)
class Rules:
    """Where writes stay allowed: beneath ``dirs``, and to the existing ``files``."""

    dirs: tuple[str, ...]
    files: tuple[str, ...]

    def to_json(self) -> dict[str, list[str]]:
        return {"dirs": list(self.dirs), "files": list(self.files)}


def allow_list(writable: Iterable[str], denied: Iterable[str]) -> Rules:
    """The rules allowing writes beneath ``writable`` (folders or files) except to ``denied``
    (each whole), plus the common devices. A writable folder holding something denied is not
    allowed whole: it is entered, and what it holds that is not denied is allowed one by one,
    so nothing new can be created directly in it (its existing files stay writable). Links
    are skipped: a link is allowed or not where it points."""
    deny = {os.path.realpath(p) for p in denied}
    ancestors: set[str] = set()
    for path in deny:
        parent = os.path.dirname(path)
        while parent not in ancestors:
            ancestors.add(parent)
            if parent == os.path.dirname(parent):
                break
            parent = os.path.dirname(parent)
    dirs: list[str] = []
    files: list[str] = [d for d in DEVICES if os.path.exists(d)]

    def place(path: str, is_dir: bool) -> None:
        if path in deny:
            return
        if is_dir and path in ancestors:
            walk(path)
        elif is_dir:
            dirs.append(path)
        else:
            files.append(path)

    def walk(directory: str) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return  # unreadable: nothing in it is allowed
        for entry in entries:
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False) or entry.is_file(follow_symlinks=False):
                place(entry.path, entry.is_dir(follow_symlinks=False))

    for top in writable:
        real = os.path.realpath(top)
        if os.path.isdir(real) or os.path.isfile(real):
            place(real, os.path.isdir(real))
    return Rules(tuple(dirs), tuple(files))


class Ruleset:
    """A Landlock ruleset built in this process; ``restrict_self`` applies it (in a child,
    between fork and exec). ``close`` once the child has started."""

    def __init__(self, abi: int, rules: Rules) -> None:
        libc = _libc()
        # Resolved now, in the parent: the child must not dlopen or look symbols up.
        self._syscall = libc.syscall
        self._prctl = libc.prctl
        handled = handled_writes(abi)
        attr = _RulesetAttr(handled)
        self.fd = _check(
            libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0),
            "landlock_create_ruleset",
        )
        try:
            file_rights = handled & (WRITE_FILE | TRUNCATE)
            for paths, rights, flags in (
                (rules.dirs, handled, os.O_DIRECTORY),
                (rules.files, file_rights, 0),
            ):
                for path in paths:
                    self._add(path, rights, flags)
        except OSError:
            self.close()
            raise

    def _add(self, path: str, rights: int, flags: int) -> None:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW | flags)
        except OSError:
            return  # gone since the rules were computed: nothing to allow
        try:
            rule = _PathBeneathAttr(rights, fd)
            added = self._syscall(SYS_ADD_RULE, self.fd, RULE_PATH_BENEATH, ctypes.byref(rule), 0)
            _check(int(added), f"landlock_add_rule {path}")
        finally:
            os.close(fd)

    def restrict_self(self) -> None:
        """Apply the ruleset to the calling process (and all it will start). OSError when the
        kernel refuses: raised from ``preexec_fn``, the program is then never run."""
        _check(int(self._prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)), "prctl(PR_SET_NO_NEW_PRIVS)")
        _check(int(self._syscall(SYS_RESTRICT_SELF, self.fd, 0)), "landlock_restrict_self")

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
