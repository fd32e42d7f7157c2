"""`make image`: builds the pinned rendering image with Docker, or says why it skipped."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import argus
from tests.conftest import REPO_ROOT


def fake_docker(bin_dir: Path, daemon: bool, log: Path) -> None:
    bin_dir.mkdir()
    script = bin_dir / "docker"
    script.write_text(
        f'#!/bin/sh\necho "$@" >> {log}\n[ "$1" = info ] && exit {0 if daemon else 1}\nexit 0\n'
    )
    script.chmod(0o755)


def make_image(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        ["make", "-s", "image"], cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=False
    )


def test_without_a_docker_daemon_the_image_is_skipped_with_a_message(tmp_path: Path) -> None:
    log = tmp_path / "docker.log"
    fake_docker(tmp_path / "bin", daemon=False, log=log)
    done = make_image(tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("make image: skipped: Docker is not available here")
    assert log.read_text().split() == ["info"]  # asked, never built


def test_with_docker_the_pinned_image_is_built(tmp_path: Path) -> None:
    log = tmp_path / "docker.log"
    fake_docker(tmp_path / "bin", daemon=True, log=log)
    done = make_image(tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert calls == ["info", f"build -t argus-render:{argus.__version__} -f Dockerfile ."]


def test_the_dockerfile_pins_python_chromium_and_fonts() -> None:
    text = (REPO_ROOT / "Dockerfile").read_text()
    for pin in (
        "ARG PYTHON_IMAGE=python:3.11.7-slim-bookworm",
        "ARG CHROMIUM_VERSION=",
        "ARG FONTS_INTER_VERSION=",
        "ARG FONTS_DEJAVU_VERSION=",
        "ARG FONTS_LIBERATION_VERSION=",
        '"chromium=${CHROMIUM_VERSION}"',
        '"fonts-inter=${FONTS_INTER_VERSION}"',
    ):
        assert pin in text
