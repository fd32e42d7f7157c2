from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.errors import ConfigError, InputError
from argus.gates._source_scan import _scan_cached, language_for, scan_source
from argus.gates._source_tokens import check_source_tokens, select_files, source_tokens_gate
from argus.gates.base import GateInputs, GateStatus
from argus.tokens import Tokens, load_tokens


@pytest.fixture(autouse=True)
def _fresh_scans() -> None:
    # Scans are cached by text: each test scans afresh, so what it asserts is computed by the
    # code under test now, not remembered from an earlier test (or an earlier mutant).
    _scan_cached.cache_clear()


def literals(text: str, language: str) -> list[tuple[int, str]]:
    return [(hit.line, hit.literal) for hit in scan_source(text, language)]


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        # CSS: literals in declarations are hits, token uses are not.
        ("css", ".a {\n  color: #555c69;\n}", [(2, "#555c69")]),
        ("css", ".a { color: var(--color-text); margin: var(--space-md) 0; }", []),
        ("css", ".a { background: rgb(10 20 30 / 50%); }", [(1, "rgb(10 20 30 / 50%)")]),
        ("css", ".a { box-shadow: 0 1px 2px hsla(0, 0%, 0%, .2); }", [(1, "hsla(0, 0%, 0%, .2)")]),
        ("css", ".a { color: red; font-family: Red Hat; }", [(1, "red")]),
        ("css", ".a { border: 1px solid transparent; color: currentColor; }", []),
        ("css", ".a { padding: 12px 1.5rem; margin: 0; }", [(1, "12px"), (1, "1.5rem")]),
        ("css", ".a { width: 12px; border-width: 2px; line-height: 24px; }", []),
        ("css", ".a { margin: calc(var(--space-md) - var(--space-xs) / 2) 0 0; }", []),
        ("css", ".a { color: var(--x, #fff); background: url(#f00); }", []),
        ("css", "/* color: #fff; */\n.a { color: #fff; } /* argus-allow */", []),
        ("css", ".a {\n  gap: 10px;\n}\n.b:hover { color: #abc; }", [(2, "10px"), (4, "#abc")]),
        # Token definitions are exempt; a component's own custom property is not.
        (
            "css",
            ':root { --c: #fff; --s: 4px; }\n:root[data-appearance="dark"] { --c: #000; }',
            [],
        ),
        ("css", "@media (min-width: 600px) { :root { --c: #fff; } }", []),
        ("css", ".card { --accent: #ff0000; }", [(1, "#ff0000")]),
        ("scss", "$accent: #3447c4;\n.a { $local: #fff; color: $accent; }", [(2, "#fff")]),
        ("scss", "// color: #fff;\n.a { b { padding: 3px; } }", [(2, "3px")]),
        # JS / TS / JSX: style objects, colour strings, CSS in template literals.
        ("js", "const s = { color: '#fff', marginTop: 12, padding: 0 };", [(1, "#fff"), (1, "12")]),
        (
            "js",
            "<div style={{ backgroundColor: 'rebeccapurple', gap: '8px' }} />",
            [(1, "8px"), (1, "rebeccapurple")],
        ),
        ("js", 'const accent = "#3447c4";', [(1, "#3447c4")]),
        ("js", "const Box = styled.div`\n  padding: 12px;\n  color: var(--c);\n`;", [(2, "12px")]),
        ("js", "class A { #abc = 1; }\n// color: '#fff'\nconst u = 'http://x/#top';", []),
        ("js", "const s = { color: tokens.text, margin: space.md, streak: 0 };", []),
        ("js", "const s = { padding: 16 }; // argus-allow", []),
        # DOM style assignments.
        ("js", 'el.style.marginTop = "13px";', [(1, "13px")]),
        ("js", "el.style.setProperty('padding', '7px');", [(1, "7px")]),
        ("js", 'el.style.background = "rebeccapurple";', [(1, "rebeccapurple")]),
        (
            "js",
            'el.style.cssText = "margin: 13px; color: #123456";',
            [(1, "13px"), (1, "#123456")],
        ),
        ("js", "row.style['padding-left'] = `6px`;", [(1, "6px")]),
        (
            "js",
            'el.setAttribute("style", "gap: 10px; border-color: teal");',
            [(1, "10px"), (1, "teal")],
        ),
        ("js", 'el.style.marginTop = "var(--space-md)";\nel.style.color = tokens.text;', []),
        (
            "js",
            'el.style.width = "13px"; el.style.padding = "0"; if (el.style.color == "x") {}',
            [],
        ),
        ("js", "el.style.setProperty('--accent', 'var(--color-primary)');", []),
        # Swift.
        ("swift", "Color(red: 0.2, green: 0.3, blue: 0.4)", [(1, "Color(red")]),
        ("swift", "let c = UIColor(white: 0.5, alpha: 1)", [(1, "UIColor(white")]),
        (
            "swift",
            'Text("x").padding(12)\nVStack(spacing: 8) {}',
            [(1, ".padding(12)"), (2, "spacing: 8")],
        ),
        (
            "swift",
            ".padding(.horizontal, 16)\n.padding(0)\n.padding(Spacing.md)",
            [(1, ".padding(.horizontal, 16)")],
        ),
        ("swift", 'Color("Accent")\n// Color(red: 1, green: 0, blue: 0)', []),
        # HTML: style blocks and attributes, SVG colours; currentColor and none are fine.
        (
            "html",
            '<p style="color: #f00">x</p>\n<svg fill="none" stroke="currentColor"></svg>\n'
            '<style>\n.a { margin: 3px; }\n</style>\n<rect fill="#00ff00"/>',
            [(1, "#f00"), (4, "3px"), (6, "#00ff00")],
        ),
    ],
)
def test_scan_source(language: str, text: str, expected: list[tuple[int, str]]) -> None:
    assert sorted(literals(text, language)) == sorted(expected)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_clean_sources_pass_and_a_hard_coded_colour_fails(tmp_path: Path, tokens: Tokens) -> None:
    write(
        tmp_path,
        {"app.css": ".a { color: var(--c); }\n", "bad.css": ".b {\n  color: #555c69;\n}\n"},
    )
    clean = check_source_tokens(tmp_path, [Path("app.css")], tokens, "light")
    assert clean.status is GateStatus.PASS
    outcome = check_source_tokens(tmp_path, [Path("app.css"), Path("bad.css")], tokens, "light")
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert finding.element == "bad.css:2"
    assert finding.property == "color:color"
    assert finding.value == "#555c69"
    assert finding.expected == "token text-secondary"
    assert outcome.data["hard_coded_colors"] == 1


