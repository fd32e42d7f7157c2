"""``python -m argus.adapters.textual``: the adapter contract's command line for a Textual app.

    python -m argus.adapters.textual --app examples/textual/app.py:ShoppingList \
        --route R --state S --appearance A --fixture F --out DIR [--size 80x24]

The fixture reaches the app as ARGUS_FIXTURE (and the route as ARGUS_ROUTE, the state as
ARGUS_STATE), set before the app is built. The appearance picks the theme: ``--theme
light=NAME`` (repeatable) maps it, else ``textual-light`` / ``textual-dark``. Bad input is one
line on stderr and exit 2; a failure of the app is exit 1 with its error's last line.
"""

from __future__ import annotations

import sys

from argus.adapters.textual._cli import main

sys.exit(main(sys.argv[1:]))
