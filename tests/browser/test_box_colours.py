"""Mermaid itself (the pinned mermaid.min.js in Chromium, whose CSS.supports decides what is a colour) reads
a learner's `box` line and our redrawn one alike: the same title, the same colour, or transparent where the
colour could pass for a mark's (render/colours.py)."""

from __future__ import annotations

import re

import pytest

from browserkit import LOCAL_MERMAID, ROOT
from drawcheck.parse import parse_text
from drawcheck.render.mermaid import render_diagram

NEAR_MARKS = {"MistyRose", "rgba(220, 50, 47, 0.18)", "LightGoldenRodYellow", "currentColor"}
LINES = ["box Aqua Control plane", "box Control plane", "box aqua", "box AQUA Nodes", "box transparent", "box",
         "box transparent Scheduler side", "box rgb(230,240,255) Control plane", "box rgba(0, 128, 255, 0.2) Nodes",
         "box hsl(200, 50%, 80%) Kubelet side", "box hsla(270, 50%, 60%, 0.5) Binding", "box Red Team",
         "box MistyRose Looks like a mark", "box rgba(220, 50, 47, 0.18) Looks like a mark",
         "box LightGoldenRodYellow x", "box currentColor Ink", "box 123 Nodes", "box _x Nodes", "box Navy:wrap",
         "box Aqua   Two  spaces  ", "box Plane Aqua"]
# Colours a browser accepts that have no value of their own or are the browser's UI colours: Mermaid reads
# them as colours (so the title is split off), and we redraw them transparent.
# The space-separated rgb()/hsl() syntax is split off as Mermaid does but not read for its value: transparent too.
NO_COLOUR_OF_THEIR_OWN = {"inherit", "Canvas", "unset", "hsl(200 50% 80%)"}
LINES += ["box inherit Nodes", "box Canvas Nodes", "box unset Nodes", "box rgb(1,2,3) Team (A)", "box rgb (1,2,3) x",
          "box hsl(200 50% 80%) Space syntax"]

READ_BOXES = """async (texts) => {
  mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
  const out = [];
  for (const text of texts) {
    await mermaid.parse(text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    // Mermaid's stand-ins for entity codes, back to `#58;` (decoded to characters when it draws)
    const decode = (t) => t.replace(/\uFB02\u00B0\u00B0/g, "#").replace(/\uFB02\u00B0/g, "#").replace(/\u00B6\u00DF/g, ";");
    out.push(diagram.db.getBoxes().map(b => [decode(b.name ?? ""), b.fill]));
  }
  return out;
}"""


def _diagram(line: str) -> str:
    return f"sequenceDiagram\n    {line}\n    participant S as Scheduler\n    end\n    S->>S: PreFilter\n"


def _mermaid_reads(browser, texts: list[str]) -> list[list[list[str]]]:
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(path=str(ROOT / LOCAL_MERMAID))
        return page.evaluate(READ_BOXES, texts)
    finally:
        page.close()


def _check(browser, lines: list[str]) -> None:
    learner = [_diagram(line) for line in lines]
    ours = [render_diagram(parse_text(text)) for text in learner]
    read = _mermaid_reads(browser, learner + ours)
    for line, (drawn,), (redrawn,) in zip(lines, read[: len(lines)], read[len(lines):]):
        title, colour = drawn
        shown = re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), redrawn[0])  # as Mermaid draws the codes
        assert shown == " ".join(title.split()), line  # the title Mermaid reads, spaces aside
        expected = "transparent" if colour in NEAR_MARKS | NO_COLOUR_OF_THEIR_OWN else colour
        assert redrawn[1] == expected, (line, drawn, redrawn)


def test_mermaid_reads_our_box_as_it_reads_the_learners(browser):
    _check(browser, LINES)
