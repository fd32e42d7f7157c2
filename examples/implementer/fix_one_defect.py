#!/usr/bin/env python3
"""AN EXAMPLE IMPLEMENTER, NOT A REAL ONE: it repairs one seeded defect per call.

`argus demo` copies the Habits example, breaks it on purpose with some of the substitutions
listed in its defects.json, and runs the loop with this script as the implementer. A real
implementer is a coding agent (for example `claude -p` or `codex exec`) that reads the prompt
Argus writes and edits the code. This script only pretends to: it knows the seeded defects and
undoes one of them per call by reversing its text substitution, preferring one whose gate or
rubric dimension the prompt names, and ends with the status line Argus parses.

    python fix_one_defect.py --workdir DIR [--prompt PROMPT_FILE] [--defects FILE]

Exit 0 with `STATUS: DONE` after a repair; `STATUS: BLOCKED` when no known defect is left.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path


def present_defects(workdir: Path, defects: list[dict[str, object]]) -> list[dict[str, object]]:
    """Defects whose substitution is visible in the working copy and can be reversed."""
    found = []
    for defect in defects:
        original, broken = str(defect["find"]), str(defect["replace"])
        path = workdir / str(defect["file"])
        if not broken or not path.is_file():
            continue  # a pure deletion cannot be put back by substitution alone
        text = path.read_text(encoding="utf-8")
        # A defect that only shortened the original is present when the original is gone;
        # any other (changed or inserted text) when its broken text is there.
        seeded = original not in text if broken in original else broken in text
        if seeded:
            found.append(defect)
    return found


def named_in_prompt(defect: dict[str, object], prompt: str) -> bool:
    """Does the prompt name this defect's gate or dimension as failing (`name` in backticks)?"""
    names = {str(defect.get("gate") or ""), str(defect.get("dimension") or "")} - {""}
    return any(re.search(rf"`{re.escape(name)}`", prompt) for name in names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", required=True, type=Path)
    parser.add_argument("--prompt", type=Path, help="the prompt file Argus wrote")
    parser.add_argument("--defects", type=Path, help="default: WORKDIR/defects.json")
    args = parser.parse_args(argv)
    workdir = args.workdir.resolve()
    defects_file = args.defects or workdir / "defects.json"
    defects = json.loads(defects_file.read_text(encoding="utf-8"))
    prompt = args.prompt.read_text(encoding="utf-8") if args.prompt else ""

    candidates = present_defects(workdir, defects)
    if not candidates:
        print("No seeded defect left that this example knows how to undo.")
        print("STATUS: BLOCKED")
        return 0
    wanted = [d for d in candidates if named_in_prompt(d, prompt)] or candidates
    defect = wanted[0]
    path = workdir / str(defect["file"])
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(str(defect["replace"]), str(defect["find"]), 1), encoding="utf-8")
    print(f"Repaired seeded defect {defect['name']!r} in {defect['file']}.")
    print("STATUS: DONE")
    return 0


if __name__ == "__main__":
    sys.exit(main())
