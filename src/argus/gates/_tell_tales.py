"""tell_tales: source code that can tell it is being watched.

A page that detects the sensor (``navigator.webdriver``, a headless user agent, Argus's query
parameters, an automation hook, the sensor's exact viewport) can serve the sensor a clean page
and everyone else the real one, so every verdict on it is about a page nobody uses. This gate
scans the source files the implementer may edit (every file of a source language in the
repository, but tests, fixtures, baselines, the specs, dependencies and tool folders) and
fails the view naming each file and line. There is no in-line allow marker (the implementer
could write one); ``[gates.tell_tales] ignore`` globs, pinned with the config, leave files out.

Reading the value of a fixture parameter is the plumbing the spec asks for and is allowed;
testing whether it is there is a tell-tale.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from argus.config import TellTalesConfig
from argus.gates._registry import register_gate
from argus.gates._source_scan import LANGUAGES
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.spec.model import Viewport

NAME = "tell_tales"
EXTENSIONS = frozenset({*LANGUAGES, ".py", ".rb", ".php", ".erb", ".jinja", ".j2"})
# Never the implementer's to edit, or not the app: tool folders, dependencies, Argus's own
# output, and the protected set's folders (tests, fixtures, baselines, specs).
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".argus"}
    | {".argus-runs", ".tox", ".mypy_cache", ".ruff_cache", "tests", "test", "fixtures"}
    | {"__snapshots__"}
)
SPECS = ("argus", "specs")
MAX_FILE_BYTES = 2_000_000
MAX_FINDINGS = 100

AUTOMATION = (
    r"webdriver|HeadlessChrome|__playwright\w*|__pw\w*|__puppeteer\w*|__argus\w*|__selenium\w*|"
    r"_selenium|callSelenium|callPhantom|_phantom|__nightmare|domAutomation\w*|cdc_\w+|"
    r"\$cdc_\w*|__driver_evaluate|__webdriver\w*|__fxdriver\w*|__lastWatirAlert"
)
USER_AGENT = re.compile(r"(?i)user[-_ ]?agent|\bUA\b")
AUTOMATION_AGENT = re.compile(r"(?i)headless|playwright|puppeteer|selenium|lighthouse|phantom")
SIZE_READ = (
    r"(?:inner|outer)(?:Width|Height)|screen\.(?:avail)?(?:[Ww]idth|[Hh]eight)|"
    r"clientWidth|clientHeight"
)
PRESENCE = r"\.has\(|\.includes\(|\.indexOf\(|\.match\(|\.search\(|\.test\(|\.startsWith\(|\bin\b"
URL_SNIFF = re.compile(
    r"(?i)(?:location|search|href|url|query|args|params)\S*\.(?:includes|indexOf|match|search|"
    r"startsWith|test)\(\s*['\"/][^'\"]*argus"
)


@dataclass(frozen=True)
class TellTale:
    path: str  # repo-relative
    line: int
    rule: str
    text: str


def tell_tale_rules(
    parameters: Sequence[str], viewports: Sequence[Viewport]
) -> list[tuple[str, re.Pattern[str]]]:
    """The rules for a sensor that adds ``parameters`` to the URL and renders at
    ``viewports``: (name, pattern) pairs matched line by line."""
    rules = [
        ("automation flag or hook", re.compile(rf"(?<![\w$])(?:{AUTOMATION})(?!\w)")),
        ("argus in the URL tested", URL_SNIFF),
    ]
    for name in parameters:
        word = re.escape(name)
        rules.append(
            (
                f"{name} presence tested",
                re.compile(rf"(?:{PRESENCE})\s*\(?\s*['\"]{word}['\"]|['\"]{word}['\"]\s+in\b"),
            )
        )
    sizes = sorted({str(n) for v in viewports for n in (v.width, v.height)})
    if sizes:
        number = "|".join(sizes)
        rules.append(
            (
                "the sensor's viewport tested",
                re.compile(
                    rf"(?:{SIZE_READ})\s*[!=]==?\s*(?:{number})\b|\b(?:{number})\s*[!=]==?\s*"
                    rf"[\w.]*(?:{SIZE_READ})|\(\s*(?:device-)?(?:width|height)\s*:\s*(?:{number})px"
                ),
            )
        )
    return rules


def scan_text(path: str, text: str, rules: Sequence[tuple[str, re.Pattern[str]]]) -> list[TellTale]:
    """Every line of ``text`` a rule matches (a user-agent test for an automation agent too)."""
    found: list[TellTale] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for rule, pattern in rules:
            if pattern.search(line):
                found.append(TellTale(path, number, rule, line.strip()))
                break
        else:
            if USER_AGENT.search(line) and AUTOMATION_AGENT.search(line):
                found.append(TellTale(path, number, "automation user agent tested", line.strip()))
    return found


def source_files(root: Path, ignore: Sequence[str] = ()) -> Iterator[Path]:
    """The files the gate scans, repo-relative, in walk order (see the module doc)."""
    root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath).relative_to(root)
        dirnames[:] = sorted(
            d for d in dirnames if d not in SKIP_DIRS and (here / d).parts[:2] != SPECS
        )
        for name in sorted(filenames):
            rel = here / name
            if Path(name).suffix.lower() not in EXTENSIONS:
                continue
            if any(fnmatchcase(rel.as_posix(), pattern) for pattern in ignore):
                continue
            yield rel


def sensor_parameters(url_template: str) -> list[str]:
    """The query parameters the sensor adds: those of the URL template."""
    query = urllib.parse.urlsplit(url_template).query
    return [name for name, _ in urllib.parse.parse_qsl(query, keep_blank_values=True) if name]


def check_tell_tales(
    root: Path, files: Sequence[Path], rules: Sequence[tuple[str, re.Pattern[str]]]
) -> GateOutcome:
    found: list[TellTale] = []
    for rel in files:
        path = root / rel
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                continue  # a bundle that large is a build output, not an edit
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found.extend(scan_text(rel.as_posix(), text, rules))
    findings = tuple(
        Finding(
            element=f"{t.path}:{t.line}",
            property=t.rule,
            value=t.text,
            expected="no code that detects the sensor",
            message=f"{t.path}:{t.line}: {t.rule}; a page must render the same for the sensor "
            "as for a person",
        )
        for t in found[:MAX_FINDINGS]
    )
    if not found:
        return GateOutcome(NAME, GateStatus.PASS, f"no tell-tale in {len(files)} source file(s)")
    where = ", ".join(f"{t.path}:{t.line} ({t.rule})" for t in found[:5])
    more = f" and {len(found) - 5} more" if len(found) > 5 else ""
    summary = f"{len(found)} line(s) that can detect the sensor: {where}{more}"
    return GateOutcome(NAME, GateStatus.FAIL, summary, findings, {"count": len(found)})


def tell_tales_gate(inputs: GateInputs) -> GateOutcome:
    config = inputs.config
    default = Viewport(config.viewport.width, config.viewport.height)
    viewports = [default, *(inputs.spec.viewport_for(t.id, default) for t in inputs.spec.targets)]
    rules = tell_tale_rules(sensor_parameters(config.url_template), viewports)
    files = list(source_files(inputs.root, config.gates.tell_tales.ignore))
    return check_tell_tales(inputs.root.resolve(), files, rules)


# Registered by a call, not a decorator, so that mutation testing reaches the gate's body.
register_gate(NAME, settings=TellTalesConfig)(tell_tales_gate)
