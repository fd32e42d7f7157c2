"""The assertion packet: the sentence and current evidence, never the run."""

from __future__ import annotations

import json
import math
import os
import re
import time
from pathlib import Path

import pytest

from argus.assertion import AssertionPacket, build_packet, load_packet, parse_evidence
from argus.assertion._packet import ANSWER_SCHEMA, PACKET_FILE, instructions_version
from argus.errors import InputError
from tests.assertion.conftest import TREE, write_evidence


def test_a_packet_holds_the_assertion_and_copies_of_the_evidence(
    packet: AssertionPacket, tmp_path: Path
) -> None:
    doc = json.loads(packet.file.read_text())
    assert doc["assertion"] == "The selected tier is highlighted."
    assert doc["vocabulary"] == "plans are called tiers"
    assert doc["instructions_version"] == instructions_version()
    assert "Inconclusive is never" in doc["instructions"]
    assert doc["answer_schema"] == ANSWER_SCHEMA
    assert [e["id"] for e in doc["evidence"]] == ["screenshot", "ui-tree"]
    for entry in doc["evidence"]:
        copy = packet.directory / entry["path"]
        assert copy.is_file() and entry["path"].startswith("evidence/")
        assert copy.parent != tmp_path / "captured"
    assert (packet.directory / "evidence/screenshot.png").read_bytes() == (
        tmp_path / "captured/shot.png"
    ).read_bytes()
    assert re.fullmatch(r"[0-9a-f]{16}", doc["packet_id"]) and doc["packet_id"] == packet.packet_id
    assert set(doc) == {
        "version",
        "packet_id",
        "instructions_version",
        "instructions",
        "assertion",
        "vocabulary",
        "evidence",
        "answer_schema",
        "created_at",
    }, "nothing else, and nothing about the run"


@pytest.mark.parametrize("kind", ["transcript", "notes", "summary", "diff", "expected"])
def test_evidence_that_is_not_the_screen_is_refused(kind: str) -> None:
    with pytest.raises(InputError, match=f"--evidence {kind}: not evidence a judge may see"):
        parse_evidence(["screenshot=a.png", f"{kind}=b.txt"])


@pytest.mark.parametrize("bad", ["screenshot", "=a.png", "screenshot="])
def test_evidence_arguments_are_kind_equals_path(bad: str) -> None:
    with pytest.raises(InputError, match="give KIND=PATH"):
        parse_evidence([bad])


def test_a_kind_given_twice_is_refused() -> None:
    with pytest.raises(InputError, match="given twice"):
        parse_evidence(["screenshot=a.png", "screenshot=b.png"])


@pytest.mark.parametrize("key", ["transcript", "steps", "findings", "Notes", "expected"])
def test_a_ui_tree_that_carries_the_run_is_refused(tmp_path: Path, key: str) -> None:
    evidence = write_evidence(tmp_path / "e", tree={**TREE, key: "the actor clicked Save"})
    with pytest.raises(InputError, match=f"has {key}, which describe the run"):
        build_packet(tmp_path / "p", assertion="Saved.", evidence=evidence)
    assert not (tmp_path / "p").exists(), "nothing half-written"


@pytest.mark.parametrize(
    ("tree", "named"),
    [
        ({**TREE, "elements": [{"role": "button", "Notes": "clicked Save"}]}, "Notes"),
        ({**TREE, "meta": {"run": [{"deep": {"transcript": []}}]}}, "transcript"),
        ([{"role": "main"}, [{"plan": "x"}]], "plan"),
        ({"a": {"goal": 1}, "b": [{"history": 2}]}, "goal, history"),
    ],
)
def test_run_keys_are_refused_at_any_depth(tmp_path: Path, tree: object, named: str) -> None:
    evidence = write_evidence(tmp_path / "e", tree=tree)
    with pytest.raises(InputError, match=f"has {named}, which describe the run"):
        build_packet(tmp_path / "p", assertion="Saved.", evidence=evidence)


def test_a_run_key_as_a_value_is_not_a_run_key(tmp_path: Path) -> None:
    tree = {**TREE, "elements": [{"role": "link", "name": "notes", "text": "steps: 3"}]}
    packet = build_packet(
        tmp_path / "p", assertion="Saved.", evidence=write_evidence(tmp_path / "e", tree=tree)
    )
    assert packet.get("ui-tree") is not None


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('- button "Save"\ntranscript: the actor clicked Save\n', "transcript"),
        ('- main:\n  - heading "Plans"\n    Expected : the Pro tier\n', "Expected"),
        ("notes:\n- list\n", "notes"),
    ],
)
def test_a_text_ui_tree_with_a_run_line_is_refused(tmp_path: Path, text: str, named: str) -> None:
    evidence = write_evidence(tmp_path / "e")
    aria = tmp_path / "e" / "aria.txt"
    aria.write_text(text, "utf-8")
    with pytest.raises(InputError, match=f"has {named}, which describe the run"):
        build_packet(tmp_path / "p", assertion="Saved.", evidence={**evidence, "ui-tree": aria})


@pytest.mark.parametrize("age", [math.nan, math.inf, -1.0])
def test_the_maximum_age_is_finite_and_not_negative(tmp_path: Path, age: float) -> None:
    with pytest.raises(InputError, match="maximum evidence age must be finite"):
        build_packet(
            tmp_path / "p", assertion="x.", evidence=write_evidence(tmp_path / "e"), max_age_s=age
        )


