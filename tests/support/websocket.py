"""A static file server that also takes websockets (RFC 6455, the part a browser uses): every
text message a page sends on ``/ws`` is remembered, none is answered.

    recorder = fresh_recorder()                   # a class of its own for each test
    with static_server(root, recorder) as base_url:  # tests.support.fixtures
        ...  # the page opens new WebSocket(`ws://${location.host}/ws`)
    recorder.received                             # what reached the server, in order
    recorder.handshake_s = 0.3                    # a server slow to open a socket
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import struct
import time
from collections.abc import Iterator
from typing import BinaryIO, ClassVar

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 section 1.3
TEXT, CLOSE = 0x1, 0x8


class SocketRecorder(http.server.SimpleHTTPRequestHandler):
    """Serves files; ``GET /ws`` with ``Upgrade: websocket`` becomes a socket whose text
    messages are appended to ``received`` (reset it before each test)."""

    protocol_version = "HTTP/1.1"  # a browser refuses a websocket handshake over HTTP/1.0
    received: ClassVar[list[str]] = []
    handshake_s: ClassVar[float] = 0.0  # how long the server waits before it answers one

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        if self.headers.get("Upgrade", "").lower() != "websocket":
            super().do_GET()
            return
        key = self.headers.get("Sec-WebSocket-Key", "")
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        time.sleep(self.handshake_s)
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        super().end_headers()
        self.wfile.flush()
        self.close_connection = True
        for message in _text_messages(self.rfile):
            type(self).received.append(message)


def fresh_recorder() -> type[SocketRecorder]:
    """A SocketRecorder with a list of its own: a socket an earlier test's page still holds
    open (its server's thread reads until the page lets go) never adds to it."""
    return type("SocketRecorder", (SocketRecorder,), {"received": [], "handshake_s": 0.0})


def _text_messages(stream: BinaryIO) -> Iterator[str]:
    """The text messages of a client's frames (masked, unfragmented), until it closes."""
    while True:
        head = stream.read(2)
        if len(head) < 2:
            return
        opcode, length = head[0] & 0x0F, head[1] & 0x7F
        if length == 126:
            length = struct.unpack(">H", stream.read(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", stream.read(8))[0]
        mask = stream.read(4) if head[1] & 0x80 else b"\0\0\0\0"
        data = bytes(b ^ mask[i % 4] for i, b in enumerate(stream.read(length)))
        if opcode == CLOSE:
            return
        if opcode == TEXT:
            yield data.decode("utf-8")
