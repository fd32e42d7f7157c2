"""The review page's application without a browser: the request checks, safe paths, escaping,
refusal under a running loop, batch accept, and the running marker the report reads."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from argus.errors import InputError
from argus.loop.guard.lock import FeatureLock
from argus.store import CONTRACT_MODE, RunStore
from argus.store.ui_marker import RunningMarker, running_url
from argus.ui._app import Settings, create_app
from argus.ui._security import CSP, Origin, read_image, token_matches
from tests.loop.fakeapp import make_repo
from tests.ui.support import changed_snapshot_repo, decisions, spec_dir

TOKEN = "launch-token-for-tests"
BASE = "http://127.0.0.1:8765"
ACCEPT = {"action": "accept_baseline", "feature": "demo", "slug": "list-a-light"}


def _client(root: Path) -> TestClient:
    app = create_app(Settings(root, TOKEN, Origin("127.0.0.1", 8765)))
    return TestClient(app, base_url=BASE)


def _post(client: TestClient, body: object, **headers: str) -> Any:
    sent = {"content-type": "application/json", "x-argus-token": TOKEN, **headers}
    return client.post("/api/decide", content=json.dumps(body), headers=sent)


def test_token_comparison() -> None:
    assert token_matches("abc", "abc")
    assert not token_matches("abc", "abd")
    assert not token_matches("abc", "")
    assert not token_matches("abc", None)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"x-argus-token": ""}, 403),
        ({"x-argus-token": TOKEN + "x"}, 403),
        ({"origin": "http://evil.example"}, 403),
        ({"content-type": "text/plain"}, 415),
    ],
)
def test_a_decision_without_every_check_is_refused_and_writes_nothing(
    tmp_path: Path, headers: dict[str, str], status: int
) -> None:
    root, _, baseline = changed_snapshot_repo(tmp_path)
    before = baseline.read_bytes()
    response = _post(_client(root), ACCEPT, **headers)
    assert response.status_code == status
    assert baseline.read_bytes() == before
    assert decisions(root) == []


def test_another_host_name_is_refused(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    client = _client(root)
    assert client.get("/", headers={"host": "attacker.example:8765"}).status_code == 421
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200


def test_a_decision_with_the_token_writes_and_is_recorded(tmp_path: Path) -> None:
    root, render, baseline = changed_snapshot_repo(tmp_path)
    response = _post(_client(root), {**ACCEPT, "iteration": 2})
    assert response.status_code == 200, response.text
    assert baseline.read_bytes() == render.read_bytes()
    assert [e.payload["via"] for e in decisions(root)] == ["ui"]


def test_a_decision_while_a_loop_holds_the_lock_is_refused(tmp_path: Path) -> None:
    root, _, baseline = changed_snapshot_repo(tmp_path)
    before = baseline.read_bytes()
    with FeatureLock(spec_dir(root) / ".argus-runs", "demo") as lock:
        # The lock names its holder; here the holder is said to be another (live) process,
        # as a loop would be, since the page never counts its own process as a loop.
        lock.path.write_text(f"{os.getppid()}\n")
        client = _client(root)
        page = client.get("/view/demo/list-a-light").text
        assert "A loop is running on this feature" in page
        response = _post(client, ACCEPT)
    assert response.status_code == 409
    assert "another argus loop is running" in response.json()["error"]
    assert baseline.read_bytes() == before
    assert decisions(root) == []


def test_batch_accept_of_the_changed_views(tmp_path: Path) -> None:
    root, render, baseline = changed_snapshot_repo(tmp_path)
    client = _client(root)
    listing = client.get("/?filter=changed").text
    assert 'id="batch-accept"' in listing
    items = [{"feature": "demo", "slug": "list-a-light", "iteration": 2}]
    response = client.post(
        "/api/accept-baselines",
        content=json.dumps({"items": items}),
        headers={"content-type": "application/json", "x-argus-token": TOKEN},
    )
    assert response.status_code == 200 and response.json()["accepted"] == 1
    assert baseline.read_bytes() == render.read_bytes()
    assert 'id="batch-accept"' not in client.get("/?filter=changed").text


def test_page_content_is_escaped_and_served_under_the_csp(tmp_path: Path) -> None:
    root, _, _ = changed_snapshot_repo(tmp_path)
    verdict = spec_dir(root) / ".argus-runs" / "list-a-light" / "iteration-1" / "verdict.json"
    data = json.loads(verdict.read_text())
    data["dimensions"]["hierarchy"]["evidence"] = '<script>alert("x")</script><img src=x>'
    verdict.write_text(json.dumps(data))
    response = _client(root).get("/view/demo/list-a-light")
    assert response.headers["content-security-policy"] == CSP
    assert "<script>alert" not in response.text and "<img src=x>" not in response.text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in response.text


def test_a_contract_run_is_a_recent_run_of_its_own_kind_and_holds_no_link(
    tmp_path: Path,
) -> None:
    root, _, _ = changed_snapshot_repo(tmp_path)
    name = "contract/ship-it/0123"
    with RunStore.open(root) as store:  # as argus.contract._ledger opens one
        store.open_run(name, "contract/ship-it", CONTRACT_MODE)
    page = _client(root).get("/").text
    recent = page[page.index("<h3>Recent runs</h3>") :]
    row = next(r for r in recent.split("<tr>") if name in r)
    assert "<td>contract</td>" in row and ">open</span>" in row and ">running<" not in row
    assert "href" not in row
    assert "Feature <code>contract" not in page  # no feature section for it


def test_unknown_views_and_static_names_are_not_found(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    client = _client(root)
    assert client.get("/view/demo/nope-a-light").status_code == 404
    assert client.get("/view/../etc").status_code == 404
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/ui.js").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "",
        "/etc/passwd",
        "../x.png",
        "argus/specs/demo/../../x.png",
        "argus/specs/demo/spec.json",
        "argus/specs/demo/tokens.png",
        "argus/specs/demo/.argus-runs/a\x00.png",
        "argus\\specs\\demo\\.argus-runs\\x.png",
        "argus/specs/demo/.argus-runs",
        "argus/specs/demo/references/./list-a-light.png",
        "argus/specs/demo/references//list-a-light.png",
    ],
)
def test_reading_an_image_refuses(tmp_path: Path, path: str) -> None:
    root = make_repo(tmp_path, [])
    with pytest.raises(InputError):
        read_image(root, path)


def test_reading_an_image_refuses_a_symlinked_directory(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.png").write_bytes(b"\x89PNG")
    (spec_dir(root) / ".argus-runs").mkdir(exist_ok=True)
    (spec_dir(root) / ".argus-runs" / "elsewhere").symlink_to(outside)
    with pytest.raises(InputError, match="symbolic link"):
        read_image(root, "argus/specs/demo/.argus-runs/elsewhere/x.png")
    reference = "argus/specs/demo/references/list-a-light.png"
    assert read_image(root, reference) == (root / reference).read_bytes()


def test_the_running_marker_says_where_the_page_is_only_while_it_runs(tmp_path: Path) -> None:
    assert running_url(tmp_path) is None
    with RunningMarker(tmp_path, "http://127.0.0.1:9999/"):
        assert running_url(tmp_path) == "http://127.0.0.1:9999"
    assert running_url(tmp_path) is None


def test_a_rejected_spotcheck_names_the_dimension_and_keeps_the_comment(tmp_path: Path) -> None:
    from argus.loop.engine.modes import Mode
    from argus.loop.records.signoff import load_records
    from tests.ui.support import loop

    root = make_repo(tmp_path, [])
    loop(root, Mode.INTERACTIVE)
    client = _client(root)
    body = {"action": "reject_spotcheck", "feature": "demo", "slug": "list-a-light"}
    assert _post(client, {**body, "note": "x"}).status_code == 400  # no dimension named
    assert _post(client, {**body, "dimension": "nope"}).status_code == 400
    done = _post(client, {**body, "dimension": "hierarchy", "note": "  the title is lost  "})
    assert done.status_code == 200, done.text
    (record,) = load_records(spec_dir(root) / ".argus-runs" / "signoff.json")
    check = record["human_spotcheck"]
    assert (check["status"], check["wrong_dimension"], check["note"]) == (
        "wrong",
        "hierarchy",
        "the title is lost",
    )
    (event,) = decisions(root)
    assert event.payload["wrong_dimension"] == "hierarchy" and event.payload["via"] == "ui"


@pytest.mark.parametrize(
    "body",
    [
        {"action": "accept_baseline", "feature": "demo", "slug": "../../x"},
        {"action": "accept_baseline", "feature": "../demo", "slug": "list-a-light"},
        {"action": "accept_baseline", "feature": "demo"},
        {"action": "launch", "feature": "demo", "slug": "list-a-light"},
        {"action": "accept_baseline", "feature": "demo", "slug": "list-a-light", "iteration": "2"},
    ],
)
def test_a_decision_on_something_unknown_is_bad_input(tmp_path: Path, body: object) -> None:
    root, _, baseline = changed_snapshot_repo(tmp_path)
    before = baseline.read_bytes()
    assert _post(_client(root), body).status_code == 400
    assert baseline.read_bytes() == before and decisions(root) == []


def test_an_earlier_iterations_render_is_shown_but_never_accepted(tmp_path: Path) -> None:
    root, _, baseline = changed_snapshot_repo(tmp_path)
    before = baseline.read_bytes()
    client = _client(root)
    latest = client.get("/view/demo/list-a-light").text
    assert "iteration-2%2Frender.png" in latest and 'id="accept-baseline"' in latest
    assert 'href="/view/demo/list-a-light?iteration=1"' in latest
    earlier = client.get("/view/demo/list-a-light?iteration=1").text
    assert "iteration-1%2Frender.png" in earlier and "iteration-2%2Frender.png" not in earlier
    assert 'id="accept-baseline"' not in earlier
    assert "a baseline is accepted from the latest render only" in earlier
    assert client.get("/diff/demo/list-a-light.png?iteration=1").status_code == 200
    unknown = client.get("/view/demo/list-a-light?iteration=99").text
    assert "iteration-2%2Frender.png" in unknown  # no such render: the latest
    refused = _post(client, {**ACCEPT, "iteration": 1})
    assert refused.status_code == 409 and "newer render" in refused.json()["error"]
    assert baseline.read_bytes() == before and decisions(root) == []


def test_a_person_accepts_the_configuration_through_the_page(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    body = {"action": "accept_config", "feature": "demo", "slug": "list-a-light"}
    reply = _post(_client(root), body)
    assert reply.status_code == 200, reply.text
    assert reply.json()["action"] == "accept_config"
    assert "accepted the configuration of demo" in reply.json()["message"]
    (event,) = decisions(root)
    assert event.payload["action"] == "accept_config" and event.payload["via"] == "ui"


def test_a_blocked_view_offers_no_spotcheck_of_an_earlier_sign_off(tmp_path: Path) -> None:
    from argus.loop.engine.modes import Mode
    from argus.loop.engine.run import LoopOptions, run_loop
    from argus.loop.records.status import Status
    from tests.loop.fakeapp import FEATURE, FakeServices, set_defects
    from tests.ui.support import loop

    root = make_repo(tmp_path, [])
    loop(root, Mode.HEADLESS)
    client = _client(root)
    signed = client.get("/view/demo/list-a-light").text
    assert 'id="approve-spotcheck"' in signed and 'id="reject-spotcheck"' in signed
    # A later run of the same view ends BLOCKED; the old sign-off record stays in signoff.json.
    set_defects(root, [{"name": "bad-id", "kind": "gate", "target": "a11y_ids"}])
    options = LoopOptions(feature=FEATURE, root=root, mode=Mode.HEADLESS, new_run=True)
    assert run_loop(options, services_factory=FakeServices).status is Status.BLOCKED
    blocked = client.get("/view/demo/list-a-light").text
    assert 'id="approve-spotcheck"' not in blocked and 'id="reject-spotcheck"' not in blocked
    assert "this run ended BLOCKED, so there is no sign-off to spot-check" in blocked
