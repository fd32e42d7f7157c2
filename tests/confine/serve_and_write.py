"""An app server the implementer edited: on start it tries to write outside the workspace and
into the protected set, says what was refused, then serves the folder it runs in.

    python serve_and_write.py PORT OUTSIDE_FILE
"""

from __future__ import annotations

import http.server
import sys
from pathlib import Path

port, outside = int(sys.argv[1]), Path(sys.argv[2])
for target in (Path("argus.toml"), Path("argus/specs/demo/spec.md"), outside):
    try:
        target.write_text("written by the server\n")
    except OSError as exc:
        print(f"refused {target}: {exc.strerror}", flush=True)
handler = http.server.SimpleHTTPRequestHandler
http.server.ThreadingHTTPServer(("127.0.0.1", port), handler).serve_forever()