def test_an_aria_snapshot_as_text_is_a_ui_tree(tmp_path: Path) -> None:
    evidence = write_evidence(tmp_path / "e")
    aria = tmp_path / "e" / "aria.txt"
    aria.write_text('- button "Save"\n- link "Release notes":\n  - /url: /notes\n', "utf-8")
    packet = build_packet(
        tmp_path / "p", assertion="A Save button is shown.", evidence={**evidence, "ui-tree": aria}
    )
    tree = packet.get("ui-tree")
    assert tree is not None and tree.path.name == "ui-tree.txt"


def test_a_screenshot_is_required_and_must_be_a_png(tmp_path: Path) -> None:
    evidence = write_evidence(tmp_path / "e")
    with pytest.raises(InputError, match="judged on a screenshot"):
        build_packet(tmp_path / "p", assertion="x.", evidence={"ui-tree": evidence["ui-tree"]})
    with pytest.raises(InputError, match="must be a PNG"):
        build_packet(tmp_path / "p", assertion="x.", evidence={"screenshot": evidence["ui-tree"]})


@pytest.mark.parametrize(
    ("assertion", "message"),
    [("", "is empty"), ("two\nlines", "one line"), ("x" * 301, "at most 300")],
)
def test_the_assertion_is_one_short_sentence(tmp_path: Path, assertion: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        build_packet(tmp_path / "p", assertion=assertion, evidence=write_evidence(tmp_path / "e"))


def test_evidence_from_an_earlier_step_is_refused(tmp_path: Path) -> None:
    evidence = write_evidence(tmp_path / "e")
    old = time.time() - 3600
    os.utime(evidence["screenshot"], (old, old))
    with pytest.raises(InputError, match="captured 3600 s ago; evidence must be captured now"):
        build_packet(tmp_path / "p", assertion="Saved.", evidence=evidence)
    packet = build_packet(tmp_path / "p", assertion="Saved.", evidence=evidence, max_age_s=None)
    assert packet.screenshot().path.is_file()


def test_evidence_changed_after_the_packet_was_built_is_caught(packet: AssertionPacket) -> None:
    packet.screenshot().path.write_bytes(b"\x89PNG\r\n\x1a\nchanged")
    with pytest.raises(InputError, match="changed after the packet was built"):
        load_packet(packet.directory)


def test_a_packet_without_an_id_is_refused(packet: AssertionPacket) -> None:
    doc = json.loads(packet.file.read_text())
    del doc["packet_id"]
    packet.file.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="has no packet_id; build the packet again"):
        load_packet(packet.directory)


def test_each_packet_gets_its_own_id(packet: AssertionPacket, tmp_path: Path) -> None:
    rebuilt = build_packet(
        packet.directory, assertion="Again.", evidence=write_evidence(tmp_path / "again")
    )
    assert rebuilt.packet_id != packet.packet_id


def test_a_packet_path_outside_the_packet_is_refused(packet: AssertionPacket) -> None:
    doc = json.loads(packet.file.read_text())
    doc["evidence"][0]["path"] = "../captured/shot.png"
    packet.file.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="is not inside the packet"):
        load_packet(packet.directory)


def test_a_directory_that_is_not_a_packet_is_never_overwritten(tmp_path: Path) -> None:
    keep = tmp_path / "work"
    keep.mkdir()
    (keep / "notes.md").write_text("mine")
    with pytest.raises(InputError, match="not an assertion packet"):
        build_packet(keep, assertion="x.", evidence=write_evidence(tmp_path / "e"))
    assert (keep / "notes.md").read_text() == "mine"


def test_rebuilding_a_packet_replaces_it_whole(packet: AssertionPacket, tmp_path: Path) -> None:
    evidence = write_evidence(tmp_path / "again")
    rebuilt = build_packet(
        packet.directory, assertion="Another.", evidence={"screenshot": evidence["screenshot"]}
    )
    assert rebuilt.assertion == "Another." and rebuilt.get("ui-tree") is None
    assert sorted(p.name for p in (packet.directory / "evidence").iterdir()) == ["screenshot.png"]
    assert load_packet(packet.directory / PACKET_FILE).digest == rebuilt.digest


@pytest.mark.parametrize(
    ("field", "text", "named"),
    [
        ("vocabulary", "expected: passed (the actor already clicked Save)", "expected"),
        ("vocabulary", "plans are tiers; Notes: the tester saw it work", "notes"),
        ("assertion", "The Save button is shown (transcript: clicked it).", "transcript"),
    ],
)
def test_free_text_that_carries_the_run_is_refused(
    tmp_path: Path, field: str, text: str, named: str
) -> None:
    given = {"assertion": "A Save button is shown.", field: text}
    with pytest.raises(InputError, match=f"the {field} has {named}:, which describe the run"):
        build_packet(tmp_path / "p", evidence=write_evidence(tmp_path / "e"), **given)
    build_packet(
        tmp_path / "ok",
        assertion="The expected total is shown.",
        vocabulary="a plan's notes are called memos",
        evidence=write_evidence(tmp_path / "e2"),
    )