def test_spacing_suggestion_names_the_nearest_step(tmp_path: Path, tokens: Tokens) -> None:
    write(tmp_path, {"a.css": ".a { padding: 15px; }"})
    (finding,) = check_source_tokens(tmp_path, [Path("a.css")], tokens, "light").findings
    assert finding.expected == "token md"


def test_select_files_by_glob(tmp_path: Path) -> None:
    write(tmp_path, {"src/a.css": "", "src/deep/b.tsx": "", "src/c.md": "", "other/d.css": ""})
    assert select_files(tmp_path, ["src/**/*"]) == [Path("src/a.css"), Path("src/deep/b.tsx")]
    assert select_files(tmp_path, ["src/**/*", "!src/deep/*"]) == [Path("src/a.css")]
    # An exclusion that matches nothing excludes nothing: only a path to scan must exist.
    assert select_files(tmp_path, ["src/*.css", "!gone/*.css"]) == [Path("src/a.css")]
    with pytest.raises(ConfigError, match=r"'gone/\*\.css' matches no file"):
        select_files(tmp_path, ["src/*.css", "gone/*.css"])
    with pytest.raises(ConfigError, match="inside the repository"):
        select_files(tmp_path, ["../elsewhere/*.css"])


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_select_files_changed_against_a_git_base(tmp_path: Path) -> None:
    write(tmp_path, {"a.css": "", "b.css": "", "gone.css": ""})
    git(tmp_path, "init", "-q")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "add", ".")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "commit", "-qm", "base")
    write(tmp_path, {"b.css": ".b { color: #fff; }", "new.ts": "", "notes.txt": ""})
    (tmp_path / "gone.css").unlink()
    assert select_files(tmp_path, [], "HEAD") == [Path("b.css"), Path("new.ts")]
    assert select_files(tmp_path, ["*.css"], "HEAD") == [Path("b.css")]
    assert select_files(tmp_path, ["!new.ts"], "HEAD") == [Path("b.css")]
    with pytest.raises(ConfigError, match="git_base"):
        select_files(tmp_path, [], "no-such-ref")


