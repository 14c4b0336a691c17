"""`Scripts/build-time` measures a target's clean build against the toolchain's floor, and says clearly when it cannot.

The builds run on a package of two small targets made in a temporary folder, so each takes seconds.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "Scripts" / "build-time"


def load_script():
    loader = importlib.machinery.SourceFileLoader("build_time", str(SCRIPT))
    spec = importlib.util.spec_from_loader("build_time", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """`Tiny` imports Dispatch, Darwin where it exists, and `Base`, a module of the same package."""
    (tmp_path / "Package.swift").write_text(
        "// swift-tools-version: 6.0\n"
        "import PackageDescription\n"
        'let package = Package(name: "Tiny", targets: [\n'
        '  .target(name: "Base"), .target(name: "Tiny", dependencies: ["Base"]),\n'
        "])\n")
    (tmp_path / "Sources" / "Base").mkdir(parents=True)
    (tmp_path / "Sources" / "Base" / "Base.swift").write_text("public let base = 1\n")
    (tmp_path / "Sources" / "Tiny").mkdir(parents=True)
    (tmp_path / "Sources" / "Tiny" / "Tiny.swift").write_text(
        "import Base\nimport Dispatch\n#if canImport(Darwin)\n  import Darwin\n#endif\n\n"
        "public func tiny() -> Int { base + 1 }\n")
    return tmp_path


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=600)


def test_each_round_builds_the_target_clean_the_floor_and_the_target_warm(package: Path):
    result = run("--package", str(package), "--target", "Tiny", "--rounds", "1", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)

    # The floor imports what the target imports from outside the package, never the package's own modules.
    assert figures["floor_imports"] == ["Darwin", "Dispatch"]
    for kind in ("clean", "floor", "warm"):
        assert len(figures["builds"][kind]) == 1
        assert figures["builds"][kind][0]["wall"] > 0 and figures["builds"][kind][0]["cpu"] > 0
    clean, floor, warm = (figures["builds"][kind][0]["wall"] for kind in ("clean", "floor", "warm"))
    assert figures["clean_over_floor"] == [round(clean / floor, 2)]
    # The warm build finds the clang modules and the system modules' index records the floor wrote: it costs a
    # fraction of the clean one (about a sixth for this target).
    assert warm < clean


def test_an_unknown_target_is_named_with_the_packages_targets(package: Path):
    result = run("--package", str(package), "--target", "Nope", "--rounds", "1")
    assert result.returncode == 1
    assert "has no target 'Nope'; its targets: Base, Tiny" in result.stderr
    assert result.stdout == ""


def test_a_target_that_does_not_compile_fails_with_the_compilers_words(package: Path):
    (package / "Sources" / "Tiny" / "Tiny.swift").write_text("public func tiny() -> Int { missing }\n")
    result = run("--package", str(package), "--target", "Tiny", "--rounds", "1")
    assert result.returncode == 1
    assert "`swift build --target Tiny` failed" in result.stderr
    assert "cannot find 'missing' in scope" in result.stderr


def test_the_report_gives_medians_ranges_and_the_ratio_of_each_round():
    script = load_script()
    figures = {
        "package": "/p", "target": "Core", "rounds": 3, "floor_imports": ["Dispatch", "Foundation"],
        "builds": {
            "clean": [{"wall": 16.0, "cpu": 24.0}, {"wall": 18.0, "cpu": 27.0}, {"wall": 15.0, "cpu": 23.0}],
            "floor": [{"wall": 8.0, "cpu": 8.0}, {"wall": 7.0, "cpu": 7.0}, {"wall": 7.5, "cpu": 7.5}],
            "warm": [{"wall": 10.0, "cpu": 17.0}, {"wall": 11.0, "cpu": 18.0}, {"wall": 12.0, "cpu": 19.0}],
        },
        "clean_over_floor": [2.0, 2.57, 2.0],
    }
    lines = script.report(figures).splitlines()
    assert lines[0].startswith("Clean debug builds of Core (/p), 3 rounds, interleaved")
    assert lines[1].split()[:3] == ["clean", "16.00", "s"] and "(15.00–18.00)" in lines[1] and "CPU  24.0 s" in lines[1]
    assert "a one-line module importing Dispatch, Foundation" in lines[2]
    assert lines[3].split()[:2] == ["warm", "11.00"]
    assert lines[4].strip() == "clean / floor 2.00× (2.00–2.57)"


def test_fewer_than_one_round_is_refused():
    result = run("--rounds", "0")
    assert result.returncode == 2
    assert "--rounds must be at least 1" in result.stderr
