"""A seeded-defect corpus run through the real gates and the metric judge, under three kinds of
reference: the approved ``candidate`` render, a ``design`` mock, or none (``absent``).

    corpus = Corpus(sensor, workdir)                # one browser, one static server
    run = corpus.run("wrong_sort", mode="design")   # sensed once per variant, then cached
    run.red_gates, run.verdict.failed_dimensions    # each run on first read, then cached

Each variant is a copy of examples/dashboard with a defect (or a refactor) applied, served by
one in-process static server and sensed with the caller's sensor, only in the views it needs.
The gates are the example's own list (``argus.toml``); the snapshot gate runs only with an
approved render (candidate mode: the clean app's render is the baseline). The judge runs on
its own: its gate result comes from a page-blind gate over the same render, so what the judge
finds is the judge's, not the gates'. The gates and the judge of a variant's view under a mode
each run when a test first reads them, once per corpus (the same files give the same answer):
a test that reads only a dimension runs no gate, one that reads only the gates runs no judge.

Every view is sensed as the loop senses (``sensor``, the dead-control probe included), except,
when the caller passes an ``unprobed`` sensor, a defect whose rubric dimension is not
functional_correctness: only that dimension reads controls.json (argus.judge.metric.controls),
no gate does, and a caller that passes one reads of such a defect only its gates and its own
dimension.

The design mock of a view is the clean app rendered as a mock-up tool would draw it, never
pixel-equal to a render: another font (DejaVu Sans for Inter, both installed with the
browser), another scale (the whole page redrawn 2% larger, then cropped back) and a
hand-made change within a designer's tolerance (the title 3 px lower).
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from PIL import Image

from argus.config import ProjectConfig, load_config
from argus.gates import run_gates
from argus.gates.inputs import gate_inputs
from argus.judge.assemble import packet_for_view
from argus.judge.base import run_judge
from argus.judge.metric import MetricJudge
from argus.schemas import load_rubric
from argus.sense import Sensor
from argus.spec import Spec, View, load_spec
from argus.spec.model import Reference
from argus.verdict import NormalizedVerdict
from tests.support.dashboard import (
    CANONICAL_VIEW,
    DASHBOARD_SPEC,
    copy_dashboard,
    load_dashboard_defects,
    load_dashboard_refactors,
)
from tests.support.fixtures import QuietServer
from tests.support.habits import Defect, apply_defect, apply_refactor

Mode = Literal["candidate", "design", "absent"]
MODES: tuple[Mode, ...] = ("candidate", "design", "absent")
PAGE_BLIND_GATES = ("token_contrast",)
# The mock's drawing differences: (file, find, replace), applied to a copy of the clean app.
MOCK_EDITS = (
    ("tokens.css", 'Inter, "DejaVu Sans", sans-serif;', '"DejaVu Sans", sans-serif;'),
    ("app.css", ".dash-title {\n", ".dash-title {\n  position: relative;\n  top: 3px;\n"),
)
MOCK_SCALE = 2.0  # exported at 2x, as design tools do
TYPED_KEYS = ("numeric_columns", "formats", "sort", "shown", "focus_trap")


@dataclass(frozen=True)
class Run:
    """One variant's view through the gates and the metric judge under one mode; each of the
    two is run on first read (Corpus.red_gates, Corpus.verdict)."""

    variant: str
    view: str
    mode: Mode
    corpus: Corpus = field(repr=False, compare=False)

    @property
    def red_gates(self) -> frozenset[str]:
        return self.corpus.red_gates(self.variant, self.view, self.mode)

    @property
    def verdict(self) -> NormalizedVerdict:
        return self.corpus.verdict(self.variant, self.view, self.mode)

    def dimension(self, name: str) -> str:
        """pass, fail or unverified."""
        return self.verdict.dimension(name).status

    @property
    def signed_off(self) -> bool:
        return not self.red_gates and self.verdict.outcome == "pass"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def view_of(slug: str, spec: Spec) -> View:
    for view in spec.views():
        if view.slug == slug:
            return view
    raise KeyError(f"no view {slug} in {spec.path}")


class Corpus:
    """The dashboard's variants, sensed on demand with one sensor and one server."""

    def __init__(
        self,
        sensor: Sensor,
        workdir: Path,
        base_url: str,
        *,
        typed: bool = True,
        unprobed: Sensor | None = None,
    ) -> None:
        self.sensor = sensor
        self.unprobed = unprobed  # see the module docstring: which defects it senses
        self.typed = typed  # False: the spec's typed checks removed (what they add, measured)
        self.workdir = workdir
        self.base_url = base_url
        self.defects = {d.name: d for d in load_dashboard_defects()}
        self.refactors = {r.name: r for r in load_dashboard_refactors()}
        self._roots: dict[str, Path] = {}
        self._sensed: dict[tuple[str, str], Path] = {}
        self._gates: dict[tuple[str, str, Mode], frozenset[str]] = {}
        self._verdicts: dict[tuple[str, str, Mode], NormalizedVerdict] = {}

    @property
    def variants(self) -> list[str]:
        return ["clean", *self.refactors, *self.defects]

    def view_for(self, variant: str) -> str:
        found = self.defects.get(variant)
        return (found.view if found else None) or CANONICAL_VIEW

    def root(self, variant: str) -> Path:
        if variant not in self._roots:
            slot = self.workdir / "variants" / variant
            root = copy_dashboard(slot)
            if variant in self.defects:
                apply_defect(root, self.defects[variant])
            elif variant in self.refactors:
                apply_refactor(root, self.refactors[variant])
            elif variant == "mock":
                for file, find, change in MOCK_EDITS:
                    apply_defect(root, Defect("mock", file, find, change, None, (), "", ""))
            elif variant != "clean":
                raise KeyError(f"no variant {variant!r} in examples/dashboard")
            if not self.typed:
                without_typed_checks(root / DASHBOARD_SPEC)
            self._roots[variant] = root
        return self._roots[variant]

    def spec(self, variant: str) -> Spec:
        return load_spec(self.root(variant) / DASHBOARD_SPEC)

    def sensor_for(self, variant: str) -> Sensor:
        """``unprobed`` for a defect no reader asks controls.json of (the module docstring)."""
        defect = self.defects.get(variant)
        if self.unprobed is not None and defect and defect.dimension != "functional_correctness":
            return self.unprobed
        return self.sensor

    def sensed(self, variant: str, slug: str) -> Path:
        key = (variant, slug)
        if key not in self._sensed:
            root = self.root(variant)
            spec = self.spec(variant)
            out = self.workdir / "sensed" / variant / slug
            relative = root.relative_to(self.workdir).as_posix()
            # The mock is read for its render.png alone (design_mock): captured only, with no
            # probe, fonts, axe, focus walk or dead-control probe, none of which touch the render.
            result = self.sensor_for(variant).sense(
                spec,
                view_of(slug, spec),
                out,
                base_url=f"{self.base_url}/{relative}",
                capture_only=variant == "mock",
            )
            if not result.ok:
                raise AssertionError(f"{variant} {slug}: {result.error}")
            self._sensed[key] = out
        return self._sensed[key]

    def design_mock(self, slug: str) -> Path:
        """The clean view as a mock-up: another font, 2% larger, the title nudged."""
        out = self.workdir / "mocks" / f"{slug}.png"
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            with Image.open(self.sensed("mock", slug) / "render.png") as image:
                width, height = image.size
                bigger = image.convert("RGB").resize(
                    (round(width * MOCK_SCALE), round(height * MOCK_SCALE)),
                    Image.Resampling.LANCZOS,
                )
                bigger.save(out)
        return out

    def reference(self, slug: str, mode: Mode) -> tuple[Path, str] | None:
        if mode == "candidate":
            return self.sensed("clean", slug) / "render.png", "candidate"
        if mode == "design":
            return self.design_mock(slug), "human"
        return None

    def run(self, variant: str, mode: Mode, slug: str | None = None) -> Run:
        return Run(variant, slug or self.view_for(variant), mode, self)

    def red_gates(self, variant: str, slug: str, mode: Mode) -> frozenset[str]:
        """The example's gates on the view, once per corpus: the snapshot gate against the
        clean app's render in candidate mode, left out otherwise (no approved render)."""
        key = (variant, slug, mode)
        if key not in self._gates:
            sensed = self.sensed(variant, slug)
            spec = self.spec(variant)
            view = view_of(slug, spec)
            config = load_config(spec.root)
            names = config.gates.for_target(spec.target(view.target).gates)
            baseline = spec.spec_dir / "__snapshots__" / f"{slug}.png"
            if mode == "candidate":
                baseline.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(self.sensed("clean", slug) / "render.png", baseline)
            else:  # nobody approved a render: there is no baseline to hold the view to
                baseline.unlink(missing_ok=True)
                names = tuple(n for n in names if n != "snapshot")
            inputs = gate_inputs(spec, view, sensed, config=config, run_dir=sensed)
            self._gates[key] = frozenset(run_gates(inputs, names, record=False).red_gates)
        return self._gates[key]

    def verdict(self, variant: str, slug: str, mode: Mode) -> NormalizedVerdict:
        """The metric judge's verdict on the view under ``mode``, once per corpus."""
        key = (variant, slug, mode)
        if key not in self._verdicts:
            sensed = self.sensed(variant, slug)
            spec = self.spec(variant)
            self._verdicts[key] = self._judge(spec, view_of(slug, spec), sensed, mode)
        return self._verdicts[key]

    def _judge(self, spec: Spec, view: View, sensed: Path, mode: Mode) -> NormalizedVerdict:
        chosen = self.reference(view.slug, mode)
        references: tuple[Reference, ...] = ()
        if chosen is not None:
            path, source = chosen
            references = (Reference(view.state, view.appearance, "present", source, path),)  # type: ignore[arg-type]
        targets = tuple(
            replace(t, references=references) if t.id == view.target else t for t in spec.targets
        )
        judged = replace(spec, targets=targets)
        where = self.workdir / "judged" / mode / sensed.parent.name / view.slug
        where.mkdir(parents=True, exist_ok=True)
        gate_result = where / "gate-result.json"
        blind = run_gates(
            gate_inputs(judged, view, sensed, config=ProjectConfig(root=spec.root)),
            PAGE_BLIND_GATES,
            record=False,
        )
        gate_result.write_text(json.dumps(dict(blind.result)), encoding="utf-8")
        packet = packet_for_view(
            judged, view, sensed=sensed, gate_result=gate_result, run_dir=where / "run", iteration=1
        )
        return run_judge(MetricJudge(ProjectConfig(root=spec.root)), packet, load_rubric(None))


def without_typed_checks(spec_path: Path) -> None:
    """Rewrite a spec without its typed checks (argus.spec.typed)."""
    data = json.loads(spec_path.read_text(encoding="utf-8"))
    for target in data["targets"]:
        for expectation in target.get("expectations", {}).values():
            for key in TYPED_KEYS:
                expectation.pop(key, None)
    spec_path.write_text(json.dumps(data, indent=2), encoding="utf-8")


@contextmanager
def dashboard_corpus(
    sensor: Sensor, workdir: Path, *, typed: bool = True, unprobed: Sensor | None = None
) -> Iterator[Corpus]:
    """A corpus whose copies are served from ``workdir`` by one in-process static server."""
    workdir.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_Quiet, directory=str(workdir))
    server = QuietServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base_url = f"http://127.0.0.1:{server.server_address[1]}"
        yield Corpus(sensor, workdir, base_url, typed=typed, unprobed=unprobed)
    finally:
        server.shutdown()
        server.server_close()
