"""Run the loop on a fake repository in its own process (for kill-and-resume tests).

    python -m tests.loop.drive_fake_loop ROOT MODE [--hostile] [IMPLEMENTER_FLAG...]

``--hostile`` runs hostile_implementer.py (the forgery tests) instead of fake_implementer.py.

Prints the run's status and exits with its exit code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, run_loop
from argus.loop.records.status import exit_code
from tests.loop.fakeapp import FEATURE, HOSTILE, FakeServices, implementer_command


def main() -> int:
    root, mode, *flags = sys.argv[1:]
    script = HOSTILE if flags[:1] == ["--hostile"] else None
    command = implementer_command(*flags[1:], script=script) if script else None
    options = LoopOptions(
        feature=FEATURE,
        root=Path(root),
        mode=Mode(mode),
        implementer=command or implementer_command(*flags),
    )
    outcome = run_loop(options, services_factory=FakeServices)
    print(outcome.status.value, outcome.run_id)
    return exit_code(outcome.status)


if __name__ == "__main__":
    sys.exit(main())
