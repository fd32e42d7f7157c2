"""Which program a grader command runs, and whether the executor could have written it.

A grader is independent only if the code that grades is out of the executor's reach. The
executor edits the repository, so a grader command must resolve to an executable outside it,
and where that executable is an interpreter, a shell or a build tool, what it runs must be
outside it too:

- the command is a plain argv (no pipes, redirections, ``;``, ``&&``, ``$(...)`` or
  backquotes): it is run without a shell, exactly as checked;
- its program is found on PATH or named by path, exists, is executable, and lies outside
  the repository both as named and with symlinks followed (a virtualenv inside the
  repository links to a python outside it, yet runs the repository's site-packages);
- an interpreter (python, node, ruby, perl, ...) must be given a script file that exists
  outside the repository; ``-m`` (a module, which the repository can shadow), ``-c``/``-e``
  (code we cannot check) are refused;
- a shell (sh, bash, ...) must be given a script outside the repository; ``-c`` is refused;
- a build or task tool (make, npm, npx, yarn, just, cargo, ...) reads its recipe from the
  repository and is refused; so are ``env``-style wrappers that hide the real program;
- any argument naming an existing file inside the repository is refused.

The check runs at ``start`` and again before every dispatch (a file may appear later).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

from argus.errors import InputError

SHELL_SYNTAX = re.compile(r"[|&;<>`\n]|\$\(")
INTERPRETERS = re.compile(
    r"^(?:python|pypy|node|nodejs|deno|bun|ruby|perl|php|lua|luajit|tclsh|Rscript|julia|"
    r"osascript|java|dotnet|pwsh|powershell)[\d.]*$"
)
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "fish", "csh", "tcsh", "busybox"})
BUILD_TOOLS = frozenset({
    "make", "gmake", "just", "task", "npm", "npx", "pnpm", "pnpx", "yarn", "cargo", "go",
    "gradle", "gradlew", "mvn", "ant", "rake", "bundle", "tox", "nox", "poetry", "pipenv",
    "uv", "uvx", "hatch", "pdm", "invoke", "doit", "bazel", "buck", "ninja", "cmake", "mix",
    "sbt", "lein", "composer", "dune", "stack", "cabal", "swift", "xcodebuild", "pre-commit",
})  # fmt: skip
WRAPPERS = frozenset({"env", "xargs", "nohup", "nice", "timeout", "exec", "command", "sudo",
                      "doas", "time", "stdbuf", "setsid", "chroot", "flock", "watch"})  # fmt: skip
INLINE_CODE = frozenset({"-c", "-e", "--eval", "-p", "--print", "-m", "-r", "--require",
                         "-E", "--command", "-x"})  # fmt: skip


def _inside(path: Path, root: Path) -> bool:
    """Inside the repository as named or once links are followed: a virtualenv's python is a
    link out of the repository, yet it loads the repository's site-packages (and .pth files)."""
    base = root.resolve()
    named = Path(os.path.abspath(path))
    return (
        named.is_relative_to(base)
        or named.is_relative_to(root)
        or path.resolve().is_relative_to(base)
    )


def _program(word: str, root: Path, where: str) -> Path:
    if "/" in word:
        candidate = Path(word) if Path(word).is_absolute() else root / word
    else:
        found = shutil.which(word)
        if found is None:
            raise InputError(f"{where}: the grader program {word!r} is not on PATH; install it")
        candidate = Path(found)
    if not candidate.is_file() or not os.access(candidate, os.X_OK):
        raise InputError(
            f"{where}: the grader program {word!r} is not an executable file that exists now; "
            "install the grader before the run"
        )
    if _inside(candidate, root):
        raise InputError(
            f"{where}: the grader program {word!r} is inside the repository the executor "
            "edits; install the grader outside it"
        )
    return candidate.resolve()


def _script(words: list[str], kind: str, root: Path, where: str) -> None:
    for word in words:
        if word in INLINE_CODE or (word.startswith("-") and word[:2] in ("-c", "-m", "-e")):
            raise InputError(
                f"{where}: the grader runs {kind} with {word} (code or a module Argus cannot "
                "place); give it a script file outside the repository"
            )
        if word.startswith("-"):
            continue
        script = Path(word) if Path(word).is_absolute() else root / word
        if not script.is_file():
            raise InputError(
                f"{where}: the grader's script {word!r} does not exist; install it outside "
                "the repository before the run"
            )
        if _inside(script, root):
            raise InputError(
                f"{where}: the grader's script {word!r} is inside the repository the executor "
                "edits; install it outside the repository"
            )
        return  # the first operand is the script; the rest are its arguments
    raise InputError(f"{where}: the grader runs {kind} without a script file")


def grader_argv(command: str, root: Path, where: str) -> list[str]:
    """The argv to run for ``command``; InputError saying why when the executor could have
    written what it runs."""
    if SHELL_SYNTAX.search(command):
        raise InputError(
            f"{where}: the grader command uses shell syntax (pipes, redirections, ';', '&&', "
            "'$(...)'); name one program with its arguments"
        )
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise InputError(f"{where}: the grader command cannot be split into words: {exc}") from exc
    if not words:
        raise InputError(f"{where}: the grader command is empty")
    program = _program(words[0], root, where)
    name = program.name
    base = Path(words[0]).name
    if base in WRAPPERS or name in WRAPPERS:
        raise InputError(
            f"{where}: the grader command starts with {base}, which runs another program; "
            "name the grader itself"
        )
    if base in BUILD_TOOLS or name in BUILD_TOOLS:
        raise InputError(
            f"{where}: the grader command runs {base}, a build tool that reads its recipe from "
            "the repository; install the grader as a program outside the repository"
        )
    if base in SHELLS or name in SHELLS:
        _script(words[1:], f"the shell {base}", root, where)
    elif INTERPRETERS.match(base) or INTERPRETERS.match(name):
        _script(words[1:], f"the interpreter {base}", root, where)
    for word in words[1:]:
        value = word.split("=", 1)[-1] if word.startswith("-") else word
        if not value:
            continue
        candidate = Path(value) if Path(value).is_absolute() else root / value
        if candidate.is_file() and _inside(candidate, root):
            raise InputError(
                f"{where}: the grader command runs {word}, a file in the repository the "
                "executor could rewrite; install the grader outside the repository"
            )
    return [str(program), *words[1:]]
