"""find_unsafe: what it refuses (with line and a beginner-readable reason) and what it leaves alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from drawcheck.parse.model import Diagram, Directive
from drawcheck.safety import UnsafeItem, find_unsafe

ROOT = Path(__file__).resolve().parents[2]

CLEAN = """\
---
title: My two cycles
---
sequenceDiagram
    %% my attempt, round 2
    autonumber
    participant S as Scheduler thread
    participant C as Cache
    participant B as Binding goroutine
    rect rgb(227, 238, 252)
        S->>C: UpdateSnapshot
        S->>S: Filter (per node) <br/> then Score
        S->>C: assume: Cache.AssumePod()
        Note over S,C: data: the pod is assumed, 50% faster; x < y and y > z
        S-)B: go runBindingCycle
    end
    B-->>S: done
    S<<->>B: two-way
    link S: Source @ https://github.com/kubernetes/kubernetes
    links C: {"Docs": "https://kubernetes.io/docs/"}
    Note right of B: one thread: single :: separator, e.g. pkg::sched
"""


def test_a_normal_diagram_is_not_refused():
    assert find_unsafe(None, CLEAN) == []


def test_the_reference_diagram_is_not_refused():
    path = ROOT / "reference" / "two-cycles" / "reference.mmd"
    if not path.exists():
        pytest.fail("reference/two-cycles/reference.mmd is missing")
    assert find_unsafe(None, path.read_text(encoding="utf-8")) == []


def test_every_answer_example_in_the_repository_is_not_refused():
    for path in sorted((ROOT / "answers").glob("*.mmd")):
        if "unsafe" in path.name or "hostile" in path.name:
            continue
        assert find_unsafe(None, path.read_text(encoding="utf-8")) == [], path.name


@pytest.mark.parametrize(
    "line, says",
    [
        ("A->>B: <b>bold</b>", "HTML tags"),
        ("A->>B: <ScRiPt>x</script>", "<script>"),
        ("A->>B: x <br onload=1> y", "event handler"),
        ("A->>B: tab\tinside onerror\t=1", "event handler"),
        ("link A: x @ JaVaScRiPt:alert(1)", "javascript:"),
        ("link A: x @ javascript&colon;alert(1)", "javascript:"),
        ("link A: x @ &#0000106;avascript:alert(1)", "javascript:"),
        ("link A: x @ #106;avascript#58;alert(1)", "javascript:"),
        ("links A: {\"a\": \"DATA:text/html;base64,PHNjcmlwdD4=\"}", "data:"),
        ("A->>B: %%{wrap}%%", "%%{"),
        ("A->>B: cost $$O(n)$$", "$$"),
        ("A->>B: {{ x }}", "{{"),
        ("A->>B: {% if %}", "{{"),
        ("A->>B: ::warning file=x::y", "::error::"),
        ("    --8<-- 'x'", "--8<--"),
        ("A->>B: a\x07b", "control character"),
        ("A->>B: \u2066isolated\u2069", "reverses"),
        ("```", "```"),
        ("~~~", "```"),
        ("??? note", "```"),
        ("<!-- x", "<!--"),
    ],
)
def test_each_kind_of_unsafe_text_is_named_on_its_line(line, says):
    text = f"sequenceDiagram\n    participant A\n{line}\n    A->>A: after\n"
    items = find_unsafe(None, text)
    assert items, line
    assert {i.line for i in items} == {3}
    assert any(says in i.what for i in items), items


def test_items_are_sorted_deduplicated_and_readable():
    text = "sequenceDiagram\nA->>B: <b>x</b> <i>y</i>\nA->>B: ok\nA->>B: $$x$$ <u>z</u>\n"
    items = find_unsafe(None, text)
    assert items == sorted(items, key=lambda i: (i.line, i.what))
    assert len(items) == len({(i.line, i.what) for i in items}) == 3
    assert [i.line for i in items] == [2, 4, 4]
    for item in items:
        assert isinstance(item, UnsafeItem)
        assert 20 < len(item.what) < 200
        assert ";" in item.what, "each reason says what is wrong, then what to do"


def test_directives_the_parser_found_are_reported_even_off_the_scanned_text():
    diagram = Diagram(directives=[Directive(text="%%{init: {}}%%", line=7)])
    items = find_unsafe(diagram, "sequenceDiagram\n")
    assert [(i.line, "%%{" in i.what) for i in items] == [(7, True)]


def test_front_matter_title_only_is_fine_but_other_keys_are_refused():
    ok = "---\ntitle: Mine\n---\nsequenceDiagram\nA->>B: x\n"
    assert find_unsafe(None, ok) == []
    bad = "\n\n---\ntitle: Mine\ndisplayMode: compact\nconfig:\n  theme: dark\n---\nsequenceDiagram\n"
    assert [i.line for i in find_unsafe(None, bad)] == [5]
    quoted = '---\n"config": {"securityLevel": "loose"}\n---\nsequenceDiagram\n'
    assert [i.line for i in find_unsafe(None, quoted)] == [2]


def test_line_numbers_count_every_kind_of_line_break():
    text = "sequenceDiagram\r\nA->>B: ok\rA->>B: <b>x</b>\nA->>B: ok"
    assert [i.line for i in find_unsafe(None, text)] == [3]


def test_huge_input_is_handled():
    text = "sequenceDiagram\n" + ("A->>B: " + "x" * 1000 + "\n") * 200 + "A->>B: <i>x</i>\n"
    assert [i.line for i in find_unsafe(None, text)] == [202]


def test_lines_are_numbered_like_the_parser_numbers_them():
    from drawcheck.parse import parse_text

    text = "sequenceDiagram\r\n  A->>B: x\u2028y\x0bz\n  A->>B: ok\r  A->>B: <b>x</b>\n"
    diagram = parse_text(text)
    html_line = [s.line for s in diagram.statements][-1]
    assert [i.line for i in find_unsafe(diagram, text) if "HTML" in i.what] == [html_line] == [4]


def test_zero_length_labels():
    from drawcheck.safety import mermaid_text

    assert mermaid_text("abc", max_chars=0) == ""
    assert mermaid_text("abc", max_chars=1) == "#8230;"


COMMENTED = "sequenceDiagram\n    participant S as Scheduler\n{comment}\n    S->>S: Filter\n"


@pytest.mark.parametrize("comment", [
    "    %% columns: point <TAB> cycle <TAB> note",
    "%% pasted from Jira: {{UpdateSnapshot}} and {%raw%}",
    "\t%% cost: $$O(n)$$ per node",
    "    %%<b>draft</b>",
])
def test_a_comment_may_hold_text_that_is_harmful_only_when_drawn(comment):
    text = COMMENTED.format(comment=comment)
    assert find_unsafe(None, text) == []
    # the same words drawn are refused: a comment is dropped before Mermaid reads the drawing, a message is not
    assert [item.line for item in find_unsafe(None, text.replace("%%", "S->>S:", 1))] == [3]


@pytest.mark.parametrize(("comment", "says"), [
    ("    %% <script>window.__pwned=1</script>", "<script>"),
    ("    %% <img src=x onerror=alert(1)>", "onerror="),
    ("    %% see javascript:alert(1)", "javascript:"),
    ("    %% ::error::pwned", "::error::"),
    ("    %% {init: {'securityLevel': 'loose'}}", "%%{...}%%"),
    ("    %%{init: {'theme': 'dark'}}%%", "%%{...}%%"),
])
def test_a_comment_is_still_refused_what_could_act_in_it(comment, says):
    items = find_unsafe(None, COMMENTED.format(comment=comment))
    assert [item.line for item in items] and {item.line for item in items} == {3}
    assert any(says in item.what for item in items), items


def test_a_front_matter_line_that_looks_like_a_comment_is_no_comment():
    text = "---\ntitle: t\n%% <b>x</b>\n---\nsequenceDiagram\n    S->>S: Filter\n"
    items = find_unsafe(None, text)
    assert {item.line for item in items} == {3}
    assert any("HTML tags" in item.what for item in items), items  # front matter is YAML, where `%%` is no comment
