"""The fast paths (whole-line lexing, statement tokens, plain-text preprocessing) give exactly the result of the
rule-by-rule path: the same tokens, the same Diagram (errors included), the same preprocessed text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from parse_oracle import corpus_files

import pytest
from parse_fuzz import documents

from drawcheck.parse.lexer import ARROWS, tokenize
from drawcheck.parse.parser import parse_source
from drawcheck.parse.preprocess import _is_plain, _prepare_full, _prepare_plain, prepare


def expand(tokens):
    """Split statement tokens (one per fast line) into the tokens the rule-by-rule lexer makes:
    (type, text, line, column); a statement token keeps only its first token's column (the others are None)."""
    out = []
    for t in tokens:
        v, ln = t.text, t.line
        if t.type == "MSG":
            source, arrow, mod, target, txt, _ = v
            out += [("ACTOR", source, ln, t.col), ("ARROW", arrow, ln, None)]
            if mod:
                out.append((mod, mod, ln, None))
            out += [("ACTOR", target, ln, None), ("TXT", txt, ln, None)]
        elif t.type == "PART":
            kind, keyword, pid, as_word, label, _ = v
            out += [(kind, keyword, ln, t.col), ("ACTOR", pid, ln, None)]
            if as_word is not None:
                out += [("AS", as_word, ln, None), ("restOfLine", label, ln, None)]
        elif t.type == "NOTE":
            keyword, place_type, place, first, comma, second, txt = v[:7]
            out += [("note", keyword, ln, t.col), (place_type, place, ln, None), ("ACTOR", first, ln, None)]
            if comma is not None:
                out += [(",", comma, ln, None), ("ACTOR", second, ln, None)]
            out.append(("TXT", txt, ln, None))
        elif t.type == "ACT":
            kind, keyword, actor = v
            out += [(kind, keyword, ln, t.col), ("ACTOR", actor, ln, None)]
        else:
            out.append((t.type, t.text, ln, t.col))
    return out


def same_tokens(text):
    fast, _ = tokenize(text)
    slow, _ = tokenize(text, fast_paths=False)
    expanded = expand(fast)
    assert len(expanded) == len(slow), text
    for f, sl in zip(expanded, slow):
        assert f == (sl.type, sl.text, sl.line, sl.col if f[3] is not None else None), text
    return fast


def same_reading(text):
    """Fast and rule-by-rule paths give equal Diagrams (statements, participants, errors, lines, ...)."""
    assert parse_source(text) == parse_source(text, fast_paths=False), text
    if _is_plain(text):
        assert _prepare_plain(text) == _prepare_full(text), text
    same_tokens(prepare(text).text)


def test_fast_paths_on_the_corpus():
    used = 0
    for path in corpus_files():
        text = prepare(path.read_text(encoding="utf-8", errors="replace")).text
        fast = same_tokens(text)
        used += sum(1 for t in fast if t.type == "MSG")
    assert used > 100  # the fast path is really exercised


def test_fast_and_slow_read_every_corpus_file_alike():
    plain = 0
    for path in corpus_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        same_reading(text)
        plain += _is_plain(text)
    assert plain > 20  # the plain preprocessing path is really exercised


def test_fast_and_slow_read_random_documents_alike():
    texts = documents(seed=424242, count=int(__import__("os").environ.get("FAST_PATH_DOCUMENTS", "1500")))
    for text in texts:
        same_reading(text)
    used = {t.type for text in texts for t in tokenize(prepare(text).text)[0]}
    assert {"MSG", "PART", "NOTE", "ACT"} <= used


@pytest.mark.parametrize("text", [
    "sequenceDiagram\nparticipant A\nas B\n",  # `as` on the next line is read as an alias
    "sequenceDiagram\nactor A\n  AS x\nA->>A: y\n",
    "sequenceDiagram\nactivate A\nas\n",
    "sequenceDiagram\nparticipant A\nassume->>A: x\n",
    "sequenceDiagram\nautonumber  \nparticipant A\n",  # the spaces join the next line to `autonumber`
    "sequenceDiagram\n\n\nautonumber\nAutonumber\nautonumber 5\nautonumbers->>A: x\n",
    "sequenceDiagram\n", "sequenceDiagram\n\n", "sequenceDiagramX\n", "sequenceDiagram \nA->>B: x",
    "sequenceDiagram\nautonumber off  \nA->>B: y\n",
    "sequenceDiagram\nend  \nNote over A: x\n",
    "sequenceDiagram\n    box Blue\n    participant A\n    A->>B: x\n    Note over A: n\n    end\n",
    "sequenceDiagram\nNote left of A, C: hi\nNote over A , B: ok\n",  # only `over` takes two names
    "sequenceDiagram\nloop A->>B: x\nend\nelse A->>B: y\n",
    "sequenceDiagram\nA->>end: x\nnote over end: y\nA->>B:wrap: z\nA->>B: nowrap:w\nA->>B: #35; x\n",
    "sequenceDiagram\ncreate participant B\nA->>B: hi\ndestroy B\nB->>A: bye\n",
    "sequenceDiagram\nA->>+B: a\nB-->>-A: b\nB-->>-A: c\ndeactivate A\nactivate B\n",
    "sequenceDiagram\n\n\nA->>B: x\n\n\nparticipant C as Sea #35;\n",
    # JavaScript's whitespace differs from Python's: U+FEFF is trimmed, U+0085 and U+001F are not
    "sequenceDiagram\nA->>B: x\ufeff\nA->>B:\u0085y\u001f\nNote over A:\u00a0n\u2028\nparticipant C as \u3000c\ufeff\n"
    "loop \u3000x\nend\nalt\u00a0y\nelse\u2003\nend\n",
])
def test_fast_paths_at_the_edges(text):
    same_reading(text)


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
    same_reading("sequenceDiagram\n" + "\n".join(body) + "\n")
