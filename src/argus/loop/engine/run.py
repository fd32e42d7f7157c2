"""One ``argus loop`` run: validate, bootstrap references, converge each view, finish.

Phase 0 validates the spec and config and resolves the adapter (a failure is BLOCKED).
Phase 2 expands the views and bootstraps a missing canonical reference (HE-1: a candidate and
NEEDS_CONTEXT for that target). Phases 3 and 4 converge and sign off each view in turn
(argus.loop.engine._viewloop); in interactive mode the run's first sign-off pauses for the human
spot-check (HE-2). The final status is the worst of the views'.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig, load_config
from argus.confine import Confinement, detect
from argus.errors import ArgusError, ConfigError, InputError, StateError
from argus.folderlock import check_writes
from argus.io import refuse_symlinks
from argus.judge.base import require_distinct_commands
from argus.loop._implementer import PLACEHOLDERS, expand_command
from argus.loop.engine._checkpoints import (
    bootstrap_reference,
    pending_first_spotcheck,
    spotcheck_note,
    with_spotcheck,
)
from argus.loop.engine._context import (
    INTEGRITY_UNRESTORED,
    WAITING,
    ImplementerSettings,
    LoopContext,
    ViewResult,
)
from argus.loop.engine._killpoint import killpoint
from argus.loop.engine._viewloop import converge_view
from argus.loop.engine.modes import Mode
from argus.loop.engine.progress import Progress, SilentProgress
from argus.loop.engine.services import LoopServices
from argus.loop.guard.config_guard import config_digest, config_files
from argus.loop.guard.config_pin import PinCheck, check_pin
from argus.loop.guard.integrity import ProtectedCopies, collect_protected
from argus.loop.guard.lock import FeatureLock
from argus.loop.guard.manifest import Guard
from argus.loop.guard.pin_rules import pinned_settings
from argus.loop.guard.resume import check_resume
from argus.loop.records.events import EventLog
from argus.loop.records.layout import VIEW_RUN_MARKER, RunLayout
from argus.loop.records.openruns import remember_run
from argus.loop.records.runrecord import FINISHED, PAUSED, RUNNING, RunRecord, load_run, save_run
from argus.loop.records.signoff import now_iso
from argus.loop.records.state import LoopSettings
from argus.loop.records.status import Status, worst
from argus.schemas import Rubric, load_rubric
from argus.spec import Spec, View, lint_spec, load_spec
from argus.spec.paths import SPECS_DIR, find_repo_root
from argus.store.runstore import RunStore, db_path

# Beyond the spec directory, files an implementer must not touch (repo-relative globs).
# argus/adapters/**: an adapter's sense.sh is the sensor of a non-web view.
PROTECTED_GLOBS = (
    "tests/**",
    "test/**",
    "**/fixtures/**",
    "**/__snapshots__/**",
    "argus/adapters/**",
)


ServicesFactory = Callable[
    [Spec, ProjectConfig, Rubric, RunLayout], AbstractContextManager[LoopServices]
]


@dataclass(frozen=True)
class LoopOptions:
    feature: str
    root: Path
    target: str | None = None
    mode: Mode = Mode.INTERACTIVE
    max_iterations: int | None = None
    implementer: str | None = None  # overrides [implementer] command
    new_run: bool = False  # abandon an unfinished run instead of resuming it
    only_views: frozenset[str] | None = None  # slugs of one --shard (report-only); None: all


@dataclass(frozen=True)
class RunOutcome:
    status: Status
    feature: str
    mode: Mode
    run_id: str | None = None
    views: tuple[ViewResult, ...] = ()
    notes: tuple[str, ...] = ()  # what a human should do or know
    runs_dir: Path | None = None
    resumed: bool = False
    paused: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def blocked(options: LoopOptions, reason: str) -> RunOutcome:
    return RunOutcome(Status.BLOCKED, options.feature, options.mode, notes=(reason,))


def run_loop(
    options: LoopOptions,
    *,
    services_factory: ServicesFactory | None = None,
    progress: Progress | None = None,
) -> RunOutcome:
    """Run (or resume) the loop for one feature. A wrong feature or target name raises
    InputError; an invalid spec, config or adapter is a BLOCKED outcome with the reason."""
    progress = progress or SilentProgress()
    root = find_repo_root(options.root)
    spec_path = root / SPECS_DIR / options.feature / "spec.json"
    if not spec_path.is_file():  # a wrong argument, not a blocked run
        raise InputError(f"{spec_path}: no such feature spec; check --feature or run argus init")
    # Phase 0: validate. Anything wrong here is BLOCKED, with the reason.
    try:
        report = lint_spec(spec_path, root)
        if not report.valid:
            first = report.errors[0]
            more = f" (+{len(report.errors) - 1} more; run argus lint)" if report.errors[1:] else ""
            return blocked(
                options, f"{spec_path}: invalid spec: {first.path}: {first.message}{more}"
            )
        spec = load_spec(spec_path)
        config = load_config(root)
        rubric = load_rubric(spec.rubric_path)
        settings = LoopSettings.from_rubric(rubric, options.max_iterations)
    except ArgusError as err:
        return blocked(options, str(err))
    if options.target is not None:
        spec.target(options.target)  # InputError naming the spec and its targets
    command = options.implementer if options.implementer is not None else config.implementer.command
    implementer = None
    if command.strip():
        expand_command(command, dict.fromkeys(PLACEHOLDERS, "x"))  # a bad template fails now
        try:
            implementer = _implementer_settings(command, config)
        except ArgusError as err:
            return blocked(options, str(err))
    no_sensor = _missing_sensor(spec)
    if no_sensor:
        return blocked(options, no_sensor)
    try:
        _refuse_linked_dirs(spec)
    except InputError as err:
        return blocked(options, str(err))
    if options.mode.single_iteration:
        settings = replace(settings, max_iterations=1)

    if services_factory is None:
        from argus.loop.engine.web_services import ArgusServices

        services_factory = ArgusServices
    layout = RunLayout(spec.spec_dir, report_only=options.mode is Mode.REPORT_ONLY)
    with FeatureLock(layout.feature_runs, spec.feature):
        return _run_locked(
            _Setup(options, spec, config, rubric, settings, layout, implementer),
            services_factory,
            progress,
        )


def _implementer_settings(command: str, config: ProjectConfig) -> ImplementerSettings:
    """The implementer as configured; ConfigError/JudgeError for a {model} nobody named, or a
    command judge that is this very agent."""
    model = config.implementer.model.strip()
    if "{model}" in command and not model:
        raise ConfigError(
            f"{config.source or 'argus.toml'}: the implementer command uses {{model}} but "
            "[implementer].model is empty; set it (it also lets Argus check the judge's model)"
        )
    if config.judge.command.strip() and config.judge.backend in ("command", "composite"):
        require_distinct_commands(config.judge.command, command, config)
    return ImplementerSettings(command, config.implementer.timeout, model)


# Folders of the feature the loop reads and writes by path: none may be a symlink.
LINKED_DIRS = {
    "__snapshots__": "the snapshot baseline folder",
    "references": "the reference folder",
    ".argus-runs": "the run folder",
    ".argus-runs/report-only": "the report-only run folder",
}


def _refuse_linked_dirs(spec: Spec) -> None:
    """InputError when a baseline, reference or run folder of the feature (or a reference
    file) is a symlink: Argus would read and write wherever it points."""
    for name, what in LINKED_DIRS.items():
        refuse_symlinks(spec.spec_dir / name, spec.spec_dir, what=what)
    for target in spec.targets:
        for reference in target.references:
            if reference.file is not None:
                refuse_symlinks(reference.file, spec.spec_dir, what="a reference image")


def _missing_sensor(spec: Spec) -> str | None:
    if spec.adapter == "web":
        return None
    from argus.sense.adapter import adapter_script

    script = adapter_script(spec.root, spec.adapter)
    if script.is_file():
        return None
    return (
        f"{spec.path}: adapter '{spec.adapter}' has no sensor: write {script} "
        "(see docs/sense.md) or use the built-in 'web' adapter"
    )


@dataclass(frozen=True)
class _Setup:
    """What phase 0 resolved."""

    options: LoopOptions
    spec: Spec
    config: ProjectConfig
    rubric: Rubric
    settings: LoopSettings
    layout: RunLayout
    implementer: ImplementerSettings | None


# What _run_views returns: the views' results, the notes, whether the run paused for HE-2.
_Ran = tuple[list[ViewResult], list[str], bool]


def _run_locked(setup: _Setup, services_factory: ServicesFactory, progress: Progress) -> RunOutcome:
    options, spec, settings, layout = setup.options, setup.spec, setup.settings, setup.layout
    store_root = layout.runs_dir if options.mode is Mode.REPORT_ONLY else spec.root
    config_sha256 = config_digest(spec.root)
    guarded_config = config_files(spec.root)  # fixed for the run: see _protected
    with ExitStack() as stack:
        store = stack.enter_context(RunStore.open(store_root))
        try:
            record, resumed = _open_run(options, spec, layout, store, settings, config_sha256)
        except StateError as err:
            return blocked(options, str(err))
        _remember(setup, record)
        events = EventLog(store, spec.feature, record.run_id)
        events.ensure(
            "run_started",
            {
                "mode": options.mode.value,
                "target": options.target,
                "max_iterations": settings.max_iterations,
                "views": [v.slug for v in _views_in_scope(spec, options.target)],
            },
        )
        guard = Guard(
            spec.root,
            lambda: _protected(spec, guarded_config),
            ProtectedCopies(layout.copies_dir),
            store,
            spec.feature,
            record.run_id,
        )
        if resumed:  # before anything else: are the protected files what the store says?
            check = check_resume(guard, layout)
            if check.problem is not None:
                return blocked(options, f"{layout.run_file}: refused to resume: {check.problem}")
            resumed_edits = check.edits
        else:
            guard.record("run_started")
            resumed_edits = {}
        pin = _check_config(setup, store, record.run_id, stack)
        record = save_run(layout.run_file, replace(record, config_pin=pin.to_json()))
        pin_note = pin.note(spec.feature)
        if pin.weaker and pin_note is not None:  # a person must accept it before anything runs
            progress.close()
            ran: _Ran = ([], [pin_note], False)
            return _finish(setup, store, events, record, ran, resumed, needs_person=True)
        sandbox = detect() if setup.implementer is not None else Confinement("", why_not="no edits")
        record = save_run(
            layout.run_file,
            replace(record, protection=sandbox.protection, containment=sandbox.containment),
        )
        killpoint("run_started")
        services = stack.enter_context(services_factory(spec, setup.config, setup.rubric, layout))
        ctx = LoopContext(
            spec=spec,
            mode=options.mode,
            layout=layout,
            services=services,
            events=events,
            run_id=record.run_id,
            progress=progress,
            settings=settings,
            implementer=setup.implementer,
            protected=lambda: _protected(spec, guarded_config),
            rubric=setup.rubric,
            config_sha256=config_sha256,
            guard=guard,
            sandbox=sandbox,
            spec_md=_read_text(spec.spec_dir / "spec.md"),
            tokens_text=_read_text(spec.tokens_path),
            resumed_edits=resumed_edits,
        )
        try:
            results, notes, paused = _run_views(ctx, options, record)
        finally:
            progress.close()
        if pin_note is not None:
            notes.insert(0, pin_note)
        return _finish(setup, store, events, record, (results, notes, paused), resumed)
    raise AssertionError("unreachable")  # pragma: no cover - ExitStack returns above


def _check_config(setup: _Setup, store: RunStore, run_id: str, stack: ExitStack) -> PinCheck:
    """The run's settings against the accepted configuration (argus.loop.guard.config_pin).
    A report-only run, which writes nothing outside its run folder, reads the project store's
    acceptance when there is one and keeps its own baseline otherwise."""
    spec = setup.spec
    settings = pinned_settings(setup.config, setup.rubric, spec)
    accepted_in: RunStore | None = None
    if store.path != db_path(spec.root) and db_path(spec.root).is_file():
        accepted_in = stack.enter_context(RunStore.open(spec.root))
    return check_pin(store, spec.feature, settings, run_id, accepted_in=accepted_in)


def _finish(
    setup: _Setup,
    store: RunStore,
    events: EventLog,
    record: RunRecord,
    ran: _Ran,
    resumed: bool,
    *,
    needs_person: bool = False,
) -> RunOutcome:
    """Close the run: its status is the worst of its views' (NEEDS_CONTEXT when it paused for
    the spot-check, or when no view ran because a person must act first)."""
    options, spec, layout = setup.options, setup.spec, setup.layout
    results, notes, paused = ran
    status = worst([r.status for r in results]) if results else Status.DONE
    if paused or needs_person:  # a person acts before anything else
        status = worst([status, Status.NEEDS_CONTEXT])
    record = load_run(layout.run_file) or record
    record = replace(record, notes=tuple(notes))
    if paused:
        record = save_run(
            layout.run_file, replace(record, status=PAUSED, final_status=status.value)
        )
    else:
        killpoint("before_finish")
        events.ensure("run_finished", {"status": status.value, "notes": list(notes)})
        if not _store_run_finished(store, spec.feature, record.run_id):
            store.finish_run(record.run_id, status.value)
        record = save_run(
            layout.run_file, replace(record, status=FINISHED, final_status=status.value)
        )
    _remember(setup, record)
    return RunOutcome(
        status,
        spec.feature,
        options.mode,
        record.run_id,
        tuple(results),
        tuple(notes),
        layout.runs_dir,
        resumed=resumed,
        paused=paused,
        extra={"store": str(store.path)},
    )


def _remember(setup: _Setup, record: RunRecord) -> None:
    """The run's status in the registry of open runs (report-only writes nothing outside its
    run directory, so it has no entry)."""
    if setup.options.mode is not Mode.REPORT_ONLY:
        remember_run(setup.spec.root, setup.spec.feature, record.run_id, record.status)


def _open_run(
    options: LoopOptions,
    spec: Spec,
    layout: RunLayout,
    store: RunStore,
    settings: LoopSettings,
    config_sha256: str,
) -> tuple[RunRecord, bool]:
    """Resume the feature's unfinished run when it is the same kind of run; else start one.
    A run is never resumed under another config than it started with (StateError)."""
    previous = load_run(layout.run_file)
    if previous is not None and previous.open:
        same = previous.matches(options.mode.value, options.target, settings.max_iterations)
        if same and not options.new_run and _store_has_run(store, spec.feature, previous.run_id):
            if previous.config_sha256 != config_sha256:
                where = " or ".join(p.name for p in config_files(spec.root))
                raise StateError(
                    f"{layout.run_file}: the project config ({where}) changed since run "
                    f"{previous.run_id} started; its verdicts were judged under the old one. "
                    "Rerun with --new-run to start over under the new config"
                )
            return save_run(layout.run_file, replace(previous, status=RUNNING)), True
    # Under the lock no other loop of this feature runs: any run the store still has open was
    # abandoned (superseded, or killed before run.json named it). Close it, so none stays open.
    for stale in store.runs(feature=spec.feature):
        if stale.finished_at is None:
            EventLog(store, spec.feature, stale.run_id).ensure(
                "run_finished", {"status": "ABANDONED", "notes": ["superseded by a new run"]}
            )
            # Killed between its run_finished event and the table: the table takes the event's
            # status, so the two agree (argus runs --verify compares them).
            said = store.events(run_id=stale.run_id, kind="run_finished")[0].payload
            store.finish_run(stale.run_id, str(said.get("status", "ABANDONED")))
    run_id = store.start_run(spec.feature, options.mode.value)
    killpoint("store_run_started")
    record = RunRecord(
        run_id=run_id,
        feature=spec.feature,
        mode=options.mode.value,
        target=options.target,
        max_iterations=settings.max_iterations,
        started_at=now_iso(),
        store=str(store.path),
        config_sha256=config_sha256,
    )
    return save_run(layout.run_file, record), False


def _store_has_run(store: RunStore, feature: str, run_id: str) -> bool:
    return any(r.run_id == run_id for r in store.runs(feature=feature))


def _store_run_finished(store: RunStore, feature: str, run_id: str) -> bool:
    return any(
        r.run_id == run_id and r.finished_at is not None for r in store.runs(feature=feature)
    )


def _views_in_scope(spec: Spec, target: str | None) -> list[View]:
    """Every view of the targets in scope, each target's canonical view first."""
    views: list[View] = []
    for t in spec.targets:
        if target is not None and t.id != target:
            continue
        canonical = spec.canonical_view(t.id)
        views.append(canonical)
        views.extend(v for v in spec.views(t.id) if v != canonical)
    return views


