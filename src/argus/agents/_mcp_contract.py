"""The contract tools of ``argus mcp``: one tool for each ``argus contract`` action.

``CLI_VERBS`` names the command each tool runs, so a test holds the two surfaces to the same set
of actions. A person's decisions (pin, pause, resume, abort) ask the person through the client
(MCP elicitation) and are refused without their confirmation and passphrase. A grader's session
gets only the readers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
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

# The command each contract tool runs: every `argus contract` action has a tool and every tool
# an action (tests/agents/test_contract_surfaces.py holds both surfaces to this table and
# checks that each tool really runs its command).
CLI_VERBS = {
    "contract_validate": "contract validate",
    "contract_doctor": "contract doctor",
    "contract_pin": "contract pin",
    "contract_start": "contract start",
    "contract_advance": "contract advance",
    "contract_status": "contract status",
    "contract_verify": "contract verify",
    "contract_executor_stage_input": "contract stage-input",
    "contract_executor_stage_complete": "contract stage-complete",
    "contract_grade": "contract grade",
    "contract_judge": "contract judge",
    "contract_stage_verifier_dispatch": "contract judge",
    "contract_loop_grader_dispatch": "contract judge",
    "contract_summary_write": "contract summary write",
    "contract_summary_show": "contract summary show",
    "contract_complete": "contract complete",
    "contract_block": "contract block",
    "contract_retarget": "contract retarget",
    "contract_pause": "contract pause",
    "contract_resume": "contract resume",
    "contract_abort": "contract abort",
    "contract_stop_evaluate": "hook stop",
}


def _asking(what: str) -> Elicit[Confirmation]:
    return Elicit(f"An agent asks to {what}. {PERSON_ASKS}", Confirmation)


def _ask_to_resume(contract_id: str) -> Elicit[Confirmation]:
    """The question the client puts to its person before a run is resumed."""
    return _asking(f"resume the contract run {contract_id[:128]!r} (argus contract resume)")


def _ask_to_pause(contract_id: str, reason: str) -> Elicit[Confirmation]:
    """The question before a run is paused (a paused run lets the session end)."""
    return _asking(
        f"pause the contract run {contract_id[:128]!r} because {reason[:300]!r} (argus "
        "contract pause; a paused run no longer holds the session)"
    )


def _ask_to_abort(contract_id: str, reason: str) -> Elicit[Confirmation]:
    """The question before a run is aborted (final)."""
    return _asking(
        f"abort the contract run {contract_id[:128]!r} because {reason[:300]!r} (argus "
        "contract abort; an aborted run is final)"
    )


def _ask_to_pin(contract: str = "", preset: str = "") -> Elicit[Confirmation]:
    """The question before a contract is pinned (runs then honour it as it is now)."""
    what = f"the preset {preset[:128]!r}" if preset else f"the contract file {contract[:300]!r}"
    return _asking(f"pin {what} as it is now (argus contract pin): runs honour only that")


def contract_readers(server: MCPServer[Any], root: Path) -> None:
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
    def contract_verify(contract_id: str) -> CallToolResult:
        """Walk a run's hash-chained ledger and check its state.json against it: isError,
        naming the first broken line, when either was changed outside Argus."""
        return call(
            root, lambda: ["contract", "verify", "--", name_arg(contract_id, "contract_id")]
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


def contract_drivers(server: MCPServer[Any], root: Path) -> None:
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
        return as_the_person(root, args, person)

    @server.tool()
    def contract_validate(contract: str) -> CallToolResult:
        """Check a contract file (YAML or JSON, repository-relative): exit 1 with every problem
        listed, 0 when it is valid."""
        return call(root, lambda: ["contract", "validate", "--", text_arg(contract, "contract")])

    @server.tool()
    def contract_doctor(
        contract: str, executor_model: str = "", grader_model: str = ""
    ) -> CallToolResult:
        """Every reason a run of the contract would be refused (independence, programs,
        pins), before starting it. executor_model: default [implementer] model."""

        def build() -> list[str]:
            args = ["contract", "doctor", f"--contract={text_arg(contract, 'contract')}"]
            if executor_model:
                args.append(f"--executor-model={text_arg(executor_model, 'executor_model')}")
            if grader_model:
                args.append(f"--grader-model={text_arg(grader_model, 'grader_model')}")
            return args

        return call(root, build)

    @server.tool()
    def contract_summary_show(contract_id: str) -> CallToolResult:
        """The run's closure summary as Argus stamped it."""
        return call(
            root,
            lambda: ["contract", "summary", "show", "--", name_arg(contract_id, "contract_id")],
        )

    @server.tool()
    def contract_pin(
        person: Annotated[ElicitationResult[Confirmation], Resolve(_ask_to_pin)],
        contract: str = "",
        preset: str = "",
    ) -> CallToolResult:
        """Pin a contract file or a preset as it is now (runs honour only a pinned contract):
        a person's decision, asked through the client (MCP elicitation) with their passphrase."""
        try:
            if bool(contract) == bool(preset):
                raise BadArgument("give a contract file or a preset (one)")
            args = (
                ["contract", "pin", f"--preset={name_arg(preset, 'preset')}"]
                if preset
                else ["contract", "pin", "--", text_arg(contract, "contract")]
            )
        except BadArgument as exc:
            return refused(str(exc))
        return as_the_person(root, args, person)

    @server.tool()
    def contract_pause(
        contract_id: str,
        reason: str,
        person: Annotated[ElicitationResult[Confirmation], Resolve(_ask_to_pause)],
    ) -> CallToolResult:
        """Pause an active or blocked run (the Stop hook then lets the session end): a
        person's decision, asked through the client (MCP elicitation) with their passphrase."""
        return _decided(root, "pause", contract_id, reason, person)

    @server.tool()
    def contract_abort(
        contract_id: str,
        reason: str,
        person: Annotated[ElicitationResult[Confirmation], Resolve(_ask_to_abort)],
    ) -> CallToolResult:
        """Abort a run (final; needs a fresh summary): a person's decision, asked through the
        client (MCP elicitation) with their passphrase."""
        return _decided(root, "abort", contract_id, reason, person)

    @server.tool()
    def contract_complete(contract_id: str) -> CallToolResult:
        """Close a contract run whose required stages all passed (needs a fresh summary)."""
        return call(
            root, lambda: ["contract", "complete", "--", name_arg(contract_id, "contract_id")]
        )


def _decided(
    root: Path,
    action: str,
    contract_id: str,
    reason: str,
    person: ElicitationResult[Confirmation],
) -> CallToolResult:
    """A person's pause or abort of a run, with their reason."""
    try:
        args = ["contract", action, f"--reason={text_arg(reason, 'reason', limit=500)}"]
        args += ["--", name_arg(contract_id, "contract_id")]
    except BadArgument as exc:
        return refused(str(exc))
    return as_the_person(root, args, person)
