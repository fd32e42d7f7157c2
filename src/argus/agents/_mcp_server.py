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
payload is the same. ``approve`` and the contract's pin, pause, resume and abort are a
person's decisions (argus.person): each asks the person through the client (MCP elicitation)
to confirm and type their Argus person passphrase, which reaches the command on its standard
input; it is refused
where the client cannot ask, where the person declines, and where the passphrase is not the
person's (an agent answering the form itself does not know it). No tool's command inherits
``ARGUS_PERSON_KEY`` from the server.

A server started with ``--role grader`` (for a grader's own session) offers only what a grader
may do: read where runs stand and evaluate the Stop policy; it can never grade, complete,
pause, retarget or approve. The contract tools live in argus.agents._mcp_contract, one for
each ``argus contract`` action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any
from weakref import WeakKeyDictionary

from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
from mcp_types import CallToolResult

from argus.agents._mcp_call import (
    PERSON_ASKS,
    BadArgument,
    Confirmation,
    as_the_person,
    call,
    name_arg,
    refused,
    run_argus,
    text_arg,
    tool_result,
)
from argus.agents._mcp_contract import contract_drivers, contract_readers
from argus.agents._mcp_review import review_tools

INSTRUCTIONS = """Argus checks a UI against its design spec on evidence from outside the builder.
Exit codes: 0 pass, 1 a determinate failure (a red gate, a failing dimension, a stage that did
not pass), 2 bad input or could not run. Sense a view, run its gates, judge an assertion about
the screen with a fresh judge, drive a contract's stages, and ask for the advisory review of a
merged PR; nothing here takes your word for an outcome."""
ROLES = ("executor", "grader")
MAX_DIFF_PAIRS = 10_000
# Each server built here and the repository it serves (a resolver sees only the server).
_ROOTS: WeakKeyDictionary[MCPServer[Any], Path] = WeakKeyDictionary()


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
    _ROOTS[server] = root
    contract_readers(server, root)
    if role == "grader":
        return server  # a grader reads; it never drives, closes or approves anything
    _view_tools(server, root)
    contract_drivers(server, root)
    review_tools(server, root)
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
        return as_the_person(root, args, person)

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
        pairs=[{"expected": PATH, "actual": PATH, "threshold"?: 0..1, "include_aa"?: bool,
        "window"?: int}, ...] (json: one report per pair, in order; a pair that cannot be
        compared has "error"). Paths are relative to the repository. Nothing is written (no
        diff images). isError when any pair differs or could not be compared."""
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
        writes = [i + 1 for i, pair in enumerate(pairs) if "diff" in pair]
        if writes:
            # The tool reads and compares; writing an image wherever a caller names (over a
            # snapshot baseline, say) is a person's own command line, never an agent's call.
            return refused(
                f"diff: pair {writes[0]} names a diff image to write; this tool only compares "
                "(run argus diff --pairs yourself to write diff images)"
            )
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
    ctx: Context[Any, Any],
    feature: str,
    target: str,
    state: str = "",
    appearance: str = "",
    wrong: str = "",
    note: str = "",
) -> Elicit[Confirmation]:
    """The question the client puts to its person before approve runs, with the feature's
    latest acceptance-fidelity reviews as context (never a condition of the decision)."""
    try:
        what = " ".join(_approve_args(feature, target, state, appearance, wrong, note))
        context = _reviews_of(_ROOTS[ctx.mcp_server], feature)
    except BadArgument as exc:
        what = f"approve (with arguments that will be refused: {exc})"
        context = ""
    question = f"An agent asks to record your decision: argus {what}. {PERSON_ASKS}"
    return Elicit(question + context, Confirmation)


def _reviews_of(root: Path, feature: str) -> str:
    """The feature's latest reviews as lines appended to a question ("" when none)."""
    from argus.review.context import context_lines, review_context

    lines = context_lines(feature, review_context(root, feature))
    return "".join(f"\n{line}" for line in lines) if lines else ""


def serve(root: Path, role: str = "executor") -> None:
    build_server(root, role).run()
