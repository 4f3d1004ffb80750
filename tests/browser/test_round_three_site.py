"""Round three in Chromium: on the real site, in the light and the dark scheme, no learner rect or box is
drawn in a colour that passes for one of the site's marks (as the browser composites the translucent fills
over each other and over the page), and no look-alike mark glyph is drawn."""

from __future__ import annotations

import sys

import pytest

from browserkit import (COLOUR_SCHEMES, PAGE_BEHIND, ROOT, build, css_rgba, drawings_on, make_project, painted_over,
                        require_chromium, scheme_page, serve)

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
import round_three  # noqa: E402

from drawcheck.safety import MARK_COLOUR_DISTANCE  # noqa: E402

# Every `rect.rect` of each drawing (boxes and rect blocks, in the order Mermaid paints them), with its
# computed fill and its box; and the colour of the page behind the drawing.
READ_FILLS = """() => [...document.querySelectorAll("div.mermaid")].map(host => {
  """ + PAGE_BEHIND + """  const rects = [...svg.querySelectorAll("rect.rect")].map(r => {
    const b = r.getBBox();
    return {fill: getComputedStyle(r).fill, opacity: getComputedStyle(r).fillOpacity, box: [b.x, b.y, b.width, b.height]};
  });
  return {bg: bg, scheme: document.body.getAttribute("data-md-color-scheme"), rects: rects, text: svg.textContent};
})"""


def _inside(inner, outer) -> bool:
    cx, cy = inner[0] + inner[2] / 2, inner[1] + inner[3] / 2
    return outer[0] <= cx <= outer[0] + outer[2] and outer[1] <= cy <= outer[1] + outer[3]


def _too_close(drawing: dict) -> list[str]:
    """Learner fills (neither a mark's nor the site's neutral) drawn within MARK_COLOUR_DISTANCE of a mark."""
    page = css_rgba(drawing["bg"])[0]
    own = set(round_three.MARK_FILLS) | {"rgba(128, 128, 128, 0.1)", "rgba(0, 0, 0, 0)"}
    marks = [painted_over(m, 1, page) for m in round_three.MARK_FILLS]
    close = []
    for i, rect in enumerate(drawing["rects"]):
        if rect["fill"] in own:
            continue
        shown = page
        for under in drawing["rects"][: i + 1]:  # everything painted at this rect's centre, itself last
            if under is rect or _inside(rect["box"], under["box"]):
                shown = painted_over(under["fill"], float(under["opacity"]), shown)
        distance = min(sum((a - b) ** 2 for a, b in zip(shown, m)) ** 0.5 for m in marks)
        if distance < MARK_COLOUR_DISTANCE:
            close.append(f"{rect['fill']} drawn as {tuple(round(v) for v in shown)}, {distance:.1f} from a mark")
    return close


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_chromium()
    project = make_project(tmp_path_factory.mktemp("round-three"), answers=round_three.answers())
    built = build(project, strict=False)
    with serve(built.site) as url:
        yield url


@pytest.mark.parametrize("scheme", sorted(COLOUR_SCHEMES))
def test_no_learner_colour_is_drawn_as_a_mark_colour(browser, site, scheme):
    checked = 0
    with scheme_page(browser, scheme) as page:
        for i in range(len(round_three.COLOUR_ATTACKS)):
            drawings = drawings_on(page, f"{site}feedback/colour-{i}/", READ_FILLS, scheme=scheme)
            for drawing in drawings:
                assert any(r["fill"] in round_three.MARK_FILLS for r in drawing["rects"]) or len(drawings) > 1
                assert _too_close(drawing) == [], (i, scheme)
                checked += len(drawing["rects"])
    assert checked > len(round_three.COLOUR_ATTACKS)


def test_no_look_alike_mark_glyph_is_drawn(browser, site):
    with scheme_page(browser) as page:
        drawings = drawings_on(page, f"{site}feedback/lookalike-mark/", READ_FILLS)
        assert any("PreFilter is wrong" in d["text"] for d in drawings)
        for drawing in drawings:
            assert not round_three.LOOKALIKE_GLYPHS.search(drawing["text"]), drawing["text"][:500]
        body = page.evaluate("() => document.querySelector('article').innerText")
        assert not round_three.LOOKALIKE_GLYPHS.search(body)
