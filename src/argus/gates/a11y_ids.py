"""a11y_ids: every id the target's a11y contract requires is present in the probe.

Wraps argus.evidence.a11y_ids (harvest every id-like value from probe.json, match the contract,
``prefix.*`` entries matching a family). The seed's gate-result carries this gate as
``{expected, present, missing}``; ``data`` holds exactly that block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from argus.evidence.a11y_ids import check_ids, harvest_ids
from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus


def check_a11y_ids(probe: Mapping[str, Any], contract: Sequence[str]) -> GateOutcome:
    if not contract:
        # Nothing required: "0/0 present" would be a pass nobody measured.
        return GateOutcome(
            "a11y_ids", GateStatus.SKIP, "nothing to check: the target's a11y contract is empty"
        )
    report = check_ids(list(contract), harvest_ids(dict(probe)))
    missing = list(report.missing)
    findings = tuple(
        Finding(
            element=contract_id,
            property="id",
            value="missing",
            expected="present (id, data-testid or accessibility identifier)",
            message=f"the a11y contract requires {contract_id!r}; no element in the probe has it",
        )
        for contract_id in missing
    )
    data = report.as_gate_result()
    summary = f"{data['present']}/{data['expected']} contract id(s) present"
    if missing:
        summary += f"; missing {', '.join(missing)}"
    status = GateStatus.FAIL if missing else GateStatus.PASS
    return GateOutcome("a11y_ids", status, summary, findings, data)


def a11y_ids_gate(inputs: GateInputs) -> GateOutcome:
    return check_a11y_ids(inputs.probe, inputs.target.a11y_contract)


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("a11y_ids")(a11y_ids_gate)
