"""`argus mcp`: Argus as a Model Context Protocol server (stdio), so any agent can use it.

Each tool runs the matching ``argus`` command in a child process, in the repository the server
was started for, and returns its exit code, its output and (where the command prints JSON) the
parsed document. A child process per call keeps a browser crash or a long loop from taking the
server down, and guarantees an agent gets exactly what the command line gives a person: the
same checks, the same exit codes, the same refusals. No tool accepts an outcome from the
caller: gates run, graders grade, judges judge.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

INSTRUCTIONS = """Argus checks a UI against its design spec on evidence from outside the builder.
Exit codes: 0 pass, 1 a determinate failure (a red gate, a failing dimension, a stage that did
not pass), 2 bad input or could not run. Sense a view, run its gates, judge an assertion about
the screen with a fresh judge, and drive a contract's stages; nothing here takes your word for
an outcome."""
MAX_OUTPUT_CHARS = 60_000
DEFAULT_TIMEOUT_S = 1800.0


def run_argus(root: Path, args: list[str], timeout: float = DEFAULT_TIMEOUT_S) -> dict[str, Any]:
    """Run ``argus ARGS`` in ``root``; the result as a tool returns it."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "argus", *args],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"exit_code": 2, "stdout": "", "stderr": f"argus {args[0]}: timed out"}
    result: dict[str, Any] = {
        "exit_code": done.returncode,
        "stdout": done.stdout[-MAX_OUTPUT_CHARS:],
        "stderr": done.stderr[-MAX_OUTPUT_CHARS:],
    }
    text = done.stdout.strip()
    if text.startswith(("{", "[")):
        with contextlib.suppress(json.JSONDecodeError):
            result["json"] = json.loads(text)
    return result


def _view(feature: str, target: str, state: str, appearance: str) -> list[str]:
    return ["--feature", feature, "--target", target, "--state", state, "--appearance", appearance]


def build_server(root: Path) -> MCPServer[Any]:
    from mcp.server.mcpserver import MCPServer

    server: MCPServer[Any] = MCPServer("argus", instructions=INSTRUCTIONS)

    @server.tool()
    def lint() -> dict[str, Any]:
        """Validate every feature spec in the repository and list missing references."""
        return run_argus(root, ["lint", "--json"])

    @server.tool()
    def sense(feature: str, target: str, state: str, appearance: str) -> dict[str, Any]:
        """Render one view in a real browser and write render.png, probe.json, console.json,
        axe.json and meta.json (see their paths in the output)."""
        return run_argus(root, ["sense", *_view(feature, target, state, appearance)])

    @server.tool()
    def gates(feature: str, target: str, state: str, appearance: str) -> dict[str, Any]:
        """Sense the view now and run every configured deterministic gate on it (contrast,
        accessibility ids, axe, console, snapshot ...). Exit 1 when a gate is red."""
        args = ["gates", *_view(feature, target, state, appearance), "--sense", "--json"]
        return run_argus(root, args)

    @server.tool()
    def assert_view(
        assertion: str, feature: str, target: str, state: str, appearance: str
    ) -> dict[str, Any]:
        """Ask a fresh judge whether ONE sentence holds on the view, sensed now (e.g. "no text
        is clipped"). Inconclusive is never a pass. Needs a litellm or command judge."""
        args = ["assert", "judge", "--assertion", assertion, "--json"]
        return run_argus(root, [*args, *_view(feature, target, state, appearance)])

    @server.tool()
    def diff(image_a: str, image_b: str) -> dict[str, Any]:
        """Compare two PNGs (pixelmatch-compatible): mismatch count, density, changed regions."""
        return run_argus(root, ["diff", image_a, image_b, "--json"])

    @server.tool()
    def referee(config: str) -> dict[str, Any]:
        """Merge captured evidence named in a referee config (repository-relative JSON) into
        one verdict with a next action: ship, capture more evidence, or what to fix."""
        return run_argus(root, ["referee", config])

    @server.tool()
    def loop(feature: str, mode: str = "headless") -> dict[str, Any]:
        """Run the convergence loop for a feature (implement, sense, gate, judge until two
        passes in a row per view). mode: headless or report-only."""
        if mode not in ("headless", "report-only"):
            return {"exit_code": 2, "stdout": "", "stderr": "mode: headless or report-only"}
        return run_argus(root, ["loop", "--feature", feature, "--mode", mode])

    @server.tool()
    def contract_status(contract_id: str = "") -> dict[str, Any]:
        """Where contract runs stand: phase and each stage's status and attempts."""
        return run_argus(
            root, ["contract", "status", *([contract_id] if contract_id else []), "--json"]
        )

    @server.tool()
    def contract_advance(contract_id: str, phase: str = "verifying") -> dict[str, Any]:
        """Move a contract run to verifying when the work is ready (or back to running)."""
        return run_argus(root, ["contract", "advance", contract_id, phase])

    @server.tool()
    def contract_grade(contract_id: str, stage: str) -> dict[str, Any]:
        """Run a mechanical stage: Argus runs its command; exit 0 passes it."""
        return run_argus(root, ["contract", "grade", contract_id, stage])

    @server.tool()
    def contract_judge(contract_id: str, stage: str) -> dict[str, Any]:
        """Have the stage's independent grader judge a judgment stage (GO with evidence)."""
        return run_argus(root, ["contract", "judge", contract_id, stage])

    @server.tool()
    def contract_complete(contract_id: str) -> dict[str, Any]:
        """Close a contract run whose required stages all passed; writes its summary."""
        return run_argus(root, ["contract", "complete", contract_id])

    return server


def serve(root: Path) -> None:
    build_server(root).run()