def test_gate_skips_when_unconfigured_and_errors_when_globs_match_nothing(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    assert source_tokens_gate(inputs).status is GateStatus.PASS  # the example's own paths

    def configured(**settings: object) -> GateInputs:
        gates = inputs.config.gates
        section = gates.source_tokens.model_copy(update=settings)
        config = inputs.config.model_copy(
            update={"gates": gates.model_copy(update={"source_tokens": section})}
        )
        return dataclasses.replace(inputs, config=config)

    assert source_tokens_gate(configured(paths=[])).status is GateStatus.SKIP
    with pytest.raises(ConfigError, match=r"'nothing/\*\.css' matches no file"):
        source_tokens_gate(configured(paths=["nothing/*.css"]))
    # One path that names nothing is a typo even beside paths that do: never quietly unscanned.
    with pytest.raises(ConfigError, match=r"'app\.ccs' matches no file"):
        source_tokens_gate(configured(paths=["app.css", "app.ccs"]))
    with pytest.raises(ConfigError, match="match no CSS"):
        source_tokens_gate(configured(paths=["*.py"]))
    (inputs.root / "extra.css").write_text(".x { margin: 13px; }")
    outcome = source_tokens_gate(configured(paths=["*.css", "!app.css"]))
    assert outcome.status is GateStatus.FAIL
    assert [f.element for f in outcome.findings] == ["extra.css:1"]


def test_every_hit_is_counted_but_at_most_100_are_listed(tmp_path: Path, tokens: Tokens) -> None:
    lines = [f".c{i} {{ color: #{i:06x}; }}" for i in range(60)]
    lines += [f".s{i} {{ margin: {i + 1}px; }}" for i in range(50)]
    write(tmp_path, {"many.css": "\n".join(lines)})
    outcome = check_source_tokens(tmp_path, [Path("many.css")], tokens, "light")
    assert outcome.name == "source_tokens"
    assert outcome.status is GateStatus.FAIL
    assert len(outcome.findings) == 100
    assert outcome.data == {
        "files": ["many.css"],
        "hard_coded_colors": 60,
        "hard_coded_spacing": 50,
    }
    # The numbers in the summary: hits, files, colours, spacing.
    assert re.findall(r"\d+", outcome.summary) == ["110", "1", "60", "50"]
    assert outcome.findings[0].element == "many.css:1"
    assert outcome.findings[99].element == "many.css:100"


def test_a_clean_file_passes_with_zero_counts(tmp_path: Path) -> None:
    write(tmp_path, {"a.css": ".a { color: var(--c); }", "notes.txt": "color: #fff;"})
    outcome = check_source_tokens(tmp_path, [Path("a.css"), Path("notes.txt")])
    assert outcome.status is GateStatus.PASS
    assert outcome.findings == ()
    assert outcome.data == {
        "files": ["a.css", "notes.txt"],
        "hard_coded_colors": 0,
        "hard_coded_spacing": 0,
    }


@pytest.mark.parametrize(
    ("name", "text", "appearance", "found"),
    [
        # (property, literal, suggestion)
        ("a.css", ".a { padding: 1.5rem; }", "light", ("spacing:padding", "1.5rem", "token lg")),
        ("a.css", ".a { margin: -8px; }", "light", ("spacing:margin", "-8px", "token sm")),
        ("a.css", ".a { gap: 0.25rem; }", "light", ("spacing:gap", "0.25rem", "token xs")),
        (
            "a.css",
            ".a { color: #a3aab7; }",
            "dark",
            ("color:color", "#a3aab7", "token text-secondary"),
        ),
        (
            "a.css",
            ".a { color: #a3aab7; }",
            "light",
            ("color:color", "#a3aab7", "token border"),
        ),
        ("a.css", ".a { color: #3447c5; }", "light", ("color:color", "#3447c5", "token primary")),
        ("a.css", ".a { color: #8c9eff; }", "dark", ("color:color", "#8c9eff", "token primary")),
        ("a.js", 'const a = "#b3261e";', "light", ("color", "#b3261e", "token danger")),
        (
            "a.swift",
            "VStack(spacing: 23) {}",
            "light",
            ("spacing:spacing", "spacing: 23", "token lg"),
        ),
        (
            "a.swift",
            "Color(red: 1, green: 0, blue: 0)",
            "light",
            ("color:color", "Color(red", "a design token"),
        ),
    ],
)
def test_each_finding_names_its_file_line_property_and_nearest_token(
    tmp_path: Path,
    tokens: Tokens,
    name: str,
    text: str,
    appearance: str,
    found: tuple[str, str, str],
) -> None:
    write(tmp_path, {name: "\n" + text})
    (finding,) = check_source_tokens(tmp_path, [Path(name)], tokens, appearance).findings
    assert finding.element == f"{name}:2"
    assert (finding.property, finding.value, finding.expected) == found
    assert finding.value in finding.message


def test_without_tokens_or_a_scale_the_suggestion_is_any_token(tmp_path: Path) -> None:
    write(tmp_path, {"a.css": ".a { color: #123456; margin: 3px; }"})
    found = check_source_tokens(tmp_path, [Path("a.css")]).findings
    assert [f.expected for f in found] == ["a design token", "a design token"]
    # Tokens whose palette has no colour for the appearance and no spacing scale.
    (tmp_path / "tokens.json").write_text(json.dumps({"colors": {"ink": {"dark": "#111111"}}}))
    few = load_tokens(tmp_path / "tokens.json")
    found = check_source_tokens(tmp_path, [Path("a.css")], few, "light").findings
    assert [f.expected for f in found] == ["a design token", "a design token"]
    assert check_source_tokens(tmp_path, [Path("a.css")], few, "dark").findings[0].expected == (
        "token ink"
    )


def test_patterns_must_stay_inside_the_repository(tmp_path: Path) -> None:
    write(tmp_path, {"a.css": ""})
    for bad in ("", "/etc/*.css", "src/../../x.css"):
        with pytest.raises(ConfigError):
            select_files(tmp_path, [bad])
    assert select_files(tmp_path, ["*.css"]) == [Path("a.css")]


def test_changed_files_are_relative_to_a_root_inside_the_repository(tmp_path: Path) -> None:
    write(tmp_path, {"app/a.css": "", "app/b.css": "", "other.css": ""})
    git(tmp_path, "init", "-q")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "add", ".")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "commit", "-qm", "base")
    write(tmp_path, {"app/a.css": "x", "other.css": "x", "app/new.css": "", "top.css": ""})
    assert select_files(tmp_path / "app", [], "HEAD") == [Path("a.css"), Path("new.css")]
    assert select_files(tmp_path, [], "HEAD") == [
        Path("app/a.css"),
        Path("app/new.css"),
        Path("other.css"),
        Path("top.css"),
    ]


