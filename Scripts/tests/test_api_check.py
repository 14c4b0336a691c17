"""Scripts/api-check fails on a public API break the changelog does not list, and passes once it is listed.

A throwaway package with a git history stands in for the library: its first commit is the "release" (recorded in
its `.api-baseline`); later commits remove a public function, change another's signature, rename a protocol, an
initializer and a method with deprecated forwards, and remove a `package` function. The script runs on it as it runs
on the repository (from the package's folder, or with --package-path), with the real toolchain. Cost: about 30 s, a
minute on a busy machine (the tiny package and two baselines are built in debug; later runs reuse them).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "Scripts" / "api-check"

requires_swift = pytest.mark.skipif(shutil.which("swift") is None, reason="needs the Swift toolchain")

MANIFEST = textwrap.dedent("""\
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "Tiny",
      products: [.library(name: "Tiny", targets: ["Tiny"])],
      targets: [.target(name: "Tiny")]
    )
    """)

RELEASED = textwrap.dedent("""\
    public func greet(_ name: String) -> String { "hello \\(name)" }
    public func farewell(_ name: String) -> String { "bye \\(name)" }
    public struct Box {
      public var value: Int
      public init(value: Int) { self.value = value }
      public func open() -> Int { value }
    }
    public protocol Observer { func didSend() }
    public final class Counter {
      public init(observers: [any Observer]) {}
      public func add(_ observer: any Observer) {}
    }
    package func helper() -> Int { 1 }
    """)

WITHOUT_FAREWELL = RELEASED.replace('public func farewell(_ name: String) -> String { "bye \\(name)" }\n', "")

# greet's parameter changes type; the rest are renames that keep the old spelling as a deprecated forward, and a
# `package` function (not public API) goes away.
CHANGED = textwrap.dedent("""\
    public func greet(_ name: Substring) -> String { "hello \\(name)" }
    public struct Box {
      public var value: Int
      public init(value: Int) { self.value = value }
      public func unwrap() -> Int { value }
      @available(*, deprecated, renamed: "unwrap()")
      public func open() -> Int { unwrap() }
    }
    public protocol Instrument { func didSend() }
    @available(*, deprecated, renamed: "Instrument")
    public typealias Observer = Instrument
    public final class Counter {
      public init(instruments: [any Instrument]) {}
      @available(*, deprecated, renamed: "init(instruments:)")
      public convenience init(observers: [any Observer]) { self.init(instruments: observers) }
      public func add(_ instrument: any Instrument) {}
    }
    """)

CHANGELOG = textwrap.dedent("""\
    # Changelog

    <!-- A break goes under "### Breaking" by its name, e.g. `greet` or `farewell`: this comment does not count. -->

    ## [Unreleased]

    ### Added

    - `Box.unwrap()`, `farewell` is not a breaking entry here.

    ### Breaking
    {breaking}
    ## [0.1.0] - 2026-11-28

    - `greet` and `farewell`: also not this release's breaking list.
    """)


def load_script():
    loader = importlib.machinery.SourceFileLoader("api_check", str(SCRIPT))
    spec = importlib.util.spec_from_loader("api_check", loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["api_check"] = module  # dataclasses look their module up while the class is made
    loader.exec_module(module)
    return module


def git(package: Path, *arguments: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@localhost", *arguments],
        cwd=package, check=True, capture_output=True, text=True, timeout=60,
    )
    return result.stdout.strip()


def commit(package: Path, source: str, message: str) -> str:
    (package / "Sources" / "Tiny" / "Tiny.swift").write_text(source)
    git(package, "add", "-A")
    git(package, "commit", "-q", "-m", message)
    return git(package, "rev-parse", "HEAD")


def write_changelog(package: Path, *breaking: str) -> None:
    entries = "".join(f"\n- {entry}\n" for entry in breaking)
    (package / "CHANGELOG.md").write_text(CHANGELOG.replace("{breaking}", entries))


def api_check(package: Path, *arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments], cwd=cwd or package, capture_output=True, text=True, timeout=600,
    )


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The package after three commits: the release, farewell removed, greet changed and the renames."""
    package = tmp_path_factory.mktemp("tiny")
    (package / "Sources" / "Tiny").mkdir(parents=True)
    (package / "Package.swift").write_text(MANIFEST)
    (package / ".gitignore").write_text(".build\n")
    git(package, "init", "-q")
    write_changelog(package)
    release = commit(package, RELEASED, "0.1.0")
    (package / ".api-baseline").write_text(f"version: 0.1.0\ncommit: {release}\nproducts: Tiny\n")
    removed = commit(package, WITHOUT_FAREWELL, "farewell removed")
    changed = commit(package, CHANGED, "greet takes a Substring; renames with deprecated forwards")
    return package, [release, removed, changed]


