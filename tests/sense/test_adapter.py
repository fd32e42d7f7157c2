"""The adapter contract: argus/adapters/NAME/sense.sh, validated and truncated by Argus."""

from __future__ import annotations

import json
import re
import stat
import sys
from pathlib import Path

import pytest
from PIL import Image

from argus.config import ProjectConfig
from argus.sense import TRUNCATION_MARKER, SenseResult, sense_many, sense_view
from argus.sense.controls_choice import LOOP
from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.support.fsyncs import record_fsyncs

# One behaviour per state, so a single spec exercises every failure.
SENSE_SH = r"""#!/usr/bin/env bash
set -eu
while [ $# -gt 0 ]; do
  case "$1" in
    --route) route=$2; shift 2;; --state) state=$2; shift 2;;
    --appearance) appearance=$2; shift 2;; --fixture) fixture=$2; shift 2;;
    --out) out=$2; shift 2;; *) echo "unknown argument $1" >&2; exit 64;;
  esac
done
long=$(printf 'L%.0s' $(seq 1 400))
png="$(dirname "$0")/tiny.png"
case "$state" in
  ok)
    cp "$png" "$out/render.png"
    node='{"identifier":"screen.demo","label":"%s"}'
    printf '{"route":"%s","fixture":"%s","appearance":"%s","cwd":"%s","nodes":['"$node"']}' \
      "$route" "$fixture" "$appearance" "$PWD" "$long" > "$out/probe.json"
    printf '{"messages":[{"level":"error","text":"%s"}],"page_errors":[]}' "$long" \
      > "$out/console.json"
    printf '{"python":"%s","stops":[{"id":"%s","changed_pixels":3}]}' "$ARGUS_PYTHON" "$long" \
      > "$out/focus.json";;
  fail) echo "simulator did not boot: device busy" >&2; exit 3;;
  missing) echo "forgot to write anything" >&2;;
  notpng) echo "hello" > "$out/render.png"; echo '{}' > "$out/probe.json";;
  badjson) cp "$png" "$out/render.png"; echo '{nope' > "$out/probe.json";;
  bigpng) cp "$png" "$out/render.png"; truncate -s 51M "$out/render.png"
    echo "{}" > "$out/probe.json";;
  bigprobe) cp "$png" "$out/render.png"
    head -c 6000000 /dev/zero | tr '\0' ' ' > "$out/probe.json";;
  badpng) printf '\x89PNG\r\n\x1a\nnot really an image' > "$out/render.png"
    echo '{}' > "$out/probe.json";;
  noprobe) cp "$png" "$out/render.png"; echo "probe step crashed: no accessibility tree" >&2;;
esac
"""

