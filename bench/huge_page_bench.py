"""How sensing and gating grow with a page's size: an order table of 1,000, 5,000 and 20,000
rows (5 elements a row), sensed by a warm ``Sensor`` (stable capture, probe, axe) and gated
(a11y ids, axe, console, rendered contrast, token compliance).

Per size: sense and gate time, probe.json size, how many elements the probe kept (the page is
sampled past ``[sense] max_elements``, docs/sense.md "Huge pages") and how many gates ended in
``error``. The target from the issues: 20,000 rows sensed and gated in <= 15 s, no gate in error.
``python -m bench.huge_page_bench [--quick] [--out PATH]``.
"""

from __future__ import annotations

import functools
import http.server
import json
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.area_cli import area_main

ROWS = (1_000, 5_000, 20_000)
TARGET_S = 15.0
GATES = ["a11y_ids", "axe", "console", "rendered_contrast", "token_compliance"]
ROW = (
    '<tr class="row" data-testid="row-{i}"><td class="n">Item {i}</td><td>{q}</td>'
    '<td>${p}.99</td><td><button class="rm">Remove</button></td></tr>'
)


def page(rows: int) -> str:
    body = "".join(ROW.format(i=i, q=i % 7, p=i % 100) for i in range(rows))
    return (
        "<!doctype html><html lang='en'><head><title>Orders</title><style>"
        "body{margin:16px;font:16px sans-serif;color:#111114;background:#ffffff}"
        "td{padding:8px 16px} button{background:#1f4fd1;color:#ffffff;border:0;"
        "padding:8px 16px;min-height:24px}</style></head><body><main>"
        "<h1 data-testid='title'>Orders</h1><table><tbody>" + body + "</tbody></table>"
        "</main></body></html>"
    )


def make_repo(root: Path) -> None:
    spec_dir = root / "argus/specs/orders"
    spec_dir.mkdir(parents=True)
    (root / "argus.toml").write_text(f"[gates]\nenabled = {json.dumps(GATES)}\n")
    tokens = {"colors": {"ink": "#111114", "paper": "#ffffff", "action": "#1f4fd1"}}
    (spec_dir / "tokens.json").write_text(json.dumps(tokens))
    targets = [
        {
            "id": f"rows{n}",
            "route": f"/rows{n}.html",
            "states": ["default"],
            "appearances": ["light"],
            "a11y_contract": ["title", f"row-{n - 1}"],
        }
        for n in ROWS
    ]
    spec = {
        "feature": "orders",
        "adapter": "web",
        "design_system": {"tokens": "argus/specs/orders/tokens.json"},
        "viewport": {"width": 1280, "height": 800},
        "targets": targets,
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    for n in ROWS:
        (root / f"rows{n}.html").write_text(page(n))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serving(root: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def run(quick: bool = False) -> dict[str, Any]:
    from argus.config import load_config
    from argus.gates.inputs import gate_inputs
    from argus.gates.runner import run_gates
    from argus.sense.controls_choice import LOOP
    from argus.sense.sensor import Sensor
    from argus.spec import View, load_spec

    sizes: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="argus-huge-bench-") as tmp:
        root = Path(tmp) / "repo"
        make_repo(root)
        config = load_config(root)
        spec = load_spec(root / "argus/specs/orders/spec.json")
        with serving(root) as base_url, Sensor(config, controls=LOOP) as sensor:
            # Warm the browser on the smallest page, untimed: the rows measure the page alone.
            warm = View("orders", f"rows{ROWS[0]}", "default", "light")
            sensor.sense(spec, warm, Path(tmp) / "warm", base_url=base_url)
            for n in ROWS[:2] if quick else ROWS:
                view = View("orders", f"rows{n}", "default", "light")
                out = Path(tmp) / f"out{n}"
                started = time.perf_counter()
                sensed = sensor.sense(spec, view, out, base_url=base_url)
                sense_s = time.perf_counter() - started
                if not sensed.ok:
                    raise RuntimeError(f"huge page bench: {n} rows: {sensed.error}")
                started = time.perf_counter()
                gated = run_gates(gate_inputs(spec, view, out, config=config, run_dir=out))
                gate_s = time.perf_counter() - started
                probe = json.loads((out / "probe.json").read_text())
                sizes[str(n)] = {
                    "sense_s": round(sense_s, 2),
                    "gates_s": round(gate_s, 2),
                    "total_s": round(sense_s + gate_s, 2),
                    "probe_bytes": (out / "probe.json").stat().st_size,
                    "elements_kept": len(probe["elements"]),
                    "sampling": probe.get("sampling"),
                    "gates_in_error": [o.name for o in gated.outcomes if o.status == "error"],
                    "timings_ms": dict(sensed.timings_ms),
                }
    big = sizes.get(str(ROWS[-1]))
    met = None if big is None else big["total_s"] <= TARGET_S and not big["gates_in_error"]
    return {"benchmark": "huge_page", "quick": quick, "sizes": sizes, "target_s": TARGET_S,
            "meets_target": met}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "1k and 5k rows only", argv)


if __name__ == "__main__":
    raise SystemExit(main())
