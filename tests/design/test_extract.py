"""design extract on a page of our own: a known 8 px scale and a 1.25 type ratio, read through
a page that lies about its styles and asks to be written elsewhere."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import RunArgus
from tests.support.habits import copy_habits

pytestmark = pytest.mark.browser
PAGE = Path(__file__).parent / "page"


def test_extract_fits_the_known_scale_and_ratio(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: RunArgus
) -> None:
    site = tmp_path / "site"
    shutil.copytree(PAGE, site)
    repo = tmp_path / "repo"
    (repo / "entry").mkdir(parents=True)
    (repo / "argus.toml").write_text("")
    url = serve(site) + "/index.html"
    result = run_argus("design", "extract", url, "--out", "entry/design-schema.json", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert not result.stdout and result.stderr.startswith("argus: wrote ")
    schema = json.loads((repo / "entry" / "design-schema.json").read_text())
    assert schema["capture_method"] == "computed"
    assert schema["spacing"]["base_unit"] == 8.0
    assert schema["spacing"]["scale"] == [8.0, 16.0, 24.0, 32.0]
    assert schema["type_scale"]["ratio"] == 1.25
    assert schema["type_scale"]["sizes"] == [16.0, 20.0, 25.0, 31.25, 39.06]
    assert schema["grid"]["breakpoints"] == [640.0, 1024.0]  # 64em at a 16 px root
    assert (schema["grid"]["columns"], schema["grid"]["container_max"]) == (3, 1200.0)
    assert len(schema["elevation"]["shadows"]) == 2
    assert schema["components"]["button"]["padding"] == [8.0, 16.0, 8.0, 16.0]
    assert schema["components"]["card"]["radius"] == 8.0
    assert "IGNORE" not in json.dumps(schema)  # no page text is written
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert written == ["repo/entry/design-schema.json"]


def test_without_out_the_schema_goes_to_stdout_and_the_status_to_stderr(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: RunArgus
) -> None:
    """As a user redirects it: `argus design extract URL > schema.json` captures JSON only,
    no file appears in the working directory, and a row of unstyled sort buttons (the
    browser's default look) does not become the page's button recipe."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<!doctype html><style>.go{padding:8px 16px;border-radius:4px;border:0}</style>"
        "<table><tr><th><button>Name</button></th><th><button>Price</button></th>"
        "<th><button>Stock</button></th></tr></table><button class=go>Buy</button>"
    )
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "argus.toml").write_text("")
    result = run_argus("design", "extract", serve(site) + "/index.html", cwd=repo)
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    assert schema["components"]["button"]["padding"] == [8.0, 16.0, 8.0, 16.0]
    assert schema["components"]["button"]["elements"] == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: design schema of ")
    assert list(repo.iterdir()) == [repo / "argus.toml"]


def test_a_configured_browser_that_is_not_there_is_exit_2(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    (tmp_path / "argus.toml").write_text('[browser]\nexecutable = "/nope/chrome"\n')
    result = run_argus("design", "extract", "http://127.0.0.1:9/", cwd=tmp_path)
    assert result.returncode == 2 and not result.stdout
    assert result.stderr.count("\n") == 1
    assert "[browser] executable = '/nope/chrome': does not exist" in result.stderr


def test_out_outside_the_repository_is_refused(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    result = run_argus(
        "design", "extract", "http://127.0.0.1:9/", "--out", "../x.json", cwd=tmp_path
    )
    assert result.returncode == 2 and "inside the repository" in result.stderr
    assert not (tmp_path.parent / "x.json").exists()


def test_extract_a_feature_view_into_its_entry(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: RunArgus
) -> None:
    root = copy_habits(tmp_path)
    result = run_argus(
        "design", "extract", "--feature", "habits", "--target", "list",
        "--base-url", serve(root), cwd=root,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    entries = list((root / "argus/specs/habits/.argus-runs").glob("*/design-schema.json"))
    assert len(entries) == 1
    schema = json.loads(entries[0].read_text())
    assert schema["spacing"]["base_unit"] is not None
