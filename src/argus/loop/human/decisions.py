"""The decisions a person makes, one code path whoever asks: ``argus approve`` or ``argus ui``.

    approve_reference   HE-1: move a candidate reference into references/, mark it present
    record_spotcheck    HE-2: the spot-check of a sign-off, approved or naming the dimension
                        the judge got wrong, with an optional comment
    accept_baseline     make a view's latest committed render its snapshot baseline
    accept_config       accept the feature's configuration as it is now (guard.config_pin)

Each holds the feature's loop lock while it writes (spec.json, signoff.json and the baselines
are the loop's files too), so a running loop makes it refuse, and appends a ``human_decision``
event to the run store: who (the OS user), when (the event's time), through what (``cli`` or
``ui``) and what was decided.
"""

from __future__ import annotations

import getpass
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.errors import InputError, StateError
from argus.io import read_json
from argus.loop.guard.config_pin import acceptance_payload, accepted_pin
from argus.loop.guard.lock import FeatureLock
from argus.loop.guard.pin_rules import pinned_settings, weakenings
from argus.loop.human.baseline import keeps_baselines, write_baseline
from argus.loop.human.references import approve_candidate, candidate_path
from argus.loop.records.layout import STATE_FILE, VIEW_RUN_MARKER, RunLayout
from argus.loop.records.runrecord import load_run
from argus.loop.records.signoff import load_records, pending_records, set_spotcheck
from argus.schemas import load_rubric
from argus.spec.model import Spec, View
from argus.store import Event, RunStore

DECISION_KIND = "human_decision"
MAX_NOTE_CHARS = 2000


@dataclass(frozen=True)
class Decision:
    """What was decided, for the caller to show; the same payload went to the run store."""

    action: str  # approve_reference | spotcheck | accept_baseline
    view: View
    message: str
    payload: Mapping[str, Any] = field(default_factory=dict)


def os_user() -> str:
    """The person at the keyboard, as the operating system names them."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name and no passwd entry: keep the uid
        return f"uid {os.getuid()}"


def has_candidate(spec: Spec, view: View) -> bool:
    """A candidate reference awaits approval (HE-1)."""
    reference = spec.target(view.target).reference_for(view.state, view.appearance)
    on_disk = candidate_path(RunLayout(spec.spec_dir).feature_runs, view).is_file()
    return on_disk and (reference is None or reference.status != "present")


def approve_reference(spec: Spec, view: View, *, via: str) -> Decision:
    """HE-1: accept the candidate reference of ``view``."""
    layout = RunLayout(spec.spec_dir)
    with FeatureLock(layout.feature_runs, spec.feature):
        if not has_candidate(spec, view):
            raise InputError(
                f"{candidate_path(layout.feature_runs, view)}: no candidate reference of "
                f"{view.slug} awaits approval"
            )
        destination = approve_candidate(spec, layout.feature_runs, view)
        relative = _relative(spec, destination)
        payload = {"action": "approve_reference", "reference": relative}
        _record(spec, view, via, payload, _current_run(layout))
    return Decision(
        "approve_reference",
        view,
        f"approved the candidate reference of {view.slug}: {destination} (source: candidate); "
        "rerun argus loop to converge the target",
        payload,
    )


def pending_view(spec: Spec, target: str) -> View:
    """The view whose spot-check a run waits on: the current run's first pending sign-off,
    else the target's latest pending one."""
    layout = RunLayout(spec.spec_dir)
    pending = pending_records(load_records(layout.signoff_file), target=target)
    if not pending:
        raise InputError(
            f"{layout.signoff_file}: target '{target}' has no pending sign-off and no "
            "candidate reference; name the view with --state and --appearance"
        )
    current = _current_run(layout)
    in_run = [r for r in pending if current is not None and r.get("run_id") == current]
    first = in_run[0] if in_run else pending[-1]
    return View(spec.feature, first["target"], first["state"], first["appearance"])


def record_spotcheck(
    spec: Spec,
    view: View | None,
    *,
    wrong: str | None,
    note: str | None,
    via: str,
    target: str | None = None,
) -> Decision:
    """HE-2: the judge was right on ``view``'s latest sign-off, or wrong on ``wrong``.
    Without a view: the one ``target``'s run waits on (``pending_view``)."""
    if wrong:
        rubric = load_rubric(spec.rubric_path)
        if wrong not in rubric.names:
            known = ", ".join(rubric.names)
            raise InputError(f"--wrong {wrong}: not a rubric dimension; use one of {known}")
    if note is not None and len(note) > MAX_NOTE_CHARS:
        raise InputError(f"the note is {len(note)} characters; keep it under {MAX_NOTE_CHARS}")
    layout = RunLayout(spec.spec_dir)
    with FeatureLock(layout.feature_runs, spec.feature):
        if view is None:
            if target is None:
                raise InputError("name the view, or the target whose sign-off to spot-check")
            view = pending_view(spec, target)
        record = set_spotcheck(layout.signoff_file, view, wrong_dimension=wrong, note=note)
        payload: dict[str, Any] = {
            "action": "spotcheck",
            "status": record["human_spotcheck"]["status"],
            "wrong_dimension": wrong,
            "note": note or "",
            "signoff_run": record.get("run_id"),
        }
        _record(spec, view, via, payload, str(record.get("run_id") or "") or None)
    if wrong:
        message = (
            f"recorded: the judge got {wrong} wrong on {view.slug}; the run will end "
            "DONE_WITH_CONCERNS. Tune rubric.json, then rerun argus loop."
        )
    else:
        message = f"recorded: spot-check of {view.slug} approved ({record['signed_off_at']})"
    return Decision("spotcheck", view, message, payload)


