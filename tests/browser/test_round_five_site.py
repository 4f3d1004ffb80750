"""Round five in Chromium.

1. The PR comment's circled drawing, as GitHub draws it: the pinned Mermaid alone, with none of the site's
   scripts (which draw each mark on a patch of the page's colour), on GitHub's light and dark page. Every mark
   inside a learner's own rect or box (round_four.TINTED) shows exactly its colour on the bare page.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from browserkit import LOCAL_MERMAID, ROOT, css_rgba, painted_over, require_chromium, serve

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import round_five  # noqa: E402

from drawcheck.grade.cli import default_reference  # noqa: E402
from drawcheck.reference import load_reference  # noqa: E402
from drawcheck.render.mermaid import MARK_FILLS  # noqa: E402
from drawcheck.report.pr_comment import comment_body, own_links  # noqa: E402

GITHUB_PAGES = {"light": ("default", "#ffffff"), "dark": ("dark", "#0d1117")}  # Mermaid theme, GitHub's page colour

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
