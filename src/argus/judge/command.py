"""The ``command`` judge: an external agent CLI (``claude -p``, ``codex exec``...) as the judge.

``[judge] command`` is a shell command; ``{packet}`` in it becomes the packet directory
(shell-quoted). The judge instructions, the trusted inputs and the fenced page data go to its
standard input as one text prompt that names the image files in the packet; the agent reads
them itself and prints the answer JSON on standard output (a whole verdict or just
``{"dimensions": ..., "notes": ...}``).

The agent is never pointed into the repository: the packet lives in the view's iteration
directory, beside the implementer's prompt and transcript, and an agent that looks around its
working directory would find them. So each call copies the packet (its manifest and files,
re-verified) into a fresh temporary directory outside the repository, runs the command there
with ``{packet}`` naming the copy, and removes the copy afterwards.

A timeout, or a command that cannot start, is a JudgeError (the verdict becomes
inconclusive); a non-zero exit or output that is not a valid answer is a MalformedAnswer (the
flow retries once, then records an inconclusive verdict).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.confine import Policy
from argus.confine.launch import popen_confined
from argus.errors import ConfigError, JudgeError
from argus.evidence.content import clip
from argus.judge.answer import check_schema, dimension_entries, parse_json_object
from argus.judge.base import (
    MalformedAnswer,
    require_distinct_commands,
    require_independent,
)
from argus.judge.packet import MANIFEST, ROLES, Packet, load_packet
from argus.judge.prompt import answer_schema, judge_prompt
from argus.proc import stop_group
from argus.schemas import load_rubric

MAX_OUTPUT_BYTES = 5 * 1024 * 1024


class CommandJudge:
    name = "command"

    def __init__(self, config: ProjectConfig, *, role: str = "judge") -> None:
        # ``role`` is the section whose settings drive this command (the review runs its
        # reviewer through here with ``review.command`` and ``review.timeout``): messages
        # name that section's settings, not the judge's.
        self.role = role
        template = config.judge.command.strip()
        where = config.source or "argus.toml"
        if not template:
            raise ConfigError(
                f'{where}: judge.command is empty; e.g. command = "claude -p --output-format text"'
            )
        if config.judge.model:
            require_independent(config.judge.model, config, required=False)
        require_distinct_commands(template, config.implementer.command, config)
        self.template = template
        self.model: str | None = config.judge.model or None
        self.config = config

    def command_line(self, directory: Path) -> str:
        return self.template.replace("{packet}", shlex.quote(str(directory)))

    def judge(self, packet: Packet) -> dict[str, Any]:
        rubric = load_rubric(packet.require("rubric"))
        with tempfile.TemporaryDirectory(prefix="argus-judge-") as scratch:
            isolated = self._isolate(packet, Path(scratch))
            prompt = judge_prompt(
                isolated,
                rubric,
                rubric.names,
                mode="paths",
                max_pixels=self.config.judge.max_image_pixels,
            )
            stdout = self.run_command(isolated.directory, prompt.as_text())
        answer = parse_json_object(stdout, what="command's output")
        dims = answer.get("dimensions")
        if not isinstance(dims, dict):
            raise MalformedAnswer("the command's output has no 'dimensions' object")
        # A whole verdict carries more keys than the answer schema; check just the answer part.
        check_schema(
            {
                "dimensions": {k: _answer_part(v) for k, v in dims.items()},
                "notes": str(answer.get("notes", "")),
            },
            answer_schema(rubric, rubric.names),
            what="command's output",
        )
        raw: dict[str, Any] = {"dimensions": dimension_entries(answer, rubric.names, self.name)}
        if isinstance(answer.get("notes"), str) and answer["notes"]:
            raw["notes"] = clip(answer["notes"], 1000)
        # One agent answering once is single-order pairwise judging, which is position-biased:
        # whatever it says about closer_to_reference_than_prev is not taken.
        raw["closer_to_reference_than_prev"] = None
        return raw

    def _isolate(self, packet: Packet, scratch: Path) -> Packet:
        """A verified copy of ``packet`` alone in ``scratch``, which must be outside the repo."""
        root = self.config.root.resolve()
        if scratch.resolve().is_relative_to(root):
            raise JudgeError(
                f"the temporary directory {scratch} is inside the repository {root}; "
                "set TMPDIR to a directory outside it so the judge command sees only the packet"
            )
        copy = scratch / "packet"
        copy.mkdir()
        for name in (MANIFEST, *(ROLES[role].filename for role in packet.files)):
            shutil.copyfile(packet.directory / name, copy / name)
        return load_packet(copy)

    def run_command(self, directory: Path, prompt: str) -> str:
        """The command's standard output, run in ``directory`` with ``prompt`` on its input."""
        command = self.command_line(directory)
        with ExitStack() as running:
            try:
                # Confined (argus.confine): it writes nowhere but the packet's directory, and
                # nothing it starts outlives it; its own session, so a timeout stops all of it.
                process = running.enter_context(
                    popen_confined(
                        command,
                        Policy(f"the {self.role} command", (directory,)),
                        cwd=directory,
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                    )
                )
            except OSError as exc:
                raise JudgeError(
                    f"{self.role} command {self.template!r} cannot start: {exc.strerror or exc}"
                ) from exc
            try:
                out, err = process.communicate(
                    prompt.encode("utf-8"), timeout=self.config.judge.timeout
                )
            except subprocess.TimeoutExpired as exc:
                stop_group(process, grace=0)
                process.communicate()  # close the pipes
                raise JudgeError(
                    f"{self.role} command {self.template!r} did not answer within "
                    f"{self.config.judge.timeout:g}s ({self.role}.timeout)"
                ) from exc
        if process.returncode != 0:
            tail = (err.decode("utf-8", "replace").strip().splitlines() or ["no error output"])[-1]
            raise MalformedAnswer(
                f"{self.role} command exited with {process.returncode}: {clip(tail, 200)}"
            )
        if len(out) > MAX_OUTPUT_BYTES:
            raise MalformedAnswer(
                f"{self.role} command printed {len(out)} bytes, more than the 5 MiB cap"
            )
        return out.decode("utf-8", "replace")


def _answer_part(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    part = {k: entry.get(k) for k in ("score", "anchor", "evidence")}
    part["abstained"] = bool(entry.get("abstained", False))
    return part
