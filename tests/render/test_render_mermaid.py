"""The learner's drawing re-emitted from the model: safe, valid, with the circles in the right places."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from drawcheck.parse import parse_text
from drawcheck.parse.model import Diagram, Message, Note, Participant
from drawcheck.render.feedback import feedback_setup, number_corrections, overlay
from drawcheck.render.mermaid import BOUNDARY_FILL, MISSING_FILL, WRONG_FILL, Circle, Insertion, render_diagram


def _lines(text):
    return [ln.strip() for ln in text.splitlines()]


def test_plain_drawing_is_valid_mermaid_with_fresh_ids(diagram):
    text = render_diagram(diagram)
    parsed = parse_text(text)
    assert parsed.valid, parsed.errors
    assert [p.id for p in parsed.participants] == ["P1", "P2"]
    assert [p.kind for p in parsed.participants] == ["participant", "actor"]
    messages = [s for s, _ in parsed.walk() if isinstance(s, Message)]
    assert len(messages) == 7
    assert "<" not in text and "%%" not in text and ";" not in re.sub(r"#\d+;", "", text)


def test_directives_front_matter_and_links_are_never_copied():
    source = (
        "---\nconfig:\n  theme: dark\n---\n%%{init: {'securityLevel': 'loose'}}%%\nsequenceDiagram\n"
        "    participant A as Alice\n    link A: Evil @ javascript:alert(1)\n    A->>A: hello\n"
    )
    parsed = parse_text(source)
    text = render_diagram(parsed)
    assert "config" not in text and "init" not in text and "link" not in text and "javascript" not in text
    assert text.startswith("sequenceDiagram\n")
    assert parse_text(text).valid


def test_circle_wraps_the_wrong_message_with_a_numbered_note(diagram):
    text = render_diagram(diagram, circles=[Circle("②", 13, "Permit runs in the scheduling cycle")])
    lines = _lines(text)
    i = lines.index("P1-->>P2: Permit")
    assert lines[i - 1] == f"rect {WRONG_FILL}"
    assert lines[i + 1] == "Note over P1,P2: ② Permit runs in the scheduling cycle"
    assert lines[i + 2] == "end"
    assert parse_text(text).valid


def test_circle_on_a_line_with_no_statement_goes_before_the_next_one(diagram):
    text = render_diagram(diagram, circles=[Circle("①", 10, "here"), Circle("③", 99, "at the end")])
    lines = _lines(text)
    i = lines.index("Note over P1,P2: ① here")
    assert lines[i + 2] == "P1->>P2: Reserve"
    assert lines[-3:] == [f"rect {WRONG_FILL}", "Note over P1,P2: ③ at the end", "end"]
    assert parse_text(text).valid


def test_missing_step_is_a_dashed_message_in_its_own_colour_after_its_predecessor(diagram):
    text = render_diagram(diagram, insertions=[Insertion("③", 11, "missing: NormalizeScore", "missing")])
    lines = _lines(text)
    i = lines.index("P1->>P2: Reserve")
    assert lines[i + 1: i + 4] == [f"rect {MISSING_FILL}", "P2-->>P2: ③ missing#58; NormalizeScore", "end"]
    assert parse_text(text).valid


def test_overlay_puts_the_true_boundary_after_permit_and_missing_steps_in_reference_order(diagram, result, reference):
    numbered = number_corrections(result)
    assert [n.finding.line for n in numbered] == [12, 13, None, None]
    circles, insertions = overlay(result, feedback_setup(reference), numbered)
    text = render_diagram(diagram, circles=circles, insertions=insertions)
    lines = _lines(text)
    permit = lines.index("P1-->>P2: Permit")
    boundary = lines.index(f"rect {BOUNDARY_FILL}")
    assert boundary > permit and lines.index("P1->>P2: Bind") > boundary
    assert lines[boundary + 1].startswith("Note over P1,P2: ① #8596; true boundary")
    missing = lines.index("P2-->>P2: ③ #43; missing#58; NormalizeScore")
    assert lines.index("P1->>P2: Score#59; #37;#37;#123;init#125;#37;#37;") < missing < lines.index("P1->>P2: Reserve")
    assert parse_text(text).valid


def test_insertion_into_an_empty_drawing_adds_a_placeholder_participant():
    text = render_diagram(Diagram(header_line=1), insertions=[Insertion("①", None, "missing: PreFilter", "missing")])
    assert "participant P1 as your drawing" in text
    assert parse_text(text).valid


def test_rect_colour_from_the_learner_is_allow_listed():
    parsed = parse_text("sequenceDiagram\n  participant A\n  rect rgb(10, 20, 30)\n    A->>A: x\n  end\n"
                        "  rect rgba(1,2,3,0.5)\n    A->>A: y\n  end\n")
    text = render_diagram(parsed)
    assert "rect rgb(10, 20, 30)" in text and "rect rgba(1,2,3,0.5)" in text


LABELS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(names=st.lists(LABELS, min_size=1, max_size=3), texts=st.lists(LABELS, min_size=1, max_size=4))
def test_any_label_re_emits_to_valid_mermaid_with_the_same_shape(names, texts):
    d = Diagram(header_line=1)
    d.participants = [Participant(f"id{i}", n, "participant", i + 2) for i, n in enumerate(names)]
    for j, t in enumerate(texts):
        d.statements.append(Message("id0", f"id{j % len(names)}", t, "->>", 10 + j))
        d.statements.append(Note("over", ("id0",), t, 30 + j))
    text = render_diagram(d, circles=[Circle("①", 10, texts[0])])
    parsed = parse_text(text)
    assert parsed.valid, (text, parsed.errors)
    assert len(parsed.participants) == len(names)
    kinds = [type(s).__name__ for s, _ in parsed.walk() if isinstance(s, (Message, Note))]
    assert kinds.count("Message") == len(texts) and kinds.count("Note") == len(texts) + 1
    assert "--8<--" not in text and "%%" not in text
