"""Accessibility in a real Chromium: axe-core on every kind of page in both palettes, contrast of the marks,
accessible names of charts and diagrams, keyboard operation of the overview's table; screenshots of each
page kind at 1280 and 390 px kept as artefacts ($DRAWCHECK_ARTIFACTS, else pytest's tmp_path).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from a11y_corpus import BROKEN, CORRECT, WITH_CORRECTIONS, class_answers
from browserkit import ROOT, build, make_project, require_chromium, serve, wait_for_diagrams, watched_page

from drawcheck.render.a11y import with_accessibility

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGE_KINDS = {
    "exercise": "",
    "table": "table/",
    "submit": "submit/",
    "feedback-corrections": f"feedback/{WITH_CORRECTIONS}/",
    "feedback-correct": f"feedback/{CORRECT}/",
    "feedback-not-graded": f"feedback/{BROKEN}/",
    "overview": "feedback/",
}
SCHEMES = {"light": "default", "dark": "slate"}
PROBE_TITLE = "Ada's drawing: <b>①</b> & a; %% not a comment"
PROBE_DESCRIPTION = "Two cycles; the boundary after Permit: the go statement. #59; stays text"
PROBE = with_accessibility("sequenceDiagram\n    participant S as Scheduler\n    S->>S: Filter\n",
                           PROBE_TITLE, PROBE_DESCRIPTION)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_chromium()
    if not AXE.exists():
        pytest.fail("node_modules/axe-core is missing: run `npm ci` (scripts/dev test does)")
    probe = f"# Probe\n\n```mermaid\n{PROBE}\n```\n"
    project = make_project(tmp_path_factory.mktemp("a11y"), answers=class_answers(),
                           extra_docs={"a11y-probe.md": probe})
    with (project / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write("\nnot_in_nav: |\n  a11y-probe.md\n")
    built = build(project, strict=False)  # broken and refused files warn, as they should
    with serve(built.site) as url:
        yield built, url


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("DRAWCHECK_ARTIFACTS") or tmp_path_factory.mktemp("artifacts")) / "a11y"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(seen, url: str, scheme: str):
    page = seen.page
    page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
    page.goto(url)
    wait_for_diagrams(page)
    assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == SCHEMES[scheme]
    if page.locator("[data-dc-sortable] table").count():
        page.wait_for_selector("[data-dc-sortable] .datatable-wrapper")
    return page


def axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async () => {
            const results = await axe.run(document, {resultTypes: ["violations"]});
            return results.violations.filter(v => ["serious", "critical"].includes(v.impact)).map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(" "), summary: n.failureSummary}))}));
        }"""
    )


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_axe_finds_no_serious_or_critical_violation(browser, site, artifacts, kind, scheme):
    _, url = site
    with watched_page(browser) as seen:
        page = open_page(seen, url + PAGE_KINDS[kind], scheme)
        violations = axe_violations(page)
        assert seen.page_errors == [] and seen.outside_requests == []
    report = "\n".join(f"{v['impact']} {v['id']}: {v['help']}\n" + "\n".join(
        f"    {n['target']}: {n['summary']}" for n in v["nodes"]) for v in violations)
    assert violations == [], f"{kind} ({scheme}):\n{report}"


@pytest.mark.parametrize("width", (1280, 390))
def test_screenshots_of_every_page_kind(browser, site, artifacts, width):
    _, url = site
    saved = []
    for kind, path in PAGE_KINDS.items():
        for scheme in SCHEMES:
            with watched_page(browser, viewport=(width, 900)) as seen:
                page = open_page(seen, url + path, scheme)
                target = artifacts / f"{kind}-{width}-{scheme}.png"
                page.screenshot(path=str(target), full_page=True)
                assert target.stat().st_size > 5000
                width_used = page.evaluate("() => document.documentElement.scrollWidth")
                assert width_used <= width + 1, f"{kind} at {width} px scrolls sideways ({width_used} px)"
                saved.append(target)
    print(f"\nscreenshots at {width} px:\n" + "\n".join(f"  {p}" for p in saved))


