from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.schemas.rubric import default_rubric_text
from argus.spec import lint_spec
from tests.spec.project import PNG_BYTES, make_project, spec_data, write_json

FEATURE = Path("argus/specs/habits")
Change = Callable[[dict[str, Any], Path], None]


def lint_with(tmp_path: Path, change: Change) -> tuple[list[str], Path]:
    """Build the valid project, apply ``change`` to the spec data and files, lint it."""
    root = tmp_path / "repo"
    data = spec_data()
    make_project(root, data)
    change(data, root)
    path = write_json(root / FEATURE / "spec.json", data)
    report = lint_spec(path)
    return [str(issue) for issue in report.errors], root


def target(data: dict[str, Any]) -> dict[str, Any]:
    return data["targets"][0]


def second_target(data: dict[str, Any], root: Path) -> None:
    data["targets"].append(dict(target(data), references=[]))


def outside_file(root: Path, name: str, content: bytes) -> Path:
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / name).write_bytes(content)
    return outside / name


def symlinked_tokens_out(data: dict[str, Any], root: Path) -> None:
    real = outside_file(root, "tokens.json", (root / FEATURE / "tokens.json").read_bytes())
    (root / "linked").symlink_to(real.parent, target_is_directory=True)
    data["design_system"]["tokens"] = "linked/tokens.json"


def symlinked_tokens_in(data: dict[str, Any], root: Path) -> None:
    (root / "linked").symlink_to(root / FEATURE, target_is_directory=True)
    data["design_system"]["tokens"] = "linked/tokens.json"


def symlinked_reference_out(data: dict[str, Any], root: Path) -> None:
    real = outside_file(root, "ref.png", PNG_BYTES)
    link = root / FEATURE / "references" / "list-populated-light.png"
    link.unlink()
    link.symlink_to(real)


def absolute_inside(data: dict[str, Any], root: Path) -> None:
    data["design_system"]["tokens"] = str((root / FEATURE / "tokens.json").resolve())


def absolute_outside(data: dict[str, Any], root: Path) -> None:
    data["design_system"]["tokens"] = str(outside_file(root, "tokens.json", b"{}"))


def rewrite(relative: str, content: Any) -> Change:
    def change(data: dict[str, Any], root: Path) -> None:
        path = root / relative
        if content is None:
            path.unlink()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            write_json(path, content)

    return change


def edit(func: Callable[[dict[str, Any]], Any]) -> Change:
    def change(data: dict[str, Any], root: Path) -> None:
        func(data)

    return change


def two_distinct_targets(data: dict[str, Any], root: Path) -> None:
    second_target(data, root)
    data["targets"][1]["id"] = "detail"


def reference_is_a_directory(data: dict[str, Any], root: Path) -> None:
    (root / REFERENCE).unlink()
    (root / REFERENCE).mkdir()


def valid_feature_rubric(data: dict[str, Any], root: Path) -> None:
    (root / FEATURE / "rubric.json").write_text(default_rubric_text())


REFERENCE = "argus/specs/habits/references/list-populated-light.png"
TOKENS = "argus/specs/habits/tokens.json"
PAIRS = "argus/specs/habits/contrast-pairs.json"
FIXTURE = "fixtures/three-habits.json"
COUNT = "$.targets[0].expectations.populated.counts[0].equals_fixture"