STATES = ["ok", "fail", "missing", "notpng", "badjson", "bigpng", "bigprobe", "badpng", "noprobe"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    spec_dir = root / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (root / "argus.toml").write_text("")
    (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"surface": "#ffffff"}}))
    spec = {
        "feature": "demo",
        "adapter": "fake",
        "design_system": {"tokens": "argus/specs/demo/tokens.json"},
        "targets": [
            {
                "id": "home",
                "route": "app://demo/home",
                "states": STATES,
                "appearances": ["light", "dark"],
                "fixtures": {"ok": "happy-path"},
            }
        ],
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    adapter = root / "argus" / "adapters" / "fake"
    adapter.mkdir(parents=True)
    script = adapter / "sense.sh"
    script.write_text(SENSE_SH)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    Image.new("RGB", (4, 3), (10, 20, 30)).save(adapter / "tiny.png")
    return root


def _sense(repo: Path, state: str, out: Path) -> SenseResult:
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    return sense_view(
        spec, View("demo", "home", state, "dark"), ProjectConfig(root=repo), out, controls=LOOP
    )


def test_a_sense_s_files_are_written_whole_without_a_flush_each(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Evidence is sensed again when lost and checked against its seal: no fsync per file
    (the loop flushes what a sign-off rests on, tests/loop/test_run_fakes.py)."""
    out = tmp_path / "out"
    flushed = record_fsyncs(monkeypatch)
    assert _sense(repo, "ok", out).ok
    assert {"probe.json", "meta.json", "sense-attempt.json"} <= {p.name for p in out.iterdir()}
    assert [p for p in flushed if p.is_relative_to(out.resolve())] == []


def test_adapter_output_is_validated_and_truncated(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = _sense(repo, "ok", out)
    assert result.ok, result.error
    probe = json.loads((out / "probe.json").read_text())
    assert probe["route"] == "app://demo/home"
    assert probe["fixture"] == "happy-path"
    assert probe["appearance"] == "dark"
    assert probe["cwd"] == str(repo), "the adapter runs from the repository root"
    label = probe["nodes"][0]["label"]
    assert len(label) == 256 and label.endswith(TRUNCATION_MARKER)
    console = json.loads((out / "console.json").read_text())
    assert console["messages"][0]["text"].endswith(TRUNCATION_MARKER)
    focus = json.loads((out / "focus.json").read_text())  # an optional focus walk, kept
    assert focus["stops"][0]["id"].endswith(TRUNCATION_MARKER)
    assert focus["python"] == sys.executable  # ARGUS_PYTHON: a Python adapter runs with Argus's
    meta = json.loads((out / "meta.json").read_text())
    assert meta["adapter"] == "fake" and meta["fixture"] == "happy-path"
    assert meta["settled"] is None


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ("fail", r"exited with code 3: simulator did not boot: device busy"),
        ("missing", r"wrote no render\.png .*: forgot to write anything$"),
        ("noprobe", r"wrote no probe\.json .*: probe step crashed: no accessibility tree$"),
        ("badpng", r"render\.png is not a readable PNG image \("),
        ("notpng", r"render\.png is not a PNG image"),
        ("badjson", r"probe\.json is not valid JSON"),
        ("bigpng", r"over the 50 MiB limit"),
        ("bigprobe", r"over the 5 MiB limit"),
    ],
)
def test_adapter_failures_are_data_with_one_line(
    repo: Path, tmp_path: Path, state: str, message: str
) -> None:
    result = _sense(repo, state, tmp_path / "out")
    assert not result.ok
    error = str(result.error)
    assert "\n" not in error
    assert f"home-{state}-dark" in error
    assert re.search(message, error), error


def test_stale_output_never_passes_for_fresh(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _sense(repo, "ok", out).ok
    assert not _sense(repo, "missing", out).ok
    assert not [
        p.name for p in out.iterdir() if p.name in ("probe.json", "focus.json", "console.json")
    ]


def test_missing_adapter_script_is_a_sensor_failure(repo: Path, tmp_path: Path) -> None:
    (repo / "argus/adapters/fake/sense.sh").unlink()
    result = _sense(repo, "ok", tmp_path / "out")
    assert "adapter 'fake' has no sensor" in str(result.error)


def test_adapter_timeout_is_a_sensor_failure(repo: Path, tmp_path: Path) -> None:
    script = repo / "argus/adapters/fake/sense.sh"
    script.write_text("#!/usr/bin/env bash\nsleep 30\n")
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    config = ProjectConfig.model_validate({"root": repo, "adapter": {"timeout": 0.5}})
    result = sense_view(
        spec, View("demo", "home", "ok", "dark"), config, tmp_path / "out", controls=LOOP
    )
    assert "timed out after 0.5s" in str(result.error)


def test_many_adapter_views_in_a_pool(repo: Path, tmp_path: Path) -> None:
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    views = [View("demo", "home", "ok", a) for a in ("light", "dark")]
    views.append(View("demo", "home", "fail", "light"))
    results = sense_many(
        spec, views, ProjectConfig(root=repo), tmp_path / "runs", workers=2, controls=LOOP
    )
    assert [r.view for r in results] == views
    assert [r.ok for r in results] == [True, True, False]
    assert (tmp_path / "runs" / "home-ok-light" / "render.png").is_file()


def test_cli_adapter_failure_is_exit_2_one_line(repo: Path, run_argus: RunArgus) -> None:
    done = run_argus(
        "sense", "--feature", "demo", "--target", "home", "--state", "fail", "--appearance",
        "light", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: home-fail-light: adapter")


def test_cli_all_reports_every_view_and_fails_with_2(repo: Path, run_argus: RunArgus) -> None:
    done = run_argus("sense", "--feature", "demo", "--all", "--workers", "2", cwd=repo)
    assert done.returncode == 2
    assert "home-ok-light: sensed" in done.stderr
    assert "home-fail-dark: FAILED" in done.stderr
    assert f"sensed 2 of {2 * len(STATES)} views" in done.stdout
    assert (repo / "argus/specs/demo/.argus-runs/home-ok-dark/probe.json").is_file()


@pytest.mark.parametrize("sandbox", ["", "landlock"])  # bubblewrap (what a user gets), Landlock
def test_a_confined_adapter_writes_its_output_and_nothing_it_must_not(
    repo: Path, monkeypatch: pytest.MonkeyPatch, sandbox: str
) -> None:
    from argus.confine import detect

    monkeypatch.setenv("ARGUS_SANDBOX", sandbox)
    if not detect().active:
        pytest.skip(f"no confinement here: {detect().why_not}")
    script = repo / "argus" / "adapters" / "fake" / "sense.sh"
    tamper = (
        'echo "exit 0" > "$0" || true\n'
        "echo forged > argus/specs/demo/spec.json || true\n"
        "echo escaped > ../escaped.txt || true\n"
    )
    original = SENSE_SH.replace('case "$state" in', tamper + 'case "$state" in', 1)
    script.write_text(original)
    spec_text = (repo / "argus/specs/demo/spec.json").read_text()
    out = repo / "argus/specs/demo/.argus-runs/home-ok-dark"  # inside the read-only spec folder
    result = _sense(repo, "ok", out)
    assert result.ok, result.error  # its own output folder is writable
    assert script.read_text() == original  # its own script is not
    assert (repo / "argus/specs/demo/spec.json").read_text() == spec_text
    assert not (repo.parent / "escaped.txt").exists()
