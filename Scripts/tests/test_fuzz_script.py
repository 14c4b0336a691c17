"""`Scripts/fuzz` and the fuzz folders agree, without building anything.

Every target the script lists has its folder (`Tests/Fuzz/<target>/` for the library's parsers,
`Demos/Tests/Fuzz/<target>/` for the app's) with one entry file, a committed corpus and a corpus test in its package
that replays it through the body the entry calls; every fuzz folder is a listed target; and nothing still names the
script it replaced.
"""

from __future__ import annotations

import re
import subprocess

import pytest
from repository import DEMOS, LIBRARY, REPO

SCRIPT = REPO / "Scripts" / "fuzz"


def listed_targets() -> list[str]:
    listing = subprocess.run([str(SCRIPT)], capture_output=True, text=True, check=True, timeout=30).stdout
    return re.findall(r"^  ([a-z][a-z-]+) ", listing, re.M)


def folder(target: str):
    found = [root / "Tests" / "Fuzz" / target for root in (LIBRARY, DEMOS) if (root / "Tests" / "Fuzz" / target).is_dir()]
    assert len(found) == 1, f"{target}: one folder under Tests/Fuzz/ or Demos/Tests/Fuzz/, found {found}"
    return found[0]


def test_the_script_lists_the_ten_targets() -> None:
    assert listed_targets() == [
        "action-log-replay", "inspector-log", "inspector-trace", "inspector-request", "inspector-live",
        "http-response", "socket-engine", "request-body-file", "redirect", "photo-metadata",
    ]


@pytest.mark.parametrize("target", listed_targets())
def test_each_target_has_an_entry_a_corpus_and_a_corpus_test_through_its_body(target: str) -> None:
    home = folder(target)
    entries = sorted(home.glob("*FuzzEntry.swift"))
    assert len(entries) == 1, f"{home}: one *FuzzEntry.swift"
    body = re.search(r"(\w+Fuzz)\.fuzz\(", entries[0].read_text())
    assert body, f"{entries[0]} calls a body's fuzz(_:)"
    assert [path for path in (home / "corpus").iterdir() if not path.name.startswith(".")], f"{home}/corpus is empty"
    package = home.parents[2]
    tests = [path for path in (package / "Tests").glob("*Tests/Fuzz/*.swift") if f'"{target}"' in path.read_text()]
    assert tests, f"no corpus test in {package / 'Tests'} names {target}"
    assert any(f"{body.group(1)}.fuzz(" in path.read_text() for path in tests), f"the corpus test runs {body.group(1)}"


def test_every_fuzz_folder_is_a_listed_target() -> None:
    folders = {path.name for root in (LIBRARY, DEMOS) for path in (root / "Tests" / "Fuzz").iterdir() if path.is_dir()}
    assert folders == set(listed_targets())


def test_nothing_names_the_photo_script_it_replaced() -> None:
    names = subprocess.run(
        ["git", "grep", "-l", "fuzz-photo-metadata", "--", ".", ":!Scripts/tests/test_fuzz_script.py"],
        cwd=REPO, capture_output=True, text=True, timeout=30,
    ).stdout.split()
    assert names == []
