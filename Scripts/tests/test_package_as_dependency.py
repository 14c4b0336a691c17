"""The package as a user's app sees it: a library that can be added beside the app's own modules.

SwiftPM refuses a graph in which two packages declare a target of the same name ("multiple packages declare targets
with a conflicting name"), whether the app uses that target or not, so every target of the library's manifest has a
name no app gives its own module: each starts with `Unidirectional`. An app package whose modules have everyday names
(the seeds' own module names and the usual ones: `App`, `Core`, `Models`, …) depends on a tagged snapshot of the
library with every library product, builds, and runs a TestStore test.

SwiftPM also refuses a versioned dependency whose *products* carry unsafe flags unless its manifest declares tools
version 6.2 or later, so no library or executable target has one (checked on the manifest itself). The project's test
targets keep their flags: they are in no product, so SwiftPM never checks them.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from repository import LIBRARY, REPO, dump_package

# Module names real apps use, among them every module name of the seeds' app (Demos/Package.swift).
APP_MODULES = [
    "App", "Core", "Models", "Networking", "Sharing", "Search", "Settings", "Images", "Features", "Reminders",
    "Scan", "Gallery", "Archive", "Transfer", "LocalFiles", "CaptureSession", "Demo", "HTTPClient", "ImageUpload",
    "ImageGeneration", "ModelReconstruction", "PhotoAnalysis",
]
# `Testing` is the toolchain's Swift Testing module: an app's own module of that name hides it from every target of
# the build, SwiftPM's generated test runner included ("module 'Testing' has no member named '__swiftPMEntryPoint'",
# with no library in the graph). Such an app can still add the library — its graph plans — but cannot run tests.
PLAN_ONLY_MODULES = ["Testing"]

TEST = textwrap.dedent("""\
    import App
    import Testing
    import Unidirectional
    import UnidirectionalTesting

    @MainActor
    @Test func countsAndSavesThroughTheApp() async {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.incrementTapped) { $0.count = 1 }
      await store.send(.saveTapped)
      await store.receive(.saved(1)) { $0.saved = 1 }
    }
    """)

COUNTER = textwrap.dedent("""\
    import Core
    import Unidirectional

    public struct Counter: Reducer {
      public struct State: Equatable, Sendable {
        public var count = 0
        public var saved: Int?
        public init() {}
      }
      public enum Action: Equatable, Sendable { case incrementTapped, saveTapped, saved(Int) }
      public init() {}
      public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .incrementTapped:
          state.count += 1
          return .none
        case .saveTapped:
          return .run { [count = state.count] send in send(.saved(coreValue(count))) }
        case let .saved(count):
          state.saved = count
          return .none
        }
      }
    }
    """)


def git(cwd: Path, *arguments: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@localhost", *arguments],
        cwd=cwd, check=True, capture_output=True, timeout=60,
    )


def tagged_snapshot_of_the_working_tree(destination: Path) -> Path:
    """Copies the library's tracked files as they are now (edits included) into a new repository tagged 1.0.0."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True, timeout=60)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = REPO / name
        if source.is_file() and not name.startswith("Demos/"):
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-q", "-m", "snapshot")
    git(destination, "tag", "1.0.0")
    return destination


