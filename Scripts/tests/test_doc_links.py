"""Every relative link of the README and of the DocC articles resolves.

A relative link (or image) names a file or folder of the repository, relative to the document, optionally with a
`#anchor` that must be a heading of the Markdown file it names (GitHub's heading ids); a bare `#anchor` is a heading of
the document itself. In a DocC catalog, an image may also name a resource of the catalog by its file name, as DocC
resolves it. Absolute URLs are not fetched; `<doc:…>` and ``symbol`` links are DocC's to check (Scripts/docs fails
on a broken one).
"""

from __future__ import annotations

import re
from pathlib import Path

from repository import REPO, articles, catalogs
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def documents() -> list[Path]:
    return [REPO / "README.md", *articles()]


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where link syntax is not a link."""
    text = re.sub(r"^(\s*)(`{3,}|~{3,}).*?^\1\2\s*$", "", text, flags=re.M | re.S)
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", text)


def anchors(markdown: str) -> set[str]:
    """GitHub's ids for the headings of a Markdown text (a repeated heading gets -1, -2, …)."""
    seen: dict[str, int] = {}
    ids = set()
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", prose(markdown), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        ids.add(slug if count == 0 else f"{slug}-{count}")
    return ids


def catalog_of(document: Path) -> Path | None:
    return next((parent for parent in document.parents if parent.suffix == ".docc"), None)


def broken_links(document: Path) -> list[str]:
    text = document.read_text()
    broken = []
    for target in LINK.findall(prose(text)):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # https:, mailto:, doc:
            continue
        path_part, _, anchor = target.partition("#")
        if not path_part:
            if anchor not in anchors(text):
                broken.append(f"{target}: no heading with that id in this document")
            continue
        resolved = (document.parent / path_part).resolve()
        catalog = catalog_of(document)
        if not resolved.exists() and catalog is not None and "/" not in path_part:
            resolved = next(iter(sorted(catalog.rglob(path_part))), resolved)
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved.read_text()):
            broken.append(f"{target}: {resolved.name} has no heading with that id")
    return broken


def test_every_relative_link_of_the_readme_and_the_articles_resolves() -> None:
    problems = [f"{document.relative_to(REPO)}: {problem}" for document in documents() for problem in broken_links(document)]
    assert not problems, "broken links:\n  " + "\n  ".join(problems)


def test_the_readme_links_to_every_article() -> None:
    readme = (REPO / "README.md").read_text()
    linked = {(REPO / target.partition("#")[0]).resolve() for target in LINK.findall(prose(readme))}
    pages = [path for catalog in catalogs() for path in catalog.glob("*.md") if path.stem != path.parent.stem]
    unlinked = sorted(str(path.relative_to(REPO)) for path in pages if path.resolve() not in linked)
    assert not unlinked, f"the README's map of the docs misses: {unlinked}"


def test_the_checker_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "Other.md").write_text("# Other\n\n## Some section\n")
    document = tmp_path / "README.md"
    document.write_text(
        "# Top\n\n[ok](Other.md#some-section) [ok](#top) [web](https://example.com) `[not a link](nowhere)`\n"
        "[gone](Missing.md) [bad anchor](Other.md#nope) [bad local](#nope)\n"
    )
    assert broken_links(document) == [
        "Missing.md: no such file",
        "Other.md#nope: Other.md has no heading with that id",
        "#nope: no heading with that id in this document",
    ]
