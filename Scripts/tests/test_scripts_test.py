"""The test command's own behaviour: its closing summary, and how a failing run looks.

`Scripts/test` is run in a scratch copy of the scripts with a stand-in `swift` on PATH (so no real build runs) and
the project's `.venv` linked in (so no packages are installed again).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SUMMARIZE = REPO / "Scripts" / "summarize_tests.py"


def junit(path: Path, cases: list[tuple[str, str, str]]) -> Path:
    """Writes a JUnit report; each case is (classname, name, outcome) with outcome passed/failed/skipped."""
    body = []
    for classname, name, outcome in cases:
        inner = {"failed": "<failure message='boom'/>", "skipped": "<skipped/>"}.get(outcome, "")
        body.append(f'<testcase classname="{classname}" name="{name}" time="0.1">{inner}</testcase>')
    path.write_text(f'<?xml version="1.0"?><testsuites><testsuite name="r">{"".join(body)}</testsuite></testsuites>')
    return path


def summarize(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SUMMARIZE), *arguments], capture_output=True, text=True, timeout=30)


def test_a_green_run_ends_with_the_count_and_exits_zero(tmp_path: Path) -> None:
    xctest = junit(tmp_path / "swift.xml", [("Mod.ATests", "testA", "passed"), ("Mod.ATests", "testB", "passed")])
    backend = junit(tmp_path / "pytest.xml", [("tests.test_app", "test_x", "passed")])

    result = summarize("--step", "swift=0", "--step", "pytest=0", str(xctest), str(backend))

    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "3 passed, 0 failed"
    assert "Failing" not in result.stdout


def test_failing_tests_are_named_just_above_the_closing_line(tmp_path: Path) -> None:
    xctest = junit(tmp_path / "swift.xml", [("Mod.ATests", "testA", "failed"), ("Mod.ATests", "testB", "passed")])
    testing = junit(tmp_path / "swift-swift-testing.xml", [("Mod.Suite", "works()", "failed")])
    backend = junit(tmp_path / "pytest.xml", [("tests.test_app", "test_x", "passed"), ("t", "s", "skipped")])

    result = summarize("--step", "swift=1", "--step", "pytest=0", str(xctest), str(testing), str(backend))

    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[-1] == "2 passed, 2 failed"
    assert lines[-5:-2] == ["Failing tests:", "  ✗ Mod.ATests.testA", "  ✗ Mod.Suite.works()"]
    assert "(1 skipped)" in lines


def test_a_missing_report_or_a_failed_step_without_failing_tests_counts_as_a_failure(tmp_path: Path) -> None:
    backend = junit(tmp_path / "pytest.xml", [("tests.test_app", "test_x", "passed")])

    result = summarize("--step", "build=1", "--step", "pytest=0", str(tmp_path / "swift.xml"), str(backend))

    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "1 passed, 2 failed"
    assert "build: exited with status 1" in result.stdout
    assert "swift.xml: no readable report" in result.stdout


FAKE_SWIFT = textwrap.dedent(
    """\
    #!/usr/bin/env bash
    # Stands in for the Swift toolchain: `swift build` succeeds (or warns), `swift test` writes reports.
    case "$1" in
      build) echo "Build complete!"; [ -n "${FAKE_SWIFT_WARNING:-}" ] && echo "Sources/X.swift:1:1: warning: unused"; exit 0 ;;
      test)
        out=""; while [ $# -gt 0 ]; do [ "$1" = "--xunit-output" ] && out="$2"; shift; done
        base="${out%.xml}"
        cat >"$out" <<'XML'
    <testsuites><testsuite name="TestResults">
    <testcase classname="UnidirectionalTests.StoreTests" name="testPasses" time="0.1"></testcase>
    <testcase classname="UnidirectionalTests.StoreTests" name="testFails" time="0.1"><failure message="x"/></testcase>
    </testsuite></testsuites>
    XML
        cat >"$base-swift-testing.xml" <<'XML'
    <testsuites><testsuite name="TestResults"><testcase classname="M.S" name="ok()" time="0.1"></testcase></testsuite></testsuites>
    XML
        echo "✔ Test run with 1 test passed after 0.001 seconds."
        exit 1 ;;
      package)
        # diagnose-api-breaking-changes: no break in any product, or (FAKE_SWIFT_BREAK) a removed function.
        if [ -n "${FAKE_SWIFT_BREAK:-}" ]; then
          printf '\\n1 breaking change detected in Core:\\n  💔 API breakage: func gone() has been removed\\n'; exit 1
        fi
        echo "No breaking changes detected in Core"; exit 0 ;;
    esac
    """
)

# Stands in for DocC: `convert` and `merge` make their output folder, as Scripts/docs expects.
FAKE_DOCC = textwrap.dedent(
    """\
    #!/usr/bin/env bash
    out=""; while [ $# -gt 0 ]; do [ "$1" = "--output-path" ] && out="$2"; shift; done
    mkdir -p "$out"
    """
)


@pytest.fixture
def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the scripts with a passing backend test, a DocC catalog, the real .venv linked in, fake swift and
    docc on PATH, and a git history whose first commit is the release api-check compares with."""
    clone = tmp_path / "clone"
    shutil.copytree(REPO / "Scripts", clone / "Scripts", ignore=shutil.ignore_patterns("tests", "__pycache__"))
    (clone / "Scripts" / "tests").mkdir()
    (clone / "Scripts" / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    backend = clone / "Demos" / "Backend"
    (backend / "tests").mkdir(parents=True)
    shutil.copy(REPO / "Demos" / "Backend" / "requirements.txt", backend / "requirements.txt")
    (backend / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    (clone / ".venv").symlink_to(Path(sys.prefix))
    catalog = clone / "Sources" / "Core" / "Core.docc"
    catalog.mkdir(parents=True)
    (catalog / "Core.md").write_text("# ``Core``\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, script in [("swift", FAKE_SWIFT), ("docc", FAKE_DOCC), ("swift-symbolgraph-extract", "#!/bin/sh\n")]:
        (bin_dir / name).write_text(script)
        (bin_dir / name).chmod(0o755)
    environment = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    shutil.copy(REPO / "CHANGELOG.md", clone / "CHANGELOG.md")
    (clone / ".gitignore").write_text(".build\n.venv\n")
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@localhost"]
    subprocess.run([*git, "init", "-q"], cwd=clone, check=True, timeout=60)
    subprocess.run([*git, "add", "-A"], cwd=clone, check=True, timeout=60)
    subprocess.run([*git, "commit", "-q", "-m", "release"], cwd=clone, check=True, timeout=60)
    release = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=clone, check=True, capture_output=True, text=True, timeout=60).stdout.strip()
    (clone / ".api-baseline").write_text(f"version: 0.1.0\ncommit: {release}\nproducts: Core\n")
    return clone, environment


def run_test_command(clone: Path, environment: dict[str, str], **settings: str) -> subprocess.CompletedProcess:
    """Scripts/test in the scratch copy; `settings` are environment variables for the stand-in tools."""
    return subprocess.run(
        ["bash", str(clone / "Scripts" / "test")],
        capture_output=True, text=True, env=dict(environment, **settings), timeout=300,
    )


def test_a_failing_run_of_the_test_command_looks_like_a_failure(scratch: tuple[Path, dict[str, str]]) -> None:
    clone, environment = scratch

    result = run_test_command(clone, environment)

    lines = result.stdout.splitlines()
    assert result.returncode != 0, result.stdout + result.stderr
    # Each package's tests run (the stand-in reports the same three cases for both): 2 + 2 passed and 2 failed, plus
    # the backend's and the scripts' one test each.
    assert lines[-1] == "6 passed, 2 failed"
    assert lines[-4:-1] == [
        "Failing tests:", "  ✗ UnidirectionalTests.StoreTests.testFails", "  ✗ UnidirectionalTests.StoreTests.testFails"]
    assert (clone / ".build" / "test-results" / "swift-library.xml").is_file()
    assert (clone / ".build" / "test-results" / "swift-demos.xml").is_file()


def test_a_build_warning_fails_the_test_command(scratch: tuple[Path, dict[str, str]]) -> None:
    clone, environment = scratch

    result = run_test_command(clone, environment, FAKE_SWIFT_WARNING="1")

    assert result.returncode != 0
    assert result.stdout.splitlines()[-1] == "2 passed, 2 failed"
    assert "  ✗ build-library: exited with status 1" in result.stdout
    assert "  ✗ build-demos: exited with status 1" in result.stdout


def test_an_unlisted_api_break_fails_the_test_command(scratch: tuple[Path, dict[str, str]]) -> None:
    clone, environment = scratch

    result = run_test_command(clone, environment, FAKE_SWIFT_BREAK="1")

    assert result.returncode != 0
    assert "✗ func gone() has been removed" in result.stdout
    assert result.stdout.splitlines()[-1] == "6 passed, 3 failed"
    assert "  ✗ api-check: exited with status 1" in result.stdout
