"""Before a resumed run does anything else: are the protected files (and, when the loop died
during an edit, its records) what the run store's last manifest says?

A loop killed while the implementer ran (``kill -9 $PPID`` from the implementer itself) left a
manifest naming the edit: what that edit changed of the protected set or of the loop's records
is put back from the digest-checked copies and the iteration is failed (integrity), whatever
the implementer did to the files in its iteration directory. A loop killed anywhere else left
the protected set as its last manifest says, except for a write the loop itself announced
(``may_write``: the baseline of a sign-off, a candidate reference marked in spec.json) or a
baseline a person accepted (its digest is in the run store); any other change was made behind
the run's back and the run is refused (BLOCKED) until the files
are put back or a new run is started.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from argus.loop.guard.integrity import compare, hash_set
from argus.loop.guard.manifest import Guard, Manifest, Verified, unrestored_detail
from argus.loop.records.guarded import record_paths, run_files
from argus.loop.records.layout import RunLayout
from argus.loop.records.spotchecks import DECISION_KIND


@dataclass(frozen=True)
class ResumeCheck:
    problem: str | None = None  # the reason to refuse the resumed run
    edits: dict[str, tuple[int, Verified]] = field(default_factory=dict)


def check_resume(guard: Guard, layout: RunLayout) -> ResumeCheck:
    """Check the files against the run's last manifest, put back what a killed edit changed,
    then record a fresh manifest."""
    manifest = guard.last_manifest()
    if manifest is None:  # killed before its first manifest: nothing was edited yet
        guard.record("resumed")
        return ResumeCheck()
    if manifest.editing is not None:
        check = _killed_edit(guard, layout, manifest)
    else:
        check = _between_edits(guard, manifest)
    if check.problem is None:
        guard.record("resumed")
    return check


def _killed_edit(guard: Guard, layout: RunLayout, manifest: Manifest) -> ResumeCheck:
    assert manifest.editing is not None
    slug, n = manifest.editing
    root = guard.root
    # run.json was rewritten by this resume itself: not the implementer's doing.
    rewritten = set(run_files(root, layout.feature_runs))
    editing = layout.runs_dir / slug / f"iteration-{n}"
    before = {
        k: v
        for k, v in {**manifest.protected, **(manifest.records or {})}.items()
        if k not in rewritten
    }
    paths = guard.protected() + record_paths(root, layout.feature_runs, editing=editing)
    after = {k: v for k, v in hash_set(root, paths).items() if k not in rewritten}
    changes = compare(before, after)
    if changes.clean:
        return ResumeCheck()
    verified = guard.restore(before, changes)
    if verified.unrestored:
        return ResumeCheck(
            problem=unrestored_detail(verified.unrestored, "while the loop was stopped")
        )
    return ResumeCheck(edits={slug: (n, verified)})


def _accepted_baselines(guard: Guard) -> dict[str, str]:
    """Baselines a person accepted (``argus approve --baseline``, ``argus ui``): path to the
    digest the run store recorded for it."""
    accepted: dict[str, str] = {}
    for event in guard.store.events(feature=guard.feature, kind=DECISION_KIND):
        payload = event.payload
        if payload.get("action") == "accept_baseline":
            accepted[str(payload.get("baseline"))] = str(payload.get("baseline_sha256"))
    return accepted


def _between_edits(guard: Guard, manifest: Manifest) -> ResumeCheck:
    now = hash_set(guard.root, guard.protected())
    changes = compare(manifest.protected, now)
    announced = tuple(manifest.may_write)
    accepted = _accepted_baselines(guard) if not changes.clean else {}
    unexplained = [
        p
        for p in (*changes.modified, *changes.added, *changes.removed)
        if not (announced and p.startswith(announced))
        and not (p in accepted and now.get(p) == accepted[p])
    ]
    if not unexplained:
        return ResumeCheck()
    return ResumeCheck(
        problem=(
            f"protected files changed since run {guard.run_id} last checked them "
            f"({', '.join(unexplained)}), outside any edit it ran; put them back (git "
            "checkout) or rerun with --new-run to start over with them"
        )
    )
