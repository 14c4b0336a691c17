"""What a user of the released package reads agrees with the package: its version, its platforms, its documentation.

- The version the README's install snippet names is the last release of `.api-baseline` and a version heading of
  CHANGELOG.md, which has an "Unreleased" section above it.
- The platforms the README claims are the manifest's `platforms`.
- `.spi.yml` asks the Swift Package Index to document exactly the library products' modules.
"""

from __future__ import annotations

import re
import shutil

import pytest
from repository import LIBRARY, REPO, dump_package

PLATFORM_NAMES = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}

requires_swift = pytest.mark.skipif(shutil.which("swift") is None, reason="needs the Swift toolchain")


def baseline() -> dict[str, str]:
    fields = {}
    for line in (REPO / ".api-baseline").read_text().splitlines():
        key, separator, value = line.split("#", 1)[0].partition(":")
        if separator:
            fields[key.strip()] = value.strip()
    return fields


def test_the_readme_names_the_last_release_which_the_changelog_lists() -> None:
    readme = (REPO / "README.md").read_text()
    changelog = (REPO / "CHANGELOG.md").read_text()
    version = baseline()["version"]

    assert re.findall(r'from: "([^"]+)"', readme) == [version]
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert headings[:2] == ["Unreleased", version]
    assert re.fullmatch(r"[0-9a-f]{40}", baseline()["commit"])


@requires_swift
def test_the_readme_claims_the_platforms_of_the_manifest() -> None:
    readme = (REPO / "README.md").read_text()
    platforms = dump_package(LIBRARY)["platforms"]

    claimed = " ".join(readme[readme.index("## Requirements"):].split("\n## ", 1)[0].split())
    for platform in platforms:
        name = PLATFORM_NAMES[platform["platformName"]]
        version = platform["version"].removesuffix(".0")
        assert f"{name} {version}" in claimed, f"README's Requirements do not name {name} {version}"
    assert len(platforms) == len(PLATFORM_NAMES)


@requires_swift
def test_the_package_index_documents_every_library_module_and_only_them() -> None:
    spi = (REPO / ".spi.yml").read_text()
    package = dump_package(LIBRARY)

    documented = re.search(r"documentation_targets:\s*\[([^\]]*)\]", spi)
    assert documented
    library_targets = {
        target for product in package["products"] if "library" in product["type"] for target in product["targets"]}
    assert {name.strip() for name in documented.group(1).split(",")} == library_targets
    assert set(baseline()["products"].split()) == {
        product["name"] for product in package["products"] if "library" in product["type"]}
