"""The built site in a real Chromium: every diagram drawn, nothing leaves 127.0.0.1, no script errors."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from browserkit import (
    ROOT, active_content_report, build, diagram_report, make_project, mermaid_security_level, open_all_details,
    require_chromium, save_screenshot, serve, wait_for_diagrams, watched_page,
)

pytestmark = pytest.mark.browser

README_SCREENSHOTS = ROOT / "docs" / "assets" / "screenshots"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_chromium()
    built = build(make_project(tmp_path_factory.mktemp("site")))
    with serve(built.site) as url:
        yield built, url


def feedback_pages(built) -> list[str]:
    return [p for p in built.pages() if p.startswith("feedback/")]


def test_the_site_has_the_expected_pages(site):
    built, _ = site
    pages = built.pages()
    assert "" in pages and "table/" in pages and "submit/" in pages
    sitemap = (built.site / "sitemap.xml").read_text(encoding="utf-8")
    for page in pages:
        if not page.startswith("feedback/") or page == "feedback/":
            assert f"/{page}</loc>" in sitemap or page == "", page


def test_every_page_draws_every_diagram_without_errors_or_outside_requests(browser, site):
    built, url = site
    problems = []
    drawn_total = 0
    for path in built.pages():
        with watched_page(browser) as seen:
            page = seen.page
            page.goto(url + path)
            expected = page.evaluate("() => document.querySelectorAll('pre.mermaid, div.mermaid').length")
            wait_for_diagrams(page)
            open_all_details(page)
            diagrams = diagram_report(page)
            if len(diagrams) != expected:
                problems.append(f"{path}: {expected} diagrams in the HTML, {len(diagrams)} drawn")
            for i, d in enumerate(diagrams):
                if not (d["width"] > 50 and d["height"] > 50):
                    problems.append(f"{path}: diagram {i} has size {d['width']}x{d['height']}")
                if "Syntax error" in d["text"]:
                    problems.append(f"{path}: diagram {i} shows a Mermaid syntax error")
            body_text = page.evaluate("() => document.body.innerText")
            if "Syntax error" in body_text:
                problems.append(f"{path}: 'Syntax error' on the page")
            drawn_total += len(diagrams)
            problems += [f"{path}: page error {e}" for e in seen.page_errors]
            problems += [f"{path}: request left 127.0.0.1: {u}" for u in seen.outside_requests]
            problems += [f"{path}: dialog {d}" for d in seen.dialogs]
            problems += [f"{path}: failed request {u}" for u in seen.failed_requests if u not in seen.outside_requests]
    assert problems == []
    assert drawn_total >= 1, "the exercise page has at least the reference diagram"


def test_reference_details_are_closed_on_load_and_open_on_click(browser, site):
    _, url = site
    with watched_page(browser) as seen:
        page = seen.page
        page.goto(url)
        wait_for_diagrams(page)
        details = page.locator("article details")
        assert details.count() >= 1
        for i in range(details.count()):
            assert details.nth(i).get_attribute("open") is None, f"<details> {i} is open on load"
        first = details.first
        inner = first.locator("div.mermaid")
        if inner.count():
            assert not inner.first.is_visible()
        first.locator("> summary").click()
        page.wait_for_function("el => el.open", arg=first.element_handle())
        assert first.get_attribute("open") is not None
        if inner.count():
            assert inner.first.is_visible()
            box = page.evaluate(
                "el => { const r = el.shadowRoot.querySelector('svg').getBoundingClientRect(); return [r.width, r.height]; }",
                inner.first.element_handle(),
            )
            assert box[0] > 50 and box[1] > 50
        assert seen.page_errors == []


def test_mermaid_is_the_pinned_local_copy_running_strict(browser, site):
    built, url = site
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["mermaid"]
    shipped = built.site / "assets" / "javascripts" / "mermaid.min.js"
    npm_copy = ROOT / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
    assert hashlib.sha256(shipped.read_bytes()).digest() == hashlib.sha256(npm_copy.read_bytes()).digest()
    assert json.loads((ROOT / "node_modules" / "mermaid" / "package.json").read_text())["version"] == pinned
    with watched_page(browser) as seen:
        page = seen.page
        page.goto(url)
        wait_for_diagrams(page)
        scripts = page.evaluate("() => [...document.scripts].map(s => s.src).filter(Boolean)")
        assert any(s.endswith("/assets/javascripts/mermaid.min.js") for s in scripts)
        assert all(s.startswith(url) for s in scripts), scripts
        assert mermaid_security_level(page) == "strict"
        assert seen.outside_requests == []


def _keep_for_readme(shot: Path, name: str) -> None:
    """README screenshots are refreshed only when missing or on request (they are committed)."""
    target = README_SCREENSHOTS / name
    if not target.exists() or os.environ.get("DRAWCHECK_UPDATE_SCREENSHOTS"):
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, target)


def test_screenshots_of_the_exercise_and_a_feedback_page(browser, site):
    built, url = site
    with watched_page(browser, viewport=(1200, 800)) as seen:
        page = seen.page
        page.goto(url)
        wait_for_diagrams(page)
        assert page.locator("article details[open]").count() == 0  # nothing given away on the README
        shot = save_screenshot(page, "exercise.png")
        assert shot.stat().st_size > 10_000
        _keep_for_readme(shot, "exercise.png")
    pages = [p for p in feedback_pages(built) if p != "feedback/"]
    if not pages:
        pytest.fail("the site has no feedback pages (feedback/<handle>/): the answers/ examples should produce some")
    example = next((p for p in pages if "example-permit-early" in p), pages[0])
    with watched_page(browser, viewport=(1200, 900)) as seen:
        page = seen.page
        page.goto(url + example)
        wait_for_diagrams(page)
        circled = page.locator("article h2", has_text="Your drawing, circled")
        assert circled.count() == 1
        circled.first.evaluate("h => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 60)")
        shot = save_screenshot(page, "feedback.png")
        assert shot.stat().st_size > 10_000
        assert seen.page_errors == []
        _keep_for_readme(shot, "feedback.png")


def test_no_page_carries_active_content_beyond_the_sites_own_scripts(browser, site):
    built, url = site
    allowed = re.compile(r"(assets/javascripts/(bundle\.[0-9a-f]+\.min\.js|mermaid\.min\.js|drawcheck-mermaid\.js"
                         r"|drawcheck-a11y\.js|drawcheck-overview\.js)|assets/vendor/simple-datatables/simple-datatables\.js)$")
    for path in built.pages():
        with watched_page(browser) as seen:
            seen.page.goto(url + path)
            wait_for_diagrams(seen.page)
            found = active_content_report(seen.page)
            external = [s for s in found["scripts"] if s.startswith("http") and not allowed.search(s)]
            assert external == [], path
            assert found["iframes"] == [] and found["jsLinks"] == [], (path, found)


def test_feedback_colours_survive_materials_theme_and_mermaid_stays_strict(browser, site):
    from drawcheck.render.mermaid import BOUNDARY_FILL, MISSING_FILL, WRONG_FILL

    built, url = site
    with watched_page(browser) as seen:
        page = seen.page
        page.goto(url + "feedback/example-permit-early/")
        wait_for_diagrams(page)
        fills = page.evaluate(
            """() => [...document.querySelectorAll('.mermaid')].flatMap(h => h.shadowRoot
                 ? [...h.shadowRoot.querySelectorAll('rect.rect')].map(r => getComputedStyle(r).fill) : [])""")
        for colour in (WRONG_FILL, MISSING_FILL, BOUNDARY_FILL):
            assert colour.replace(", ", ", ") in fills, (colour, sorted(set(fills)))
        assert mermaid_security_level(page) == "strict"
        assert seen.page_errors == []
