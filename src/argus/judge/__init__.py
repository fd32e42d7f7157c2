"""Judges: the packet a judge sees, the backends found by name (plug-ins), and the one path that
runs a judge and normalizes its verdict. See docs/judge.md.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.judge.assemble import packet_for_view
    from argus.judge.base import Judge, MalformedAnswer, run_judge
    from argus.judge.cache import CachingJudge
    from argus.judge.command import CommandJudge
    from argus.judge.identity import same_model
    from argus.judge.llm import LiteLLMJudge
    from argus.judge.packet import Packet
    from argus.judge.registry import JudgePlugin, get_judge, judge_names

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "Judge": "argus.judge.base",
    "MalformedAnswer": "argus.judge.base",
    "JudgePlugin": "argus.judge.registry",
    "get_judge": "argus.judge.registry",
    "judge_names": "argus.judge.registry",
    "run_judge": "argus.judge.base",
    "packet_for_view": "argus.judge.assemble",
    "Packet": "argus.judge.packet",
    "same_model": "argus.judge.identity",
    "CommandJudge": "argus.judge.command",
    "LiteLLMJudge": "argus.judge.llm",
    "CachingJudge": "argus.judge.cache",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "CachingJudge",
    "CommandJudge",
    "Judge",
    "JudgePlugin",
    "LiteLLMJudge",
    "MalformedAnswer",
    "Packet",
    "get_judge",
    "judge_names",
    "packet_for_view",
    "run_judge",
    "same_model",
]
