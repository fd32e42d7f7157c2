"""Whether the ledger proves a stage passed: the evidence, not a status field, decides.

``complete`` and the Stop hook ask this of the ledger's own records (argus.contract._ledger),
never of state.json. A required stage is proven when its latest record is a pass that carries:

- its evidence, whose digest is the one the pass names;
- a mechanical stage: the stage's own command, exit code 0;
- an executor stage: a completion against its input packet (the packet's fingerprint, a
  SHA-256 of the output, evidence references, the prompt's digest);
- a stage-verifier or loop-grader (judgment) stage: a GO with non-empty evidence from a
  grader that is not the executor (a model with another identity than the executor's, both
  the one requested and the one the provider's answer names, or the command the contract
  names);
- the working tree it passed on is the current one (when there is a git tree to compare).
"""

from __future__ import annotations

from typing import Any

from argus.contract._ledger import fold
from argus.contract.model import Contract, Stage
from argus.contract.state import evidence_digest
from argus.judge.identity import same_model


def _sha(value: Any) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def _why_not(stage: Stage, record: dict[str, Any] | None, executor: str, tree: str | None) -> str:
    if record is None or record.get("status") != "passed":
        return "not passed yet"
    last = record.get("last")
    if not isinstance(last, dict) or record.get("evidence_sha256") != evidence_digest(last):
        return "its pass carries no evidence matching its digest"
    if tree is not None and record.get("worktree") != tree:
        return "passed on an earlier working tree"
    if stage.type == "mechanical":
        if last.get("command") != stage.command or last.get("exit_code") != 0:
            return "no exit 0 of its command is recorded"
        return ""
    if stage.type == "executor":
        refs = last.get("evidence_refs")
        if (
            not _sha(last.get("input_fingerprint"))
            or not _sha(last.get("output_digest"))
            or last.get("prompt_sha256") != stage.prompt_sha256
            or not isinstance(refs, list)
            or not refs
        ):
            return "no completion against its input packet is recorded"
        return ""
    raw = last.get("grader")
    grader: dict[str, Any] = raw if isinstance(raw, dict) else {}
    evidence = last.get("evidence")
    if last.get("verdict") != "GO" or not isinstance(evidence, str) or not evidence.strip():
        return "no GO with evidence is recorded"
    assert stage.grader is not None
    if stage.grader.model:
        # The model dispatched and the one the provider says answered must both be another
        # identity than the executor's (a provider may fall back to it).
        named = [str(grader.get(k) or "") for k in ("model_requested", "model_actual")]
        ran = [m for m in named if m] or [str(grader.get("model") or "")]
        same = [m for m in ran if not m or same_model(m, executor)]
        if same:
            return f"its verdict names no grader independent of the executor ({same[0] or 'none'})"
    elif grader.get("command") != stage.grader.command:
        return "its verdict names no grader command of this contract"
    return ""


def unproven(
    contract: Contract, executor_model: str, entries: list[dict[str, Any]], tree: str | None
) -> list[str]:
    """Each required stage the ledger does not prove passed, with why ([] when all are)."""
    stages = fold(entries)["stages"]
    out = []
    for stage in contract.stages:
        if stage.required:
            why = _why_not(stage, stages.get(stage.id), executor_model, tree)
            if why:
                out.append(f"{stage.id} {why}")
    return out