# (name, change that breaks the spec, expected "path: message" start, change that is fine)
CASES: list[tuple[str, Change, str, Change]] = [
    (
        "duplicate target id",
        second_target,
        "$.targets[1].id: duplicate target id 'list' (first used by $.targets[0])",
        two_distinct_targets,
    ),
    (
        "canonical state unknown",
        edit(lambda d: target(d)["canonical"].update(state="loading")),
        "$.targets[0].canonical.state: 'loading' is not a state of target 'list'",
        edit(lambda d: target(d)["canonical"].update(state="populated")),
    ),
    (
        "canonical appearance unknown",
        edit(lambda d: target(d)["canonical"].update(appearance="sepia")),
        "$.targets[0].canonical.appearance: 'sepia' is not an appearance of target 'list'",
        edit(lambda d: target(d).pop("canonical")),
    ),
    (
        "fixture key is not a state",
        edit(lambda d: target(d)["fixtures"].update(loading="spinner")),
        "$.targets[0].fixtures: fixture for 'loading', which is not a state",
        edit(lambda d: target(d)["fixtures"].update(empty="no-habits")),
    ),
    (
        "expectations for an unknown state",
        edit(lambda d: target(d)["expectations"].update(error={"counts": []})),
        "$.targets[0].expectations: expectations for 'error', which is not a state",
        edit(lambda d: target(d)["expectations"].pop("empty")),
    ),
    (
        "reference state unknown",
        edit(
            lambda d: target(d)["references"].append(
                {"state": "x", "appearance": "dark", "status": "needed"}
            )
        ),
        "$.targets[0].references[1].state: 'x' is not a state of target 'list'",
        edit(
            lambda d: target(d)["references"].append(
                {"state": "empty", "appearance": "dark", "status": "needed"}
            )
        ),
    ),
    (
        "reference appearance unknown",
        edit(
            lambda d: target(d)["references"].append(
                {"state": "empty", "appearance": "x", "status": "needed"}
            )
        ),
        "$.targets[0].references[1].appearance: 'x' is not an appearance of target 'list'",
        edit(
            lambda d: target(d)["references"].append(
                {"state": "empty", "appearance": "light", "status": "needed"}
            )
        ),
    ),
    (
        "two references for one view",
        edit(
            lambda d: target(d)["references"].append(
                dict(target(d)["references"][0], status="needed")
            )
        ),
        "$.targets[0].references[1]: second reference for populated/light (first: [0])",
        edit(lambda d: target(d)["references"][0].update(source="candidate")),
    ),
    (
        "present reference file missing",
        rewrite(REFERENCE, None),
        "$.targets[0].references[0].file: marked present but file not found",
        edit(lambda d: target(d)["references"][0].update(status="needed")),
    ),
    (
        "present reference is not a PNG",
        rewrite(REFERENCE, b"GIF89a not a png at all"),
        "$.targets[0].references[0].file: marked present but not a PNG image",
        rewrite(REFERENCE, PNG_BYTES + b"more"),
    ),
    (
        "present reference is a directory",
        reference_is_a_directory,
        "$.targets[0].references[0].file: marked present but not a regular file",
        edit(lambda d: target(d)["references"][0].update(status="candidate")),
    ),
    (
        "tokens file missing",
        rewrite(TOKENS, None),
        "$.design_system.tokens: ",
        rewrite(TOKENS, {"colors": {"text": "#000", "surface": "#fff"}}),
    ),
    (
        "tokens file is not JSON",
        rewrite(TOKENS, b"{colors"),
        "$.design_system.tokens: ",
        rewrite(TOKENS, b'{"colors": {"text": "black", "surface": "white"}}'),
    ),
    (
        "appearance without token colours",
        edit(lambda d: target(d)["appearances"].append("sepia")),
        "$.targets[0].appearances: appearance 'sepia' has no colours in tokens.json",
        edit(lambda d: target(d).update(appearances=["dark", "light"])),
    ),
    (
        "chart series naming a colour the tokens lack",
        edit(lambda d: d.update(charts={"series": {"revenue": "chart-9"}})),
        "$.charts.series.revenue: names colour token 'chart-9', which tokens.json does not define",
        edit(lambda d: d.update(charts={"series": {"revenue": "text"}})),
    ),
    (
        "contrast pairs file missing",
        rewrite(PAIRS, None),
        "$.design_system.contrast_pairs: ",
        edit(lambda d: d["design_system"].pop("contrast_pairs")),
    ),
    (
        "contrast pair names an unknown token",
        rewrite(PAIRS, {"pairs": [{"fg": "text", "bg": "paper", "min": 4.5}]}),
        "$.design_system.contrast_pairs: contrast-pairs.json: pairs[0].bg 'paper' is not a colour",
        rewrite(PAIRS, {"pairs": [{"fg": "accent", "bg": "surface", "min": 3}]}),
    ),
    (
        "contrast pair surface names an unknown token",
        rewrite(
            PAIRS, {"pairs": [{"fg": "text", "bg": "surface", "surface": "paper", "min": 4.5}]}
        ),
        "$.design_system.contrast_pairs: contrast-pairs.json: pairs[0].surface 'paper'",
        rewrite(
            PAIRS, {"pairs": [{"fg": "text", "bg": "surface", "surface": "#eeeeee", "min": 4.5}]}
        ),
    ),
    (
        "contrast pairs without a pairs array",
        rewrite(PAIRS, {"pair": []}),
        "$.design_system.contrast_pairs: ",
        rewrite(PAIRS, {"_about": "x", "pairs": [{"fg": "text", "bg": "surface"}]}),
    ),
    (
        "path with ..",
        edit(lambda d: d["design_system"].update(tokens="argus/../argus/specs/habits/tokens.json")),
        "$.design_system.tokens: 'argus/../argus/specs/habits/tokens.json' contains '..'",
        edit(lambda d: d["design_system"].update(tokens="./argus/specs/habits/tokens.json")),
    ),
    (
        "reference path with ..",
        edit(
            lambda d: target(d)["references"][0].update(
                file="../habits/references/list-populated-light.png"
            )
        ),
        "$.targets[0].references[0].file: '../habits/references/list-populated-light.png' contains",
        edit(
            lambda d: target(d)["references"][0].update(file="references/list-populated-light.png")
        ),
    ),
    (
        "absolute path outside the repository",
        absolute_outside,
        "$.design_system.tokens: ",
        absolute_inside,
    ),
    (
        "symlink escape",
        symlinked_tokens_out,
        "$.design_system.tokens: 'linked/tokens.json' leads through a symlink",
        symlinked_tokens_in,
    ),
    (
        "reference symlink escape",
        symlinked_reference_out,
        "$.targets[0].references[0].file: 'references/list-populated-light.png' leads through",
        lambda data, root: None,
    ),
    (
        "fixture count file missing",
        rewrite(FIXTURE, None),
        f"{COUNT}: ",
        rewrite(FIXTURE, {"habits": []}),
    ),
    (
        "fixture pointer is not an array",
        rewrite(FIXTURE, {"habits": {"a": 1}}),
        f"{COUNT}: ",
        rewrite(FIXTURE, {"habits": [1]}),
    ),
    (
        "fixture pointer finds nothing",
        rewrite(FIXTURE, {"items": []}),
        f"{COUNT}: ",
        rewrite(FIXTURE, {"habits": [], "items": []}),
    ),
    (
        "fixture path escapes",
        edit(
            lambda d: target(d)["expectations"]["populated"]["counts"][0]["equals_fixture"].update(
                file="/etc/passwd"
            )
        ),
        f"{COUNT}.file: '/etc/passwd' is outside the repository",
        edit(
            lambda d: target(d)["expectations"]["populated"]["counts"][0]["equals_fixture"].update(
                file="./fixtures/three-habits.json"
            )
        ),
    ),
    (
        "feature differs from its directory",
        edit(lambda d: d.update(feature="habit")),
        "$.feature: 'habit' does not match its directory argus/specs/habits/",
        edit(lambda d: d.update(feature="habits")),
    ),
    (
        "invalid feature rubric",
        rewrite("argus/specs/habits/rubric.json", {"version": "1"}),
        "rubric.json: ",
        valid_feature_rubric,
    ),
]


