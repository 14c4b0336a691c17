"""The package as a user's package sees it: a versioned dependency whose products SwiftPM accepts.

SwiftPM refuses a versioned dependency whose *products* carry unsafe flags ("the target 'X' in product 'Y' contains
unsafe build flags", an error only a user's package sees, never this repository's own build) unless its manifest
declares tools version 6.2 or later. So no library or executable target has one (checked on the manifest itself),
and a small package depending on a tagged snapshot `exact: "1.0.0"` plans its build with every library product
(SwiftPM checks the flags while planning, so nothing is compiled: a few seconds). The project's test targets keep
their flags: they are in no product, so SwiftPM never checks them (measured with a tools-version 6.0 copy: planned
without an error, while the same flag on a library target is refused).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def git(cwd: Path, *arguments: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@localhost", *arguments],
        cwd=cwd, check=True, capture_output=True, timeout=60,
    )


def tagged_snapshot_of_the_working_tree(destination: Path) -> Path:
    """Copies the tracked files as they are now (edits included) into a new repository tagged 1.0.0."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True, timeout=60)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-q", "-m", "snapshot")
    git(destination, "tag", "1.0.0")
    return destination


def consumer_package(directory: Path, dependency: Path, products: list[str]) -> Path:
    uses = ", ".join(f'.product(name: "{name}", package: "unidirectional")' for name in products)
    (directory / "Sources" / "App").mkdir(parents=True)
    (directory / "Sources" / "App" / "main.swift").write_text("import Unidirectional\n")
    (directory / "Package.swift").write_text(textwrap.dedent(f"""\
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
          name: "App",
          platforms: [.macOS(.v15)],
          dependencies: [.package(url: "{dependency.as_uri()}", exact: "1.0.0")],
          targets: [.executableTarget(name: "App", dependencies: [{uses}])]
        )
        """))
    return directory


def manifest() -> dict:
    """The package's manifest as SwiftPM reads it."""
    dumped = subprocess.run(
        ["swift", "package", "dump-package"], cwd=REPO, check=True, capture_output=True, text=True, timeout=300,
    )
    return json.loads(dumped.stdout)


def library_products(package: dict) -> list[str]:
    return [product["name"] for product in package["products"] if "library" in product["type"]]


def built_by_consumers(package: dict) -> set[str]:
    """Every target a product needs: its own and, transitively, the targets they depend on."""
    dependencies = {
        target["name"]: [
            name[0] for dependency in target["dependencies"]
            for kind, name in dependency.items() if kind in ("byName", "target")
        ]
        for target in package["targets"]
    }
    needed: set[str] = set()
    pending = [name for product in package["products"] for name in product["targets"]]
    while pending:
        name = pending.pop()
        if name not in needed and name in dependencies:
            needed.add(name)
            pending += dependencies[name]
    return needed


@pytest.mark.skipif(shutil.which("swift") is None, reason="needs the Swift toolchain")
def test_no_target_a_consumer_builds_has_an_unsafe_flag() -> None:
    package = manifest()
    needed = built_by_consumers(package)
    flagged = [
        target["name"] for target in package["targets"]
        if target["name"] in needed
        and any("unsafeFlags" in setting.get("kind", {}) for setting in target.get("settings", []))
    ]
    assert {"Unidirectional", "HTTPTransfer", "Scan", "Features", "Demo"} <= needed
    assert "FeatureTestSupport" not in needed, "test support is in no product"
    assert flagged == []


@pytest.mark.skipif(shutil.which("swift") is None, reason="needs the Swift toolchain")
def test_a_package_depending_on_a_release_by_version_can_use_every_library_product(tmp_path: Path) -> None:
    products = library_products(manifest())
    assert {"Unidirectional", "UnidirectionalTesting", "UnidirectionalInspector", "HTTPTransfer", "Features"} <= set(products)
    dependency = tagged_snapshot_of_the_working_tree(tmp_path / "unidirectional")
    app = consumer_package(tmp_path / "app", dependency, products)

    # Its own cache and build folder, so no copy of an earlier snapshot is reused and nothing is left behind.
    result = subprocess.run(
        ["swift", "build", "--package-path", str(app), "--scratch-path", str(tmp_path / "build"),
         "--cache-path", str(tmp_path / "cache"), "--print-manifest-job-graph"],
        capture_output=True, text=True, timeout=300,
    )

    assert "unsafe build flags" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    assert "digraph" in result.stdout
