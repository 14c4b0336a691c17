"""Scripts/docs fails on any DocC warning and writes an index of the modules it built.

Scripts/docs runs in a scratch copy with a catalog of its own and stand-ins for the toolchain on PATH (swift,
swift-symbolgraph-extract and docc), so no real build runs; the real conversion is the test command's `docs` step.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# A docc that converts (printing FAKE_DOCC_OUTPUT, e.g. a warning) and merges by making its output folders.
FAKE_DOCC = textwrap.dedent(
    """\
    #!/usr/bin/env bash
    command="$1"; out=""
    while [ $# -gt 0 ]; do [ "$1" = "--output-path" ] && out="$2"; shift; done
    mkdir -p "$out"
    echo "$command" >>"$FAKE_DOCC_CALLS"
    [ "$command" = convert ] && [ -n "${FAKE_DOCC_OUTPUT:-}" ] && echo "$FAKE_DOCC_OUTPUT"
    exit 0
    """
)


@pytest.fixture
def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    clone = tmp_path / "clone"
    (clone / "Scripts").mkdir(parents=True)
    shutil.copy(REPO / "Scripts" / "docs", clone / "Scripts" / "docs")
    # One catalog in each package: the library's (Sources/) and the seeds' app's (Demos/Sources/).
    (clone / "Demos").mkdir()
    (clone / "Demos" / "Package.swift").write_text("")
    for folder, module in ((clone, "Core"), (clone / "Demos", "Extras")):
        catalog = folder / "Sources" / module / f"{module}.docc"
        catalog.mkdir(parents=True)
        (catalog / f"{module}.md").write_text(f"# ``{module}``\n\nThe {module.lower()} module, with <tags> & more.\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, script in [
        ("swift", "#!/bin/sh\necho 'Build complete!'\n"),
        ("swift-symbolgraph-extract", "#!/bin/sh\n"),
        ("docc", FAKE_DOCC),
    ]:
        (bin_dir / name).write_text(script)
        (bin_dir / name).chmod(0o755)
    environment = dict(
        os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", FAKE_DOCC_CALLS=str(tmp_path / "calls")
    )
    environment.pop("DOCC", None)
    return clone, environment


def run_docs(clone: Path, environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(clone / "Scripts" / "docs"), *arguments],
        capture_output=True, text=True, env=environment, timeout=120,
    )


def test_a_clean_conversion_builds_one_site_with_an_index_of_the_modules(scratch: tuple[Path, dict[str, str]]) -> None:
    clone, environment = scratch

    result = run_docs(clone, environment, "--out", "site")

    assert result.returncode == 0, result.stdout + result.stderr
    index = (clone / "site" / "index.html").read_text()
    assert '<a href="/documentation/core/">Core</a>: The core module, with &lt;tags&gt; &amp; more.' in index
    assert '<a href="/documentation/extras/">Extras</a>' in index
    assert Path(environment["FAKE_DOCC_CALLS"]).read_text().split() == ["convert", "convert", "merge"]


def test_a_docc_warning_fails_the_build_and_is_shown(scratch: tuple[Path, dict[str, str]]) -> None:
    clone, environment = scratch
    environment["FAKE_DOCC_OUTPUT"] = "warning: 'Missing' doesn't exist at '/Core'"

    result = run_docs(clone, environment)

    assert result.returncode == 1
    assert "warning: 'Missing' doesn't exist at '/Core'" in result.stderr
    assert "has DocC warnings or errors" in result.stderr
    assert not (clone / ".build" / "docs" / "index.html").exists()


def test_a_hosting_base_path_prefixes_the_index_links(scratch: tuple[Path, dict[str, str]]) -> None:
    clone, environment = scratch

    result = run_docs(clone, environment, "--hosting-base-path", "unidirectional")

    assert result.returncode == 0, result.stderr
    assert 'href="/unidirectional/documentation/core/"' in (clone / ".build" / "docs" / "index.html").read_text()
