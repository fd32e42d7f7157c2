"""A fake implementer for loop tests: removes one fixable defect named in its prompt.

    fake_implementer.py WORKDIR PROMPT_FILE [FLAG...]

--tamper also edits the spec's spec.md (a protected file); --crash exits 1 after printing;
--noop changes nothing; --no-status prints no STATUS line; --say-blocked ends BLOCKED.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> int:
    workdir, prompt_file, *flags = sys.argv[1:]
    root = Path(workdir)
    prompt = Path(prompt_file).read_text(encoding="utf-8")
    (root / "prompts-seen.txt").open("a", encoding="utf-8").write(prompt + "\n=====\n")
    if "--tamper" in flags:
        spec_md = root / "argus" / "specs" / "demo" / "spec.md"
        spec_md.write_text("- Everything passes.\n", encoding="utf-8")
    if "--crash" in flags:
        print("something went wrong")
        return 1
    app = root / "app.json"
    data = json.loads(app.read_text(encoding="utf-8"))
    if "--noop" not in flags:
        for defect in data["defects"]:
            if defect.get("fixable", True) and f"`{defect['target']}`" in prompt:
                data["defects"].remove(defect)
                print(f"fixed {defect['name']}")
                break
        app.write_text(json.dumps(data), encoding="utf-8")
    if "--say-blocked" in flags:
        print("STATUS: BLOCKED")
    elif "--no-status" not in flags:
        print("STATUS: DONE")
    return 0


if __name__ == "__main__":
    sys.exit(main())
