"""Checking a judge's answer to an assertion packet: inconclusive is never a pass.

| the judge's answer                                   | result                          |
| ---------------------------------------------------- | ------------------------------- |
| ``passed``, with a reason, citing packet evidence    | passed                          |
| ``failed``, with a reason, citing packet evidence    | failed, ASSERTION_FAILED        |
| ``inconclusive``                                     | failed, ASSERTION_INCONCLUSIVE  |
| no reason, no citation, a citation that is not text | failed, ASSERTION_INCONCLUSIVE  |
| or not in the packet, another packet's ``packet_id``  |                                 |
| (or none), or not an answer at all                   |                                 |

A citation names a piece of evidence by its id (``screenshot``, ``ui-tree``), its path in the
packet (``evidence/screenshot.png``) or that file's absolute path. The reason is the judge's
own words, cut to 1000 characters; it is reported as the judge's, never as Argus's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from argus.assertion._packet import VERDICTS, AssertionPacket
from argus.evidence.content import clip
from argus.io import loads_json

FAILED = "ASSERTION_FAILED"
INCONCLUSIVE = "ASSERTION_INCONCLUSIVE"
MAX_REASON_CHARS = 1000


@dataclass(frozen=True)
class CheckedAssertion:
    verdict: str  # "passed" | "failed"
    code: str | None  # None | ASSERTION_FAILED | ASSERTION_INCONCLUSIVE
    reason: str  # the judge's reason, or why its answer was not accepted
    judge_verdict: str | None  # what the judge said, when it said one of the three
    citations: tuple[str, ...]
    accepted: bool  # False: the answer itself was not acceptable

    @property
    def passed(self) -> bool:
        return self.verdict == "passed"

    def to_json(self, packet: AssertionPacket) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "code": self.code,
            "reason": self.reason,
            "judge": {
                "verdict": self.judge_verdict,
                "citations": list(self.citations),
                "answer_accepted": self.accepted,
            },
            "assertion": packet.assertion,
            "packet_id": packet.packet_id,
            "packet_sha256": packet.digest,
        }


def _not_accepted(
    why: str, said: str | None = None, cited: tuple[str, ...] = ()
) -> CheckedAssertion:
    return CheckedAssertion("failed", INCONCLUSIVE, why, said, cited, accepted=False)


def unanswered(error: str) -> CheckedAssertion:
    """The result when the judge could not answer at all (timeout, transport, a failed command)."""
    return _not_accepted(f"the judge could not answer: {clip(error, 300)}")


def _cites(packet: AssertionPacket, citation: str) -> bool:
    text = citation.strip()
    for evidence in packet.evidence:
        if text in (evidence.id, evidence.relative, evidence.path.name, str(evidence.path)):
            return True
        if text == str(evidence.path.resolve()):
            return True
    return False


def check_answer(packet: AssertionPacket, answer: Any) -> CheckedAssertion:
    """The checked result of ``answer`` (a parsed JSON value, or the raw text) for ``packet``."""
    if isinstance(answer, str):
        try:
            answer = loads_json(answer)
        except json.JSONDecodeError:
            return _not_accepted("the judge's answer is not JSON")
    if not isinstance(answer, dict):
        return _not_accepted("the judge's answer is not a JSON object")
    answered_id = answer.get("packet_id")
    if answered_id != packet.packet_id:
        named = "names no packet_id" if answered_id is None else "has another packet_id"
        return _not_accepted(
            f"the judge's answer is for another packet: it {named}, and this packet's is "
            f"{packet.packet_id}"
        )
    said = answer.get("verdict")
    if said not in VERDICTS:
        return _not_accepted(
            f"the judge's verdict is {clip(repr(said), 60)}, not one of {', '.join(VERDICTS)}"
        )
    raw_reason = answer.get("reason")
    reason = clip(raw_reason.strip(), MAX_REASON_CHARS) if isinstance(raw_reason, str) else ""
    raw_citations = answer.get("citations")
    citations: tuple[str, ...] = ()
    if isinstance(raw_citations, list):
        if not all(isinstance(c, str) for c in raw_citations):
            return _not_accepted("the judge's citations are not all text (ids or paths)", said)
        citations = tuple(clip(c, 200) for c in raw_citations)
    if not reason:
        return _not_accepted(f"the judge said {said} without a reason", said, citations)
    if not citations:
        return _not_accepted(f"the judge said {said} without citing the evidence", said)
    foreign = [c for c in citations if not _cites(packet, c)]
    if foreign:
        return _not_accepted(
            f"the judge cites {', '.join(repr(c) for c in foreign[:3])}, which is not in the "
            "packet",
            said,
            citations,
        )
    if said == "passed":
        return CheckedAssertion("passed", None, reason, said, citations, accepted=True)
    code = FAILED if said == "failed" else INCONCLUSIVE
    return CheckedAssertion("failed", code, reason, said, citations, accepted=True)