def failing_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith("✗")]


@requires_swift
def test_an_unlisted_removal_and_signature_change_fail_and_are_named(history: tuple[Path, list[str]]) -> None:
    package, _ = history
    write_changelog(package)

    result = api_check(package)

    assert result.returncode == 1, result.stdout + result.stderr
    assert sorted(failing_lines(result.stdout)) == [
        "✗ func farewell(_:) has been removed  (not listed: name `farewell`)",
        "✗ func greet(_:) has parameter 0 type change from Swift.String to Swift.Substring"
        "  (not listed: name `greet`)",
    ]
    assert "  - `farewell` …" in result.stdout and "  - `greet` …" in result.stdout
    assert "0.1.0" in result.stdout
    # The deprecated forwards are no break, not even reported; a signature that names the renamed protocol through
    # its deprecated alias is reported by the digester and set aside; the package function is not public API.
    assert "open()" not in result.stdout and "init(observers:)" not in result.stdout
    assert "Counter.add(_:) has parameter 0 type change" in result.stdout
    assert "deprecated typealias" in result.stdout
    assert "func helper() has been removed  (package or @_spi: not public API)" in result.stdout


@requires_swift
def test_listed_breaks_pass_and_a_partial_list_still_fails(history: tuple[Path, list[str]]) -> None:
    package, _ = history
    write_changelog(package, "`farewell(_:)` is gone: write `\"bye \\(name)\"`.")

    partial = api_check(package)

    assert partial.returncode == 1
    assert [line.split("  (")[0] for line in failing_lines(partial.stdout)] == [
        "✗ func greet(_:) has parameter 0 type change from Swift.String to Swift.Substring"]

    write_changelog(package, "`farewell(_:)` is gone.", "`greet(_:)` takes a `Substring`.")

    listed = api_check(package)

    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert failing_lines(listed.stdout) == []
    assert "✓ func farewell(_:) has been removed  (listed as `farewell`)" in listed.stdout
    assert listed.stdout.splitlines()[-1] == "api-check: no unlisted break"


@requires_swift
def test_a_baseline_given_by_argument_and_a_package_path(history: tuple[Path, list[str]], tmp_path: Path) -> None:
    package, (_, removed, _) = history
    write_changelog(package)

    result = api_check(package, removed, "--package-path", str(package), cwd=tmp_path)

    assert result.returncode == 1
    assert [line.split("  (")[0] for line in failing_lines(result.stdout)] == [
        "✗ func greet(_:) has parameter 0 type change from Swift.String to Swift.Substring"]


def test_a_baseline_missing_from_the_history_cannot_be_checked(history: tuple[Path, list[str]]) -> None:
    package, _ = history

    result = api_check(package, "0123456789abcdef0123456789abcdef01234567")

    assert result.returncode == 2
    assert "not in this repository's history" in result.stderr and "--unshallow" in result.stderr


def test_the_matching_rule() -> None:
    script = load_script()
    breaking = script.unreleased_breaking(CHANGELOG.replace(
        "{breaking}", "\n- `Box.value` is a String; `Counter(instruments:)` replaces `Counter(observers:)`.\n"))

    assert script.is_listed("Box.value", breaking)
    assert not script.is_listed("Box", breaking)  # named only inside `Box.value`
    assert script.is_listed("Counter.init", breaking)  # written `Counter(`
    assert not script.is_listed("farewell", breaking)  # in the comment, Added and the release, not under Breaking
    assert not script.is_listed("value", breaking)
    names = {
        "func greet(_:) has been removed": "greet",
        "accessor Box.value.Get() has return type change from Swift.Int to Swift.String": "Box.value",
        "constructor Box.init(value:) has parameter 0 type change from Swift.Int to Swift.String": "Box.init",
        "accessor S.subscript(_:).Get() has return type change from Swift.Int to Swift.String": "S.subscript",
        "enumelement E.c has been added as a new enum case": "E.c",
        "struct Box has removed conformance to Equatable": "Box",
    }
    assert {message: script.Break("Tiny", message).name for message in names} == names


def test_a_changelog_without_an_unreleased_section_cannot_be_checked() -> None:
    script = load_script()

    with pytest.raises(script.CheckFailed, match="Unreleased"):
        script.unreleased_breaking("# Changelog\n\n## [0.1.0] - 2026-11-28\n")
