"""The lexer's rules written shorter than Mermaid's still split text exactly where Mermaid's do."""

from __future__ import annotations

import itertools
import re

from drawcheck.parse import parse_text
from drawcheck.parse.jsregex import FLAGS
from drawcheck.parse.lexer import _ARROW_PREFIXES, ARROWS, tokenize

# The lookahead of Mermaid 12.3.0's ACTOR rule, as its sequence grammar lists it: a name stops before these.
MERMAID_ARROW_PREFIXES = ("-x", "--x", "-)", "--)", "-|\\", "-\\", "-/", "-//", "-|/", "/|-", "\\|-", "//-", "\\\\-",
                          "/|-", "--|\\", "--", "()")


def test_the_short_arrow_lookahead_refuses_exactly_mermaids_prefixes():
    theirs = re.compile("|".join(re.escape(p) for p in MERMAID_ARROW_PREFIXES), FLAGS | re.IGNORECASE)
    ours = re.compile(_ARROW_PREFIXES, FLAGS | re.IGNORECASE)
    differ = []
    for n in range(6):  # every text of up to 5 characters over the characters that matter (and two that do not)
        for chars in itertools.product("-xX)|\\/(<>a ", repeat=n):
            text = "".join(chars)
            if bool(theirs.match(text)) != bool(ours.match(text)):
                differ.append(text)
    assert differ == []


def test_each_arrow_is_read_whole_in_mermaids_order():
    for arrow in ARROWS:
        tokens, _ = tokenize("A%sB: t\n" % arrow)
        assert [(t.type, t.text) for t in tokens[:3]] == [("ACTOR", "A"), ("ARROW", arrow), ("ACTOR", "B")], arrow


def test_a_newline_takes_the_blank_lines_and_indentation_after_it():
    tokens, _ = tokenize("sequenceDiagram\n\n  \t\n    A->>B: t\n")
    # (the end of the text is a NEWLINE too, as in Mermaid's lexer, then our EOF)
    assert [t.type for t in tokens] == ["SD", "NEWLINE", "ACTOR", "ARROW", "ACTOR", "TXT", "NEWLINE", "NEWLINE", "EOF"]
    actor = tokens[2]
    assert (actor.line, actor.col) == (3, 4)


def test_positions_after_blank_indented_lines_are_the_learners():
    d = parse_text("sequenceDiagram\n\n   \n      A->>B: t\n\n\t  \n   A=>B: u\n")
    assert [(e.line, e.column) for e in d.errors] == [(7, 4)]
    assert [(m.source, m.target, m.line) for m in d.statements] == [("A", "B", 4)]