CONTRAST = """
(selector) => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (el) => { for (; el; el = el.parentElement) { const c = parse(getComputedStyle(el).backgroundColor);
      if (c && c.a > 0.99) return c; } return parse(getComputedStyle(document.body).backgroundColor); };
  return [...document.querySelectorAll(selector)].map(el => {
    const style = getComputedStyle(el);
    const own = parse(el.classList.contains("dc-bar") ? style.backgroundColor : style.color);
    const back = background(el.parentElement);
    const [a, b] = [lum(own), lum(back)].sort((x, y) => y - x);
    return {cls: el.className, text: el.textContent.trim(), ratio: (a + 0.05) / (b + 0.05), alpha: own.a};
  });
}
"""


@pytest.mark.parametrize("scheme", SCHEMES)
def test_marks_statuses_and_bars_have_contrast_and_a_symbol(browser, site, scheme):
    _, url = site
    with watched_page(browser) as seen:
        page = open_page(seen, url + "feedback/", scheme)
        marks = page.evaluate(CONTRAST, ".dc-mark, .dc-status")
        bars = page.evaluate(CONTRAST, ".dc-bar")
        cells = page.evaluate(CONTRAST, ".dc-grid tbody td, .dc-grid .dc-w, .dc-grid .dc-m")
    assert {m["cls"].split()[-1] for m in marks} >= {"dc-mark--right", "dc-mark--wrong", "dc-mark--missing",
                                                    "dc-status--correct", "dc-status--corrections"}
    low = [m for m in marks if m["ratio"] < 4.5 or m["alpha"] < 1]
    assert low == [], f"text below WCAG AA 4.5:1 in {scheme}: {low[:5]}"
    assert len(bars) > 10 and [b for b in bars if b["ratio"] < 3] == []
    # the grid's cells hold a bare symbol each (render/grid.py), coloured by drawcheck.css: AA as well
    assert {c["text"] for c in cells} >= {"✓", "✗", "−"}
    assert [c for c in cells if c["ratio"] < 4.5] == [], f"grid cells below AA in {scheme}"
    # not told apart by hue alone: each state has its own symbol, and the statuses their own words
    symbols = {m["cls"].split()[-1]: m["text"] for m in marks if "dc-mark--" in m["cls"]}
    assert len(set(symbols.values())) == len(symbols) == 4
    statuses = {m["text"].split(" (")[0] for m in marks if "dc-status" in m["cls"]}
    assert {"✓ correct", "✗ corrections", "⚠ could not be graded", "⊘ refused"} <= statuses


def test_charts_grid_and_generated_diagrams_have_accessible_names(browser, site):
    _, url = site
    with watched_page(browser) as seen:
        page = open_page(seen, url + "feedback/", "light")
        for title in ("Score histogram", "Boundary relative to the true one", "Learners who left the step out",
                      "Learners who drew the step in the wrong place or cycle"):
            figure = page.get_by_role("figure", name=re.compile(re.escape(title)))
            assert figure.count() == 1, title
            assert figure.get_by_role("table").count() == 1  # the data, as text
            assert "a full bar is" in figure.get_by_role("table").evaluate("t => t.closest('figure').textContent")
        assert page.get_by_role("region", name=re.compile("Learner × step grid")).count() == 1
        assert page.get_by_role("img").count() == 0 or page.locator("svg[role=img]:not([aria-labelledby])").count() == 0
    with watched_page(browser) as seen:
        page = open_page(seen, url + "a11y-probe/", "light")
        names = page.evaluate(
            """() => [...document.querySelectorAll("div.mermaid")].map(host => {
                const svg = host.shadowRoot.querySelector("svg");
                const byId = (attr) => (svg.getAttribute(attr) || "").split(" ").filter(Boolean)
                    .map(id => svg.querySelector("#" + CSS.escape(id))).filter(Boolean).map(e => e.textContent).join(" ");
                return {title: byId("aria-labelledby"), description: byId("aria-describedby")};
            })"""
        )
    assert names == [{"title": PROBE_TITLE, "description": PROBE_DESCRIPTION}]