@pytest.mark.parametrize("error", [OSError("no git"), subprocess.TimeoutExpired("git", 30)])
def test_git_that_cannot_run_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(subprocess, "run", fail)
    with pytest.raises(InputError, match="cannot run git"):
        select_files(tmp_path, [], "HEAD")


def test_git_runs_in_the_root_with_a_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, object]] = []

    def fake(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        seen.append({"argv": argv, **kwargs})
        return subprocess.CompletedProcess(argv, 0, "a.css\n\n", "")

    monkeypatch.setattr(subprocess, "run", fake)
    write(tmp_path, {"a.css": ""})
    assert select_files(tmp_path, [], "main") == [Path("a.css")]
    assert [s["argv"] for s in seen] == [
        ["git", "diff", "--name-only", "--relative", "--diff-filter=d", "main", "--"],
        ["git", "ls-files", "--others", "--exclude-standard"],
    ]
    assert all(s["cwd"] == tmp_path.resolve() and s["timeout"] == 30 for s in seen)


def test_a_git_base_with_nothing_changed_passes(
    habits_inputs: Callable[..., GateInputs], monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = habits_inputs()
    gates = inputs.config.gates
    section = gates.source_tokens.model_copy(update={"paths": [], "git_base": "HEAD"})
    config = inputs.config.model_copy(
        update={"gates": gates.model_copy(update={"source_tokens": section})}
    )
    monkeypatch.setattr(
        subprocess, "run", lambda argv, **kw: subprocess.CompletedProcess(argv, 0, "", "")
    )
    outcome = source_tokens_gate(dataclasses.replace(inputs, config=config))
    assert outcome.status is GateStatus.PASS
    assert outcome.data["files"] == []


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("a.css", "css"),
        ("a.scss", "scss"),
        ("a.sass", "scss"),
        ("a.less", "scss"),
        ("a.js", "js"),
        ("a.mjs", "js"),
        ("a.cjs", "js"),
        ("a.jsx", "js"),
        ("a.ts", "js"),
        ("a.tsx", "js"),
        ("a.swift", "swift"),
        ("a.html", "html"),
        ("a.htm", "html"),
        ("a.vue", "html"),
        ("a.svelte", "html"),
        ("A.CSS", "css"),
        ("a.md", None),
        ("css", None),
    ],
)
def test_the_language_of_a_file(name: str, language: str | None) -> None:
    assert language_for(Path(name)) == language


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        (
            "scss",
            ".a {\n  color: #fff; // was #000; margin: 3px;\n}",
            [(2, "color", "#fff", "color")],
        ),
        (
            "css",
            ".a {\n  color: #fff; // was #000; margin: 3px;\n}",
            [(2, "color", "#fff", "color"), (2, "spacing", "3px", "margin")],
        ),
        ("css", '.a { content: "x; color: #fff"; }', []),
        ("css", ".a { content: 'x; margin: 3px'; }", []),
        ("css", '.a { content: "it\'s; margin: 3px"; }', []),
        ("css", ".X { color: #fff; }", [(1, "color", "#fff", "color")]),
        (
            "css",
            ".a { transform: x(y(z);margin:3px); color: #abc; }",
            [(1, "color", "#abc", "color")],
        ),
        (
            "css",
            ".a { margin: calc(1px + 2px); color: #fff; }",
            [
                (1, "color", "#fff", "color"),
                (1, "spacing", "1px", "margin"),
                (1, "spacing", "2px", "margin"),
            ],
        ),
        ("css", ":root.X { --c: #fff; }", []),
        (
            "css",
            ".card { --b: #fff; --c: #000; }",
            [(1, "color", "#000", "--c"), (1, "color", "#fff", "--b")],
        ),
        ("scss", ".a { b: 1; }\n$accent: #fff;", []),
        (
            "css",
            ".a{color:#fff;margin:3px}",
            [(1, "color", "#fff", "color"), (1, "spacing", "3px", "margin")],
        ),
        ("css", ".a { color: #fff; oops }", [(1, "color", "#fff", "color")]),
        (
            "css",
            ".a { background: url(http://x/a.png) #fff; }",
            [(1, "color", "#fff", "background")],
        ),
        ("scss", "@media screen { $gap: 4px; $c: #fff; }", []),
        ("css", ".card { --accent: teal; }", [(1, "color", "teal", "--accent")]),
        ("scss", ".a { $local: teal; }", [(1, "color", "teal", "$local")]),
        (
            "css",
            ".a { outline: rgb(0 0 0)red; }",
            [(1, "color", "red", "outline"), (1, "color", "rgb(0 0 0)", "outline")],
        ),
        (
            "js",
            "const s = { margin: 4, padding: '8px', color: 'teal' };",
            [
                (1, "color", "teal", "color"),
                (1, "spacing", "4", "margin"),
                (1, "spacing", "8px", "padding"),
            ],
        ),
        ("js", 'const a = "#abc";', [(1, "color", "#abc", "")]),
        (
            "js",
            "const B = css`\n  margin: 5px;\n  color: teal;\n`;",
            [(2, "spacing", "5px", "margin"), (3, "color", "teal", "color")],
        ),
        ("js", 'el.setAttribute("style", "gap: 10px")', [(1, "spacing", "10px", "gap")]),
        ("js", "el.style.setProperty('--accent', 'teal')", [(1, "color", "teal", "--accent")]),
        (
            "js",
            'el.style.cssText = "background: url(a:b) teal"',
            [(1, "color", "teal", "background")],
        ),
        ("js", "el.style.marginTop = '3px'", [(1, "spacing", "3px", "margin-top")]),
        (
            "swift",
            "Color(red: 1, green: 0, blue: 0)\n.padding(4)\nVStack(spacing: 1)\nHStack(spacing: 0)",
            [
                (1, "color", "Color(red", "color"),
                (2, "spacing", ".padding(4)", "padding"),
                (3, "spacing", "spacing: 1", "spacing"),
            ],
        ),
        (
            "html",
            '\n<p style="margin: 3px">x</p>\n<script>\nconst a = "#abc";\n</script>\n'
            '<style>\n.a { color: teal; }\n</style>\n<rect fill="teal" STROKE="#fff"/>\n<p>end</p>',
            [
                (2, "spacing", "3px", "margin"),
                (4, "color", "#abc", ""),
                (7, "color", "teal", "color"),
                (9, "color", "#fff", "stroke"),
                (9, "color", "teal", "fill"),
            ],
        ),
        ("css", "/* a\n b */\n.a { color: #fff; }", [(3, "color", "#fff", "color")]),
        ("css", ".a { margin: 0px 1px; }", [(1, "spacing", "1px", "margin")]),
        ("css", '.a { content: "x"; color: #fff; }', [(1, "color", "#fff", "color")]),
        ("css", ".a { content: 'x'; margin: 3px; }", [(1, "spacing", "3px", "margin")]),
        ("css", ".a { outline: var(--w)red; }", [(1, "color", "red", "outline")]),
        ("css", ".a { outline: 'x'red; }", [(1, "color", "red", "outline")]),
    ],
)
def test_each_hit_in_full(
    language: str, text: str, expected: list[tuple[int, str, str, str]]
) -> None:
    """(line, kind, literal, property) of every hit: comments per language, quotes and
    parentheses in values, block nesting, token definitions, each scanner's own hits."""
    found = [(h.line, h.kind, h.literal, h.property) for h in scan_source(text, language)]
    assert sorted(found) == expected


