"""The protected set: collected, hashed, compared, and put back after a tampering edit."""

from __future__ import annotations

from pathlib import Path

from argus.loop.guard.integrity import (
    ProtectedCopies,
    collect_protected,
    compare,
    hash_set,
)


def _repo(tmp_path: Path) -> Path:
    files = {
        "argus/specs/f/spec.json": "{}",
        "argus/specs/f/spec.md": "# f",
        "argus/specs/f/references/list-a-light.png": "png",
        "argus/specs/f/__snapshots__/list-a-light.png": "snap",
        "argus/specs/f/.argus-runs/list-a-light/state.json": "{}",
        "argus/specs/f/.argus-runs/signoff.json": "{}",
        "design/tokens.json": "{}",
        "app/fixtures/populated.json": "[]",
        "app/styles.css": "body{}",
        "tests/test_app.py": "def test(): pass",
        "node_modules/x/fixtures/a.json": "{}",
        ".venv/tests/t.py": "",
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_collects_spec_dir_named_files_and_globs_but_not_runs_or_app_code(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    found = collect_protected(
        root,
        root / "argus/specs/f",
        [root / "design/tokens.json", root / "missing.json", Path("/etc/hostname")],
        ["tests/**", "**/fixtures/**"],
    )
    assert found == [
        "app/fixtures/populated.json",
        "argus/specs/f/__snapshots__/list-a-light.png",
        "argus/specs/f/references/list-a-light.png",
        "argus/specs/f/spec.json",
        "argus/specs/f/spec.md",
        "design/tokens.json",
        "tests/test_app.py",
    ]


def test_compare_and_restore_undo_every_kind_of_change(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    spec_dir = root / "argus/specs/f"

    def protected() -> list[str]:
        return collect_protected(root, spec_dir, [root / "design/tokens.json"], [])

    before = hash_set(root, protected())
    copies = ProtectedCopies(tmp_path / "copies")
    copies.keep(root, before)

    (spec_dir / "spec.json").write_text('{"tampered": true}')
    (spec_dir / "references/list-a-light.png").unlink()
    (spec_dir / "notes.md").write_text("new")
    (root / "app/styles.css").write_text("body{color:red}")  # not protected: allowed

    after = hash_set(root, protected())
    changes = compare(before, after)
    assert changes.modified == ("argus/specs/f/spec.json",)
    assert changes.removed == ("argus/specs/f/references/list-a-light.png",)
    assert changes.added == ("argus/specs/f/notes.md",)
    assert not changes.clean
    assert "spec.json" in changes.summary()

    assert copies.restore(root, before, changes) == []
    assert compare(before, hash_set(root, protected())).clean
    assert (spec_dir / "spec.json").read_text() == "{}"
    assert (root / "app/styles.css").read_text() == "body{color:red}"


def test_untouched_set_is_clean(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    paths = collect_protected(root, root / "argus/specs/f", [], [])
    assert compare(hash_set(root, paths), hash_set(root, paths)).clean


def test_restore_refuses_a_copy_that_no_longer_matches_its_digest(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    paths = collect_protected(root, root / "argus/specs/f", [], [])
    before = hash_set(root, paths)
    copies = ProtectedCopies(tmp_path / "copies")
    copies.keep(root, before)
    spec = root / "argus/specs/f/spec.json"
    (copies.directory / before["argus/specs/f/spec.json"]).write_text('{"forged": true}')
    spec.write_text('{"tampered": true}')
    changes = compare(before, hash_set(root, paths))
    assert copies.restore(root, before, changes) == ["argus/specs/f/spec.json"]
    assert spec.read_text() == '{"tampered": true}'  # never "restored" to the forged copy
    # The next keep() replaces the bad copy, so the original can be put back again.
    spec.write_text("{}")
    copies.keep(root, before)
    spec.write_text('{"tampered": 2}')
    assert copies.restore(root, before, compare(before, hash_set(root, paths))) == []
    assert spec.read_text() == "{}"


def test_the_loop_protects_the_adapters_sense_scripts(tmp_path: Path) -> None:
    from argus.loop.engine.run import PROTECTED_GLOBS

    root = _repo(tmp_path)
    (root / "argus/adapters/tui").mkdir(parents=True)
    (root / "argus/adapters/tui/sense.sh").write_text("#!/bin/sh\n")
    found = collect_protected(root, root / "argus/specs/f", [], PROTECTED_GLOBS)
    assert "argus/adapters/tui/sense.sh" in found  # the sensor of a non-web view
    assert "app/styles.css" not in found