def _run_views(
    ctx: LoopContext, options: LoopOptions, record: RunRecord
) -> tuple[list[ViewResult], list[str], bool]:
    """Phases 2 to 4 over every target in scope; returns the results, notes and pause flag."""
    results: list[ViewResult] = []
    notes: list[str] = []
    paused = stopped = False
    spec = ctx.spec
    for target in spec.targets:
        if stopped:
            break
        if options.target is not None and target.id != options.target:
            continue
        canonical = spec.canonical_view(target.id)
        reference = target.reference_for(canonical.state, canonical.appearance)
        in_shard = options.only_views is None or canonical.slug in options.only_views
        if reference is None or reference.status != "present":
            if in_shard:  # the shard holding the canonical view bootstraps its reference
                result, note = bootstrap_reference(ctx, canonical)
                results.append(result)
                if note:
                    notes.append(note)
                record = _note_view(ctx, record, result)
            continue
        for view in _views_in_scope(spec, target.id):
            if options.only_views is not None and view.slug not in options.only_views:
                continue
            if paused or pending_first_spotcheck(ctx) is not None:
                paused = True
                waiting = ViewResult(
                    view, WAITING, Status.NEEDS_CONTEXT, 0, detail="waits for the spot-check"
                )
                results.append(waiting)
                continue
            _claim_view_dir(ctx, view)
            result = with_spotcheck(ctx, converge_view(ctx, view))
            results.append(result)
            record = _note_view(ctx, record, result)
            ctx.progress.view_done(view.slug, result.status.value, result.detail)
            if result.end == INTEGRITY_UNRESTORED:  # the spec itself can no longer be trusted
                stopped = True
                break
            pending = pending_first_spotcheck(ctx)
            if pending is not None and ctx.mode.pauses_for_spotcheck:
                paused = True
                notes.append(spotcheck_note(ctx, pending))
    if paused and not any(n.startswith("HE-2") for n in notes):
        pending = pending_first_spotcheck(ctx)
        if pending is not None:
            notes.append(spotcheck_note(ctx, pending))
    for result in results:
        if result.status is Status.BLOCKED and result.detail:
            notes.append(f"{result.view.slug}: {result.detail}")
    return results, notes, paused


