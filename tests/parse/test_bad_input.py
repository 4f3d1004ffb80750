"""Hostile or broken input: always a clear ParseError, never a traceback or a hang."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawcheck.parse import parse_bytes, parse_text
from drawcheck.parse.grammar import MAX_DEPTH, MAX_ERRORS
from drawcheck.parse.lexer import ARROWS


def only_error(d):
    assert not d.valid
    return d.errors[0]


def test_empty_and_blank():
    assert "no diagram" in only_error(parse_text("")).message
    assert "no diagram" in only_error(parse_text(" \n\t\n")).message


def test_non_utf8_bytes_name_the_line():
    err = only_error(parse_bytes(b"sequenceDiagram\nA->>B: ok\nA->>B: caf\xe9\n"))
    assert err.line == 3 and err.column == 11 and "UTF-8" in err.message


def test_flowchart_and_only_front_matter():
    assert "not a sequence diagram" in only_error(parse_text("graph TD\nA-->B\n")).message
    assert "no diagram" in only_error(parse_text("---\ntitle: x\n---\n")).message


def test_over_the_size_or_line_limit_is_refused_on_line_1_naming_the_limit():
    line = "A->>B: " + "x" * 90 + "\n"
    big = parse_text("sequenceDiagram\n" + line * (10_000_000 // len(line)))
    (err,) = big.errors
    assert err.line == 1 and "more than the 262144" in err.message and big.statements == []
    (err,) = parse_text("sequenceDiagram\n" + "A->>B: x\n" * 2000).errors  # 2001 lines
    assert err.line == 1 and "2001 lines, more than the 2000" in err.message
    assert parse_text("sequenceDiagram\n" + "A->>B: x\n" * 1999).valid  # 2000 lines
    (err,) = parse_bytes(b"sequenceDiagram\n" + b"%" * 262_144).errors
    assert err.line == 1 and "262144" in err.message
    assert parse_text("sequenceDiagram\n" + "A->>B: x\n" * 3000, max_lines=5000).valid  # the limits are options


def test_junk_lines_each_get_their_error_up_to_the_limit():
    junk = "sequenceDiagram\n" + ("}%%{<<-->>--x" * 10 + "\n") * 1500
    d = parse_text(junk)
    assert not d.valid and d.errors[0].line == 1 and "maxTextSize" in d.errors[0].message
    listed = d.errors[1:-1]
    assert [e.line for e in listed] == list(range(2, 2 + MAX_ERRORS))  # one error per line, in order
    assert "stopped reading at line %d after %d errors" % (MAX_ERRORS + 1, MAX_ERRORS) in d.errors[-1].message
    assert not parse_text("sequenceDiagram\n" + "a" * 262_000).valid


def test_size_limit_is_mermaids():
    line = "A->>B: " + "x" * 40 + "\n"
    assert parse_text("sequenceDiagram\n" + line * 1000).valid  # 48,016 characters
    assert not parse_text("sequenceDiagram\n" + line * 1100).valid


def test_pathological_whitespace_does_not_hang():
    started = time.perf_counter()
    parse_text("sequenceDiagram\n" + " \n" * 200_000 + "%% c\n")
    parse_text("%%{init:" + " " * 100_000)
    parse_text("sequenceDiagram\nA" + "-" * 100_000 + "B: x\n")
    assert time.perf_counter() - started < 20


_pieces = st.sampled_from(
    ["sequenceDiagram", "\n", "\r\n", " ", "\t", "A", "Bob", "end", "end-user", "loop", "alt", "else", "par", "and",
     "critical", "option", "opt", "break", "rect", "box", "participant", "actor", "as", "Note", "over", "left of",
     "right of", ",", ":", ": text", ";", "#", "%%", "%%{init: {}}%%", "---", "+", "-", "()", "@{", "}",
     "activate", "deactivate", "autonumber", "off", "create", "destroy", "title", "accDescr {", "link", "1 ",
     "#35;", "<", ">", "é", "\ufeff"] + list(ARROWS))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pieces, max_size=40))
def test_never_crashes_and_lines_are_in_range(pieces):
    text = "".join(pieces)
    d = parse_text(text)
    last = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    for e in d.errors:
        assert 1 <= e.line <= last, (e, text)
        assert e.column >= 1 and e.message
    for s, _ in d.walk():
        assert 1 <= s.line <= last
    for p in d.participants:
        assert 1 <= p.line <= last


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_never_crash(data):
    d = parse_bytes(data)
    assert d.valid or d.errors


def test_deep_nesting_is_read_or_refused_cleanly():
    def nested(n):
        return "sequenceDiagram\n" + "loop x\n" * n + "A->>B: y\n" + "end\n" * n

    d = parse_text(nested(MAX_DEPTH))
    assert d.valid and len(list(d.walk())) == MAX_DEPTH + 1  # walk() is not recursive either
    deep = parse_text(nested(600))
    (err,) = deep.errors  # one error, on the line that goes too deep; nothing after it is read
    assert err.line == MAX_DEPTH + 2 and "nested %d blocks deep" % (MAX_DEPTH + 1) in err.message
    assert "at most %d" % MAX_DEPTH in err.message and err.hint
    assert len(list(deep.walk())) == MAX_DEPTH  # the part that did parse is kept
