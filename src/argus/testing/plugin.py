"""Argus's pytest plugin (entry point ``pytest11``: installed with the package, no set-up).

    def test_checkout(page, argus_snapshot):          # page: pytest-playwright's, or yours
        page.goto("http://127.0.0.1:8000/checkout")
        argus_snapshot(page, "checkout-empty")         # stable capture + snapshot comparison
        argus_snapshot(page, feature="habits", target="list", state="populated")  # + gates

Options: ``--update-snapshots[=missing|changed|all|none]`` (a bare flag is ``changed``, as in
Playwright), ``--argus-report PATH`` (``.json`` or ``.html``), ``--argus-output DIR`` (renders,
diffs, sensed files; default ``.argus/pytest`` under the rootdir) and ``--argus-reporter``
(``junit=PATH``, ``github``, ``json=PATH``; repeatable), ``--argus-shard I/N`` with
``--argus-durations FILE`` (this machine's share of the tests, argus.testing._sharding).
Baselines live beside the test file in ``__snapshots__/{test file stem}/{name}-{browser}-
{platform}.png``.

Under pytest-xdist every worker captures and compares on its own (baselines are written
atomically, each test has its own output directory); results travel to the controller in the
test reports' ``user_properties``, and only the controller writes the reports.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Locator, Page

from argus.ci import CaseResult, emit_reports, parse_reporters
from argus.ci.cases import CaseStatus, line_of
from argus.config import ProjectConfig, load_config, running_in_ci
from argus.errors import ArgusError
from argus.gates.comparison import Overrides, comparison_for
from argus.gates.inputs import spec_path
from argus.shard.outcomes import collection
from argus.spec import View, load_spec
from argus.spec.paths import find_repo_root
from argus.testing._assertion import (
    Settings,
    SpecView,
    UpdateMode,
    ViewAssertionError,
    ViewResult,
    Where,
    check_view,
)
from argus.testing._sharding import ShardSelector, shard_option
from argus.testing._tally import WORKER_KEY, Tally
from argus.testing.report import write_report

MODES = ("missing", "changed", "all", "none")
PROPERTY = "argus"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("argus", "Argus view assertions")
    group.addoption(
        "--update-snapshots",
        dest="argus_update",
        nargs="?",
        const="changed",
        default=None,
        choices=MODES,
        help="write baselines: missing, changed (the bare flag), all or none. Default: "
        "missing locally (and the test fails), none when CI is set",
    )
    group.addoption(
        "--argus-report", dest="argus_report", default=None, help="write a report (.json/.html)"
    )
    group.addoption(
        "--argus-output",
        dest="argus_output",
        default=None,
        help="directory for renders, diffs and sensed files (default .argus/pytest)",
    )
    group.addoption(
        "--argus-reporter",
        dest="argus_reporters",
        action="append",
        default=[],
        help="CI output: junit=PATH, github or json=PATH (repeatable)",
    )
    group.addoption(
        "--argus-shard",
        dest="argus_shard",
        default=None,
        metavar="I/N",
        help="run only shard I of N of the collected tests (split as argus --shard splits views)",
    )
    group.addoption(
        "--argus-durations",
        dest="argus_durations",
        default=None,
        metavar="FILE",
        help="with --argus-shard: balance by these test times, then record this run's into it",
    )


def pytest_configure(config: pytest.Config) -> None:
    try:
        parse_reporters(config.getoption("argus_reporters") or [])
    except ArgusError as err:
        raise pytest.UsageError(str(err)) from err
    config.pluginmanager.register(Collector(config), "argus-collector")
    shard, durations_file, durations = shard_option(config)
    if shard is not None:
        selector = ShardSelector(config, shard, durations_file, durations)
        config.pluginmanager.register(selector, "argus-shard")


def update_mode(config: pytest.Config) -> tuple[UpdateMode, bool]:
    """The update mode and whether the user asked for it (else it is the default)."""
    given = config.getoption("argus_update")
    if given is not None:
        return cast(UpdateMode, given), given != "none"
    return ("none" if running_in_ci() else "missing"), False


def safe_name(text: str) -> str:
    return _UNSAFE.sub("-", text).strip("-.") or "view"


def platform_suffix() -> str:
    return sys.platform  # linux, darwin, win32: Playwright's names


@dataclass(repr=False)
class ViewAssert:
    """The ``argus_snapshot`` fixture: call it with a page (see the module docstring)."""

    node: pytest.Item
    output: Path
    results: list[ViewResult] = field(default_factory=list)
    _names: set[str] = field(default_factory=set)

    def __call__(
        self,
        page: Page,
        name: str | None = None,
        *,
        feature: str | None = None,
        target: str | None = None,
        state: str | None = None,
        appearance: str | None = None,
        full_page: bool | None = None,
        mask: Sequence[Locator] = (),
        threshold: float | None = None,
        max_diff_pixels: int | None = None,
        max_diff_pixel_ratio: float | None = None,
        max_window_density: float | None = None,
    ) -> ViewResult:
        __tracebackhide__ = True
        if not isinstance(page, Page):
            raise TypeError(
                f"argus_snapshot takes a Playwright sync-API Page, not {type(page).__name__} "
                "(pytest-playwright's page fixture, or browser.new_page() of sync_playwright)"
            )
        target_view = self._spec_view(feature, target, state, appearance)
        name = self._name(name, target_view)
        config = target_view.config if target_view is not None else self._config()
        mode, asked = update_mode(self.node.config)
        if full_page is None and target_view is not None:
            full_page = target_view.spec.target(target_view.view.target).full_page
        overrides = Overrides(threshold, max_diff_pixels, max_diff_pixel_ratio, max_window_density)
        try:  # the options argus gates and the review page compare this view with
            comparison = comparison_for(
                config,
                target_view.spec if target_view is not None else None,
                target_view.view if target_view is not None else None,
                overrides=overrides,
            )
        except ArgusError as err:
            raise ViewAssertionError(f"argus: {err}") from err
        settings = Settings(
            mode=mode,
            asked_to_update=asked,
            comparison=comparison,
            full_page=bool(full_page),
            mask=tuple(mask),
            framework=config.framework if config is not None else "",
            settle_timeout=config.browser.timeout if config is not None else 30.0,
        )
        test_file = self.node.path
        browser = page.context.browser
        browser_name = browser.browser_type.name if browser is not None else "chromium"
        where = Where(
            baseline=test_file.parent
            / "__snapshots__"
            / test_file.stem
            / f"{name}-{browser_name}-{platform_suffix()}.png",
            out_dir=self.output / safe_name(self.node.nodeid),
        )
        try:
            result = check_view(page, name, where, settings, target_view)
        except ArgusError as err:
            raise ViewAssertionError(f"argus: {err}") from err
        self.results.append(result)
        self.node.user_properties.append((PROPERTY, json.dumps(result.to_json())))
        if not result.ok:
            raise ViewAssertionError(result.message)
        return result

    def __repr__(self) -> str:
        return f"<argus_snapshot of {self.node.nodeid}>"

    def _name(self, name: str | None, target_view: SpecView | None) -> str:
        if name is None:
            base = target_view.view.slug if target_view is not None else safe_name(self.node.name)
            name, number = base, 1
            while name in self._names:  # further calls in the test: base-2, base-3 ...
                number += 1
                name = f"{base}-{number}"
        elif not _NAME.match(name) or ".." in name:
            raise ValueError(f"view name {name!r}: use letters, digits, _ . - only")
        if name in self._names:
            raise ValueError(f"view name {name!r} is used twice in {self.node.nodeid}")
        self._names.add(name)
        return name

    def _config(self) -> ProjectConfig | None:
        try:
            return load_config(find_repo_root(self.node.path.parent))
        except ArgusError:
            return None

    def _spec_view(
        self,
        feature: str | None,
        target: str | None,
        state: str | None,
        appearance: str | None,
    ) -> SpecView | None:
        if feature is None and target is None:
            if state is not None or appearance is not None:
                raise ValueError("state and appearance need feature= and target=")
            return None
        if feature is None or target is None:
            raise ValueError("name both feature= and target= to run the spec's gates")
        try:
            config = load_config(find_repo_root(self.node.path.parent))
            spec = load_spec(spec_path(config.root, feature))
            canonical = spec.canonical_view(target)
        except ArgusError as err:
            raise ViewAssertionError(f"argus: {err}") from err
        view = View(
            spec.feature,
            target,
            state if state is not None else canonical.state,
            appearance if appearance is not None else canonical.appearance,
        )
        return SpecView(spec, view, config)


def _output_dir(config: pytest.Config) -> Path:
    given = config.getoption("argus_output")
    return Path(given).resolve() if given else Path(config.rootpath) / ".argus" / "pytest"


@pytest.fixture
def argus_snapshot(request: pytest.FixtureRequest) -> ViewAssert:
    """Assert views of a Playwright page: ``argus_snapshot(page, "name", ...)``."""
    node = request.node
    assert isinstance(node, pytest.Item)
    return ViewAssert(node, _output_dir(request.config))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if report.when != "call" or item.config.pluginmanager.getplugin("html") is None:
        return
    extras = list(getattr(report, "extras", []))
    for key, value in report.user_properties:
        if key != PROPERTY:
            continue
        record = json.loads(str(value))
        if record["ok"] and record["status"] == "passed":
            continue
        for label in ("render", "baseline", "diff"):
            path = record.get(label)
            if path and Path(path).is_file():
                extras.append(_html_image(Path(path), f"{record['name']} {label}"))
    report.extras = extras  # type: ignore[attr-defined]


def _html_image(path: Path, name: str) -> dict[str, str | None]:
    """A pytest-html image extra (its ``extras.image`` shape), embedded as base64."""
    content = base64.b64encode(path.read_bytes()).decode("ascii")
    return {
        "name": name,
        "format_type": "image",
        "content": content,
        "mime_type": "image/png",
        "extension": "png",
    }


class Collector:
    """Collects every test's assertions (on the xdist controller: every worker's, from the
    reports' user_properties) and every test's outcome, and writes the reports once, at the
    end of the session.

    What the run collected (before ``--argus-shard`` kept this machine's share) is known where
    the tests are collected: here, or on each xdist worker, which hands it to the controller
    in its ``workeroutput``; the controller learns the worker's tests from xdist."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: list[dict[str, Any]] = []
        self.tally = Tally()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        ids = [item.nodeid for item in session.items]
        self.tally.select(ids)
        selector = self.config.pluginmanager.get_plugin("argus-shard")
        split = selector.collection if isinstance(selector, ShardSelector) else None
        self.tally.collected = split if split is not None else collection(ids)
        output = getattr(self.config, "workeroutput", None)
        if isinstance(output, dict):
            output[WORKER_KEY] = self.tally.collected

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        self.tally.select(ids)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        given = getattr(node, "workeroutput", {}).get(WORKER_KEY)
        if isinstance(given, dict):  # every worker collects the same run
            self.tally.collected = given

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.tally.record(report)
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == PROPERTY:
                self.records.append(
                    {**json.loads(str(value)), "test": report.nodeid, "file": report.location[0]}
                )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if hasattr(self.config, "workerinput"):  # an xdist worker: the controller reports
            return
        root = Path(self.config.rootpath)
        report = self.config.getoption("argus_report")
        if report:
            selector = self.config.pluginmanager.get_plugin("argus-shard")
            shard = selector.shard if isinstance(selector, ShardSelector) else None
            tally = self.tally
            written = write_report(
                Path(report), self.records, shard, tally.collected, tally.outcomes
            )
            terminalreporter.write_line(f"argus: report written to {written}")
        reporters = parse_reporters(self.config.getoption("argus_reporters") or [])
        if reporters:
            cases = [_case(record, root) for record in self.records]
            emit_reports(
                reporters, cases, tool="argus pytest", root=root, out=terminalreporter.write_line
            )


def _case(record: dict[str, Any], root: Path) -> CaseResult:
    test_file = root / record["file"]
    function = record["test"].rsplit("::", 1)[-1].split("[")[0]
    line = line_of(test_file, f"def {function}(")
    details = record["message"]
    status: CaseStatus = "passed" if record["ok"] else "failed"
    return CaseResult(
        suite=record["file"],
        classname=record["test"],
        name=record["name"],
        status=status,
        message=record["message"].splitlines()[0] if record["message"] else status,
        details=details,
        file=test_file,
        line=line,
        time_s=record["duration_ms"] / 1000,
    )
