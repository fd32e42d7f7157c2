"""The program's entry: the ``argus`` script and ``python -m argus``.

``argus.cli.main`` turns a Ctrl-C into one line and exit 130 once it runs; this makes the
same true while ``argus.cli`` and what it needs are still importing (the first 15 ms or so
of every command), where Python would otherwise print a traceback of the import.
"""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from argus.cli import main as run
    except KeyboardInterrupt:
        print("argus: interrupted", file=sys.stderr)
        return 130
    return run()
