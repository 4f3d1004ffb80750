"""Round four in Chromium, on the real site, light and dark: a mark drawn inside a learner's own rect or box
(translucent, opaque, nested, named colour) shows exactly the colour it shows on the bare page, so its colour
keeps its meaning; and no symbol of a mark kind (or a look-alike) is drawn from learner text."""

from __future__ import annotations

import re
import sys

import pytest

from browserkit import (COLOUR_SCHEMES, PAGE_BEHIND, ROOT, active_content_report, build, css_rgba, drawings_on,
                        make_project, painted_over, require_chromium, scheme_page, serve, watched_page)

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import round_four  # noqa: E402

from drawcheck.render.mermaid import MARK_FILLS  # noqa: E402

# For every mark rect (its fill is one of MARK_FILLS), a point just inside its top-left corner (inside its
# padding, where no note or message is drawn), and every filled rect of the drawing, in painting order, that
# covers that point: the colours the browser composites there. And the colour of the page behind the drawing.
READ_MARKS = """(fills) => [...document.querySelectorAll("div.mermaid")].map(host => {
  """ + PAGE_BEHIND + """  const all = [...svg.querySelectorAll("rect")];
  const marks = all.filter(r => fills.includes(r.getAttribute("fill")));
  return {bg: bg, scheme: document.body.getAttribute("data-md-color-scheme"), marks: marks.map(m => {
    const b = m.getBBox(), x = b.x + 4, y = b.y + 4;
    const stack = all.filter(r => { const c = r.getBBox(); return c.x <= x && x <= c.x + c.width && c.y <= y && y <= c.y + c.height; })
      .map(r => { const s = getComputedStyle(r); return {fill: s.fill, opacity: parseFloat(s.fillOpacity) * parseFloat(s.opacity), mark: r === m}; })
      .filter(s => s.fill !== "none");
    return {fill: m.getAttribute("fill"), stack: stack};
  })};
})"""


def _shown(stack, page):
    for layer in stack:
        page = painted_over(layer["fill"], layer["opacity"], page)
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_chromium()
    answers = {**round_four.answers(), **dict.fromkeys(round_four.HTML_NAMES, round_four.REFERENCE)}
    project = make_project(tmp_path_factory.mktemp("round-four"), answers=answers)
    built = build(project, strict=False)
    with serve(built.site) as url:
        yield url


@pytest.mark.parametrize("scheme", sorted(COLOUR_SCHEMES))
def test_a_mark_inside_a_learner_rect_keeps_its_colour(browser, site, scheme):
    kinds: set[str] = set()
    tinted_under = 0
    with scheme_page(browser, scheme) as page:
        for handle in round_four.TINTED:
            for drawing in drawings_on(page, f"{site}feedback/{handle}/", READ_MARKS, list(MARK_FILLS), scheme=scheme):
                bg = css_rgba(drawing["bg"])[0]
                for mark in drawing["marks"]:
                    kinds.add(mark["fill"])
                    assert [layer["mark"] for layer in mark["stack"]].count(True) == 1
                    below = mark["stack"][: [layer["mark"] for layer in mark["stack"]].index(True)]
                    tinted_under += any(css_rgba(layer["fill"])[0] not in (bg,) and layer["fill"] not in MARK_FILLS
                                        for layer in below)
                    shown = _shown(mark["stack"], bg)
                    alone = painted_over(mark["fill"], 1, bg)
                    distance = sum((a - b) ** 2 for a, b in zip(shown, alone)) ** 0.5
                    assert distance < 2, (handle, scheme, mark["fill"], mark["stack"], shown, alone)
    assert kinds == set(MARK_FILLS)  # a wrong, a missing and a boundary mark were all checked
    assert tinted_under >= len(round_four.TINTED)  # and they did sit on learner tints


def _beside_a_number(text: str) -> list[str]:
    glyphs = round_four.MARK_SYMBOL_GLYPHS.pattern
    near = re.compile(rf"[^\W_][^\w]{{0,4}}{glyphs}|{glyphs}[^\w]{{0,4}}[^\W_]")
    return [m.group() for m in near.finditer(text) if any(ch.isnumeric() for ch in m.group())]


def test_no_mark_symbol_beside_a_number_is_drawn_from_learner_text(browser, site):
    with scheme_page(browser) as page:
        texts = drawings_on(page, f"{site}feedback/mark-symbols/", """() => [...document.querySelectorAll(
            "div.mermaid")].flatMap(host => [...host.shadowRoot.querySelectorAll("svg text")].map(t => t.textContent))""")
        learner = [t for t in texts if "PreFilter" in t and not re.match(r"\s*[\u2460-\u2473]", t)]
        assert len(learner) >= len(round_four.MARK_SYMBOL_LOOKALIKES)
        assert [t for t in learner if _beside_a_number(t)] == []
        assert any("\u2194" in t for t in learner)  # "PreFilter ↔ Filter": an arrow in prose is drawn as written
        body = page.evaluate("() => document.querySelector('article').innerText")
        shown = [line for line in body.splitlines() if not line.startswith("Each mark is a number")]  # the legend
        assert [line for line in shown if _beside_a_number(line)] == []


def test_the_sortable_overview_shows_html_file_names_as_text(browser, site):
    """The overview's table is rebuilt by simple-datatables (drawcheck-overview.js), which reads each cell and
    draws it again on every sort, search and filter: a refused file name made of HTML (or of escaped HTML) must
    stay text through all of them. (The search index holds them only as escaped text: test_round_four_build.)"""
    with watched_page(browser) as seen:
        page = seen.page
        page.goto(f"{site}feedback/")
        page.wait_for_selector("[data-dc-enhanced]", timeout=20000)
        for term in ("onerror", "img", "&lt;", "select", ""):
            page.fill("input.datatable-input", term)
            page.wait_for_timeout(150)
        for header in page.locator("th button").all():
            header.click()
            header.click()
        for box in page.locator(".dc-filters select").all():
            for value in box.locator("option").all_inner_texts()[1:]:
                box.select_option(label=value)
            box.select_option(index=0)
        table = page.evaluate("() => document.querySelector('[data-dc-sortable] table').innerText")
        for name in round_four.HTML_NAMES:
            assert f"answers/{name}" in table, name
        report = active_content_report(page)
        assert page.evaluate("() => window.__pwned") is None
        assert report["handlers"] == [] and report["iframes"] == [] and report["jsLinks"] == []
        assert seen.page_errors == [] and seen.dialogs == []

