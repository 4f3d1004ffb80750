"""Round five in Chromium.

1. The PR comment's circled drawing, as GitHub draws it: the pinned Mermaid alone, with none of the site's
   scripts (which draw each mark on a patch of the page's colour), on GitHub's light and dark page. Every mark
   inside a learner's own rect or box (round_four.TINTED) shows exactly its colour on the bare page.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from browserkit import (LOCAL_MERMAID, ROOT, build, css_rgba, make_project, painted_over, require_chromium, serve,
                        watched_page)

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import round_five  # noqa: E402

from drawcheck.grade.cli import default_reference  # noqa: E402
from drawcheck.reference import load_reference  # noqa: E402
from drawcheck.render.mermaid import MARK_FILLS  # noqa: E402
from drawcheck.report.pr_comment import comment_body, own_links  # noqa: E402

GITHUB_PAGES = {"light": ("default", "#ffffff"), "dark": ("dark", "#0d1117"), "dark-dimmed": ("dark", "#22272e"),
                "dark-high-contrast": ("dark", "#0a0c10")}  # Mermaid's theme, GitHub's page colour

_BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>comment</title>
<body style="margin:0"><div id="out"></div><script src="mermaid.min.js"></script></body>"""

# Each drawing rendered by the pinned Mermaid alone; for every mark rect, the filled rects (in painting order)
# covering a point just inside its top-left corner, and their computed colours.
_RENDER_AND_READ = """async ([drawings, theme, fills]) => {
  mermaid.initialize({startOnLoad: false, securityLevel: "strict", theme: theme});
  const out = document.getElementById("out"), found = [];
  for (const [i, text] of drawings.entries()) {
    const host = document.createElement("div");
    out.appendChild(host);
    host.innerHTML = (await mermaid.render("comment" + i, text)).svg;
    const all = [...host.querySelectorAll("rect")];
    for (const m of all.filter(r => fills.includes(r.getAttribute("fill")))) {
      const b = m.getBBox(), x = b.x + 4, y = b.y + 4;
      found.push({drawing: i, fill: m.getAttribute("fill"), stack: all.filter(r => {
          const c = r.getBBox(); return c.x <= x && x <= c.x + c.width && c.y <= y && y <= c.y + c.height; })
        .map(r => { const s = getComputedStyle(r);
                    return {fill: s.fill, opacity: parseFloat(s.fillOpacity) * parseFloat(s.opacity), mark: r === m}; })
        .filter(s => s.fill !== "none")});
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def bare_page(tmp_path_factory):
    require_chromium()
    folder = tmp_path_factory.mktemp("comment-page")
    shutil.copy(ROOT / LOCAL_MERMAID, folder / "mermaid.min.js")
    (folder / "index.html").write_text(_BARE_PAGE, encoding="utf-8")
    with serve(folder) as url:
        yield url


@pytest.fixture(scope="module")
def comment_drawings():
    answers = {f"{handle}.mmd": text for handle, text in round_five.TINTED.items()}
    report = round_five.comment_markdown(answers, load_reference(default_reference()))
    posted = comment_body(report, links=own_links(round_five.REPO, round_five.HEAD, "mallory"))
    drawings = round_five.mermaid_blocks(posted)
    assert len(drawings) == len(answers)  # the comment draws every answer's drawing
    return drawings


@pytest.mark.parametrize("scheme", sorted(GITHUB_PAGES))
def test_a_mark_in_the_comments_drawing_keeps_its_colour_inside_a_learner_rect(browser, bare_page, comment_drawings,
                                                                               scheme):
    theme, page_colour = GITHUB_PAGES[scheme]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(bare_page)
        page.evaluate(f"document.body.style.background = {page_colour!r}")
        marks = page.evaluate(_RENDER_AND_READ, [comment_drawings, theme, list(MARK_FILLS)])
    finally:
        context.close()
    assert {m["fill"] for m in marks} == set(MARK_FILLS)  # a wrong, a missing and a boundary mark were all read
    assert {m["drawing"] for m in marks} == set(range(len(comment_drawings)))
    bare = css_rgba(f"rgb({int(page_colour[1:3], 16)}, {int(page_colour[3:5], 16)}, {int(page_colour[5:7], 16)})")[0]
    for mark in marks:
        shown = bare
        for layer in mark["stack"]:
            shown = painted_over(layer["fill"], layer["opacity"], shown)
        alone = painted_over(mark["fill"], 1, bare)
        distance = sum((a - b) ** 2 for a, b in zip(shown, alone)) ** 0.5
        assert distance < 2, (scheme, mark, shown, alone)


# 2. Material's search box on a site whose learner file names and labels are hostile: every element and attribute
#    in the results is one Material itself makes for a plain query (and its <mark> highlights); no canary runs.

_RESULTS_DOM = """() => {
  const root = document.querySelector(".md-search-result");
  const els = root ? [root, ...root.querySelectorAll("*")] : [];
  return {tags: [...new Set(els.map(e => e.tagName.toLowerCase()))],
          attributes: [...new Set(els.flatMap(e => [...e.attributes].map(a => a.name.toLowerCase())))],
          items: document.querySelectorAll(".md-search-result__item").length,
          text: root ? root.textContent : "", pwned: window.__pwned === undefined ? null : window.__pwned};
}"""


@pytest.fixture(scope="module")
def search_site(tmp_path_factory):
    require_chromium()
    project = make_project(tmp_path_factory.mktemp("round-five-search"), answers={**round_five.search_answers(),
                                                                                    **round_five.rtl_answers()})
    built = build(project, strict=False)
    with serve(built.site) as url:
        yield url


def _search(page, url: str, query: str) -> dict:
    page.goto(url)
    page.wait_for_load_state("networkidle")  # the search worker has its index
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query, delay=40)  # Material searches on key events
    page.wait_for_function("""() => document.querySelector(".md-search-result__item") ||
        /no match/i.test((document.querySelector(".md-search-result__meta") || {}).textContent || "")""", timeout=30000)
    page.wait_for_timeout(300)
    items = page.locator(".md-search-result__item")
    for i in range(min(items.count(), 8)):
        items.nth(i).hover()
    for more in page.locator(".md-search-result__more > summary").all()[:8]:  # "more on this page"
        more.click()
    return page.evaluate(_RESULTS_DOM)


def test_material_search_shows_hostile_names_and_labels_as_text(browser, search_site):
    with watched_page(browser) as seen:
        plain = _search(seen.page, search_site, "scheduler")  # what Material makes of a harmless query
        assert plain["items"] >= 1 and "mark" in plain["tags"]
        allowed_tags, allowed_attributes = set(plain["tags"]) | {"mark"}, set(plain["attributes"])
        shown, counts = "", {}
        for query in round_five.SEARCH_QUERIES:
            found = _search(seen.page, search_site, query)
            assert found["pwned"] is None, query
            assert set(found["tags"]) <= allowed_tags, (query, set(found["tags"]) - allowed_tags)
            assert set(found["attributes"]) <= allowed_attributes, (query, set(found["attributes"]) - allowed_attributes)
            shown += found["text"]
            counts[query] = found["items"]
        assert seen.dialogs == [] and seen.page_errors == [] and seen.outside_requests == []
    # the hostile names and labels were found (the index splits words at spaces and hyphens only)
    assert all(counts[query] for query in ("onerror", "gt", "amp", "quot", "star", "mark", "code", "script")), counts
    assert "<img src=x onerror=window.__pwned=1>" in shown  # the names are shown, as the text they are
    assert "&lt;img src=x onerror=window.__pwned=2&gt;" in shown


# 3. Right-to-left learner text (no control characters: those are refused) moves only within itself: on the
#    feedback page the site's words before it stay before it, visually, and the site's words after it on the
#    same line (none today) would stay after it.

_AROUND_REASON = """() => [...document.querySelectorAll("article li")].filter(li => /reason/i.test(li.textContent) &&
    /[\u0590-\u06ff]/.test(li.textContent)).map(li => {
  const title = li.querySelector("strong"), text = [...li.childNodes].filter(n => n.nodeType === 3).pop();
  const range = document.createRange();
  range.selectNodeContents(text);
  const rects = [...range.getClientRects()], box = title.getBoundingClientRect();
  return {title: [box.left, box.right, box.top], learner: rects.map(r => [r.left, r.right, r.top])};
})"""


def test_right_to_left_learner_text_keeps_the_site_text_before_it_in_place(browser, search_site):
    with watched_page(browser) as seen:
        for handle in round_five.RTL_REASONS:
            seen.page.goto(f"{search_site}feedback/{handle}/")
            found = seen.page.evaluate(_AROUND_REASON)
            assert len(found) == 1, (handle, found)
            (title_left, title_right, title_top), first_line = found[0]["title"], found[0]["learner"][0]
            assert abs(first_line[2] - title_top) < 20 and first_line[0] >= title_right - 1, (handle, found)
