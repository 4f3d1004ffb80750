"""Round three in a real `mkdocs build` under GitHub Actions: the look-alike marks and the mark-coloured rects
reach no page as written, and the log, replayed through the runner's parser, holds only drawcheck's own
annotations."""

from __future__ import annotations

import html
import re
import sys

import pytest

import round_three
from runner_commands import replay

sys.path.insert(0, str(round_three.ROOT / "tests" / "browser"))
from browserkit import github_build  # noqa: E402

from drawcheck import safety  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return github_build(tmp_path_factory.mktemp("round-three"), round_three.answers())


def _drawings(site, handle: str) -> list[str]:
    page = (site / "feedback" / handle / "index.html").read_text(encoding="utf-8")
    return [html.unescape(d) for d in re.findall(r'<pre class="mermaid"><code>(.*?)</code></pre>', page, re.S)]


def test_the_log_issues_only_drawchecks_own_annotations(built):
    log, _ = built
    obeyed = replay(log)
    assert obeyed and all(c.line.startswith(f"::{c.name} ") and c.properties.get("title", "").startswith("drawcheck")
                          for c in obeyed)


def test_no_look_alike_mark_reaches_the_page(built):
    _, site = built
    page = html.unescape((site / "feedback" / "lookalike-mark" / "index.html").read_text(encoding="utf-8"))
    drawn = "\n".join(re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), d) for d in _drawings(site, "lookalike-mark"))
    assert "PreFilter is wrong" in drawn
    assert not round_three.LOOKALIKE_GLYPHS.search(drawn) and not round_three.LOOKALIKE_GLYPHS.search(page)


@pytest.mark.parametrize("index", range(len(round_three.COLOUR_ATTACKS)))
def test_no_rect_is_drawn_in_a_mark_colour(built, index):
    _, site = built
    (drawing, *_rest) = _drawings(site, f"colour-{index}")
    box = re.search(r"^    box (rgba?\([^)]*\))", drawing, re.M)
    stack: list[str] = [box.group(1)] if box else []
    for indent, fill in re.findall(r"^( *)rect (\S.*)$", drawing, re.M):
        depth = len(indent) // 4
        stack = stack[: depth - 1 + bool(box)] + [fill]
        if fill in round_three.MARK_FILLS or fill == "rgba(128, 128, 128, 0.10)":
            continue  # the site's own marks, and its neutral fill for a refused colour
        for page in round_three.PAGES:
            assert round_three.nearest_mark(stack, page) >= safety.MARK_COLOUR_DISTANCE, (page, stack)
    assert drawing.count("rect ") >= len(round_three.COLOUR_ATTACKS[index][1])  # every rect is drawn
