"""How much a render may differ from its baseline and still pass.

Playwright's names and meaning where they exist: ``max_diff_pixels`` and
``max_diff_pixel_ratio`` allow that many differing pixels (both set: the smaller budget
wins), ``threshold`` is pixelmatch's per-pixel colour threshold. Argus adds
``max_window_density``: the largest share of differing pixels allowed inside any
``window`` x ``window`` square, which lets scattered anti-aliasing noise through while a
localised change still fails. A tolerance of 0 is "not set"; with none set, any differing
pixel fails; with only the density set, the density alone decides.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from argus.diff.result import DEFAULT_WINDOW, DiffResult

if TYPE_CHECKING:
    from argus.config import SnapshotConfig
    from argus.spec import SnapshotSettings


@dataclass(frozen=True)
class Tolerance:
    threshold: float = 0.1
    max_diff_pixels: int = 0
    max_diff_pixel_ratio: float = 0.0
    max_window_density: float = 0.0
    window: int = DEFAULT_WINDOW

    @classmethod
    def resolve(
        cls, project: SnapshotConfig | None = None, target: SnapshotSettings | None = None
    ) -> Tolerance:
        """The project's [gates.snapshot] values, overridden by a target's non-None ones."""
        base = cls()
        if project is not None:
            base = cls(
                cls.threshold if project.threshold is None else project.threshold,
                project.max_diff_pixels,
                project.max_diff_pixel_ratio,
                project.max_window_density,
                project.window,
            )
        if target is None:
            return base
        overrides = {
            name: getattr(target, name)
            for name in (
                "threshold",
                "max_diff_pixels",
                "max_diff_pixel_ratio",
                "max_window_density",
            )
            if getattr(target, name) is not None
        }
        return replace(base, **overrides)

    @staticmethod
    def threshold_set(
        project: SnapshotConfig | None = None, target: SnapshotSettings | None = None
    ) -> bool:
        """Whether the project or the target chose a threshold (else it is measured)."""
        return (project is not None and project.threshold is not None) or (
            target is not None and target.threshold is not None
        )

    def allowed_pixels(self, total: int) -> float | None:
        """The differing-pixel budget, or None when only the density decides."""
        budgets = []
        if self.max_diff_pixels > 0:
            budgets.append(float(self.max_diff_pixels))
        if self.max_diff_pixel_ratio > 0:
            budgets.append(self.max_diff_pixel_ratio * total)
        if budgets:
            return min(budgets)
        return None if self.max_window_density > 0 else 0.0

    def judge(self, result: DiffResult) -> tuple[bool, str]:
        """Pass or not, and one line saying why."""
        parts = [f"{result.mismatch} pixels differ ({result.ratio:.3%})"]
        ok = True
        allowed = self.allowed_pixels(result.total)
        if allowed is not None:
            ok = result.mismatch <= allowed
            parts.append(f"allowed {allowed:g}")
        if self.max_window_density > 0:
            dense_ok = result.density_ratio <= self.max_window_density
            ok = ok and dense_ok
            parts.append(
                f"densest {result.window}x{result.window} window {result.density_ratio:.1%} "
                f"differing, allowed {self.max_window_density:.1%}"
            )
        return ok, "; ".join(parts)
