"""Denial of service, parse side: every regex and scan on learner text meets its worst case at the intake
limit (256 K characters); YAML bombs, deep nesting and oversized files are refused with a clear error.

The time bound is for catastrophic blow-ups only: each case is linear work of a few milliseconds, and the
quadratic versions they replace took minutes (the `_TAG` case: 186 s)."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawcheck.parse import MAX_CHARS, parse_bytes, parse_text
from drawcheck.parse.grammar import MAX_DEPTH
from drawcheck.parse.preprocess import MAX_YAML_DEPTH, quote_attributes

N = 250_000  # characters of each worst case: just under the intake limit
CATASTROPHIC = 10.0  # seconds; linear work takes milliseconds here, quadratic takes minutes
H = "sequenceDiagram\n"

WORST_CASES = {
    # preprocessing
    "tag with no `>` after a long name (the _TAG regex)": 'a="b"\n' + H + "A->>B: <" + "a" * N,
    "many tag starts, no `>`": 'a="b"\n' + H + "A->>B: " + "<a" * (N // 2),
    "attribute quote never closed": H + 'A->>B: <b x="' + 'y="' * (N // 3) + ">",
    "directive: spaces after %%{": H + "%%{" + " " * N + "!",
    "directive: long word, no colon": H + "%%{" + "a" * N,
    "directive: init then spaces": "%%{init:" + " " * N,
    "entity code never closed": H + "A->>B: #" + "a" * N,
    "many entity starts": H + "A->>B: " + "#a" * (N // 2),
    "style line with colons before a #": H + "style" + ":a" * (N // 2) + "#;",
    "classDef line": H + "classDef" + ": #" * (N // 3) + ";",
    "leading whitespace": " " * N + "error",
    "many C4 near misses": H + "A->>B: " + "C4" * (N // 2),
    "many %% not at line start": H + "A" + " %%x" * (N // 4),
    "whitespace then %%, repeated": H + ("\u00a0" * 50 + "%%x\n") * (N // 60),
    "front matter: many --- candidates": "---\n" + "\n---x" * (N // 5),
    # the lexer
    "participant then words and spaces (ID state)": H + "participant " + "a " * (N // 2),
    "participant then spaces, no end": H + "participant a" + " " * N + "x",
    "digits with no space after": H + "1" * N,
    "dots": H + "." * N,
    "link then spaces": H + "link" + " " * N + ":",
    "config end then spaces": H + "participant A@{ }" + " " * N + "x",
    "wrap words in text": H + "A->>B:" + "wrap" * (N // 4),
    "accTitle then spaces": H + "accTitle" + " " * N + "x",
    "long name": H + "A" * N + "->>B: x",
    "long dashes between names": H + "A" + "-" * N + "B: x",
    # the parser's own searches
    "fake arrow of = without >": H + "A" + "=" * N + "B: x",
    "fake arrow of ~ without >": H + "A" + "~" * N + "B: x",
    "fake arrow of dots without >": H + "A" + "." * N + "B: x",
    "fake arrow of em dashes without >": H + "A" + "\u2014" * N + "B: x",
    "arrow characters to guess from": H + "A " + "=-<" * (N // 3) + " B: x",
    "box colour never closed": H + "box rgb(" + "x" * N + "\nend",
    "box colour with spaces": H + "box rgb" + " " * N + "\nend",
    "HTML-escaped line": H + "A-" + "&amp;" * (N // 5) + "gt;B: x",
    "hidden line breaks": H + "A->>B: x" + "\u2028;" * (N // 2),
    "keyword-named participant": H + "end" + "-a" * (N // 2) + "->>B: x",
    # YAML
    "front matter nested flow": "---\nx: " + "[" * N + "\n---\n" + H,
    "metadata nested flow": H + 'participant A@{ "a": ' + "[" * N + " }",
    "metadata long": H + 'participant A@{ "a": "' + "x" * N + '" }',
    "front matter long": "---\n" + "k: v\n" * (1900) + "x: " + "y" * (N - 20_000) + "\n---\n" + H,
}


@pytest.mark.parametrize("case", list(WORST_CASES), ids=list(WORST_CASES))
def test_worst_case_is_linear(case):
    text = WORST_CASES[case]
    assert len(text) <= MAX_CHARS
    started = time.process_time()
    d = parse_text(text)
    assert time.process_time() - started < CATASTROPHIC, case
    assert d.errors or d.statements is not None  # read to the end, no exception


def test_quote_attributes_is_mermaids_regex():
    """Same result as /<(\\w+)([^>]*)>/g with `="x"` -> `='x'` inside, on many small mixed texts."""
    import random
    import re

    tag, attr = re.compile(r"<(\w+)([^>]*)>", re.ASCII), re.compile(r'="([^"]*)"')
    rng = random.Random(5)
    for _ in range(3000):
        t = "".join(rng.choice(["<", ">", "a", "b", '="', '"', " ", "<b", "\n", "_"]) for _ in range(rng.randint(0, 24)))
        assert quote_attributes(t) == tag.sub(lambda m: "<" + m.group(1) + attr.sub(r"='\1'", m.group(2)) + ">", t)


BOMB = ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    "%s: &%s [%s]\n" % (b, b, ", ".join(["*" + a] * 9)) for a, b in zip("abcdefgh", "bcdefghi")))


def test_yaml_alias_bomb_in_front_matter_is_refused_before_it_is_built():
    started = time.process_time()
    d = parse_text("---\n" + BOMB + "---\n" + H + "A->>B: x\n")
    assert time.process_time() - started < CATASTROPHIC
    (err,) = d.errors
    assert err.line == 2 and "anchors and aliases" in err.message and "refused" in err.message


@pytest.mark.parametrize("yaml_text, line, words", [
    ('"a": &x 1, "b": *x', 2, "anchors and aliases"),
    ('"type": "database", "x": *y', 2, "anchors and aliases"),
    ('"a": ' + "[" * (MAX_YAML_DEPTH + 1) + "]" * (MAX_YAML_DEPTH + 1), 2, "nested more than"),
    ('"a": "' + "x" * 20_000 + '"', 2, "more than the 10000"),
])
def test_yaml_refusals_in_metadata_name_the_line(yaml_text, line, words):
    d = parse_text(H + "A->>B: x\nparticipant C@{ " + yaml_text + " }\n")
    errs = [e for e in d.errors if "maxTextSize" not in e.message]
    (err,) = errs
    assert err.line == line + 1 and words in err.message and "`C`" in err.message


def test_merge_key_in_front_matter_is_refused_but_a_quoted_one_is_a_key():
    (err,) = parse_text("---\nx: 1\n<<: {y: 2}\n---\n" + H + "A->>B: x\n").errors
    assert err.line == 3 and "merge key" in err.message
    assert parse_text('---\nx: 1\n"<<": {y: 2}\n---\n' + H + "A->>B: x\n").valid


def test_600_nested_loops_stop_at_the_limit_with_the_line():
    text = H + "loop x\n" * 600 + "A->>B: y\n" + "end\n" * 600
    d = parse_text(text)
    (err,) = d.errors
    assert err.line == 2 + MAX_DEPTH and "at most %d" % MAX_DEPTH in err.message
    depth, s = 0, d.statements
    while s:
        depth += 1
        s = s[0].branches[0].statements
    assert depth == MAX_DEPTH  # the part that did parse, nested as written


def test_limits_are_reported_on_line_1():
    (err,) = parse_bytes(b"sequenceDiagram\n" + b"A->>B: x\n" * 40_000).errors
    assert err.line == 1 and "bytes" in err.message
    (err,) = parse_text(H + "\n" * 2500).errors
    assert err.line == 1 and "2000" in err.message


_messy = st.lists(st.sampled_from([
    H, "\n", "loop x\n", "end\n", "alt a\n", "else\n", "rect rgb(1,2,3)\n", "box Blue\n", "participant A\n",
    "A->>B: x\n", "Note over A: n\n", "---\n", "a: &x 1\n", "b: *x\n", "%%{init: {}}%%\n", "<b x=\"y\">", "&amp;",
    "\u2028", "#35;", ";", "@{ \"a\": [", "]}", "\r", "\ufeff", "activate A\n", "deactivate A\n", "A->>+B: y\n",
]), max_size=60)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=400), _messy.map("".join)))
def test_no_exception_escapes_and_errors_have_positions(text):
    d = parse_text(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    for e in d.errors:
        assert 1 <= e.line <= lines and e.column >= 1 and e.message