def test_the_base_project_lints_clean(tmp_path: Path) -> None:
    errors, _ = lint_with(tmp_path, lambda data, root: None)
    assert errors == []


@pytest.mark.parametrize(("name", "breaks", "expected", "fine"), CASES, ids=[c[0] for c in CASES])
def test_semantic_check_fails(
    tmp_path: Path, name: str, breaks: Change, expected: str, fine: Change
) -> None:
    errors, _ = lint_with(tmp_path, breaks)
    assert any(error.startswith(expected) for error in errors), errors


@pytest.mark.parametrize(("name", "breaks", "expected", "fine"), CASES, ids=[c[0] for c in CASES])
def test_semantic_check_passes(
    tmp_path: Path, name: str, breaks: Change, expected: str, fine: Change
) -> None:
    errors, _ = lint_with(tmp_path, fine)
    assert errors == []


def test_path_escape_stops_the_file_checks(tmp_path: Path) -> None:
    # An escaping path is never opened: no "not a PNG"/"missing" noise from the outside file.
    def change(data: dict[str, Any], root: Path) -> None:
        target(data)["references"][0]["file"] = "/etc/hostname"

    errors, _ = lint_with(tmp_path, change)
    assert errors == [
        "$.targets[0].references[0].file: '/etc/hostname' is outside the repository "
        + errors[0].split("repository ")[1]
    ]


