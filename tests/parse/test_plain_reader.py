"""The one-pass reader for plain files gives exactly the full parser's Diagram, or hands the file over (None)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parse_fuzz import documents
from parse_oracle import corpus_files

from drawcheck.parse.parser import parse_source
from drawcheck.parse import plain
from drawcheck.parse.plain import read_plain


def full_parse(text: str):
    return parse_source(text, fast_paths=False)


def agrees(text: str) -> bool:
    """read_plain(text) equals the full parse, or is None; True when it read the file itself."""
    plain = read_plain(text)
    if plain is None:
        return False
    full = full_parse(text)
    assert plain == full, text
    assert full.valid, text  # the one pass only ever reads valid files
    return True


def test_corpus_files_read_alike():
    read = sum(agrees(path.read_text(encoding="utf-8", errors="replace")) for path in corpus_files())
    assert read >= 30  # the one pass really reads a good share of the corpus


def test_random_documents_read_alike():
    for text in documents(seed=777, count=1000):
        agrees(text)


# ---- plain documents, the kind learners write, with near misses ---------------
_NAMES = ["A", "Bob", "Sched", "Kube Sched", "endUser", "end_user", "loopy", "x1", "_p", "Note1", "links2", "Options"]
_RISKY_NAMES = ["end", "as", "AS", "over", "Note", "participant", "links", "par_over", "option"]  # keywords
_TEXTS = [": hi", ":", ": Filter pod", ":wrap: x", ": nowrap: y", " : spaced  ", ": é ✓", ": 50%% done", ": a, b",
          ": \ufb02\u00b0x\u00b6\u00df", ": <b>bold</b>", ": C4 model"]
_ARROWS = ["->>", "-->>", "->", "-->", "-x", "--x", "-)", "--)", "<<->>", "<<-->>"]


_BRANCH_OF = {"alt": "else", "par": "and", "par_over": "and", "critical": "option"}
_NEAR_MISSES = [
    "%%", "loop x;y", "%%{init: {}}%%", "% one", "autonumber 2", "\u00a0", "as x", "title T", "box Aqua G", "box",
    "create participant Z", "destroy Z", "link A: x", "A->>B: #35;", "end", "else", "deactivate Bob",
    "A->>B: x\u2028y", "Note left of A,B: x", "A->>-B: x", "end  ", "autonumber  ", "box G\nA->>B: x\nend",
]


def _plain_line(rng: random.Random, depth: list[str], active: list[str], noise: float) -> str:
    sp = rng.choice(["", "    ", "\t", "  "])
    if rng.random() < noise:
        return sp + rng.choice(_NEAR_MISSES)
    name = lambda: rng.choice(_RISKY_NAMES if rng.random() < noise else _NAMES)  # noqa: E731
    k = rng.randint(0, 12)
    if k <= 4:
        return "%s%s%s%s%s%s" % (sp, name(), rng.choice(_ARROWS), rng.choice(["", "", "", "+"]), name(),
                                 rng.choice(_TEXTS))
    if k == 5:
        return "%s%s %s%s" % (sp, rng.choice(["participant", "actor", "Participant"]), name(),
                              rng.choice(["", " as Label words", " as  x", "  ", " AS y"]))
    if k == 6:
        if active and rng.random() < 0.5:
            return "%sdeactivate %s" % (sp, active.pop())
        active.append(name())
        return "%sactivate %s" % (sp, active[-1])
    if k == 7:
        place = rng.choice(["over", "left of", "right of", "Over"])
        second = rng.choice(["", ",B", " , Sched"]) if place.lower() == "over" else ""
        return "%sNote %s %s%s%s" % (sp, place, name(), second, rng.choice(_TEXTS))
    if k == 8:
        kind = rng.choice(["loop", "alt", "opt", "par", "par_over", "critical", "break", "rect rgb(0,0,0)", "Loop"])
        depth.append(kind.split()[0].lower())
        return sp + kind + rng.choice(["", " label", "  two words ", " x,y: z"])
    if k == 9 and depth and depth[-1] in _BRANCH_OF:
        return sp + _BRANCH_OF[depth[-1]] + rng.choice(["", " other", "  "])
    if k == 10 and depth:
        depth.pop()
        return sp + rng.choice(["end", "end", "End"])
    if k == 11:
        return rng.choice(["", "   ", sp + "%% a comment", sp + "%%x", sp + "autonumber"])
    if k == 12 and rng.random() < 0.3:
        members = ["%s%s %s%s" % (sp, rng.choice(["participant", "actor"]), name(), rng.choice(["", " as In box"]))
                   for _ in range(rng.randint(0, 3))]
        return "\n".join([sp + rng.choice(["box", "box Aqua", "box rgb(1,2,3) Two words", "Box Purple x"])]
                         + members + [sp + rng.choice(["end", "End"])])
    return "%sA->>B: m" % sp


def plain_documents(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        depth: list[str] = []
        active: list[str] = []
        noise = rng.choice([0.0, 0.0, 0.02, 0.1])
        body = [_plain_line(rng, depth, active, noise) for _ in range(rng.randint(1, 30))]
        if rng.random() < 0.9:
            body += ["end"] * len(depth)
        out.append("sequenceDiagram\n" + "\n".join(body) + rng.choice(["", "\n", "\n\n"]))
    return out


def test_plain_documents_read_alike():
    texts = plain_documents(seed=31337, count=int(os.environ.get("PLAIN_DOCUMENTS", "3000")))
    read = sum(agrees(text) for text in texts)
    assert read >= len(texts) // 4  # a real share is read in one pass, the rest is handed over


@settings(max_examples=int(os.environ.get("PLAIN_EXAMPLES", "300")), deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_plain_documents_read_alike_hypothesis(seed):
    for text in plain_documents(seed, 3):
        agrees(text)


# ---- what the one pass reads itself, and what it must hand over --------------
@pytest.mark.parametrize("text", [
    "sequenceDiagram\nA->>B: hi\n",
    "sequenceDiagram\n    %% the scheduling cycle\n    A->>B: Filter\n\n   \n  %%x\nB-->>A: ok",
    "sequenceDiagram\nA->>+B: call\nB-->>-A: back\nactivate A\ndeactivate A\n",
    "sequenceDiagram\nalt fits\nA->>B: x\nelse nothing fits\nloop retry\nA->>A: y\nend\nend\n",
    "sequenceDiagram\npar one\nA->>B: x\nand two\nB->>A: y\nend\ncritical c\nA->>B: z\noption o\nA->>B: w\nend\n",
    "sequenceDiagram\nA->>B: x\nparticipant A as Alice again\nactor B\nNote over A,B: both\n",
    "sequenceDiagram\nparticipant A\n%% between\n\nA->>A: x\n",
    "sequenceDiagram\nautonumber\nA->>B:wrap: wrapped\nA->>B: \ufb02\u00b0x\u00b6\u00df\n",
    "sequenceDiagram\nbox Aqua Scheduling cycle\nparticipant S as Scheduler\nactor Q\nend\nbox\nparticipant B\nend\n"
    "S->>B: go\n",
    "sequenceDiagram\nA->>B: x\nbox rgb(1, 2, 3) later\n  participant A\n%% c\n\n  participant A as Alice\nEnd\n",
    "sequenceDiagram\nloop l\nbox Purple\nparticipant P\nend\nP->>P: x\nend\n",
    # a message head seen before (read without the regex), with other texts
    "sequenceDiagram\n  A->>+B: x\n  A->>+B:\ty\u00a0\n  A->>+B:\n  A->>+B:wrap: z\nB-->>-A: w\nB-->>-A: v\n",
])
def test_reads_plain_files_itself(text):
    assert agrees(text)


@pytest.mark.parametrize("text", [
    "sequenceDiagram\nend\n",  # `end` without a block: an error
    "sequenceDiagram\nloop x\nA->>B: y\n",  # never closed
    "sequenceDiagram\nloop x\nelse y\nend\n",  # `else` outside `alt`
    "sequenceDiagram\nalt x\nloop y\nelse z\nend\nend\n",  # `else` in the inner `loop`
    "sequenceDiagram\ndeactivate A\n",
    "sequenceDiagram\nA->>B: x\nB-->>-A: y\n",
    "sequenceDiagram\nparticipant A\nas Alice\n",  # the alias on the next line
    "sequenceDiagram\nparticipant A\n%% c\n\n  as Alice\n",  # ... even past a comment
    "sequenceDiagram\nNote left of A,B: x\n",
    "sequenceDiagram\nA->>B: #35; x\n",  # entity codes: the full pipeline
    "sequenceDiagram\n%%{init: {}}%%\nA->>B: x\n",
    "sequenceDiagram\nA->>B: C4Container\n",  # Mermaid reads a C4 diagram
    'sequenceDiagram\nA->>B: <b class="x">y</b>\n',
    "sequenceDiagram\r\nA->>B: x\r\n",
    "sequenceDiagram\nbox Aqua G\nparticipant A\n",  # the box is never closed
    "sequenceDiagram\nbox Aqua G\nA->>B: x\nend\n",  # only declarations in a box
    "sequenceDiagram\nA->>B: x\nbox Aqua G\nA->>B: x\nend\n",  # ... a message head seen before too
    "sequenceDiagram\nA->>B: x\nA->>B\n",  # a message head seen before, without its `:`
    "sequenceDiagram\nA->>B: x\nA->>B: y; B->>A: z\n",  # `;` ends a statement mid-line
    "sequenceDiagram\nA->>-B: x\nA->>-B: y\n",  # the second deactivation has nothing to end
    "sequenceDiagram\nbox G\nparticipant A\nend\nbox H\nparticipant A\nend\n",  # one box per participant
    "sequenceDiagram\nbox G\nbox H\nend\n",
    "sequenceDiagram\nbox G; participant A\nend\n",
    "sequenceDiagram\nBox->>A: x\n",
    "sequenceDiagram\n%%\nA->>B: x\n",
    "sequenceDiagram\nA->>B: x\u2028%% y\n",
    "  sequenceDiagram\nA->>B: x\n",
    "sequenceDiagram\n" + "loop x\n" * 1001 + "end\n" * 1001,  # deeper than the parser allows
])
def test_hands_over_everything_else(text):
    assert read_plain(text) is None
    parse_source(text)  # and the full parser reads it without raising


# ---- the memo of plain names, shared by every file: a name seen before is still declared in each file ----
def test_a_remembered_name_is_declared_in_each_file():
    plain.clear_name_memo()
    assert read_plain("sequenceDiagram\nA->>B: x\n") is not None
    d = read_plain("sequenceDiagram\nparticipant C\nNote over B: n\nA->>B: x\n")  # same names, other file
    assert [p.id for p in d.participants] == ["C", "B", "A"]
    assert d == full_parse("sequenceDiagram\nparticipant C\nNote over B: n\nA->>B: x\n")


def test_a_keyword_name_is_never_remembered_as_plain():
    plain.clear_name_memo()
    for _ in range(2):
        assert read_plain("sequenceDiagram\nend->>B: x\n") is None
        assert read_plain("sequenceDiagram\nNote over loop x: n\n") is None
    assert "end" not in plain._PLAIN_NAMES and "B" not in plain._PLAIN_NAMES


def test_reading_again_with_the_names_remembered_reads_the_same():
    texts = plain_documents(seed=4242, count=400)
    plain.clear_name_memo()
    first = [read_plain(t) for t in texts]
    assert len(plain._PLAIN_NAMES) > 5
    assert [read_plain(t) for t in texts] == first


def test_the_name_memo_stays_bounded(monkeypatch):
    monkeypatch.setattr(plain, "MAX_PLAIN_NAMES", 10)
    plain.clear_name_memo()
    for k in range(50):
        read_plain(f"sequenceDiagram\nA{k}->>B{k}: x{k}\n")
    assert len(plain._PLAIN_NAMES) <= 12
