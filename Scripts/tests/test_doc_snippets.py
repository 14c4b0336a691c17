"""The Swift code the README and the DocC articles show is code the build compiles.

Every ```swift block of README.md and of each article of a DocC catalog (Sources/*/*.docc and Demos/Sources/*/*.docc)
must appear verbatim — line for line, at any one indentation — in a Swift file of a target of either package (a test
file, usually: the snippet files under Tests/*/DocSnippets/ and Tests/*/Readme/ of either package compile and run each
article's code). A block that deliberately does not
compile says so on the line before its fence: `<!-- not compiled: why -->`.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from repository import PACKAGES, REPO, articles, dump_package, target_folder
NOT_COMPILED = re.compile(r"<!--\s*not compiled:\s*(\S.*?)\s*-->")


@dataclass
class Block:
    document: Path
    line: int  # of the opening fence, 1-based
    lines: list[str]
    exempt: str | None  # the reason given, for a block marked as not compiled


def documents() -> list[Path]:
    return [REPO / "README.md", *articles()]


def swift_blocks(path: Path) -> list[Block]:
    """The ```swift blocks of a Markdown file, each with the reason it is exempt, if it is."""
    blocks: list[Block] = []
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        fence = re.match(r"^(\s*)(`{3,}|~{3,})\s*(\S*)", lines[index])
        if not fence:
            index += 1
            continue
        marker, language = fence.group(2), fence.group(3).lower()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(marker):
            end += 1
        if language == "swift":
            previous = next((line for line in reversed(lines[:index]) if line.strip()), "")
            exempt = NOT_COMPILED.search(previous)
            blocks.append(Block(path, index + 1, lines[index + 1 : end], exempt.group(1) if exempt else None))
        index = end + 1
    return blocks


def dedented(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    indents = [len(line) - len(line.lstrip()) for line in lines if line]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def contains_verbatim(source: str, block: list[str]) -> bool:
    """Whether `block` appears in `source` as consecutive lines, all at one extra indentation."""
    wanted = dedented(block)
    if not wanted:
        return True
    lines = [line.rstrip() for line in source.splitlines()]
    first = wanted[0]
    for start, line in enumerate(lines):
        if not line.endswith(first) or start + len(wanted) > len(lines):
            continue
        indent = line[: len(line) - len(first)]
        if indent.strip():
            continue
        if all(
            (lines[start + offset] == indent + expected) if expected else not lines[start + offset].strip()
            for offset, expected in enumerate(wanted)
        ):
            return True
    return False


@pytest.fixture(scope="module")
def compiled_sources() -> dict[Path, str]:
    """The Swift files of every target of both packages, by path."""
    if shutil.which("swift") is None:
        pytest.skip("needs the Swift toolchain")
    folders = [
        target_folder(package, target) for package in PACKAGES for target in dump_package(package)["targets"]
    ]
    return {path: path.read_text() for folder in folders for path in sorted(folder.rglob("*.swift"))}


def test_every_swift_block_of_the_docs_is_compiled_verbatim(compiled_sources: dict[Path, str]) -> None:
    missing = []
    for document in documents():
        for block in swift_blocks(document):
            if block.exempt is not None:
                continue
            if not any(contains_verbatim(source, block.lines) for source in compiled_sources.values()):
                first = next((line.strip() for line in block.lines if line.strip()), "")
                missing.append(f"{document.relative_to(REPO)}:{block.line}: {first}")
    assert not missing, (
        "these ```swift blocks appear in no compiled Swift file (copy each, verbatim, into a test under Tests/, or "
        "mark it `<!-- not compiled: why -->` on the line before its fence):\n  " + "\n  ".join(missing)
    )


def test_the_docs_have_swift_blocks_to_check() -> None:
    counted = {document.relative_to(REPO): len(swift_blocks(document)) for document in documents()}
    assert counted[Path("README.md")] >= 1
    assert sum(counted.values()) >= 15, counted


def test_a_copy_matches_at_any_indentation_and_an_edited_one_does_not() -> None:
    source = "struct S {\n  func f() {\n    let a = 1\n\n    print(a)\n  }\n}\n"
    assert contains_verbatim(source, ["let a = 1", "", "print(a)"])
    assert contains_verbatim(source, ["  func f() {", "    let a = 1"])
    assert not contains_verbatim(source, ["let a = 2", "", "print(a)"])
    assert not contains_verbatim(source, ["let a = 1", "print(a)"])
    assert not contains_verbatim(source, ["func f() {", "let a = 1"])  # the indentation inside the block differs


def test_a_block_marked_as_not_compiled_is_exempt_and_says_why(tmp_path: Path) -> None:
    document = tmp_path / "Article.md"
    document.write_text(
        "# A\n\n<!-- not compiled: a fragment of a switch -->\n```swift\ncase .x: break\n```\n\n```swift\nlet y = 1\n```\n"
    )
    blocks = swift_blocks(document)
    assert [(block.lines, block.exempt) for block in blocks] == [
        (["case .x: break"], "a fragment of a switch"),
        (["let y = 1"], None),
    ]