def _claim_view_dir(ctx: LoopContext, view: View) -> None:
    """A view directory left by another run is cleared before this run uses it."""
    directory = ctx.layout.view_dir(view)
    refuse_symlinks(directory, ctx.layout.feature_runs, what="the view's run folder")
    check_writes(directory)  # never clear a folder of a feature folder this run no longer holds
    marker = directory / VIEW_RUN_MARKER
    if marker.is_file() and marker.read_text(encoding="utf-8").strip() == ctx.run_id:
        return
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True, exist_ok=True)
    marker.write_text(ctx.run_id + "\n", encoding="utf-8")


def _note_view(ctx: LoopContext, record: RunRecord, result: ViewResult) -> RunRecord:
    data = {**result.to_json(), "dir": result.view.slug}
    return save_run(ctx.layout.run_file, record.with_view(result.view.slug, data))


def _protected(spec: Spec, config: tuple[Path, ...] = ()) -> list[str]:
    """The protected set: the feature directory, the files the spec names, the project
    config files (``config``, fixed when the run starts) and PROTECTED_GLOBS."""
    files: list[Path] = [*config, spec.tokens_path]
    for optional in (spec.contrast_pairs_path, spec.rubric_path):
        if optional is not None:
            files.append(optional)
    for target in spec.targets:
        files.extend(r.file for r in target.references if r.file is not None)
        for expectation in target.expectations.values():
            files.extend(c.equals_fixture.file for c in expectation.counts if c.equals_fixture)
    return collect_protected(spec.root, spec.spec_dir, files, PROTECTED_GLOBS)


def _read_text(path: Path | None) -> str:
    if path is None or not path.is_file():
        return ""
    return path.read_text(encoding="utf-8", errors="replace")
