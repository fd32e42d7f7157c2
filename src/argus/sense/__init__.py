"""Sensing: render one view in a browser (or an adapter script) and record what it saw."""

from argus.sense.browser import discover_browser

__all__ = ["discover_browser"]
