"""The command line every benchmark area shares: `python -m bench.X_bench [--quick] [--out F]`."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def area_main(
    run: Callable[..., dict[str, Any]],
    description: str,
    quick_help: str,
    argv: list[str] | None = None,
) -> int:
    """Run one area, print its JSON report, and also write it to --out when given."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument("--out", type=Path, help="also write the JSON report here")
    args = parser.parse_args(argv)
    text = json.dumps(run(quick=args.quick), indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0
