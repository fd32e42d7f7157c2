"""The tests' HTTP server keeps a dropped connection off ``sys.stderr`` (which an in-process CLI
call captures for its one line) and sends any other request error to the real one."""

from __future__ import annotations

import contextlib
import io
import sys

import pytest

from tests.support.fixtures import QuietServer


def _error_in_request(error: BaseException) -> tuple[str, str]:
    server = QuietServer(("127.0.0.1", 0), lambda *a: None)  # type: ignore[arg-type,return-value]
    captured, real = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(captured), pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "__stderr__", real)
            try:
                raise error
            except BaseException:
                server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    return captured.getvalue(), real.getvalue()


@pytest.mark.parametrize("error", [ConnectionResetError(), BrokenPipeError()])
def test_a_dropped_connection_is_no_error(error: BaseException) -> None:
    assert _error_in_request(error) == ("", "")


def test_another_error_goes_to_the_real_standard_error() -> None:
    captured, real = _error_in_request(ValueError("the handler broke"))
    assert captured == ""
    assert "ValueError: the handler broke" in real
