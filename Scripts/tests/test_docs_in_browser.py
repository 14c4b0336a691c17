"""The documentation site that Scripts/docs builds works in a real browser.

The site (`.build/docs`, or UNIDIRECTIONAL_DOCS_SITE) is served on 127.0.0.1 by Python's http.server and opened in
headless Chromium (Debian's package; `Scripts/chromium-env` finds it or installs it). DocC pages are a JavaScript
app, so what is checked is the DOM after the scripts ran: the article's title as the page heading, and its code
listings. Screenshots of the landing page and the article go to `.build/docs-screenshots/`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from repository import REPO, catalogs
SITE = Path(os.environ.get("UNIDIRECTIONAL_DOCS_SITE", REPO / ".build" / "docs"))
SCREENSHOTS = REPO / ".build" / "docs-screenshots"
LANDING = "documentation/unidirectional/"
ARTICLE = "documentation/unidirectional/gettingstarted"


@pytest.fixture(scope="module")
def chromium() -> str:
    found = subprocess.run([str(REPO / "Scripts" / "chromium-env")], capture_output=True, text=True, timeout=900)
    assert found.returncode == 0, f"no Chromium for the browser test: {found.stderr.strip()}"
    return found.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The built site served on a free loopback port; yields its base URL, stops the server afterwards."""
    assert (SITE / "index.html").is_file() and (SITE / LANDING / "index.html").is_file(), (
        f"no built documentation in {SITE}: run Scripts/docs first (Scripts/test does)"
    )
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(SITE), "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert server.stdout is not None
        announced = server.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        port = re.search(r"port (\d+)", announced)
        assert port, f"http.server did not say its port: {announced!r}"
        yield f"http://127.0.0.1:{port.group(1)}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def run_chromium(chromium: str, *arguments: str) -> str:
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [
                chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", f"--user-data-dir={profile}", "--virtual-time-budget=15000", *arguments,
            ],
            capture_output=True, text=True, timeout=180,
        )
    assert result.returncode == 0, f"chromium failed ({result.returncode}): {result.stderr[-2000:]}"
    return result.stdout


def rendered_dom(chromium: str, url: str) -> str:
    return run_chromium(chromium, "--dump-dom", url)


def screenshot(chromium: str, url: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    run_chromium(chromium, "--window-size=1280,1000", f"--screenshot={path}", url)
    assert path.is_file() and path.stat().st_size > 10_000, f"no screenshot at {path}"


def page_title(dom: str) -> str | None:
    """The heading the app rendered (the <noscript> fallback has its own <h1>, which does not count)."""
    heading = re.search(r'<h1[^>]*class="title"[^>]*>(.*?)</h1>', dom, re.S)
    return re.sub(r"<[^>]+>", "", heading.group(1)).strip() if heading else None


def test_the_landing_page_renders_the_module_and_its_topics(chromium: str, site: str) -> None:
    dom = rendered_dom(chromium, site + LANDING)

    assert page_title(dom) == "Unidirectional"
    assert "Getting started" in dom and "Topics" in dom
    screenshot(chromium, site + LANDING, SCREENSHOTS / "landing.png")


def test_an_article_renders_its_title_and_its_code(chromium: str, site: str) -> None:
    dom = rendered_dom(chromium, site + ARTICLE)

    assert page_title(dom) == "Getting started"
    listings = re.findall(r'<div[^>]*class="code-listing[^"]*"[^>]*>.*?<pre', dom, re.S)
    assert listings, "the article shows no code listing"
    assert "factArrivesAfterASecond" in re.sub(r"<[^>]+>", "", dom)
    screenshot(chromium, site + ARTICLE, SCREENSHOTS / "getting-started.png")


def test_the_site_root_links_every_module(site: str) -> None:
    index = (SITE / "index.html").read_text()
    for module in sorted(catalog.parent.name for catalog in catalogs()):
        assert f'href="/documentation/{module.lower()}/"' in index, f"{module} is not linked from the site's root"
        assert (SITE / "documentation" / module.lower() / "index.html").is_file()
