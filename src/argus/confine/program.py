"""Whether the program a command starts exists, asked before it starts.

A missing program otherwise surfaces three ways: ``/bin/sh`` exits 127, bubblewrap prints
"execvp ...: No such file or directory" and exits 1, and an unconfined argv raises
FileNotFoundError. Asking first gives one answer, ``ProgramNotFound``, whatever the backend.
A shell line is asked about only when its first word is plainly a program (no expansion, no
shell builtin); later words of a compound line are left to the shell, whose "not found" line
``shell_not_found`` reads back from the output.
"""

from __future__ import annotations

import errno
import os
import re
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path

from argus.proc import Command

NOT_FOUND_EXIT = 127  # the shell's exit status for a command it could not find
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.DOTALL)
_PLAIN = re.compile(r"[A-Za-z0-9_.+/@%:,-]+")
# POSIX sh's special and regular builtins and reserved words: never looked up on PATH.
_SHELL_WORDS = frozenset(
    (  # noqa: SIM905 (a word list reads best as words)
        "! { } case do done elif else esac fi for if in then until while . : break continue eval "
        "exec exit export readonly return set shift times trap unset alias bg cd command false fc "
        "fg getopts hash jobs kill newgrp pwd read true type ulimit umask unalias wait echo printf "
        "test [ local"
    ).split()
)
# dash: "sh: 1: eslint: not found"; bash as sh: "sh: line 1: eslint: command not found".
_SHELL_MISSING = re.compile(r"^\S*sh: (?:line )?\d+: (.+?): (?:command )?not found\s*$", re.M)


class ProgramNotFound(FileNotFoundError):
    """The program a command starts is not on PATH (or not at the path it names)."""

    def __init__(self, program: str) -> None:
        where = "at that path" if "/" in program else "on PATH"
        super().__init__(
            errno.ENOENT,
            f"program {program!r} not found {where}; install it or fix the command",
        )
        self.program = program

    def __str__(self) -> str:
        return str(self.strerror)


def program_of(command: Command) -> str | None:
    """The program ``command`` starts, or None when that cannot be told without running it
    (a shell builtin, an expansion, a compound line that begins with a subshell)."""
    if not isinstance(command, str):
        return command[0] if command else None
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    first = next((word for word in words if not _ASSIGNMENT.fullmatch(word)), None)
    if first is None or first in _SHELL_WORDS or not _PLAIN.fullmatch(first):
        return None
    return first


def check_program(command: Command, cwd: Path, env: Mapping[str, str]) -> None:
    """Raise ProgramNotFound when the program ``command`` starts does not exist."""
    program = program_of(command)
    if program is None:
        return
    if "/" in program:
        if not (cwd / program).exists():
            raise ProgramNotFound(program)
    elif shutil.which(program, path=env.get("PATH", os.defpath)) is None:
        raise ProgramNotFound(program)


def shell_not_found(output: str) -> str | None:
    """The last program the shell reported "not found" in ``output``, or None."""
    found = _SHELL_MISSING.findall(output)
    return found[-1] if found else None
