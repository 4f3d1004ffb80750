"""The circled drawing in a real Chromium: every SVG label readable at 1280 px (>= 12 CSS px) and 390 px
(>= 10 CSS px), the full-size / zoom view operable by keyboard; screenshots kept as test artefacts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browserkit import build, make_project, require_chromium, serve, wait_for_diagrams, watched_page

pytestmark = pytest.mark.browser

# Permit drawn in the scheduling cycle, steps missing, long words everywhere: many marks, long corrections.
LONG = """sequenceDiagram
    autonumber
    box rgb(227, 238, 252) Control plane
    participant S as Scheduler thread
    participant C as Cache
    end
    participant P as Plugins
    participant B as Binding goroutine
    activate S
    S->>P: PreFilter<br/>then Filter
    S->>P: Score
    S->>C: cache function: `Reserve`
    S->>P: Reserve
    S->>P: Permit
    deactivate S
    S-)B: go func
    Note over S,B: reason: binding is slow, so the scheduler does not wait for it to talk to the API server
    B->>P: Bind
"""

SIZES = """() => [...document.querySelectorAll(".drawcheck-drawing div.mermaid")].map(host => {
    const svg = host.shadowRoot.querySelector("svg");
    const sizes = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim())
        .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
    return {min: Math.min(...sizes), count: sizes.length, width: svg.getBoundingClientRect().width,
            natural: svg.viewBox.baseVal.width, text: svg.textContent};
})"""


def artefacts(tmp_path: Path) -> Path:
    folder = Path(os.environ["DRAWCHECK_ARTIFACTS"]) if os.environ.get("DRAWCHECK_ARTIFACTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_chromium()
    built = build(make_project(tmp_path_factory.mktemp("readable"), answers={"longnotes.mmd": LONG}))
    with serve(built.site) as url:
        yield built, url


@pytest.mark.parametrize("width, least", [(1280, 12.0), (390, 10.0)])
def test_every_label_of_the_circled_drawing_is_readable(browser, site, tmp_path, width, least):
    _, url = site
    with watched_page(browser, viewport=(width, 900)) as seen:
        page = seen.page
        page.goto(url + "feedback/longnotes/")
        wait_for_diagrams(page)
        drawings = page.evaluate(SIZES)
        page.screenshot(path=str(artefacts(tmp_path) / f"feedback-readable-{width}.png"), full_page=True)
        assert drawings, "no circled drawing on the page"
        circled = drawings[0]
        assert "\u2717" in circled["text"] and "\u2460" in circled["text"]  # ✗ and ①: marks with a symbol
        assert circled["count"] > 10
        assert circled["min"] >= least, f"smallest SVG text {circled['min']:.1f} px at {width} px"
        assert not seen.page_errors


def test_full_size_view_works_by_keyboard(browser, site, tmp_path):
    _, url = site
    with watched_page(browser, viewport=(390, 900)) as seen:
        page = seen.page
        page.goto(url + "feedback/longnotes/")
        wait_for_diagrams(page)
        for _ in range(80):  # reach the "Full size" button with Tab alone
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.getAttribute('data-drawcheck-zoom')") == "1":
                break
        else:
            pytest.fail("the Full size button cannot be reached with Tab")
        page.keyboard.press("Enter")
        page.wait_for_timeout(100)
        after = page.evaluate(SIZES)[0]
        assert abs(after["width"] - after["natural"]) < 1.5, after  # drawn at its natural size
        assert page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") == "true"
        page.keyboard.press("Tab")  # past "150 %", the scrollable frame is next, and arrow keys scroll it
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.classList.contains('drawcheck-frame')")
        frame = page.evaluate("() => [document.activeElement.scrollWidth, document.activeElement.clientWidth]")
        assert frame[0] > frame[1]  # wider than the phone: it scrolls rather than shrinks
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(200)
        assert page.evaluate("() => document.activeElement.scrollLeft") > 0
        page.screenshot(path=str(artefacts(tmp_path) / "feedback-full-size-390.png"), full_page=True)
        for _ in range(3):  # back to "Fit"
            page.keyboard.press("Shift+Tab")
        assert page.evaluate("() => document.activeElement.getAttribute('data-drawcheck-zoom')") == "fit"
        page.keyboard.press("Enter")
        page.wait_for_timeout(100)
        fitted = page.evaluate(SIZES)[0]
        assert fitted["width"] < after["width"]
        assert not seen.page_errors
