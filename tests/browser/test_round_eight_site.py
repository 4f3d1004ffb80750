"""Round eight in Chromium (tests/hostile/round_eight.py says what was found and what held).

1. A colour is read as the browser reads it: for every learner colour of round eight and a few plain ones,
   `css_colours.is_css_colour` (how the parser splits a `box` line) agrees with Chromium's `CSS.supports`, as
   Mermaid asks it; and the redrawn drawing of each paints its learner rect with no mark's fill.
2. The drawings Mermaid took longest on, within every limit of the site, are drawn in bounded time.
"""

from __future__ import annotations

import shutil
import sys
import time

import pytest

from browserkit import LOCAL_MERMAID, ROOT, require_chromium, serve

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import round_eight  # noqa: E402

from drawcheck.css_colours import is_css_colour  # noqa: E402
from drawcheck.parse import parse_text  # noqa: E402
from drawcheck.render.mermaid import MARK_FILLS, render_diagram  # noqa: E402
from drawcheck.safety import MERMAID_MAX_TEXT, mermaid_length  # noqa: E402

_PAGE = """<!doctype html><meta charset="utf-8"><title>round eight</title>
<body style="margin:0"><div id="out"></div><script src="mermaid.min.js"></script>
<script src="drawcheck-mermaid.js"></script></body>"""

_RENDER = """async ([text, id]) => {
  mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
  const t0 = performance.now();
  const out = await mermaid.render(id, text);
  const host = document.createElement("div");
  document.getElementById("out").appendChild(host);
  host.innerHTML = out.svg;
  const rects = [...host.querySelectorAll("rect.rect")].map(r => getComputedStyle(r).fill);
  host.remove();
  return {ms: performance.now() - t0, rects: rects, error: /Syntax error|Maximum text size/.test(out.svg)};
}"""

PLAIN_COLOURS = ["rgb(1, 2, 3)", "rgb(1,\t2, 3)", "hsl(10, 20%, 30%)", "rgba(0, 0, 0, 0)", "black", "BLACK", "lightpink"]


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    require_chromium()
    folder = tmp_path_factory.mktemp("round-eight-page")
    shutil.copy(ROOT / LOCAL_MERMAID if (ROOT / LOCAL_MERMAID).exists()
                else ROOT / "node_modules" / "mermaid" / "dist" / "mermaid.min.js", folder / "mermaid.min.js")
    shutil.copy(ROOT / "plugins" / "drawcheck" / "plugin" / "assets" / "drawcheck-mermaid.js", folder)
    (folder / "index.html").write_text(_PAGE, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        with serve(folder) as url:
            tab = context.new_page()
            tab.goto(url)
            yield tab
    finally:
        context.close()


def test_colours_are_read_as_the_browser_reads_them(page):
    colours = [colour for _statement, colour in round_eight.UNICODE_COLOURS.values()] + PLAIN_COLOURS
    supported = page.evaluate("colours => colours.map(c => CSS.supports('color', c))", colours)
    assert [(ascii(c), is_css_colour(c)) for c in colours] == [(ascii(c), s) for c, s in zip(colours, supported)]


def test_no_learner_colour_paints_a_marks_fill(page):
    marks = page.evaluate("""fills => fills.map(f => { const r = document.createElementNS(
        "http://www.w3.org/2000/svg", "rect"); r.setAttribute("fill", f); document.body.appendChild(r);
        const c = getComputedStyle(r).fill; r.remove(); return c; })""", list(MARK_FILLS))
    for n, (name, (statement, colour)) in enumerate(sorted(round_eight.UNICODE_COLOURS.items())):
        drawing = render_diagram(parse_text(round_eight.colour_drawing(statement, colour)), readable=True)
        drawn = page.evaluate(_RENDER, [drawing, f"colour{n}"])
        assert not drawn["error"], name
        assert not set(drawn["rects"]) & set(marks), (name, drawn["rects"])


@pytest.mark.parametrize("name", sorted(round_eight.DOS_SHAPES))
def test_the_heaviest_drawings_within_the_limits_are_drawn_in_bounded_time(page, name):
    diagram = parse_text(round_eight.DOS_SHAPES[name])
    assert diagram.valid, diagram.errors[:1]
    drawing = render_diagram(diagram, readable=True, acc_title=name)
    assert mermaid_length(drawing) <= MERMAID_MAX_TEXT  # the site draws it
    started = time.monotonic()
    drawn = page.evaluate(_RENDER, [drawing, f"dos-{name}"])
    assert not drawn["error"], name
    assert time.monotonic() - started < 60, drawn  # some 5 s measured; minutes would be a hole
