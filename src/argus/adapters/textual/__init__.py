"""Argus's adapter for Textual apps (docs/sense.md, "Textual"): the app runs under its pilot
(``App.run_test``) at a fixed terminal size, its SVG screenshot is rasterised to a PNG of
whole-pixel cells (``_raster``), the widget tree becomes a probe in the web probe's element
format (``_probe``) and Tab's walk a focus.json (``_capture``); ``textual_scaffold`` is what
``argus init --adapter textual`` writes (``_scaffold``).

    python -m argus.adapters.textual --app app.py:MyApp --route R --state S --appearance A \\
        --fixture F --out DIR [--size 80x24] [--theme dark=my-dark]

Textual and cairosvg come with the ``textual`` extra (``pip install 'argus[textual]'``); they
are imported only once the arguments are read.
"""

from argus.adapters.textual._cli import main
from argus.adapters.textual._scaffold import textual_scaffold

__all__ = ["main", "textual_scaffold"]