def _column(page, index: int) -> list[str]:
    return page.evaluate(
        f"() => [...document.querySelectorAll('[data-dc-sortable] tbody tr')].map(r => r.cells[{index}]"
        " ? r.cells[" + str(index) + "].textContent.trim() : '')")


def _score(text: str) -> float:
    return float(text.split()[0]) if text[:1].isdigit() else -1.0


def test_the_table_sorts_and_filters_from_the_keyboard(browser, site):
    _, url = site
    with watched_page(browser) as seen:
        page = open_page(seen, url + "feedback/", "light")
        rows = len(_column(page, 0))
        assert rows >= 30
        # Tab from the search box reaches the filters and the column headers' sort buttons
        page.locator(".datatable-input").focus()
        reached = []
        for _ in range(12):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("() => document.activeElement.className || document.activeElement.tagName"))
            if "datatable-sorter" in reached[-1] and page.evaluate(
                    "() => document.activeElement.textContent.trim()") == "Score":
                break
        assert "datatable-sorter" in reached[-1], reached
        outline = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                                " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
        assert outline[0] != "none" and outline[1] >= 2, outline  # focus is visible
        sorted_as = "(dir) => [...document.querySelectorAll('[data-dc-sortable] thead th')]" \
            ".some(th => th.getAttribute('aria-sort') === dir && th.textContent.trim() === 'Score')"
        page.keyboard.press("Enter")
        page.wait_for_function(sorted_as, arg="ascending")
        first = [_score(t) for t in _column(page, 3)]
        page.keyboard.press("Enter")
        page.wait_for_function(sorted_as, arg="descending")
        second = [_score(t) for t in _column(page, 3)]
        assert first == sorted(first) and second == sorted(second, reverse=True) and first != second
        # the status filter, by keyboard: "correct" rows only (not "corrections")
        status = page.locator("select[id^=dc-filter-status]")
        status.focus()
        options = status.evaluate("s => [...s.options].map(o => o.value)")
        steps = options.index("correct")
        for _ in range(steps):
            page.keyboard.press("ArrowDown")
        assert status.evaluate("s => s.value") == "correct"
        statuses = _column(page, 1)
        assert statuses and all(s == "✓ correct" for s in statuses)
        assert page.locator(".dc-filter-count").text_content().startswith(f"{len(statuses)} of {rows}")
        for _ in range(steps):
            page.keyboard.press("ArrowUp")
        # the search box: type part of a handle
        page.locator(".datatable-input").focus()
        page.keyboard.type("learner-1")
        page.wait_for_function("() => document.querySelectorAll('[data-dc-sortable] tbody tr').length < 15")
        learners = _column(page, 0)
        assert learners and all(name.startswith("learner-1") for name in learners)


def test_the_palette_toggle_works_from_the_keyboard(browser, site):
    _, url = site
    with watched_page(browser) as seen:
        page = open_page(seen, url, "light")
        toggle = page.locator("form[data-md-component=palette] label:visible").first
        target = toggle.get_attribute("for")
        page.locator(f"#{target}").focus()
        page.keyboard.press("Space")
        page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
        page.wait_for_timeout(200)
        wait_for_diagrams(page)


def test_no_feedback_page_body_is_in_the_search_index(site):
    built, _ = site
    import json

    index = json.loads((built.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {d["location"].split("#")[0] for d in index["docs"]}
    assert "feedback/" in locations and "" in locations and "table/" in locations
    overviews = {"feedback/", "feedback/kubectl-apply/"}  # each exercise's class overview stays findable
    assert [loc for loc in locations if loc.startswith("feedback/") and loc not in overviews] == []
    text = " ".join(d["text"] for d in index["docs"])
    page = (built.site / "feedback" / WITH_CORRECTIONS / "index.html").read_text(encoding="utf-8")
    assert "Your drawing, circled" in page and "Your drawing, circled" not in text
