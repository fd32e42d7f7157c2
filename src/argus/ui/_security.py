"""What keeps the review page safe on a shared machine.

- A per-launch token, printed only on the terminal that started ``argus ui`` and never put in a
  page: every state-changing request must carry it in the ``X-Argus-Token`` header, compared in
  constant time. A custom header cannot be sent by another site without a CORS preflight, which
  the app never answers, so no other page can act (no CSRF), and a process that can only read
  the pages (an implementer command) never learns it.
- The Host header must name the address the server listens on (no DNS rebinding), and an
  Origin, when sent, must be the page's own.
- Files are served only from inside the repository, only PNGs under a feature's run directory,
  references or snapshots, and never through a symbolic link.
- A strict Content-Security-Policy: scripts, styles, images and requests from the app only.
"""

from __future__ import annotations

import errno
import hmac
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from argus.diff.png import MAX_PNG_BYTES
from argus.errors import InputError
from argus.spec.paths import SPECS_DIR

TOKEN_HEADER = "x-argus-token"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}
# Where a served image may live, below argus/specs/{feature}/.
IMAGE_DIRS = (".argus-runs", "references", "__snapshots__")
MAX_PATH_CHARS = 1024


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_matches(expected: str, given: str | None) -> bool:
    """Constant-time comparison; a missing token never matches."""
    if not given:
        return False
    return hmac.compare_digest(expected.encode("utf-8"), given.encode("utf-8"))


@dataclass(frozen=True)
class Origin:
    """The addresses the page is served from."""

    host: str
    port: int

    @property
    def hosts(self) -> frozenset[str]:
        names = {f"[{self.host}]" if ":" in self.host else self.host}
        if self.host in ("127.0.0.1", "::1"):
            names.add("localhost")
        return frozenset(f"{name}:{self.port}" for name in names)

    def host_allowed(self, host_header: str | None) -> bool:
        return host_header is not None and host_header.lower() in self.hosts

    def origin_allowed(self, origin_header: str | None) -> bool:
        if origin_header is None:
            return True  # same-origin GETs and non-browser clients send none
        return origin_header.lower() in {f"http://{h}" for h in self.hosts}


def image_parts(relative: str) -> tuple[str, ...]:
    """The parts of ``relative`` when it names a PNG this page may serve; else InputError."""
    if not relative or len(relative) > MAX_PATH_CHARS or "\x00" in relative or "\\" in relative:
        raise InputError(f"{relative[:80]!r}: not a path this page serves")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or any(part in ("..", ".", "") for part in relative.split("/")):
        raise InputError(f"{relative}: outside the repository; only repository paths are served")
    specs = PurePosixPath(SPECS_DIR).parts
    parts = pure.parts
    if (
        len(parts) < len(specs) + 3
        or parts[: len(specs)] != specs
        or parts[len(specs) + 1] not in IMAGE_DIRS
        or pure.suffix.lower() != ".png"
    ):
        raise InputError(
            f"{relative}: only PNG images under a feature's .argus-runs, references or "
            "__snapshots__ directory are served"
        )
    return parts


def read_image(root: Path, relative: str) -> bytes:
    """The bytes of the PNG ``relative`` (to the repository root) names. Every step is opened
    below the previous one without following a link (openat with O_NOFOLLOW), so a link
    anywhere on the way, even one swapped in after a check, is refused; so is anything that
    is not a regular file or is over the PNG size cap."""
    parts = image_parts(relative)
    nofollow = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(root.resolve(), os.O_RDONLY | os.O_DIRECTORY | nofollow)
    except OSError as exc:
        raise InputError(f"{root}: cannot open the repository ({exc.strerror})") from exc
    try:
        for part in parts[:-1]:
            try:
                step = os.open(part, os.O_RDONLY | os.O_DIRECTORY | nofollow, dir_fd=fd)
            except OSError as exc:
                raise _refusal(relative, exc) from exc
            os.close(fd)
            fd = step
        try:
            leaf = os.open(parts[-1], os.O_RDONLY | os.O_NONBLOCK | nofollow, dir_fd=fd)
        except OSError as exc:
            raise _refusal(relative, exc) from exc
    finally:
        os.close(fd)
    with os.fdopen(leaf, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PNG_BYTES:
            raise InputError(f"{relative}: not a regular PNG file under the size cap")
        data = fh.read(MAX_PNG_BYTES + 1)
    if len(data) > MAX_PNG_BYTES:
        raise InputError(f"{relative}: over the PNG size cap")
    return data


def _refusal(relative: str, exc: OSError) -> InputError:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return InputError(f"{relative}: goes through a symbolic link; not served")
    if exc.errno == errno.ENOENT:
        return InputError(f"{relative}: no such image")
    return InputError(f"{relative}: cannot be read ({exc.strerror})")
