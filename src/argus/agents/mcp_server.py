"""`argus mcp`: Argus as a Model Context Protocol server (stdio), so any agent can use it.

Each tool runs the matching ``argus`` command in a child process, in the repository the server
was started for, and returns its exit code, its output and (where the command prints JSON) the
parsed document. A child process per call keeps a browser crash or a long loop from taking the
server down, and guarantees an agent gets exactly what the command line gives a person: the
same checks, the same exit codes, the same refusals. No tool accepts an outcome from the
caller: gates run, graders grade, judges judge.

Arguments are data, never options: each is checked (a name is a name; a path or sentence may
not start with ``-`` or hold a NUL) and passed as ``--option=VALUE`` or after ``--``, so
``contract_id="--root=ELSEWHERE"`` is refused, never obeyed. A result whose command exited
non-zero comes back with ``isError`` set (an agent must not read a red gate as success); the
payload is the same. ``approve`` and ``contract_resume`` are a person's decisions
(argus.person): each asks the person through the client (MCP elicitation) to confirm and type
their Argus person passphrase, which reaches the command on its standard input; it is refused
where the client cannot ask, where the person declines, and where the passphrase is not the
person's (an agent answering the form itself does not know it). No tool's command inherits
``ARGUS_PERSON_KEY`` from the server.

A server started with ``--role grader`` (for a grader's own session) offers only what a grader
may do: read where runs stand and evaluate the Stop policy; it can never grade, complete,
pause, retarget or approve.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import (
    AcceptedElicitation,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
)
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from argus.person import SECRET_ENV

INSTRUCTIONS = """Argus checks a UI against its design spec on evidence from outside the builder.
Exit codes: 0 pass, 1 a determinate failure (a red gate, a failing dimension, a stage that did
not pass), 2 bad input or could not run. Sense a view, run its gates, judge an assertion about
the screen with a fresh judge, and drive a contract's stages; nothing here takes your word for
an outcome."""
MAX_OUTPUT_CHARS = 60_000
DEFAULT_TIMEOUT_S = 1800.0


ROLES = ("executor", "grader")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
MAX_TEXT = 4000
MAX_DIFF_PAIRS = 10_000


class BadArgument(ValueError):
    """A tool argument that is not what the tool takes."""


def name_arg(value: str, what: str) -> str:
    """A name (feature, target, state, run or stage id): letters, digits, '.', '_', '-'."""
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise BadArgument(f"{what}: {value!r} is not a name (letters, digits, '.', '_', '-')")
    return value


def text_arg(value: str, what: str, *, limit: int = MAX_TEXT) -> str:
    """A path or a sentence: not empty, not an option, no NUL, bounded."""
    if (
        not isinstance(value, str)
        or not value.strip()
        or value.lstrip().startswith("-")
        or "\0" in value
        or len(value) > limit
    ):
        raise BadArgument(
            f"{what}: {value[:60]!r} is not accepted (empty, starts with '-', holds a NUL or is "
            f"over {limit} characters)"
        )
    return value


def run_argus(
    root: Path,
    args: list[str],
    timeout: float = DEFAULT_TIMEOUT_S,
    stdin: str | None = None,
    *,
    json_lines: bool = False,
) -> dict[str, Any]:
    """Run ``argus ARGS`` in ``root`` (``stdin`` on its standard input); the result as a tool
    returns it, with ``json`` the parsed document (``json_lines``: the list of one object a
    line). The command never inherits the person passphrase from the server."""
    env = {k: v for k, v in os.environ.items() if k != SECRET_ENV}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "argus", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            input=stdin if stdin is not None else "",
        )
    except subprocess.TimeoutExpired:
        return {"exit_code": 2, "stdout": "", "stderr": f"argus {args[0]}: timed out"}
    result: dict[str, Any] = {
        "exit_code": done.returncode,
        "stdout": done.stdout[-MAX_OUTPUT_CHARS:],
        "stderr": done.stderr[-MAX_OUTPUT_CHARS:],
    }
    text = done.stdout.strip()
    if json_lines:
        with contextlib.suppress(json.JSONDecodeError, ValueError, RecursionError):
            result["json"] = [json.loads(line) for line in text.splitlines() if line.strip()]
    elif text.startswith(("{", "[")):
        with contextlib.suppress(json.JSONDecodeError, ValueError, RecursionError):
            result["json"] = json.loads(text)
    return result


def tool_result(result: dict[str, Any]) -> CallToolResult:
    """The tool's answer: the result as structured content and JSON text, ``isError`` unless
    the command exited 0."""
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(result))],
        structured_content=result,
        is_error=result.get("exit_code") != 0,
    )


def refused(message: str) -> CallToolResult:
    return tool_result({"exit_code": 2, "stdout": "", "stderr": f"argus: {message}"})


def call(root: Path, build: Any) -> CallToolResult:
    """Build the argv (a BadArgument is refused before anything runs), run it, answer."""
    try:
        args = build()
    except BadArgument as exc:
        return refused(str(exc))
    return tool_result(run_argus(root, args))


def _view(feature: str, target: str, state: str, appearance: str) -> list[str]:
    return [
        f"--feature={name_arg(feature, 'feature')}",
        f"--target={name_arg(target, 'target')}",
        f"--state={name_arg(state, 'state')}",
        f"--appearance={name_arg(appearance, 'appearance')}",
    ]


def build_server(root: Path, role: str = "executor") -> MCPServer[Any]:
    if role not in ROLES:
        raise ValueError(f"role: {role!r} (one of {', '.join(ROLES)})")
    server: MCPServer[Any] = MCPServer("argus", instructions=INSTRUCTIONS)
    _contract_readers(server, root)
    if role == "grader":
        return server  # a grader reads; it never drives, closes or approves anything
    _view_tools(server, root)
    _contract_drivers(server, root)
    return server


def _view_tools(server: MCPServer[Any], root: Path) -> None:
    @server.tool()
    def lint() -> CallToolResult:
        """Validate every feature spec in the repository and list missing references."""
        return call(root, lambda: ["lint", "--json"])

    @server.tool()
    def sense(feature: str, target: str, state: str, appearance: str) -> CallToolResult:
        """Render one view in a real browser and write render.png, probe.json, console.json,
        axe.json and meta.json (see their paths in the output)."""
        return call(root, lambda: ["sense", *_view(feature, target, state, appearance)])

    @server.tool()
    def gates(feature: str, target: str, state: str, appearance: str) -> CallToolResult:
        """Sense the view now and run every configured deterministic gate on it (contrast,
        accessibility ids, axe, console, snapshot ...). isError when a gate is red."""
        return call(
            root, lambda: ["gates", *_view(feature, target, state, appearance), "--sense", "--json"]
        )

    @server.tool()
    def judge(feature: str, target: str, state: str, appearance: str) -> CallToolResult:
        """Score one view against the rubric with the configured judge (gates must be green;
        the judge never sees the change). isError unless every dimension passes."""
        return call(root, lambda: ["judge", *_view(feature, target, state, appearance), "--json"])

    @server.tool()
    def report(feature: str = "", run: str = "") -> CallToolResult:
        """Write the HTML report of a loop run (default: the latest); its path is in stdout."""

        def build() -> list[str]:
            args = ["report"]
            if feature:
                args.append(f"--feature={name_arg(feature, 'feature')}")
            if run:
                args.append(f"--run={name_arg(run, 'run')}")
            return args

        return call(root, build)

    @server.tool()
    def approve(
        feature: str,
        target: str,
        person: Annotated[ElicitationResult[Confirmation], Resolve(_ask_the_person)],
        state: str = "",
        appearance: str = "",
        wrong: str = "",
        note: str = "",
    ) -> CallToolResult:
        """A person's decision (HE-1 candidate reference, HE-2 spot-check): the client asks
        the person to confirm (MCP elicitation); refused unless they do."""
        try:
            args = _approve_args(feature, target, state, appearance, wrong, note)
        except BadArgument as exc:
            return refused(str(exc))
        return _as_the_person(root, args, person)

    @server.tool()
    def assert_view(
        assertion: str, feature: str, target: str, state: str, appearance: str
    ) -> CallToolResult:
        """Ask a fresh judge whether ONE sentence holds on the view, sensed now (e.g. "no text
        is clipped"). Inconclusive is never a pass. Needs a litellm or command judge."""
        return call(
            root,
            lambda: [
                "assert",
                "judge",
                f"--assertion={text_arg(assertion, 'assertion')}",
                "--json",
                *_view(feature, target, state, appearance),
            ],
        )

    @server.tool()
    def diff(
        image_a: str = "", image_b: str = "", pairs: list[dict[str, Any]] | None = None
    ) -> CallToolResult:
        """Compare PNGs (pixelmatch-compatible): mismatch count, density, changed regions.
        One pair: image_a and image_b (json: the report). Many pairs, compared in one process:
        pairs=[{"expected": PATH, "actual": PATH, "diff"?: PATH to write the diff image,
        "threshold"?: 0..1, "include_aa"?: bool, "window"?: int}, ...] (json: one report per
        pair, in order; a pair that cannot be compared has "error"). Paths are relative to the
        repository. isError when any pair differs or could not be compared."""
        if pairs is None:
            return call(
                root,
                lambda: [
                    "diff",
                    "--json",
                    "--",
                    text_arg(image_a, "image_a"),
                    text_arg(image_b, "image_b"),
                ],
            )
        if image_a or image_b:
            return refused("diff: give image_a and image_b, or pairs, not both")
        if not pairs or len(pairs) > MAX_DIFF_PAIRS:
            return refused(f"diff: pairs must list 1 to {MAX_DIFF_PAIRS} pairs")
        # Each pair is a JSON line on the command's standard input: data, never an option.
        stdin = "".join(json.dumps(pair) + "\n" for pair in pairs)
        return tool_result(run_argus(root, ["diff", "--pairs", "-"], stdin=stdin, json_lines=True))

    @server.tool()
    def referee(config: str) -> CallToolResult:
        """Merge captured evidence named in a referee config (repository-relative JSON) into
        one verdict with a next action: ship, capture more evidence, or what to fix."""
        return call(root, lambda: ["referee", "--", text_arg(config, "config")])

    @server.tool()
    def loop(feature: str, mode: str = "headless") -> CallToolResult:
        """Run the convergence loop for a feature (implement, sense, gate, judge until two
        passes in a row per view). mode: headless or report-only."""

        def build() -> list[str]:
            if mode not in ("headless", "report-only"):
                raise BadArgument("mode: headless or report-only")
            return ["loop", f"--feature={name_arg(feature, 'feature')}", f"--mode={mode}"]

        return call(root, build)


class Confirmation(BaseModel):
    confirm: bool
    passphrase: str = ""


def _as_the_person(
    root: Path, args: list[str], person: ElicitationResult[Confirmation]
) -> CallToolResult:
    """Run a person's decision once the person confirmed it through the client; the
    passphrase they typed goes to the command's standard input (the command checks it)."""
    if not isinstance(person, AcceptedElicitation) or not person.data.confirm:
        what = " ".join(word for word in args[:2] if not word.startswith("-"))
        return refused(
            f"{what} is a person's decision and the person did not confirm; run "
            f"`argus {' '.join(args)}` in a terminal"
        )
    return tool_result(run_argus(root, args, stdin=person.data.passphrase + "\n"))


PERSON_ASKS = (
    "Confirm only if you looked at the evidence yourself, and type your Argus person "
    "passphrase (set with `argus person init`)."
)


def _approve_args(
    feature: str, target: str, state: str, appearance: str, wrong: str, note: str
) -> list[str]:
    args = ["approve", f"--feature={name_arg(feature, 'feature')}"]
    args.append(f"--target={name_arg(target, 'target')}")
    if state or appearance:
        args += [f"--state={name_arg(state, 'state')}"]
        args += [f"--appearance={name_arg(appearance, 'appearance')}"]
    if wrong:
        args.append(f"--wrong={name_arg(wrong, 'wrong')}")
    if note:
        args.append(f"--note={text_arg(note, 'note', limit=500)}")
    return args


def _ask_the_person(
    feature: str,
    target: str,
    state: str = "",
    appearance: str = "",
    wrong: str = "",
    note: str = "",
) -> Elicit[Confirmation]:
    """The question the client puts to its person before approve runs."""
    try:
        what = " ".join(_approve_args(feature, target, state, appearance, wrong, note))
    except BadArgument as exc:
        what = f"approve (with arguments that will be refused: {exc})"
    return Elicit(
        f"An agent asks to record your decision: argus {what}. {PERSON_ASKS}", Confirmation
    )


def _ask_to_resume(contract_id: str) -> Elicit[Confirmation]:
    """The question the client puts to its person before a run is resumed."""
    return Elicit(
        f"An agent asks to resume the contract run {contract_id[:128]!r} (argus contract "
        f"resume). {PERSON_ASKS}",
        Confirmation,
    )


def _contract_readers(server: MCPServer[Any], root: Path) -> None:
    @server.tool()
    def contract_status(contract_id: str = "") -> CallToolResult:
        """Where contract runs stand: phase and each stage's status and attempts."""
        return call(
            root,
            lambda: (
                ["contract", "status", "--json", "--"]
                + ([name_arg(contract_id, "contract_id")] if contract_id else [])
            ),
        )

    @server.tool()
    def contract_stop_evaluate() -> CallToolResult:
        """What the Stop hook would decide now: isError (with the reason) while a run holds
        the session, an empty answer when it may end."""
        from argus.contract.hook import run_stop_hook

        out = run_stop_hook(json.dumps({"cwd": str(root)}).encode(), None, root)
        decision = json.loads(out) if out else None
        return tool_result(
            {"exit_code": 1 if decision else 0, "stdout": out, "stderr": "", "json": decision}
        )


def _run_and_stage(contract_id: str, stage: str) -> list[str]:
    return ["--", name_arg(contract_id, "contract_id"), name_arg(stage, "stage")]


def _contract_drivers(server: MCPServer[Any], root: Path) -> None:
    @server.tool()
    def contract_start(contract: str = "", preset: str = "") -> CallToolResult:
        """Start a run of a contract file (YAML or JSON, repository-relative) or of a preset
        (frontend-ui, docs-workflow, custom-pipeline)."""

        def build() -> list[str]:
            if bool(contract) == bool(preset):
                raise BadArgument("give a contract file or a preset (one)")
            if preset:
                return ["contract", "start", f"--preset={name_arg(preset, 'preset')}"]
            return ["contract", "start", "--", text_arg(contract, "contract")]

        return call(root, build)

    @server.tool()
    def contract_advance(contract_id: str, phase: str = "verifying") -> CallToolResult:
        """Move a contract run to verifying when the work is ready (or back to running)."""

        def build() -> list[str]:
            if phase not in ("verifying", "running"):
                raise BadArgument("phase: verifying or running")
            return ["contract", "advance", "--", name_arg(contract_id, "contract_id"), phase]

        return call(root, build)

    @server.tool()
    def contract_grade(contract_id: str, stage: str) -> CallToolResult:
        """Run a mechanical stage: Argus runs its command; exit 0 passes it."""
        return call(root, lambda: ["contract", "grade", *_run_and_stage(contract_id, stage)])

    @server.tool()
    def contract_judge(contract_id: str, stage: str) -> CallToolResult:
        """Dispatch the independent grader of a reviewer stage (either role)."""
        return call(root, lambda: ["contract", "judge", *_run_and_stage(contract_id, stage)])

    @server.tool()
    def contract_stage_verifier_dispatch(contract_id: str, stage: str) -> CallToolResult:
        """Dispatch the independent reviewer of a stage-verifier stage (this stage and its
        predecessors); refused for any other stage type."""
        args = ["contract", "judge", "--expect=stage-verifier"]
        return call(root, lambda: [*args, *_run_and_stage(contract_id, stage)])

    @server.tool()
    def contract_loop_grader_dispatch(contract_id: str, stage: str) -> CallToolResult:
        """Dispatch the independent grader of a loop-grader stage (whole-loop completeness);
        refused for any other stage type."""
        args = ["contract", "judge", "--expect=loop-grader"]
        return call(root, lambda: [*args, *_run_and_stage(contract_id, stage)])

    @server.tool()
    def contract_executor_stage_input(contract_id: str, stage: str) -> CallToolResult:
        """An executor stage's exact input packet (its prompt) and input_fingerprint."""
        return call(root, lambda: ["contract", "stage-input", *_run_and_stage(contract_id, stage)])

    @server.tool()
    def contract_executor_stage_complete(
        contract_id: str,
        stage: str,
        input_fingerprint: str,
        output_digest: str,
        evidence_refs: list[str],
    ) -> CallToolResult:
        """Complete an executor stage (pass only) against its input packet: the packet's
        input_fingerprint, a lower-case SHA-256 of the output and evidence references."""

        def build() -> list[str]:
            args = ["contract", "stage-complete"]
            args.append(f"--input-fingerprint={name_arg(input_fingerprint, 'input_fingerprint')}")
            args.append(f"--output-digest={name_arg(output_digest, 'output_digest')}")
            if not evidence_refs:
                raise BadArgument("evidence_refs: at least one reference")
            args += [f"--evidence={text_arg(r, 'evidence_refs', limit=500)}" for r in evidence_refs]
            return [*args, *_run_and_stage(contract_id, stage)]

        return call(root, build)

    @server.tool()
    def contract_summary_write(contract_id: str, body: str) -> CallToolResult:
        """Write the closure summary (sections Summary, Stage state, Blockers, Failures,
        Evidence, Recommendations); Argus stamps its fingerprint header."""
        try:
            args = ["contract", "summary", "write", "--", name_arg(contract_id, "contract_id")]
            if not body.strip() or len(body) > 64_000 or "\0" in body:
                raise BadArgument("body: the summary's sections, under 64 000 characters")
        except BadArgument as exc:
            return refused(str(exc))
        return tool_result(run_argus(root, args, stdin=body))

    @server.tool()
    def contract_block(contract_id: str, reason: str) -> CallToolResult:
        """Mark the run blocked on something outside the session (needs a fresh summary);
        the Stop hook keeps holding the session until a person decides."""
        return call(
            root,
            lambda: ["contract", "block", f"--reason={text_arg(reason, 'reason', limit=500)}",
                     "--", name_arg(contract_id, "contract_id")],
        )  # fmt: skip

    @server.tool()
    def contract_retarget(contract_id: str, contract: str) -> CallToolResult:
        """Give an open run a new contract; verdicts are kept only for stages whose id, type
        and working tree are unchanged."""
        return call(
            root,
            lambda: ["contract", "retarget", "--", name_arg(contract_id, "contract_id"),
                     text_arg(contract, "contract")],
        )  # fmt: skip

    @server.tool()
    def contract_resume(
        contract_id: str,
        person: Annotated[ElicitationResult[Confirmation], Resolve(_ask_to_resume)],
    ) -> CallToolResult:
        """Resume a paused or blocked run (a spent budget stays spent): a person's decision,
        so the client asks the person to confirm it (MCP elicitation); refused unless they
        do, with their passphrase."""
        try:
            args = ["contract", "resume", "--", name_arg(contract_id, "contract_id")]
        except BadArgument as exc:
            return refused(str(exc))
        return _as_the_person(root, args, person)

    @server.tool()
    def contract_complete(contract_id: str) -> CallToolResult:
        """Close a contract run whose required stages all passed (needs a fresh summary)."""
        return call(
            root, lambda: ["contract", "complete", "--", name_arg(contract_id, "contract_id")]
        )


def serve(root: Path, role: str = "executor") -> None:
    build_server(root, role).run()
