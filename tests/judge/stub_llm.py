"""A small OpenAI-compatible chat server on 127.0.0.1 for the litellm judge's tests.

    with StubLLM() as stub:
        stub.queue(content=json.dumps(answer))       # one reply per request, in order
        stub.queue(status=503)                        # an HTTP error
        stub.queue(delay=2.0, content="...")          # answer late (for timeouts)
        stub.queue(content="...", model="gpt-4o-2024-08-06")  # answer as another model
        ... LiteLLM with api_base=stub.url ...
        stub.requests                                 # the JSON bodies received, in order

A reply's ``@NONCE@`` is replaced by the contract grader's dispatch nonce found in the request
(a grader that read its packet returns it).

With nothing queued the server answers 500, so an unexpected request fails the test loudly.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from argus.closing import Closing

NONCE = re.compile(r"dispatch nonce: ([0-9a-f]{32})")


def _nonce(body: dict[str, Any]) -> str:
    found = NONCE.search(json.dumps(body.get("messages", [])))
    return found.group(1) if found else "no-nonce-in-the-request"


@dataclass(frozen=True)
class Reply:
    status: int = 200
    content: str = ""
    delay: float = 0.0
    model: str | None = None  # the answer's "model" (default: the one requested)


class StubLLM(Closing):
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self._replies: list[Reply] = []
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                with stub._lock:
                    stub.requests.append(body)
                    stub.paths.append(self.path)
                    reply = stub._replies.pop(0) if stub._replies else Reply(500, "nothing queued")
                if self.path.rstrip("/") not in ("/chat/completions", "/v1/chat/completions"):
                    reply = Reply(404, "unknown path")
                if reply.delay:
                    time.sleep(reply.delay)
                payload: dict[str, object]
                if reply.status != 200:
                    payload = {"error": {"message": reply.content or "stub error", "type": "stub"}}
                else:
                    payload = {
                        "id": f"stub-{len(stub.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": reply.model or body.get("model", "stub"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {
                                    "role": "assistant",
                                    "content": reply.content.replace("@NONCE@", _nonce(body)),
                                },
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": 120,
                            "completion_tokens": 30,
                            "total_tokens": 150,
                        },
                    }
                data = json.dumps(payload).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def queue(
        self, content: str = "", *, status: int = 200, delay: float = 0.0, model: str | None = None
    ) -> None:
        with self._lock:
            self._replies.append(Reply(status, content, delay, model))

    def __enter__(self) -> StubLLM:
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
