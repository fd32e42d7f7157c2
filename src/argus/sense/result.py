"""What sensing one view produced: the files written, or why it could not be sensed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from argus.spec.model import View

RENDER = "render.png"
PROBE = "probe.json"
CONSOLE = "console.json"
AXE = "axe.json"
META = "meta.json"
FOCUS = "focus.json"  # the focus walk (argus.sense.focus_visible)
CONTROLS = "controls.json"  # the dead-control probe (argus.sense._controls)
# Every file a sense writes besides meta.json: meta.json binds them all to the sense that wrote
# them (argus.evidence.attempt), so a file a sense writes must be named here.
EVIDENCE = (RENDER, PROBE, CONSOLE, AXE, FOCUS, CONTROLS)


@dataclass(frozen=True)
class SenseResult:
    """One view's sensing. A failure is data: ``error`` holds its one-line reason.

    The loop records a failed sense as a failed build gate; the CLI turns it into exit 2.
    """

    view: View
    out_dir: Path
    error: str | None = None
    settled: bool | None = None  # None: the adapter cannot tell
    attempts: int = 0
    timings_ms: Mapping[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def render(self) -> Path:
        return self.out_dir / RENDER

    @property
    def probe(self) -> Path:
        return self.out_dir / PROBE

    @property
    def console(self) -> Path:
        return self.out_dir / CONSOLE

    @property
    def axe(self) -> Path:
        return self.out_dir / AXE

    @property
    def meta(self) -> Path:
        return self.out_dir / META
