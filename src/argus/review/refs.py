"""The tasks a merged PR says it closes: ``Closes #7``, ``fixes owner/repo#7``, ``Resolved:
ARGUS-385`` in its body.

A keyword (close, closes, closed, fix, fixes, fixed, resolve, resolves, resolved; any case,
a colon allowed after it) is followed by one reference or a list joined by commas or "and".
A reference is an issue of this repository (``#N``, or ``owner/repo#N`` naming this
repository), or a task id in the project's form (``[review] task_id_pattern``). What is
quoted as code (fenced blocks, inline code) and HTML comments (a PR template's hints) closes
nothing. An ``owner/repo#N`` of another repository, or of a repository Argus was not told, is
set aside with the reason: its task does not live here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEYWORD = re.compile(
    r"(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![\w-]):?[ \t]+", re.IGNORECASE
)
TOKEN = re.compile(r"[\w./#-]+")
SEPARATOR = re.compile(r"[ \t]*(?:,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)", re.IGNORECASE)
ISSUE = re.compile(r"(?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<number>[0-9]{1,9})")
QUOTED = re.compile(
    r"<!--.*?(?:-->|\Z)|^([ \t]*)(```|~~~).*?(?:^\1\2[^\n]*$|\Z)|`[^`\n]*`", re.S | re.M
)


@dataclass(frozen=True)
class ClosingRef:
    task_id: str  # "#7" for an issue of this repository, else the project's task id
    text: str  # as written: "Closes #7"


@dataclass(frozen=True)
class SetAside:
    text: str
    reason: str


def closing_references(
    body: str, task_pattern: str, repo: str | None = None
) -> tuple[tuple[ClosingRef, ...], tuple[SetAside, ...]]:
    """The tasks ``body`` closes, in order, each once; and the references set aside."""
    task_id = re.compile(task_pattern)
    text = QUOTED.sub(" ", body)  # the body was read capped (1 MiB)
    found: dict[str, ClosingRef] = {}
    aside: list[SetAside] = []
    for keyword in KEYWORD.finditer(text):
        position = keyword.end()
        while True:
            token = TOKEN.match(text, position)
            if token is None:
                break
            written = token.group().rstrip(".")
            end = token.start() + len(written)
            said = f"{keyword.group().strip()} {written}"
            issue = ISSUE.fullmatch(written)
            if issue is not None:
                owner = issue.group("repo")
                number = str(int(issue.group("number")))
                if owner is None or (repo is not None and owner.lower() == repo.lower()):
                    found.setdefault(f"#{number}", ClosingRef(f"#{number}", said))
                else:
                    aside.append(SetAside(said, _elsewhere(owner, repo)))
            elif task_id.fullmatch(written):
                found.setdefault(written, ClosingRef(written, said))
            else:
                break  # not a reference: the sentence goes on
            joined = SEPARATOR.match(text, end)
            if joined is None:
                break
            position = joined.end()
    return tuple(found.values()), tuple(aside)


def _elsewhere(owner: str, repo: str | None) -> str:
    if repo is None:
        return f"{owner} may be another repository (say which this one is: --repo OWNER/NAME)"
    return f"an issue of {owner}, not of {repo}: its task does not live here"
