"""Lighthouse run by Argus (``argus lighthouse`` and the opt-in ``lighthouse`` gate): the real
npm package, found on PATH or installed on demand, against a view's URL with Argus's Chromium.
See docs/gates.md and docs/referee.md."""
