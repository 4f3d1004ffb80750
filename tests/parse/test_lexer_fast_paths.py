"""The lexer's whole-line fast paths give exactly the tokens of the rule-by-rule lexer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from parse_oracle import corpus_files

from drawcheck.parse.lexer import ARROWS, Token, tokenize
from drawcheck.parse.preprocess import prepare


def expand(tokens):
    """Split MSG tokens (one per fast message line) into the tokens the slow path makes."""
    out = []
    for t in tokens:
        if t.type != "MSG":
            out.append((t.type, t.text, t.line))
            continue
        source, arrow, mod, target, txt = t.text
        out += [("ACTOR", source, t.line), ("ARROW", arrow, t.line)]
        if mod:
            out.append((mod, mod, t.line))
        out += [("ACTOR", target, t.line), ("TXT", txt, t.line)]
    return out


def same_tokens(text):
    fast, _ = tokenize(text)
    slow, _ = tokenize(text, fast_paths=False)
    assert expand(fast) == expand(slow), text
    return fast


def test_fast_paths_on_the_corpus():
    used = 0
    for path in corpus_files():
        text = prepare(path.read_text(encoding="utf-8", errors="replace")).text
        fast = same_tokens(text)
        used += sum(1 for t in fast if t.type == "MSG")
    assert used > 100  # the fast path is really exercised


_words = st.sampled_from(["A", "Bob", "end", "End", "loop", "loops", "as", "AS", "x", "xs", "X1", "link", "links",
                          "note", "over", "title", "par", "par_over", "left", "of", "participant", "actor",
                          "activate", "1", "9x", "_u"])
_name = st.lists(_words, min_size=1, max_size=3).map(" ".join)
_space = st.sampled_from(["", " ", "  ", "\t"])
_text = st.sampled_from([": hi", ":", ": a #b", ": a;b", ":wrap: x", ": é ✓", " : spaced  "])


@st.composite
def lines(draw):
    kind = draw(st.integers(0, 5))
    s1, s2, s3 = draw(_space), draw(_space), draw(_space)
    if kind == 0:
        return "%s%s%s%s%s%s%s%s" % (s1, draw(_name), s2, draw(st.sampled_from(ARROWS)),
                                     draw(st.sampled_from(["", "+", "-"])), s3, draw(_name), draw(_text))
    if kind == 1:
        kw = draw(st.sampled_from(["participant", "actor", "Participant"]))
        alias = draw(st.sampled_from(["", " as Label", " as", " AS x y", " as  ", " as #c"]))
        return "%s%s %s%s%s" % (s1, kw, draw(_name), alias, s2)
    if kind == 2:
        return "%s%s%s%s" % (s1, draw(st.sampled_from(["loop", "alt", "else", "par", "par_over", "and", "opt",
                                                        "critical", "option", "break", "rect", "end", "End"])),
                             draw(st.sampled_from(["", " x", "  label y ", " #c", ";"])), s2)
    if kind == 3:
        return "%s%s %s%s" % (s1, draw(st.sampled_from(["activate", "deactivate"])), draw(_name), s2)
    if kind == 4:
        place = draw(st.sampled_from(["left of", "right of", "over", "Over", "left  of"]))
        second = draw(st.sampled_from(["", ",B", " , C d"]))
        return "%sNote %s %s%s%s" % (s1, place, draw(_name), second, draw(_text))
    return draw(st.sampled_from(["", "%% c", "autonumber", "title t", "A", "::"]))


@settings(max_examples=int(__import__("os").environ.get("FAST_PATH_EXAMPLES", "400")), deadline=None)
@given(st.lists(lines(), min_size=1, max_size=8))
def test_fast_paths_match_slow_lexer(body):
    same_tokens("sequenceDiagram\n" + "\n".join(body) + "\n")