def test_schema_errors_come_with_json_paths_and_skip_semantic_checks(tmp_path: Path) -> None:
    def change(data: dict[str, Any], root: Path) -> None:
        target(data)["states"] = []
        target(data)["canonical"]["state"] = "nowhere"
        (root / TOKENS).unlink()

    errors, _ = lint_with(tmp_path, change)
    assert errors == ["$.targets[0].states: [] should be non-empty"]


def test_lint_reports_every_problem_at_once(tmp_path: Path) -> None:
    def change(data: dict[str, Any], root: Path) -> None:
        target(data)["canonical"]["state"] = "nowhere"
        (root / REFERENCE).unlink()
        (root / PAIRS).unlink()

    errors, _ = lint_with(tmp_path, change)
    assert len(errors) == 3


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "spec not found"),
        (b"[1,", "not valid JSON"),
        (b"\n" * (5 * 1024 * 1024 + 1), "5 MiB"),
    ],
)
def test_unreadable_spec_is_an_input_error(
    tmp_path: Path, content: bytes | None, expected: str
) -> None:
    path = make_project(tmp_path)
    if content is None:
        path.unlink()
    else:
        path.write_bytes(content)
    with pytest.raises(InputError, match=expected):
        lint_spec(path)


def worklist(tmp_path: Path, change: Change) -> list[tuple[str, str, bool]]:
    root = tmp_path / "repo"
    data = spec_data()
    make_project(root, data)
    change(data, root)
    report = lint_spec(write_json(root / FEATURE / "spec.json", data))
    return [(item.slug, item.status, item.canonical) for item in report.worklist]


def test_worklist_marks_a_present_canonical_reference(tmp_path: Path) -> None:
    assert worklist(tmp_path, lambda d, r: None) == [("list-populated-light", "present", True)]


def test_worklist_marks_a_canonical_view_without_entry_as_needed(tmp_path: Path) -> None:
    got = worklist(tmp_path, edit(lambda d: target(d).update(references=[])))
    assert got == [("list-populated-light", "needed", True)]


def test_worklist_follows_the_canonical_default(tmp_path: Path) -> None:
    def change(data: dict[str, Any], root: Path) -> None:
        del target(data)["canonical"]
        target(data)["states"] = ["empty", "populated"]
        target(data)["references"][0]["status"] = "candidate"

    assert worklist(tmp_path, change) == [
        ("list-empty-light", "needed", True),
        ("list-populated-light", "candidate", False),
    ]


def test_worklist_lists_open_extra_references_but_not_present_ones(tmp_path: Path) -> None:
    def change(data: dict[str, Any], root: Path) -> None:
        refs = target(data)["references"]
        refs.append({"state": "empty", "appearance": "dark", "status": "needed"})
        refs.append(dict(refs[0], appearance="dark", file="references/list-populated-light.png"))
        data["targets"].append(dict(target(data), id="detail", references=[]))

    assert worklist(tmp_path, change) == [
        ("list-populated-light", "present", True),
        ("list-empty-dark", "needed", False),
        ("detail-populated-light", "needed", True),
    ]


def test_report_json_shape(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    document = lint_spec(path).to_json()
    assert document == {
        "spec": str(path),
        "valid": True,
        "errors": [],
        "warnings": [],
        "reference_worklist": [
            {
                "target": "list",
                "state": "populated",
                "appearance": "light",
                "status": "present",
                "file": "references/list-populated-light.png",
                "canonical": True,
            }
        ],
    }
