"""A page far over the probe's element budget is sampled, not dumped whole: the a11y-id
contract, the first screen and a representative set of each repeated shape are kept, axe
checks the same sample, and every file and gate says so. Nothing is an error, nothing is a
silent pass."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.config import AxeConfig, load_config
from argus.gates.axe import check_axe
from argus.gates.base import GateStatus
from argus.gates.inputs import gate_inputs
from argus.gates.runner import run_gates
from argus.sense import Sensor
from argus.sense.controls_choice import GATES
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo

ROWS = 3000  # 5 elements a row: 15,000 elements, three times the default budget of 5,000
ROW = (
    '<tr class="row" data-testid="row-{i}"><td class="n">Item {i}</td><td>{q}</td>'
    '<td>${p}.99</td><td><button class="rm">Remove</button></td></tr>'
)
PAGE = (
    "<!doctype html><html lang='en'><head><title>Orders</title><style>"
    "body{font:14px sans-serif;color:#222;background:#fff} td{padding:4px 8px}"
    "button{background:#0a58ca;color:#fff;border:0;padding:4px 8px;min-height:24px}"
    "</style></head><body><main><h1 data-testid='title'>Orders</h1><table><tbody>"
    + "".join(ROW.format(i=i, q=i % 7, p=i % 100) for i in range(ROWS))
    + "</tbody></table></main></body></html>"
)


@pytest.mark.browser
def test_a_huge_page_is_sampled_with_its_contract_kept(
    tmp_path: Path, serve: Callable[[Path], str]
) -> None:
    repo = make_web_repo(tmp_path, {"orders.html": PAGE}, {"orders": "/orders.html"})
    spec_path = repo / "argus/specs/demo/spec.json"
    raw = json.loads(spec_path.read_text())
    raw["targets"][0]["a11y_contract"] = ["title", f"row-{ROWS - 1}"]
    spec_path.write_text(json.dumps(raw))
    (repo / "argus.toml").write_text('[gates]\nenabled = ["a11y_ids", "axe"]\n')
    config = load_config(repo)
    spec = load_spec(spec_path)
    view = View("demo", "orders", "default", "light")
    out = tmp_path / "out"
    with Sensor(config, controls=GATES) as sensor:
        result = sensor.sense(spec, view, out, base_url=serve(repo))
    assert result.ok, result.error

    probe = json.loads((out / "probe.json").read_text())
    sampling = probe["sampling"]
    assert sampling["total"] > 15_000 and sampling["kept"] == len(probe["elements"])
    assert len(probe["elements"]) < 1_000  # a representative set, not 15,000 rows
    testids = {e["testid"] for e in probe["elements"]}
    assert {"title", f"row-{ROWS - 1}", "row-0", "row-19"} <= testids  # contract + first rows
    assert (out / "probe.json").stat().st_size < 1_000_000

    axe = json.loads((out / "axe.json").read_text())
    assert axe["sampled"]["kept"] == sampling["kept"]  # axe checked the probe's sample

    run = run_gates(gate_inputs(spec, view, out, config=config, run_dir=out))
    assert run.outcome("a11y_ids").status is GateStatus.PASS
    axe_gate = run.outcome("axe")
    assert axe_gate.status is GateStatus.PASS, axe_gate.summary
    assert "sample of a huge page" in axe_gate.summary


def test_an_axe_run_that_ran_out_of_time_is_an_error_not_a_pass() -> None:
    timed_out = {"timed_out": True, "timeout_s": 60, "violations": [], "incomplete": []}
    outcome = check_axe(timed_out, tags=AxeConfig().tags)
    assert outcome.status is GateStatus.ERROR
    assert outcome.data == {"timed_out": True}


def test_a_sampled_axe_result_says_so() -> None:
    axe = {"violations": [], "incomplete": [], "passes": 3, "sampled": {"kept": 9, "total": 99}}
    outcome = check_axe(axe, tags=AxeConfig().tags)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["sampled"] == {"kept": 9, "total": 99}
    assert "9 of 99 elements" in outcome.summary


@pytest.mark.browser
def test_axe_puts_a_sampled_page_back_as_it_was(tmp_path: Path) -> None:
    """The sampled-out rows leave the document while axe runs and come back, same nodes, same
    order, same listeners."""
    from playwright.sync_api import sync_playwright

    from argus.sense.axe import load_request, read_results, run_request, world_request
    from argus.sense.browser import discover_browser, launch_args
    from argus.sense.probe import ProbeBudget

    page_file = tmp_path / "orders.html"
    page_file.write_text(PAGE)
    fingerprint = (
        "() => [document.getElementsByTagName('*').length,"
        " Array.from(document.querySelectorAll('tr')).map((r) => r.dataset.testid).join(),"
        " window.__kept === document.querySelector('[data-testid=row-2500]')]"
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=discover_browser(), args=launch_args())
        page = browser.new_page()
        page.goto(page_file.as_uri())
        page.evaluate("() => { window.__kept = document.querySelector('[data-testid=row-2500]'); }")
        before = page.evaluate(fingerprint)
        session = page.context.new_cdp_session(page)
        tree = session.send("Page.getFrameTree")
        world = session.send(
            "Page.createIsolatedWorld", world_request(tree["frameTree"]["frame"]["id"])
        )
        context = int(world["executionContextId"])
        session.send("Runtime.evaluate", load_request(context))
        config = AxeConfig()
        answer = session.send("Runtime.evaluate", run_request(context, config, ProbeBudget()))
        results = read_results(answer, config)
        after = page.evaluate(fingerprint)
        browser.close()
    assert results["sampled"]["total"] > 15_000
    assert after == before and before[2] is True