def test_a_file_of_no_known_language_is_passed_over_not_the_end(tmp_path: Path) -> None:
    write(tmp_path, {"notes.txt": "color: #fff;", "a.css": ".a { color: #123456; }"})
    outcome = check_source_tokens(tmp_path, [Path("notes.txt"), Path("a.css")])
    assert [f.element for f in outcome.findings] == ["a.css:1"]


def test_a_file_that_is_not_utf8_is_still_scanned(tmp_path: Path) -> None:
    (tmp_path / "a.css").write_bytes(b"/* caf\xe9 */\n.a { color: #123456; }\n")
    outcome = check_source_tokens(tmp_path, [Path("a.css")])
    assert [(f.element, f.value) for f in outcome.findings] == [("a.css:2", "#123456")]


def _with_settings(inputs: GateInputs, **settings: object) -> GateInputs:
    gates = inputs.config.gates
    section = gates.source_tokens.model_copy(update=settings)
    config = inputs.config.model_copy(
        update={"gates": gates.model_copy(update={"source_tokens": section})}
    )
    return dataclasses.replace(inputs, config=config)


def test_the_gate_outcome_names_itself_and_says_why_it_skips(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    skipped = source_tokens_gate(_with_settings(habits_inputs(), paths=[], git_base=""))
    assert (skipped.name, skipped.status) == ("source_tokens", GateStatus.SKIP)
    assert isinstance(skipped.summary, str) and skipped.summary


def test_the_gate_scans_the_changed_files_matching_its_paths_with_the_views_tokens(
    habits_inputs: Callable[..., GateInputs], monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = habits_inputs(appearance="dark")
    write(inputs.root, {"changed.css": ".c { color: #a3aab7; }", "same.css": ".s { color: #fff; }"})
    changed = {"diff": "changed.css\napp.js\n", "ls-files": ""}
    monkeypatch.setattr(
        subprocess,
        "run",
        lambda argv, **kw: subprocess.CompletedProcess(argv, 0, changed[argv[1]], ""),
    )
    outcome = source_tokens_gate(_with_settings(inputs, paths=["*.css"], git_base="main"))
    assert outcome.data["files"] == ["changed.css"]
    (finding,) = outcome.findings
    # The dark appearance's nearest token (in light, #a3aab7 is nearest to "border").
    assert (finding.element, finding.expected) == ("changed.css:1", "token text-secondary")
