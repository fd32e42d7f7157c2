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
- a tool that loads configuration or code from the project it runs in is refused, whether
  run directly or as an interpreter's script: build and task tools (make, npm, npx, yarn,
  just, cargo, ...), version control (git: aliases and hooks in ``.git/config``), test runners
  (pytest: ``conftest.py``, ``pytest.ini``; jest, vitest, tox, ...), linters and doc builders
  whose configuration is code (eslint, mypy plugins, sphinx's ``conf.py``, ...); so are
  ``env``-style wrappers that hide the real program and programs that run code given as an
  argument (awk, sed, jq, ...);
- any argument naming a path inside the repository (a file or a folder, existing or not) is
  refused.

The check runs at ``start`` and again before every dispatch (a file may appear later). What
it cannot list, the way the grader runs covers: in a private empty directory whose parents
stop git's repository search, with an environment cleaned of loader and tool-configuration
variables (:func:`grader_environment`). A tool that searches upward for its configuration
finds nothing of the repository's.
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
PROJECT_CONFIGURED = frozenset({
    "git", "hg", "svn", "fossil", "bzr", "jj", "gh", "glab", "hub", "pytest", "py.test",
    "pytest-3", "nose2", "ward", "behave", "jest", "vitest", "mocha", "ava", "karma", "jasmine",
    "playwright", "cypress", "eslint", "prettier", "stylelint", "tsc", "mypy", "dmypy", "pylint",
    "flake8", "ruff", "black", "isort", "coverage", "pre-commit", "lefthook", "husky", "nx",
    "turbo", "lerna", "rush", "vite", "webpack", "rollup", "esbuild", "babel", "parcel",
    "sphinx-build", "mkdocs", "jupyter", "docker", "docker-compose", "podman", "terraform",
    "ansible", "ansible-playbook", "vagrant", "direnv", "rails", "django-admin", "manage.py",
    "corepack", "pip", "pip3", "pipx", "conda", "mamba", "rye", "pixi", "bun", "deno",
})  # fmt: skip
CODE_AS_ARGUMENT = frozenset({"awk", "gawk", "mawk", "nawk", "sed", "gsed", "jq", "yq", "bc",
                              "dc", "m4", "expect", "tclsh", "wish", "gdb", "vim", "nvim",
                              "emacs", "ed", "ex", "find", "parallel"})  # fmt: skip
SCRUBBED_ENV = frozenset({
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
    "PYTHONUSERBASE", "PYTHONSAFEPATH", "PYTHONINSPECT", "NODE_OPTIONS", "NODE_PATH",
    "NODE_EXTRA_CA_CERTS", "BASH_ENV", "ENV", "ZDOTDIR", "PERL5LIB", "PERL5OPT", "PERLLIB",
    "RUBYLIB", "RUBYOPT", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE", "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS", "COVERAGE_PROCESS_START", "VIRTUAL_ENV", "CONDA_PREFIX", "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "DOTNET_STARTUP_HOOKS", "CDPATH",
    "PROMPT_COMMAND", "MAKEFLAGS", "MAKEFILES", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR",
})  # fmt: skip
SCRUBBED_PREFIXES = ("GIT_", "DYLD_", "npm_", "NPM_", "YARN_", "PNPM_", "TOX_", "NOX_",
                     "PIP_", "UV_", "POETRY_", "ARGUS_")  # fmt: skip
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


def _names_a_configured_tool(path: Path) -> bool:
    name = path.name
    stem = name[: -len(".py")] if name.endswith(".py") else name
    return name in PROJECT_CONFIGURED or stem in PROJECT_CONFIGURED or name in BUILD_TOOLS


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
        if _names_a_configured_tool(script):
            raise InputError(
                f"{where}: the grader runs {kind} with {script.name}, a tool that loads "
                "configuration or code from the project it runs in; install a grader that "
                "does not"
            )
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
    if base in PROJECT_CONFIGURED or name in PROJECT_CONFIGURED:
        raise InputError(
            f"{where}: the grader command runs {base}, which loads configuration or code from "
            "the project it runs in (aliases, hooks, conftest.py, config files); install a "
            "grader that does not"
        )
    if base in CODE_AS_ARGUMENT or name in CODE_AS_ARGUMENT:
        raise InputError(
            f"{where}: the grader command runs {base}, which runs code given as an argument; "
            "name a grader program"
        )
    if base in SHELLS or name in SHELLS:
        _script(words[1:], f"the shell {base}", root, where)
    elif INTERPRETERS.match(base) or INTERPRETERS.match(name):
        _script(words[1:], f"the interpreter {base}", root, where)
    for word in words[1:]:
        value = word.split("=", 1)[-1] if word.startswith("-") else word
        if not value:
            continue
        named = Path(value)
        absolute = named.is_absolute()
        candidate = named if absolute else root / value
        if (absolute or candidate.exists()) and _inside(candidate, root):
            raise InputError(
                f"{where}: the grader command names {word}, a path in the repository the "
                "executor could rewrite; install the grader outside the repository"
            )
    return [str(program), *words[1:]]


def grader_environment(root: Path, place: Path) -> dict[str, str]:
    """The environment a grader command runs with in its private directory ``place``: Argus's
    own, less every loader and tool-configuration variable (``LD_PRELOAD``, ``PYTHONPATH``,
    ``NODE_OPTIONS``, ``GIT_*``, ``npm_*`` ...) and every variable that names a path in the
    repository ``root``; git stops its repository search at ``place``'s parent and reads no
    global or system configuration, and ``PATH`` keeps only absolute folders outside the
    repository."""
    base = str(root.resolve())
    env: dict[str, str] = {}
    for key, value in os.environ.items():
        if key in SCRUBBED_ENV or key.startswith(SCRUBBED_PREFIXES) or base in value:
            continue
        env[key] = value
    folders = [
        p
        for p in os.environ.get("PATH", os.defpath).split(os.pathsep)
        if p and Path(p).is_absolute() and not _inside(Path(p), root)
    ]
    env["PATH"] = os.pathsep.join(folders) or os.defpath
    env["PWD"] = str(place)
    env["GIT_CEILING_DIRECTORIES"] = str(place.parent)
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["GIT_CONFIG_GLOBAL"] = os.devnull
    return env
