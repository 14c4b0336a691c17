"""The "Layout" maps tell the truth: the modules they name are the packages' targets, with their dependencies.

Two documents carry the map: the README's "## Layout" section and the Layout article of the core's DocC catalog.

The map is the first `text` block under "## Layout": one line per module, `Name  →  Dependency, Dependency` (a line
that starts with spaces continues the one before; text in parentheses, and a module's description after it on a line
without an arrow, are prose). It must name exactly the targets of both manifests (the library's `Package.swift` and
the seeds' app's `Demos/Package.swift`) that are not tests (libraries and executables), each with exactly its target
and product dependencies; and every test target must be the `<Module>Tests` of a mapped module or be named in the
section.
"""

from __future__ import annotations

import re
import shutil

import pytest
from repository import PACKAGES, REPO, dump_package
ARTICLE = REPO / "Sources" / "Unidirectional" / "Unidirectional.docc" / "Layout.md"
SECTIONS = {
    "README.md": lambda: layout_section((REPO / "README.md").read_text()),
    "Layout.md": lambda: ARTICLE.read_text(),
}


def layout_section(readme: str) -> str:
    start = readme.index("\n## Layout\n")
    end = readme.find("\n## ", start + 1)
    return readme[start:end if end != -1 else len(readme)]


def parse_map(section: str) -> dict[str, set[str]]:
    """The modules of the section's first `text` block, each with the modules its arrow points at."""
    block = re.search(r"```text\n(.*?)\n```", section, re.S)
    assert block, "the Layout section has a ```text block"
    modules: dict[str, set[str]] = {}
    current = None
    for line in block.group(1).splitlines():
        text = re.sub(r"\([^)]*\)", "", line).rstrip()
        if not text.strip():
            continue
        if line[0].isspace():
            assert current, f"a continuation line with nothing to continue: {line!r}"
            modules[current] |= {name.strip() for name in text.split(",") if name.strip()}
            continue
        current = text.split()[0]
        assert current not in modules, f"{current} is in the map twice"
        modules[current] = set()
        if "→" in text:
            modules[current] = {name.strip() for name in text.split("→", 1)[1].split(",") if name.strip()}
    return modules


def dependency_names(target: dict) -> set[str]:
    return {
        name[0] for dependency in target["dependencies"]
        for kind, name in dependency.items() if kind in ("byName", "target", "product")
    }


@pytest.fixture(scope="module")
def package() -> dict:
    """Both manifests' targets as one list (SwiftPM keeps target names unique across a graph)."""
    if shutil.which("swift") is None:
        pytest.skip("needs the Swift toolchain")
    return {"targets": [target for package in PACKAGES for target in dump_package(package)["targets"]]}


@pytest.mark.parametrize("document", sorted(SECTIONS))
def test_the_map_names_every_library_and_executable_target_with_its_dependencies(package: dict, document: str) -> None:
    section = SECTIONS[document]()
    mapped = parse_map(section)
    targets = {
        target["name"]: dependency_names(target) for target in package["targets"]
        if target["type"] in ("regular", "executable") and not (target.get("path") or "").startswith("Tests/")
    }
    assert sorted(mapped) == sorted(targets), "the map's modules are the manifest's library and executable targets"
    for name, dependencies in targets.items():
        assert mapped[name] == dependencies, (
            f"{name}: the map says {sorted(mapped[name])}, the manifest {sorted(dependencies)}")


@pytest.mark.parametrize("document", sorted(SECTIONS))
def test_every_test_target_mirrors_a_mapped_module_or_is_named(package: dict, document: str) -> None:
    section = SECTIONS[document]()
    mapped = parse_map(section)
    for target in package["targets"]:
        name = target["name"]
        if target["type"] == "test" or (target.get("path") or "").startswith("Tests/"):
            mirrors = name.endswith("Tests") and name[: -len("Tests")] in mapped
            assert mirrors or f"Tests/{name}/" in section, f"{name} neither mirrors a mapped module nor is in the map"


def test_the_parser_reads_continuations_and_ignores_prose() -> None:
    block = "Core        the core (a note)\nFeature  →  Core, Other  (why)\n           Third"
    assert parse_map(f"\n## Layout\n```text\n{block}\n```\n") == {"Core": set(), "Feature": {"Core", "Other", "Third"}}
