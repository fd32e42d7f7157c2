"""Serve the Dashboard example as static files: python serve.py [--port 8766] [--host 127.0.0.1].

No caching and no request logging, so every render is deterministic and the output stays quiet.
"""

from __future__ import annotations

import argparse
import functools
import http.server
from pathlib import Path

HERE = Path(__file__).resolve().parent


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    handler = functools.partial(QuietHandler, directory=str(HERE))
    with http.server.ThreadingHTTPServer((args.host, args.port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
