"""A review is context wherever a person is asked to decide (argus approve, the review page):
shown beside the decision, and the decision is recorded exactly as it would be without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from argus.loop.engine.modes import Mode
from argus.loop.records.status import Status
from argus.review.record import record_outcome, record_review
from argus.store import RunStore
from argus.ui._app import Settings, create_app
from argus.ui._security import Origin
from tests.conftest import RunArgus
from tests.loop.fakeapp import FEATURE, make_repo
from tests.ui.support import decisions, loop

HOSTILE = 'Only the light theme. <script>alert("x")</script>'


def filed(root: Path, subject: str, verdict: str, flag: str, **extra: Any) -> int:
    payload = {
        "verdict": verdict,
        "confidence": 0.7,
        "rationale": HOSTILE if verdict == "partial" else "All clauses are covered.",
        "missing_acceptance": ["dark theme"] if verdict == "partial" else [],
        "notes": [],
        "flag": flag,
        "pr": {"number": 42, "title": "Closes #7"},
        "advisory": True,
        **extra,
    }
    event = record_review(root, subject, payload)
    assert event.id is not None
    return event.id


def candidate_repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path, [], reference="needed")
    assert loop(root).status is Status.NEEDS_CONTEXT
    return root


def test_approve_shows_the_features_reviews_and_records_the_decision_unchanged(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = candidate_repo(tmp_path)
    partial = filed(root, "#7", "partial", "needs_review", task={"id": "#7", "feature": FEATURE})
    filed(root, "ARGUS-9", "unmet", "notify")  # another task's review: not this feature's
    done = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()  # where the passphrase is asked, before it is
    head = lines.index(
        f"acceptance-fidelity reviews of {FEATURE} (advice only: the decision is the person's, "
        "and it stands whatever a review says):"
    )
    assert "acceptance-fidelity" not in done.stdout and done.stdout.strip(), "the decision"
    assert lines[head + 1] == (
        f"  review {partial}: #7 PR #42: partial (confidence 0.70); flag needs_review"
    )
    assert "    missing: dark theme" in lines and "ARGUS-9" not in done.stderr
    (decision,) = decisions(root)
    assert decision.payload["action"] == "approve_reference", "approved despite a partial"
    with RunStore.open(root) as store:
        assert store.events(kind="review_outcome") == [], "approving answers no review"


def test_approve_without_reviews_prints_only_the_decision(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = candidate_repo(tmp_path)
    done = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "acceptance-fidelity" not in done.stdout + done.stderr and done.stdout.strip()


def test_the_review_page_shows_reviews_beside_the_decisions_escaped(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    loop(root, Mode.INTERACTIVE)
    partial = filed(root, FEATURE, "partial", "needs_review")
    met = filed(root, FEATURE, "met", "info")
    app = create_app(Settings(root, "token", Origin("127.0.0.1", 8765)))
    client = TestClient(app, base_url="http://127.0.0.1:8765")
    page = client.get("/view/demo/list-a-light").text
    decisions_html = page[page.index('aria-label="Decisions"') :]
    context = decisions_html[: decisions_html.index("</aside>")]
    assert "advice, not a decision" in context
    assert f"review {partial} of {FEATURE}, PR #42" in context
    assert f"review {met} of {FEATURE}" in context
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in context
    assert "<script>alert" not in page
    assert 'id="approve-spotcheck"' in decisions_html, "the person's decision is still theirs"
    listing = client.get("/").text
    assert f"Acceptance-fidelity review {partial} ({FEATURE}, PR #42)" in listing
    assert f"Acceptance-fidelity review {met} " not in listing, (
        "an informational met waits on no one"
    )
    record_outcome(root, partial, "dismissed")
    assert f"Acceptance-fidelity review {partial} " not in client.get("/").text
    again = client.get("/view/demo/list-a-light").text
    assert "answered: dismissed" in again


def test_a_repository_without_a_run_store_shows_no_reviews_and_creates_none(
    tmp_path: Path,
) -> None:
    from argus.review.context import review_context
    from argus.store import db_path

    root = tmp_path / "fresh"
    root.mkdir()
    assert review_context(root, FEATURE) == []
    assert not db_path(root).exists()
