"""What ``argus init FEATURE --adapter textual --app FILE.py:CLASS`` writes for a Textual app:
a spec sensed by the ``textual`` adapter and the project's argus/adapters/textual/sense.sh."""

from __future__ import annotations

import re

from argus.adapters.textual._cli import DEFAULT_SIZE
from argus.adapters.textual._raster import CELL_HEIGHT, CELL_WIDTH
from argus.errors import InputError
from argus.spec.scaffold import AdapterScaffold

# The gates that apply to a Textual view (docs/gates.md, "Adapter projects").
GATES = (
    "token_contrast",
    "a11y_ids",
    "rendered_contrast",
    "token_compliance",
    "focus_visible",
    "snapshot",
)
_APP = re.compile(r"^[\w./-]+\.py:[A-Za-z_]\w*$|^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def textual_scaffold(app: str) -> AdapterScaffold:
    """The spec changes and the sense.sh for the app ``app`` names (FILE.py:CLASS)."""
    if not _APP.match(app):
        raise InputError(
            f"--app {app!r}: name the Textual app as FILE.py:CLASS or MODULE:CLASS, "
            "relative to the repository root (e.g. app.py:MyApp)"
        )
    columns, rows = DEFAULT_SIZE
    script = (
        "#!/usr/bin/env bash\n"
        '# Argus\'s Textual adapter (docs/sense.md, "Textual"): senses the app by its pilot.\n'
        "# ARGUS_PYTHON is the interpreter running Argus. Map appearances to your themes with\n"
        "# --theme light=NAME --theme dark=NAME; the spec's viewport is the terminal in pixels\n"
        f"# ({CELL_WIDTH} x {CELL_HEIGHT} a cell).\n"
        "set -eu\n"
        f'exec "${{ARGUS_PYTHON:-python3}}" -m argus.adapters.textual --app {app} '
        f'--size {columns}x{rows} "$@"\n'
    )
    return AdapterScaffold(
        name="textual",
        route="app://{{feature}}/main",
        viewport=(columns * CELL_WIDTH, rows * CELL_HEIGHT),
        script=script,
        gates=GATES,
    )
