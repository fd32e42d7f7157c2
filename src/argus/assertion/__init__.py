"""The assertion judge: a fresh reader decides whether the screen shows one sentence.

    packet = build_packet(dir, assertion="…", evidence={"screenshot": png, "ui-tree": probe})
    asked = ask(packet, config)                       # the configured litellm/command judge
    result = check_answer(packet, asked.text)         # inconclusive is never a pass

See docs/assert.md.
"""

from argus.assertion._packet import AssertionPacket, build_packet, load_packet, parse_evidence
from argus.assertion._verdict import CheckedAssertion, check_answer, unanswered

__all__ = [
    "AssertionPacket",
    "CheckedAssertion",
    "build_packet",
    "check_answer",
    "load_packet",
    "parse_evidence",
    "unanswered",
]