def committed_renders(layout: RunLayout, view: View) -> list[tuple[Path, int]]:
    """The renders of the view's committed iterations (those state.json counts), oldest first."""
    state_file = layout.view_dir(view) / STATE_FILE
    counted: int | None = None
    if state_file.is_file():
        state = read_json(state_file, what="state.json")
        value = state.get("iteration") if isinstance(state, dict) else None
        counted = value if isinstance(value, int) and not isinstance(value, bool) else None
    found: list[tuple[Path, int]] = []
    for n in layout.iterations_on_disk(view):
        if counted is not None and n > counted:
            continue  # the leftover of a killed process, never a render to accept
        render = layout.iteration_dir(view, n) / "render.png"
        if render.is_file():
            found.append((render, n))
    return found


def latest_render(layout: RunLayout, view: View) -> tuple[Path, int] | None:
    """The render of the view's latest committed iteration."""
    found = committed_renders(layout, view)
    return found[-1] if found else None


def accept_baseline(
    spec: Spec,
    config: ProjectConfig,
    view: View,
    *,
    via: str,
    iteration: int | None = None,
) -> Decision:
    """Make the view's latest committed render its snapshot baseline. ``iteration``, when
    given, is the render the person looked at: a newer one since then is refused."""
    layout = RunLayout(spec.spec_dir)
    with FeatureLock(layout.feature_runs, spec.feature):
        found = latest_render(layout, view)
        if found is None:
            raise InputError(
                f"{layout.view_dir(view)}: no committed render of {view.slug} to accept; "
                f"run argus loop --feature {spec.feature} first"
            )
        render, n = found
        if iteration is not None and iteration != n:
            raise StateError(
                f"{render}: {view.slug} has a newer render (iteration {n}) than the one shown "
                f"(iteration {iteration}); look at it before accepting"
            )
        if not keeps_baselines(spec, config, view, render.parent):
            raise InputError(
                f"{spec.path}: target '{view.target}' does not run the snapshot gate, so it "
                "keeps no baseline; enable the gate in argus.toml [gates] first"
            )
        outcome = write_baseline(spec, config, view, render, "all")
        digest = hashlib.sha256(outcome.baseline.read_bytes()).hexdigest()
        payload = {
            "action": "accept_baseline",
            "render": _relative(spec, render),
            "iteration": n,
            "baseline": _relative(spec, outcome.baseline),
            "baseline_sha256": digest,
            "was": outcome.status,
        }
        _record(spec, view, via, payload, _render_run(layout, view))
    return Decision(
        "accept_baseline",
        view,
        f"accepted the render of {view.slug} (iteration {n}) as its baseline: {outcome.baseline}",
        payload,
    )


def accept_config(spec: Spec, config: ProjectConfig, *, via: str) -> Decision:
    """Accept the feature's configuration as it is now (config, rubric, gate lists): later
    runs are compared with it. The message names what it weakens against the last one."""
    rubric = load_rubric(spec.rubric_path)
    settings = pinned_settings(config, rubric, spec)
    layout = RunLayout(spec.spec_dir)
    view = spec.canonical_view(spec.targets[0].id)
    with FeatureLock(layout.feature_runs, spec.feature):
        with RunStore.open(spec.root) as store:
            before = accepted_pin(store, spec.feature)
        weakened = weakenings(before.settings, settings) if before is not None else []
        payload = {**acceptance_payload(settings), "weakened": weakened}
        _record(spec, view, via, payload, None, whole_feature=True)
    what = f", weakening {'; '.join(weakened)}" if weakened else ""
    return Decision(
        "accept_config",
        view,
        f"accepted the configuration of {spec.feature} (sha256 {payload['sha256'][:12]}){what}; "
        "later runs are compared with it",
        payload,
    )


def _relative(spec: Spec, path: Path) -> str:
    try:
        return path.resolve().relative_to(spec.root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _current_run(layout: RunLayout) -> str | None:
    record = load_run(layout.run_file)
    return record.run_id if record is not None else None


def _render_run(layout: RunLayout, view: View) -> str | None:
    marker = layout.view_dir(view) / VIEW_RUN_MARKER
    if marker.is_file():
        return marker.read_text(encoding="utf-8").strip() or None
    return _current_run(layout)


def _record(
    spec: Spec,
    view: View,
    via: str,
    payload: Mapping[str, Any],
    run_id: str | None,
    *,
    whole_feature: bool = False,
) -> None:
    with RunStore.open(spec.root) as store:
        known = run_id is not None and any(r.run_id == run_id for r in store.runs(spec.feature))
        store.append(
            Event(
                kind=DECISION_KIND,
                feature=spec.feature,
                run_id=run_id if known else None,
                target=None if whole_feature else view.target,
                state=None if whole_feature else view.state,
                appearance=None if whole_feature else view.appearance,
                payload={**payload, "by": os_user(), "via": via},
            )
        )
