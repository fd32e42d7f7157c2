"""Image diffing: a pixelmatch-compatible kernel, density, regions, snapshots."""

from argus.diff.kernel import pixelmatch

__all__ = ["pixelmatch"]
