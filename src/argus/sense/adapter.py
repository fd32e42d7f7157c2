"""Sensing through a project adapter: ``argus/adapters/NAME/sense.sh`` for any non-web platform.

    argus/adapters/NAME/sense.sh --route R --state S --appearance A --fixture F --out DIR

runs from the repository root and must write DIR/render.png and DIR/probe.json (console.json and
focus.json, a focus walk, are optional). ARGUS_PYTHON names the interpreter running Argus, so an
adapter written in Python (argus.adapters.textual) runs with Argus's own packages. Argus trusts
none of it: the PNG (signature, size, a decodable header and chunks), the probe's JSON and size
are checked, and the 256-character rule is applied to the probe (and the optional files) and
rewritten, whatever the adapter did. A non-zero exit, a timeout or missing output is a
SensorError with the adapter's stderr tail.
"""

from __future__ import annotations

import asyncio
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from argus.confine import workspace
from argus.confine.launch import launching
from argus.diff.png import open_png
from argus.errors import ArgusError, SensorError
from argus.io import atomic_write_json, loads_json, read_bytes
from argus.proc import one_line
from argus.sense import result as files
from argus.sense.result import SenseResult
from argus.sense.truncate import truncate_probe
from argus.sense.views import ViewPlan

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PNG_BYTES = 50 * 1024 * 1024
MAX_PROBE_BYTES = 5 * 1024 * 1024
ADAPTER_TIMEOUT_S = 600.0


def adapter_script(root: Path, adapter: str) -> Path:
    return root / "argus" / "adapters" / adapter / "sense.sh"


def _not_written(path: Path, slug: str, stderr: bytes) -> SensorError:
    tail = one_line(stderr, empty="(no stderr)")
    return SensorError(f"{slug}: the adapter wrote no {path.name} in {path.parent}: {tail}")


def _check_png(path: Path, slug: str, stderr: bytes = b"") -> None:
    try:
        size = path.stat().st_size
    except FileNotFoundError as exc:
        raise _not_written(path, slug, stderr) from exc
    if size > MAX_PNG_BYTES:
        raise SensorError(f"{slug}: {path} is {size} bytes, over the 50 MiB limit")
    with path.open("rb") as fh:
        if fh.read(len(PNG_SIGNATURE)) != PNG_SIGNATURE:
            raise SensorError(f"{slug}: {path} is not a PNG image")
    # The signature alone lets a truncated or corrupt file through: decode the header and
    # check the chunks now, so the gates never meet an unreadable render.
    try:
        with open_png(read_bytes(path, what="render", limit=MAX_PNG_BYTES), path) as image:
            image.verify()
    except (ArgusError, OSError, SyntaxError, ValueError, struct.error) as exc:
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise SensorError(f"{slug}: {path} is not a readable PNG image ({reason})") from exc


def _read_capped_json(path: Path, slug: str, *, required: bool, stderr: bytes = b"") -> Any:
    try:
        size = path.stat().st_size
    except FileNotFoundError as exc:
        if not required:
            return None
        raise _not_written(path, slug, stderr) from exc
    if size > MAX_PROBE_BYTES:
        raise SensorError(f"{slug}: {path} is {size} bytes, over the 5 MiB limit")
    try:
        return loads_json(path.read_bytes())
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise SensorError(f"{slug}: {path} is not valid JSON ({exc})") from exc


async def _run(
    command: list[str], cwd: Path, env: dict[str, str], timeout: float, out_dir: Path
) -> tuple[int, bytes]:
    """Run the adapter confined (argus.confine): it may write its output folder and the
    workspace but its protected set (its own script included), and nothing it starts
    outlives it."""
    policy = workspace("the adapter", cwd, also_writable=(out_dir,))
    with launching(policy, cwd, env) as launch:
        try:
            process = await asyncio.create_subprocess_exec(
                *launch.argv(command),
                cwd=cwd,
                env=launch.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
                preexec_fn=launch.preexec(),  # argus.proc explains preexec_fn with threads
            )
        except subprocess.SubprocessError as exc:
            raise OSError(f"the confinement could not be applied ({exc})") from exc
        try:
            _, stderr = await asyncio.wait_for(process.communicate(), timeout)
        except TimeoutError:
            # The adapter's children (a simulator, a build) go with it.
            launch.kill(process.pid)
            await process.wait()
            raise
    return int(process.returncode or 0), stderr


async def sense_adapter_view(
    root: Path, plan: ViewPlan, out_dir: Path, *, timeout: float = ADAPTER_TIMEOUT_S
) -> SenseResult:
    slug = plan.view.slug
    script = adapter_script(root, plan.adapter)
    if not script.is_file():
        raise SensorError(
            f"{slug}: adapter '{plan.adapter}' has no sensor: {script} is missing "
            "(see docs/sense.md, adapter contract)"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in (files.RENDER, files.PROBE, files.CONSOLE, files.AXE, files.FOCUS, files.META):
        (out_dir / name).unlink(missing_ok=True)  # stale output must not pass for fresh
    runner = [str(script)] if os.access(script, os.X_OK) else ["bash", str(script)]
    command = [
        *runner,
        "--route", plan.route,
        "--state", plan.view.state,
        "--appearance", plan.view.appearance,
        "--fixture", plan.fixture,
        "--out", str(out_dir.resolve()),
    ]  # fmt: skip
    env = {
        **os.environ,
        "ARGUS_FEATURE": plan.view.feature,
        "ARGUS_TARGET": plan.view.target,
        "ARGUS_VIEW": slug,
        "ARGUS_VIEWPORT": f"{plan.viewport.width}x{plan.viewport.height}",
        "ARGUS_PYTHON": sys.executable,
    }
    started = time.perf_counter()
    try:
        code, stderr = await _run(command, root, env, timeout, out_dir.resolve())
    except TimeoutError as exc:
        raise SensorError(f"{slug}: adapter {script} timed out after {timeout:g}s") from exc
    except OSError as exc:
        raise SensorError(f"{slug}: cannot run adapter {script}: {exc.strerror or exc}") from exc
    elapsed = round((time.perf_counter() - started) * 1000, 1)
    if code != 0:
        tail = one_line(stderr, empty="(no stderr)")
        raise SensorError(f"{slug}: adapter {script} exited with code {code}: {tail}")
    _check_png(out_dir / files.RENDER, slug, stderr)
    probe = _read_capped_json(out_dir / files.PROBE, slug, required=True, stderr=stderr)
    atomic_write_json(out_dir / files.PROBE, truncate_probe(probe), durable=False)
    for optional in (files.CONSOLE, files.FOCUS):
        written = _read_capped_json(out_dir / optional, slug, required=False)
        if written is not None:
            atomic_write_json(out_dir / optional, truncate_probe(written), durable=False)
    meta = {
        "version": 1,
        "adapter": plan.adapter,
        "view": {**plan.view.__dict__, "slug": slug},
        "route": plan.route,
        "viewport": {"width": plan.viewport.width, "height": plan.viewport.height},
        "appearance": plan.view.appearance,
        "fixture": plan.fixture,
        "timings_ms": {"adapter": elapsed},
        "settled": None,
        "attempts": 1,
    }
    atomic_write_json(out_dir / files.META, truncate_probe(meta), durable=False)
    return SenseResult(
        view=plan.view, out_dir=out_dir, settled=None, attempts=1, timings_ms={"adapter": elapsed}
    )
