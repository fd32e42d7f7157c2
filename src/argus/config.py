"""The project config: ``argus.toml`` at the repo root, or ``[tool.argus]`` in pyproject.toml.

Validated with pydantic at this boundary (unknown keys are errors, so a typo names the file
and the key). Without either file every default applies. Other parts read their own
section: ``config.gates``, ``config.judge``, ``config.implementer``.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from argus.console_policy import ConsolePolicy
from argus.entrypoints import PLUGIN_NAME
from argus.errors import ConfigError, InputError
from argus.frameworks import get_framework
from argus.io import read_bytes

DEFAULT_URL_TEMPLATE = "{route}?argus_fixture={fixture}&argus_appearance={appearance}"
ALL_GATES = (
    "token_contrast",
    "a11y_ids",
    "axe",
    "console",
    "rendered_contrast",
    "token_compliance",
    "source_tokens",
    "snapshot",
    "focus_visible",
    "build",
    "lint",
    "type_check",
    "flows",
    "tell_tales",
)
# Gates that run only when named in ``enabled`` (or a target's gates): slow or networked.
OPT_IN_GATES = ("lighthouse",)
# Playwright's --update-snapshots modes, and Argus's "compare" (compare if present, never write).
SnapshotUpdate = Literal["none", "missing", "changed", "all", "compare"]
DEFAULT_BEST_PRACTICE_RULES = (
    "empty-heading",
    "empty-table-header",
    "aria-dialog-name",
    "aria-treeitem-name",
    "aria-text",
    "presentation-role-conflict",
    "label-title-only",
    "tabindex",
)
COLOR_PROPERTIES = (
    "color",
    "background-color",
    "border-top-color",
    "border-right-color",
    "border-bottom-color",
    "border-left-color",
)


class _Section(BaseModel):
    # defer_build: a model's validator is built when it first validates, not at import; most
    # commands importing this module never load a config, and one that does builds only the
    # sections it meets (measured in docs/bench.md, "Start-up").
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ViewportConfig(_Section):
    width: int = Field(default=1280, ge=1, le=10000)
    height: int = Field(default=800, ge=1, le=10000)


class WebServerConfig(_Section):
    command: str = Field(min_length=1)
    url: str = ""  # defaults to base_url
    timeout: float = Field(default=60.0, gt=0)
    reuse_existing: bool = True
    cwd: str = "."
    # A text the app's page holds, shown by a server Argus did not start (argus.sense._app_proof).
    marker: str = ""


class BrowserConfig(_Section):
    executable: str = ""
    args: list[str] = Field(default_factory=list)
    locale: str = "en-US"
    timezone: str = "UTC"
    timeout: float = Field(default=30.0, gt=0)  # seconds per view: navigation and each wait
    # A remote browser instead of a local launch: a Playwright browser server (ws://, wss://;
    # `playwright launch-server`, a Selenium Grid or browserless endpoint Playwright's
    # connect() accepts) or, with protocol "cdp", a Chrome DevTools endpoint (also http://).
    connect: str = ""
    connect_protocol: Literal["playwright", "cdp"] = "playwright"

    @field_validator("connect")
    @classmethod
    def _endpoint(cls, value: str) -> str:
        value = value.strip()
        if value and not re.match(r"(?i)^(wss?|https?)://[^\s/]+", value):
            raise ValueError("must be a ws://, wss://, http:// or https:// endpoint")
        return value

    @model_validator(mode="after")
    def _http_is_cdp(self) -> BrowserConfig:
        if self.connect.lower().startswith("http") and self.connect_protocol != "cdp":
            raise ValueError("an http(s):// endpoint is a CDP one: set connect_protocol = 'cdp'")
        return self


class SenseConfig(_Section):
    # Huge pages (docs/sense.md, "Huge pages"): past max_elements the probe keeps a sample.
    max_elements: int = Field(default=5000, ge=100, le=1_000_000)
    per_shape: int = Field(default=20, ge=1, le=100_000)
    aria_timeout: float = Field(default=10.0, gt=0, le=600)  # seconds
    # Dead controls (docs/sense.md): controls activated per view in a copy of it; 0 = off.
    max_controls: int = Field(default=8, ge=0, le=500)
    # Copies of the view the probe loads side by side (argus.sense._controls); 0 = auto.
    control_copies: int = Field(default=0, ge=0, le=8)


class AdapterConfig(_Section):
    timeout: float = Field(default=600.0, gt=0)  # seconds an adapter's sense.sh may run


class CommandGateConfig(_Section):
    command: str = Field(min_length=1)
    timeout: float = Field(default=300.0, gt=0)


class AxeConfig(_Section):
    # WCAG 2.0, 2.1 and 2.2 A and AA (axe-core 4.12 bundled: wcag22aa selects target-size).
    tags: list[str] = Field(
        default_factory=lambda: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
    )
    impact_floor: Literal["minor", "moderate", "serious", "critical"] = "serious"
    disable_rules: list[str] = Field(default_factory=list)
    # axe "best-practice" rules that are defects in any product UI: run besides the tags and
    # failed at any impact (docs/gates.md gives the reasoning for each and for what is left out).
    best_practice_rules: list[str] = Field(
        default_factory=lambda: list(DEFAULT_BEST_PRACTICE_RULES)
    )
    # Bounds for huge pages: seconds axe may run (then the gate is an error, never a pass),
    # and CSS selectors of what to check / leave out (axe's own context).
    timeout: float = Field(default=60.0, gt=0, le=3600)
    include: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)


class ConsoleConfig(_Section):
    # Regular expressions searched in each console message's text and location; a match is not
    # counted (see argus.console_policy). Uncaught page errors always count.
    ignore: list[str] = Field(default_factory=list)

    @field_validator("ignore")
    @classmethod
    def _patterns(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            if not pattern:
                raise ValueError("an empty pattern would ignore every message")
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{pattern!r} is not a regular expression ({exc})") from exc
        return patterns

    def policy(self) -> ConsolePolicy:
        return ConsolePolicy.from_patterns(self.ignore)


class RenderedContrastConfig(_Section):
    # WCAG 1.4.3 (AA: 4.5:1, large text 3:1) or 1.4.6 (AAA: 7:1, large text 4.5:1).
    level: Literal["AA", "AAA"] = "AA"


class TokenComplianceConfig(_Section):
    # Longhands or the groups border-color, margin, padding, gap (see docs/gates.md).
    properties: list[str] = Field(
        default_factory=lambda: [*COLOR_PROPERTIES, "font-size", "margin", "padding", "gap"]
    )
    allow: list[str] = Field(default_factory=lambda: ["transparent", "currentcolor"])
    delta_e: float = Field(default=1.0, ge=0)


class SourceTokensConfig(_Section):
    paths: list[str] = Field(default_factory=list)
    git_base: str = ""


class SnapshotConfig(_Section):
    # None: measured from the view's palette (argus.diff.sensor_tolerance), since a baseline
    # is a render by the same sensor.
    threshold: float | None = Field(default=None, ge=0, le=1)
    max_diff_pixels: int = Field(default=0, ge=0)
    max_diff_pixel_ratio: float = Field(default=0.0, ge=0, le=1)
    max_window_density: float = Field(default=0.0, ge=0, le=1)
    window: int = Field(default=16, ge=1)
    update: SnapshotUpdate = "missing"
    # Baseline name suffix for renders that differ per platform: "" none, "auto" sys.platform,
    # anything else used as given ({target}-{state}-{appearance}-{platform}.png).
    platform: str = Field(default="", pattern=r"^([A-Za-z0-9][A-Za-z0-9_.\-]*)?$")

    @property
    def platform_suffix(self) -> str | None:
        """The suffix baselines carry, or None for plain names."""
        if not self.platform:
            return None
        return sys.platform if self.platform == "auto" else self.platform


class LighthouseConfig(_Section):
    """The opt-in ``lighthouse`` gate (add "lighthouse" to ``enabled``): minimums 0..100."""

    accessibility: float = Field(default=90.0, ge=0, le=100)
    performance: float = Field(default=80.0, ge=0, le=100)
    best_practices: float = Field(default=80.0, ge=0, le=100)
    seo: float = Field(default=80.0, ge=0, le=100)
    timeout: float = Field(default=240.0, gt=0)

    def minimums(self) -> dict[str, float]:
        return {
            "accessibility": self.accessibility,
            "performance": self.performance,
            "best-practices": self.best_practices,
            "seo": self.seo,
        }


class TellTalesConfig(_Section):
    """The ``tell_tales`` gate: repo-relative globs of files it does not scan (a file that
    really needs one of the words it looks for). Pinned: adding one weakens the config."""

    ignore: list[str] = Field(default_factory=list)


def _plugin_tables(section: type[BaseModel], data: Any) -> Any:
    """Move the tables of a section that are not its own keys (a plug-in's ``[gates.NAME]`` or
    ``[judge.NAME]``) into ``plugins``, where the plug-in's settings model checks them when
    the plug-ins are loaded. Anything else unknown stays put and is refused as a typo."""
    if not isinstance(data, dict):
        return data
    own = set(section.model_fields)
    tables = {
        key: value
        for key, value in data.items()
        if key not in own and isinstance(value, dict) and PLUGIN_NAME.match(key)
    }
    if not tables:
        return data
    rest = {key: value for key, value in data.items() if key not in tables}
    return {**rest, "plugins": {**data.get("plugins", {}), **tables}}


class GatesConfig(_Section):
    enabled: list[str] = Field(default_factory=lambda: list(ALL_GATES))
    max_console_errors: int = Field(default=0, ge=0)
    console: ConsoleConfig = Field(default_factory=ConsoleConfig)
    rendered_contrast: RenderedContrastConfig = Field(default_factory=RenderedContrastConfig)
    commands: dict[str, CommandGateConfig] = Field(default_factory=dict)
    axe: AxeConfig = Field(default_factory=AxeConfig)
    token_compliance: TokenComplianceConfig = Field(default_factory=TokenComplianceConfig)
    source_tokens: SourceTokensConfig = Field(default_factory=SourceTokensConfig)
    snapshot: SnapshotConfig = Field(default_factory=SnapshotConfig)
    lighthouse: LighthouseConfig = Field(default_factory=LighthouseConfig)
    tell_tales: TellTalesConfig = Field(default_factory=TellTalesConfig)
    # [gates.NAME] tables of plug-in gates, validated by each gate's settings model
    # (argus.gates._registry.check_plugin_settings).
    plugins: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather_plugin_tables(cls, data: Any) -> Any:
        return _plugin_tables(cls, data)

    def for_target(self, target_gates: Sequence[str] | None) -> tuple[str, ...]:
        """The gates one target runs: its own list when the spec gives one, else ``enabled``.

        The one rule for the runner and the sensor (which runs axe only for a view that needs it).
        """
        return tuple(target_gates if target_gates is not None else self.enabled)


class JudgeConfig(_Section):
    backend: str = "metric"
    model: str = ""
    command: str = ""
    timeout: float = Field(default=120.0, gt=0)
    max_image_pixels: int = Field(default=1_568_000, ge=1)
    cache: bool = True
    # [judge.NAME] tables of plug-in backends, validated by each backend's settings model.
    plugins: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather_plugin_tables(cls, data: Any) -> Any:
        return _plugin_tables(cls, data)


class ReviewConfig(_Section):
    """The advisory acceptance-fidelity review of merged PRs (`argus review`)."""

    backend: Literal["litellm", "command"] = "litellm"
    model: str = ""
    command: str = ""
    timeout: float = Field(default=300.0, gt=0)
    max_diff_chars: int = Field(default=60_000, ge=1000)
    high_confidence: float = Field(default=0.8, ge=0, le=1)
    low_confidence: float = Field(default=0.5, ge=0, le=1)
    notify_command: str = ""
    # The form of the project's task ids in "Closes ID" (besides #N and owner/repo#N).
    task_id_pattern: str = r"[A-Z][A-Z0-9]+-[0-9]+"

    @field_validator("task_id_pattern")
    @classmethod
    def _a_pattern(cls, value: str) -> str:
        try:
            compiled = re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a regular expression ({exc})") from exc
        if compiled.fullmatch(""):
            raise ValueError("the pattern matches an empty id")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> ReviewConfig:
        if self.low_confidence > self.high_confidence:
            raise ValueError("low_confidence must not be above high_confidence")
        return self


class ImplementerConfig(_Section):
    command: str = ""
    timeout: float = Field(default=900.0, gt=0)
    model: str = ""


class ProjectConfig(_Section):
    base_url: str = ""
    # The Python UI framework the app is built with (argus.frameworks): its settle rule and
    # mask preset apply to every view. Empty: none.
    framework: str = ""
    url_template: str = DEFAULT_URL_TEMPLATE
    viewport: ViewportConfig = Field(default_factory=ViewportConfig)
    workers: int | None = Field(default=None, ge=1, le=64)
    web_server: WebServerConfig | None = None
    browser: BrowserConfig = Field(default_factory=BrowserConfig)
    sense: SenseConfig = Field(default_factory=SenseConfig)
    adapter: AdapterConfig = Field(default_factory=AdapterConfig)
    gates: GatesConfig = Field(default_factory=GatesConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    implementer: ImplementerConfig = Field(default_factory=ImplementerConfig)
    review: ReviewConfig = Field(default_factory=ReviewConfig)
    # Where the config came from (None: defaults) and the directory its paths are relative to.
    source: Path | None = Field(default=None, exclude=True)
    root: Path = Field(default_factory=Path.cwd, exclude=True)

    @field_validator("framework")
    @classmethod
    def _known_framework(cls, value: str) -> str:
        if value:
            try:
                return get_framework(value).name
            except InputError as exc:
                raise ValueError(str(exc)) from exc
        return value

    @property
    def pool_size(self) -> int:
        """The sense pool size: ``workers``, else one view fewer than the CPUs (at least one).
        A view keeps about 1.3 to 1.5 cores busy (Chromium's browser, renderer and GPU
        processes, Playwright's driver, Argus), so one view per core only makes them compete:
        on 2 cores two views at once sensed no more views a minute than one (docs/bench.md,
        session 41: 36.6 against 37.7; 11 % fewer on session 40's machine)."""
        return self.workers or max(1, (os.cpu_count() or 1) - 1)

    def with_snapshot_update(self, mode: SnapshotUpdate) -> ProjectConfig:
        """This config with ``[gates.snapshot] update`` replaced (one run's override)."""
        snapshot = self.gates.snapshot.model_copy(update={"update": mode})
        gates = self.gates.model_copy(update={"snapshot": snapshot})
        return self.model_copy(update={"gates": gates})


def running_in_ci() -> bool:
    """Whether the ``CI`` environment variable says this is a CI run (as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def read_toml(path: Path, what: str = "config file") -> dict[str, Any]:
    """A TOML file Argus reads (the config, a task file); ConfigError in one line."""
    try:
        raw = read_bytes(path, what=what)
    except InputError as exc:
        raise ConfigError(str(exc)) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text; save it as UTF-8") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the syntax") from exc
    except (ValueError, RecursionError) as exc:  # an integer over Python's digit limit...
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise ConfigError(f"{path}: not valid TOML ({reason}); fix the value") from exc


def config_error(path: Path, prefix: str, exc: ValidationError) -> ConfigError:
    """A validation error as one line: the file, the dotted key under ``prefix``, what is wrong."""
    err = exc.errors()[0]
    key = prefix + ".".join(str(part) for part in err["loc"])
    if err["type"] == "extra_forbidden":
        what = "unknown key; check the spelling against docs/sense.md"
    elif err["type"] == "missing":
        what = "required key is missing"
    else:
        got = repr(err.get("input"))
        what = f"{err['msg']} (got {got if len(got) <= 80 else got[:79] + '…'})"
    more = len(exc.errors()) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return ConfigError(f"{path}: {key}: {what}{tail}")


def parse_config(
    data: dict[str, Any], *, source: Path, root: Path, prefix: str = ""
) -> ProjectConfig:
    """Validate one config mapping; ConfigError names the file and the dotted key."""
    try:
        config = ProjectConfig.model_validate({**data, "source": source, "root": root})
    except ValidationError as exc:
        raise config_error(source, prefix, exc) from exc
    _one_server(config, source, prefix)
    return config


_LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


def _origin(url: str) -> tuple[str, str, int | None] | None:
    """``(scheme, host, port)`` of an http(s) URL, loopback names made one; None: unreadable."""
    parts = urllib.parse.urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    host = "loopback" if parts.hostname.lower() in _LOOPBACK else parts.hostname.lower()
    return scheme, host, port or (443 if scheme == "https" else 80)


def _one_server(config: ProjectConfig, source: Path, prefix: str) -> None:
    """ConfigError when ``base_url`` and ``[web_server] url`` name different servers: Argus
    would start and wait on one and sense the other."""
    server = config.web_server
    if server is None or not server.url or not config.base_url:
        return
    ours, theirs = _origin(config.base_url), _origin(server.url)
    if ours is not None and theirs is not None and ours != theirs:
        raise ConfigError(
            f"{source}: {prefix}base_url {config.base_url!r} and {prefix}web_server.url "
            f"{server.url!r} name different servers (Argus waits on the second and senses the "
            "first); make them the same scheme, host and port"
        )


def load_config(root: Path) -> ProjectConfig:
    """The config of the repo at ``root``: argus.toml, else [tool.argus], else defaults."""
    root = root.resolve()
    toml_path = root / "argus.toml"
    if toml_path.is_file():
        return parse_config(read_toml(toml_path), source=toml_path, root=root)
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        tool = read_toml(pyproject).get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{pyproject}: 'tool' must be a table")
        section = tool.get("argus")
        if section is not None:
            if not isinstance(section, dict):
                raise ConfigError(f"{pyproject}: [tool.argus] must be a table")
            return parse_config(section, source=pyproject, root=root, prefix="tool.argus.")
    return ProjectConfig(root=root)
