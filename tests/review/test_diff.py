"""Cutting a PR's diff to a budget: the file list always, tests first, cuts named."""

from __future__ import annotations

import pytest

from argus.review.diff import GENERATED, SOURCE, TESTS, classify, cut_diff, parse_diff


def file_diff(path: str, hunks: int = 1, lines: int = 3) -> str:
    out = [
        f"diff --git a/{path} b/{path}\n",
        "index 1111111..2222222 100644\n",
        f"--- a/{path}\n",
        f"+++ b/{path}\n",
    ]
    for h in range(hunks):
        out.append(f"@@ -{h * 10 + 1},{lines} +{h * 10 + 1},{lines} @@\n")
        out += [f"+added {path} {h} {i}\n" for i in range(lines)]
        out.append(f"-removed {path} {h}\n")
    return "".join(out)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("tests/test_alerts.py", TESTS),
        ("src/alerts_test.go", TESTS),
        ("web/app.spec.ts", TESTS),
        ("pkg/__tests__/x.js", TESTS),
        ("conftest.py", TESTS),
        ("src/alerts/format.py", SOURCE),
        ("app.css", SOURCE),
        ("package-lock.json", GENERATED),
        ("dist/app.js", GENERATED),
        ("static/app.min.js", GENERATED),
        ("docs/logo.png", GENERATED),
        ("tests/__snapshots__/x.snap", GENERATED),
    ],
)
def test_files_are_classified_by_path(path: str, kind: int) -> None:
    assert classify(path) == kind


def test_parse_counts_hunks_and_lines() -> None:
    text = "some preamble\n" + file_diff("a.py", hunks=2, lines=3) + file_diff("b.py")
    files = parse_diff(text)
    assert [f.path for f in files] == ["a.py", "b.py"]
    assert len(files[0].hunks) == 2 and (files[0].added, files[0].removed) == (6, 2)
    assert files[0].header.startswith("diff --git a/a.py") and "+++ b/a.py" in files[0].header


def test_a_diff_within_budget_is_whole() -> None:
    text = file_diff("src/a.py") + file_diff("tests/test_a.py")
    cut = cut_diff(text, budget=10_000)
    assert cut.hunks_shown == cut.hunks_total == 2 and not cut.left_out and not cut.material_cut
    assert cut.text.startswith("files changed")
    assert "src/a.py (+3 -1, source)" in cut.text and "tests/test_a.py (+3 -1, test)" in cut.text
    assert "+added src/a.py 0 0" in cut.text


def test_tests_are_kept_first_and_generated_files_go_first_when_cutting() -> None:
    text = file_diff("package-lock.json", hunks=5) + file_diff("src/a.py", hunks=2)
    text += file_diff("tests/test_a.py", hunks=2)
    whole = cut_diff(text, budget=100_000)
    budget = len(whole.text) - 200  # room for all but (part of) the lockfile
    cut = cut_diff(text, budget=budget)
    assert "+added tests/test_a.py 1 0" in cut.text and "+added src/a.py 1 0" in cut.text
    assert cut.left_out == ("package-lock.json",)
    assert not cut.material_cut, "leaving out a lockfile hides nothing that matters"
    assert "[left out for length: hunks of package-lock.json]" in cut.text


def test_a_cut_into_source_is_material_and_the_listing_still_names_every_file() -> None:
    text = file_diff("tests/test_a.py", hunks=1) + file_diff("src/a.py", hunks=40, lines=20)
    cut = cut_diff(text, budget=3000)
    assert cut.material_cut and cut.left_out == ("src/a.py",)
    assert "+added tests/test_a.py 0 0" in cut.text
    assert "src/a.py (+800 -40, source)" in cut.text
    assert cut.hunks_shown < cut.hunks_total and len(cut.text) < 3200


def test_the_file_listing_stops_at_200_files_and_counts_the_rest() -> None:
    text = "".join(file_diff(f"src/m{i:03}.py", lines=1) for i in range(230))
    cut = cut_diff(text, budget=1000)
    listing = cut.text.split("\n\n")[0].splitlines()
    assert listing[1] == "  src/m000.py (+1 -1, source)" and "src/m199.py" in listing[200]
    assert listing[201:] == ["  (+30 more files)"]
    assert "src/m200.py" not in listing and cut.files == 230
    note = cut.text[cut.text.index("[left out for length") :]
    assert note.count("src/m") == 200 and note.endswith("(+30 more files)]\n")
    assert len(cut.left_out) == 230, "the record still names every file left out"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n  \n",
        "--- a.py\t2024-01-01\n+++ a.py\t2024-01-02\n@@ -1 +1 @@\n-old\n+new\n",
    ],
)
def test_text_without_git_file_sections_has_no_files(text: str) -> None:
    assert parse_diff(text) == []
