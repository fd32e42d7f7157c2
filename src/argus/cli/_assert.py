"""`argus assert`: a fresh judge decides one visual or semantic assertion about the screen.

    argus assert judge --assertion "…" --evidence screenshot=shot.png [--evidence ui-tree=t.json]
    argus assert judge --assertion "…" --feature F --target T --state S --appearance A
    argus assert packet --assertion "…" --evidence screenshot=shot.png --out DIR
    argus assert prompt --packet DIR            # the whole prompt, for a fresh subagent
    argus assert check --packet DIR --verdict judge-verdict.json

Exit codes: 0 passed; 1 failed or inconclusive (inconclusive is never a pass); 2 bad input or
could not run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, feature_spec, repo_root
from argus.cli._types import seconds
from argus.errors import InputError, SensorError
from argus.io import atomic_write_json, atomic_write_text, read_bytes, read_json

VERDICT_FILE = "judge-verdict.json"
RESULT_FILE = "judge-result.json"
MAX_VERDICT_BYTES = 1024 * 1024
JUDGED_ALREADY = (
    "this packet was judged already; a verdict is never replaced: build a new packet and ask a "
    "new judge"
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "assert",
        help="judge one visual or semantic assertion with a fresh judge",
        description='Decide one sentence about the screen ("no text is clipped", "the error '
        'tells the user what to do") with a fresh judge that sees only the assertion and the '
        "evidence captured for it, never the run. Exit 0 passed, 1 failed or inconclusive, "
        "2 bad input.",
    )
    actions = parser.add_subparsers(dest="assert_action", metavar="ACTION", required=True)

    judge = actions.add_parser(
        "judge",
        help="build a packet and ask the configured judge (litellm or command)",
        description="Capture (with --feature/--target/--state/--appearance: sense the view "
        "now) or take the evidence, build a packet, ask the project's [judge] backend, and "
        "check its answer. Writes judge-packet.json, judge-verdict.json and judge-result.json.",
    )
    _packet_arguments(judge, out_required=False)
    for name, what in (
        ("feature", "sense this feature's view now instead of --evidence"),
        ("target", "target of the view to sense"),
        ("state", "state of the view to sense"),
        ("appearance", "appearance of the view to sense"),
    ):
        judge.add_argument(f"--{name}", help=what)
    judge.add_argument("--base-url", help="with a view: override base_url (no web server)")
    judge.add_argument("--json", action="store_true", help="print the result as JSON")
    add_root_argument(judge)
    judge.set_defaults(func=run_judge)

    packet = actions.add_parser(
        "packet",
        help="build an assertion packet from evidence files",
        description="Copy the evidence into DIR with its digests and write judge-packet.json. "
        "Without --out the packet goes to .argus/assertions/STAMP/ and its judge-packet.json "
        "is printed on standard output. Anything that describes the run is refused.",
    )
    _packet_arguments(packet, out_required=False)
    add_root_argument(packet)
    packet.set_defaults(func=run_packet)

    prompt = actions.add_parser(
        "prompt",
        help="print the whole prompt for a fresh subagent",
        description="Print the judge's instructions, the assertion and the evidence paths: the "
        "entire prompt of a fresh subagent (no conversation carried over).",
    )
    prompt.add_argument("--packet", type=Path, required=True, metavar="DIR")
    prompt.set_defaults(func=run_prompt)

    check = actions.add_parser(
        "check",
        help="check a judge's answer against its packet",
        description="Exit 0 when the judge said passed with a reason citing the packet's "
        "evidence; 1 when it said failed or inconclusive, or its answer has no reason, no "
        "citation, cites anything not in the packet, or is for another packet; 2 when the "
        "packet is unreadable, its evidence changed, or it was judged already with another "
        "verdict (a verdict is never replaced).",
    )
    check.add_argument("--packet", type=Path, required=True, metavar="DIR")
    check.add_argument("--verdict", type=Path, required=True, metavar="VERDICT.json")
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.set_defaults(func=run_check)


def _packet_arguments(parser: argparse.ArgumentParser, *, out_required: bool) -> None:
    parser.add_argument("--assertion", required=True, help="one sentence about the screen")
    parser.add_argument(
        "--evidence",
        action="append",
        default=[],
        metavar="KIND=PATH",
        help="screenshot=PNG (required) and ui-tree=JSON|TXT (the page's elements or ARIA tree)",
    )
    parser.add_argument("--vocabulary", help="the app's own terms, when the assertion uses them")
    parser.add_argument(
        "--max-age",
        type=seconds,
        default=600.0,
        metavar="SECONDS",
        help="refuse evidence files older than this (default 600: evidence is captured now)",
    )
    parser.add_argument(
        "--out", type=Path, required=out_required, metavar="DIR", help="the packet directory"
    )


def _build(args: argparse.Namespace, evidence: dict[str, Path], out: Path) -> Any:
    from argus.assertion import build_packet

    return build_packet(
        out,
        assertion=args.assertion,
        evidence=evidence,
        vocabulary=args.vocabulary,
        max_age_s=args.max_age,
    )


def run_packet(args: argparse.Namespace) -> int:
    from argus.assertion import parse_evidence

    if args.out is not None:
        packet = _build(args, parse_evidence(args.evidence), args.out)
        print(f"packet: {packet.file}")
        return 0
    out = repo_root(args) / ".argus" / "assertions" / _stamp()
    packet = _build(args, parse_evidence(args.evidence), out)
    print(f"packet: {packet.file}", file=sys.stderr)
    sys.stdout.write(packet.file.read_text("utf-8"))
    return 0


def run_prompt(args: argparse.Namespace) -> int:
    from argus.assertion import load_packet
    from argus.assertion.ask import assertion_prompt

    packet = load_packet(args.packet)
    print(assertion_prompt(packet, images="paths", max_pixels=0).as_text(), end="")
    return 0


def run_check(args: argparse.Namespace) -> int:
    from argus.assertion import check_answer, load_packet

    packet = load_packet(args.packet)
    data = read_bytes(args.verdict, what="judge verdict", limit=MAX_VERDICT_BYTES)
    digest = hashlib.sha256(data).hexdigest()
    earlier = _earlier_result(packet.directory, data, digest)
    result = check_answer(packet, data.decode("utf-8", "replace"))
    # The same verdict checked again: keep what the first check recorded beside it (who asked).
    document = {**(earlier or {}), **result.to_json(packet), "verdict_sha256": digest}
    atomic_write_json(packet.directory / RESULT_FILE, document)
    _print(document, args.json)
    return 0 if result.passed else 1


def _earlier_result(directory: Path, data: bytes, digest: str) -> dict[str, Any] | None:
    """The packet's result from checking these same verdict bytes, if any; a packet judged with
    any other verdict is refused, because the actor never overrides a judge."""
    saved = directory / VERDICT_FILE
    if saved.is_file() and read_bytes(saved, what="judge verdict", limit=MAX_VERDICT_BYTES) != data:
        raise InputError(f"{directory}: {JUDGED_ALREADY}")
    result_file = directory / RESULT_FILE
    if not result_file.exists():
        return None
    earlier = read_json(result_file, what="judge result")
    if not isinstance(earlier, dict) or earlier.get("verdict_sha256") != digest:
        raise InputError(f"{directory}: {JUDGED_ALREADY}")
    return earlier


def _stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{time.time_ns() % 1_000_000:06d}"


def _sense_now(args: argparse.Namespace, root: Path, config: Any) -> tuple[dict[str, Path], Path]:
    """Sense the named view now; its render and probe are the evidence."""
    from argus.sense.controls_choice import ASSERT
    from argus.sense.sensor import Sensor
    from argus.spec import View

    missing = [f"--{n}" for n in ("target", "state", "appearance") if not getattr(args, n)]
    if missing:
        raise InputError(f"argus assert judge --feature: give {', '.join(missing)} as well")
    spec = feature_spec(root, args.feature)
    view = View(spec.feature, args.target, args.state, args.appearance)
    out = args.out or spec.spec_dir / ".argus-runs" / "assertions" / f"{view.slug}-{_stamp()}"
    sensed = out.parent / f".{out.name}.sensed"
    with Sensor(config, controls=ASSERT) as sensor:
        sensor.plan(spec, view, args.base_url)
        result = sensor.sense(spec, view, sensed, base_url=args.base_url)
    if not result.ok:
        raise SensorError(str(result.error))
    return {"screenshot": sensed / "render.png", "ui-tree": sensed / "probe.json"}, out


def run_judge(args: argparse.Namespace) -> int:
    from argus.assertion import check_answer, parse_evidence, unanswered
    from argus.assertion.ask import ask, describe
    from argus.config import load_config

    root = repo_root(args)
    config = load_config(root)
    view_given = any(getattr(args, n) for n in ("feature", "target", "state", "appearance"))
    if view_given and args.evidence:
        raise InputError("argus assert judge: give --evidence or a view to sense, not both")
    if view_given and not args.feature:
        raise InputError("argus assert judge: a view to sense needs --feature")
    if view_given:
        evidence, out = _sense_now(args, root, config)
    else:
        evidence = parse_evidence(args.evidence)
        out = args.out or root / ".argus" / "assertions" / _stamp()
    packet = _build(args, evidence, out)
    if view_given:
        shutil.rmtree(evidence["screenshot"].parent, ignore_errors=True)
    asked = ask(packet, config)
    digest = None
    if asked.text is None:
        result = unanswered(asked.error or "no answer")
    else:
        atomic_write_text(packet.directory / VERDICT_FILE, asked.text)
        digest = hashlib.sha256(asked.text.encode("utf-8")).hexdigest()
        result = check_answer(packet, asked.text)
    document = {**result.to_json(packet), "verdict_sha256": digest, "asked": describe(asked)}
    atomic_write_json(packet.directory / RESULT_FILE, document)
    _print(document, args.json)
    if not args.json:
        print(f"packet: {packet.directory}")
    return 0 if result.passed else 1


def _print(document: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(document, indent=2))
        return
    code = f" ({document['code']})" if document["code"] else ""
    print(f"assertion: {document['assertion']}")
    print(f"result: {document['verdict']}{code}")
    accepted = document["judge"]["answer_accepted"]
    label = "the judge's reason" if accepted else "answer not accepted"
    print(f"{label}: {document['reason']}")