def app_package(directory: Path, dependency: Path, products: list[str], modules: list[str]) -> Path:
    """An app whose own modules are `modules`; `App` holds a feature, `Core` a helper, the rest one line each."""
    uses = ", ".join(f'.product(name: "{name}", package: "unidirectional")' for name in products)
    for module in modules:
        (directory / "Sources" / module).mkdir(parents=True)
        body = {"App": COUNTER, "Core": "public func coreValue(_ value: Int) -> Int { value }\n"}.get(
            module, f"public let {module[0].lower()}{module[1:]}Module = \"{module}\"\n")
        (directory / "Sources" / module / f"{module}.swift").write_text(body)
    (directory / "Tests" / "AppTests").mkdir(parents=True)
    (directory / "Tests" / "AppTests" / "CounterTests.swift").write_text(TEST)
    others = ", ".join(f'"{module}"' for module in modules if module not in ("App", "Core"))
    (directory / "Package.swift").write_text(textwrap.dedent(f"""\
        // swift-tools-version: 6.2
        import PackageDescription

        let modules = [{", ".join(f'"{module}"' for module in modules)}]
        let package = Package(
          name: "App",
          platforms: [.macOS(.v15)],
          dependencies: [.package(url: "{dependency.as_uri()}", exact: "1.0.0")],
          targets: modules.map {{ name in
            .target(name: name, dependencies: name == "App" ? ["Core", {others}, {uses}] : [])
          }} + [
            .testTarget(name: "AppTests", dependencies: ["App", {uses}]),
          ],
          swiftLanguageModes: [.v6]
        )
        """))
    return directory


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


def swift(*arguments: str, timeout: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["swift", *arguments], capture_output=True, text=True, timeout=timeout)


requires_swift = pytest.mark.skipif(shutil.which("swift") is None, reason="needs the Swift toolchain")


@requires_swift
def test_every_target_of_the_library_has_a_name_no_app_gives_its_own_module() -> None:
    names = [target["name"] for target in dump_package(LIBRARY)["targets"]]
    assert "Unidirectional" in names
    assert [name for name in names if not name.startswith("Unidirectional")] == []
    assert not set(names) & set(APP_MODULES + PLAN_ONLY_MODULES)


@requires_swift
def test_no_target_a_consumer_builds_has_an_unsafe_flag() -> None:
    package = dump_package(LIBRARY)
    needed = built_by_consumers(package)
    flagged = [
        target["name"] for target in package["targets"]
        if target["name"] in needed
        and any("unsafeFlags" in setting.get("kind", {}) for setting in target.get("settings", []))
    ]
    assert {"Unidirectional", "UnidirectionalTesting", "UnidirectionalInspector", "UnidirectionalBench"} <= needed
    assert flagged == []


@requires_swift
def test_an_app_with_everyday_module_names_adds_every_library_product_and_runs_a_test_store_test(
    tmp_path: Path,
) -> None:
    products = library_products(dump_package(LIBRARY))
    assert {"Unidirectional", "UnidirectionalTesting", "UnidirectionalActionLog", "UnidirectionalInspector"} <= set(
        products)
    dependency = tagged_snapshot_of_the_working_tree(tmp_path / "unidirectional")
    app = app_package(tmp_path / "app", dependency, products, APP_MODULES)
    # Its own cache and build folder, so no copy of an earlier snapshot is reused and nothing is left behind.
    folders = ["--package-path", str(app), "--scratch-path", str(tmp_path / "build"), "--cache-path",
               str(tmp_path / "cache")]

    result = swift("test", *folders, timeout=1500)

    output = result.stdout + result.stderr
    assert "conflicting name" not in output
    assert "unsafe build flags" not in output
    assert result.returncode == 0, output[-6000:]
    assert "countsAndSavesThroughTheApp()" in output and "passed" in output


@requires_swift
def test_an_app_with_a_module_named_testing_plans_its_build_with_the_library(tmp_path: Path) -> None:
    products = library_products(dump_package(LIBRARY))
    dependency = tagged_snapshot_of_the_working_tree(tmp_path / "unidirectional")
    app = app_package(tmp_path / "app", dependency, products, APP_MODULES + PLAN_ONLY_MODULES)

    # SwiftPM checks target names (and unsafe flags) while planning, so nothing is compiled: a few seconds.
    result = swift("build", "--package-path", str(app), "--scratch-path", str(tmp_path / "build"), "--cache-path",
                   str(tmp_path / "cache"), "--print-manifest-job-graph", timeout=300)

    output = result.stdout + result.stderr
    assert "conflicting name" not in output
    assert result.returncode == 0, output
    assert "digraph" in result.stdout
