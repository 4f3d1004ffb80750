"""Round five, units: the comment's drawing without tints under marks (`report.markdown.untinted_marks`; in
Chromium: tests/browser/test_round_five_site.py), the artifact's zip read safely whatever it holds, and the
limits of depth and size (`round_five.SIZES`)."""

from __future__ import annotations

import round_five

from drawcheck.grade.cli import default_reference
from drawcheck.reference import load_reference
from drawcheck.render.mermaid import MARK_FILLS, WRONG_FILL
from drawcheck.report.markdown import CLEAR_FILL, untinted_marks

FLAGSHIP = load_reference(default_reference())


def test_every_rect_around_a_mark_and_every_box_is_drawn_clear():
    drawing = ("sequenceDiagram\n    box rgb(0, 110, 130) Control plane\n        participant P1 as A\n    end\n"
               "    box navy\n        participant P2 as B\n    end\n"
               "    rect rgba(0, 90, 255, 0.35)\n        loop again\n            rect rgb(20, 30, 120)\n"
               f"                rect {WRONG_FILL}\n                    P1->>P2: x\n"
               "                    Note over P1,P2: ① #10007; wrong cycle\n                end\n"
               "            end\n        end\n    end\n    rect rgb(1, 2, 3)\n        P2->>P1: y\n    end\n")
    lines = untinted_marks(drawing).split("\n")
    assert lines[1] == "    box transparent Control plane" and lines[4] == "    box transparent"
    assert lines[7] == f"    rect {CLEAR_FILL}" and lines[9] == f"            rect {CLEAR_FILL}"
    assert lines[10] == f"                rect {WRONG_FILL}"  # the mark itself as it was
    assert lines[17] == "    rect rgb(1, 2, 3)"  # holds no mark: the learner's colour
    assert len(lines) == len(drawing.split("\n"))


def test_a_drawing_without_marks_keeps_its_colours():
    drawing = "sequenceDiagram\n    box navy X\n        participant P1 as A\n    end\n    rect rgb(1, 2, 3)\n" \
              "        P1->>P1: x\n    end\n"
    assert untinted_marks(drawing) == drawing


def test_the_comment_draws_no_tint_beneath_any_mark():
    """For every tinted answer: in the comment's drawing, each mark sits in no rect but a clear one, and no box
    has a colour."""
    answers = {f"{handle}.mmd": text for handle, text in round_five.TINTED.items()}
    marks = {f"rect {fill}" for fill in MARK_FILLS}
    for drawing in round_five.mermaid_blocks(round_five.comment_markdown(answers, FLAGSHIP)):
        opened: list[str] = []
        seen = 0
        for line in drawing.split("\n"):
            statement = line.strip()
            if statement in marks:
                seen += 1
                assert all(s in (f"rect {CLEAR_FILL}", "box transparent") or not s.startswith(("rect", "box"))
                           for s in opened), (opened, drawing)
            if statement == "end":
                opened.pop()
            elif statement.split(" ", 1)[0] in ("box", "rect", "loop", "alt", "opt", "par", "critical", "break"):
                opened.append(statement)
            if statement.startswith("box "):
                assert statement.startswith("box transparent")
        assert seen >= 3
