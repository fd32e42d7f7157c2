"""What the metric judge refuses without an approved render: the Dashboard corpus measured.

    python -m bench.refree                      # print the table (a few minutes)
    python -m bench.refree --write docs/judge.md  # and put it between the refree markers
    python -m bench.refree --without-typed      # the same, the spec's typed checks removed

Every variant of examples/dashboard (the clean app, its refactors, its seeded defects) is
sensed once in its view by one Chromium (tests.support.corpus), then put through the
example's gates and, on its own, the metric judge under three references: the approved
render (``candidate``, the loop's usual flow), a design mock (``design``: the clean app drawn
in another font, exported at 2x, its title nudged 3 px) and none (``absent``). A judge cell
says ``refused`` (the dimensions that failed), ``abstained`` (nothing failed, something was
unverified: no sign-off, but no finding either) or ``missed`` (every dimension passed); for a
clean or benign variant, ``signs off`` is the right answer. The gates column is the example's
gate list without the snapshot gate, which needs an approved render.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tests.support.corpus import Corpus, Mode, Run, dashboard_corpus

from argus.config import ProjectConfig
from argus.sense import Sensor
from argus.sense.controls_choice import LOOP
from bench.tables import replace_between_markers

MARKERS = ("<!-- refree:start -->", "<!-- refree:end -->")
ROOT = Path(__file__).resolve().parent.parent


def judged(run: Run, benign: bool) -> str:
    """One judge cell: what the metric judge alone said about this variant."""
    failed = run.verdict.failed_dimensions
    if failed:
        return f"refused ({', '.join(failed)})"
    if run.verdict.outcome == "pass":
        return "signs off" if benign else "**missed**"
    unverified = ", ".join(run.verdict.unverified_dimensions)
    return f"abstained ({unverified})"


def gates_cell(run: Run) -> str:
    red = sorted(run.red_gates - {"snapshot"})
    return ", ".join(red) if red else "green"


def table(corpus: Corpus) -> str:
    modes: tuple[Mode, ...] = ("candidate", "design", "absent")
    lines = [
        "| variant | view | expected | gates (no snapshot) | judge, approved render | "
        "judge, design mock | judge, no reference |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for variant in corpus.variants:
        defect = corpus.defects.get(variant)
        benign = defect is None
        runs = {mode: corpus.run(variant, mode) for mode in modes}
        expected = "sign-off" if defect is None else f"{defect.gate or '-'} / {defect.dimension}"
        cells = [judged(runs[mode], benign) for mode in modes]
        lines.append(
            f"| {variant} | {runs['candidate'].view} | {expected} | "
            f"{gates_cell(runs['design'])} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="replace the table between the markers here")
    parser.add_argument(
        "--without-typed",
        action="store_true",
        help="judge the spec with its typed checks removed (what they add, measured)",
    )
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory(prefix="argus-refree-") as work,
        Sensor(ProjectConfig(root=ROOT), workers=1, controls=LOOP) as sensor,
        dashboard_corpus(sensor, Path(work), typed=not args.without_typed) as corpus,
    ):
        body = table(corpus)
    print(body)
    if args.write is not None:
        text = args.write.read_text(encoding="utf-8")
        updated = replace_between_markers(text, body, MARKERS)
        if updated is None:
            print(f"{args.write}: no {MARKERS[0]} ... {MARKERS[1]} markers", file=sys.stderr)
            return 2
        args.write.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
