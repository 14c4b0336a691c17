"""The repository's two packages, as the scripts' tests read them.

The root package is the library; `Demos/` is the seeds' app, which depends on it by path. Checks that are about "the
package" (its targets, its documentation, its Swift files) read both.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIBRARY = REPO
DEMOS = REPO / "Demos"
PACKAGES = (LIBRARY, DEMOS)


def dump_package(package: Path) -> dict:
    """The package's manifest as SwiftPM reads it."""
    dumped = subprocess.run(
        ["swift", "package", "dump-package"], cwd=package, check=True, capture_output=True, text=True, timeout=300,
    )
    return json.loads(dumped.stdout)


def target_folder(package: Path, target: dict) -> Path:
    default = "Tests" if target["type"] == "test" else "Sources"
    return package / (target.get("path") or f"{default}/{target['name']}")


def catalogs() -> list[Path]:
    """Every DocC catalog of both packages."""
    return sorted(REPO.glob("Sources/*/*.docc")) + sorted(DEMOS.glob("Sources/*/*.docc"))


def articles() -> list[Path]:
    """Every Markdown page of every DocC catalog."""
    return [page for catalog in catalogs() for page in sorted(catalog.glob("**/*.md"))]
