"""The configuration a person accepted, kept in the run store, and each run's check against it.

A sign-off means what its gates, thresholds and rubric made it mean, so a run records the
settings it depends on (argus.loop.guard.pin_rules) and compares them with the last configuration
accepted for the feature. The accepted configuration lives in the run store, where the
implementer cannot write (the sandbox denies ``.argus/``): a ``human_decision`` event with
action ``accept_config`` (``argus approve --config`` or the review page), or, before any
person accepted one, the ``config_baseline`` note the feature's first run recorded.

A run under a configuration weaker than the accepted one does not run its views: it ends
NEEDS_CONTEXT, naming every weakened setting, until a person accepts the configuration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from argus.loop.guard.pin_rules import settings_digest, weakenings
from argus.loop.records.spotchecks import DECISION_KIND
from argus.store.model import Event
from argus.store.runstore import RunStore

BASELINE = "config_baseline"  # note type: the configuration a feature's first run found
ACCEPT = "accept_config"  # human_decision action: a person accepted a configuration


@dataclass(frozen=True)
class Pin:
    """One accepted configuration, as the store holds it."""

    settings: Mapping[str, Any]
    sha256: str
    by: str  # the person, or "the first run <run id>"
    at: str


@dataclass(frozen=True)
class PinCheck:
    """A run's configuration against the accepted one."""

    sha256: str
    accepted: Pin | None  # None: nothing was accepted; this run's config is now the baseline
    weakened: tuple[str, ...] = ()

    @property
    def weaker(self) -> bool:
        return bool(self.weakened)

    def note(self, feature: str) -> str | None:
        """What the run says about its configuration (None when nothing worth saying)."""
        if self.accepted is None:
            return (
                f"config pinned: this is the first run of {feature!r}, so its configuration "
                f"(sha256 {self.sha256[:12]}) is the baseline later runs must not weaken; "
                "check argus.toml, rubric.json and the spec's gate lists are what you mean"
            )
        if not self.weaker:
            return None
        return (
            f"config weaker than the one accepted ({self.accepted.by}, {self.accepted.at}): "
            f"{'; '.join(self.weakened)}. Nothing was signed off; if this is intended, run "
            f"argus approve --config --feature {feature}, then rerun"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "sha256": self.sha256,
            "accepted_sha256": self.accepted.sha256 if self.accepted else None,
            "accepted_by": self.accepted.by if self.accepted else None,
            "baseline": self.accepted is None,
            "weakened": list(self.weakened),
        }


def accepted_pin(store: RunStore, feature: str) -> Pin | None:
    """The feature's latest accepted configuration in ``store``, or None."""
    events = [
        *store.events(feature=feature, kind="note"),
        *store.events(feature=feature, kind=DECISION_KIND),
    ]
    found: Pin | None = None
    for event in sorted(events, key=lambda e: e.id or 0):
        pin = _pin(event)
        if pin is not None:
            found = pin
    return found


def _pin(event: Event) -> Pin | None:
    payload = event.payload
    if event.kind == "note" and payload.get("type") == BASELINE:
        by = f"the first run {event.run_id}"
    elif event.kind == DECISION_KIND and payload.get("action") == ACCEPT:
        by = f"accepted by {payload.get('by', 'unknown')}"
    else:
        return None
    settings = payload.get("settings")
    if not isinstance(settings, dict) or settings_digest(settings) != payload.get("sha256"):
        return None  # garbled: an acceptance must name what it accepted
    return Pin(settings, str(payload["sha256"]), by, str(event.created_at or ""))


def check_pin(
    store: RunStore,
    feature: str,
    settings: Mapping[str, Any],
    run_id: str,
    *,
    accepted_in: RunStore | None = None,
) -> PinCheck:
    """Compare ``settings`` with the accepted configuration (looked for in ``accepted_in``
    first, then ``store``); with none, record ``settings`` in ``store`` as the baseline."""
    digest = settings_digest(settings)
    accepted = accepted_pin(accepted_in, feature) if accepted_in is not None else None
    accepted = accepted or accepted_pin(store, feature)
    if accepted is None:
        payload = {"type": BASELINE, "settings": dict(settings), "sha256": digest}
        store.append(Event("note", feature, run_id, payload=payload))
        return PinCheck(digest, None)
    return PinCheck(digest, accepted, tuple(weakenings(accepted.settings, settings)))


def acceptance_payload(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The ``human_decision`` payload that accepts ``settings`` (who and how are added by
    argus.loop.decisions)."""
    return {"action": ACCEPT, "settings": dict(settings), "sha256": settings_digest(settings)}
