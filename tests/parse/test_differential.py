"""Differential test: our parser reads every corpus file exactly as Mermaid 12.3.0 does.

For each file: same verdict (valid or not); and for valid files the same
participants (id, label, kind), the same messages (from, to, text) in order,
and the same notes, as Mermaid's sequence database holds them.
"""

from __future__ import annotations

import pytest

from drawcheck.parse import parse_file
from drawcheck.parse.model import Message, Note

from parse_oracle import CORPUS, corpus_files

FILES = corpus_files()


def _ours(path):
    d = parse_file(path)
    messages = [[s.source, s.target, s.text] for s, _ in d.walk() if isinstance(s, Message)]
    notes = [[s.actors[0], s.actors[-1], s.text] for s, _ in d.walk() if isinstance(s, Note)]
    participants = [[p.id, p.label, p.kind] for p in d.participants]
    return d, messages, notes, participants


def test_corpus_is_big_and_mixed():
    own = sorted(CORPUS.glob("*.mmd"))
    assert len(own) >= 150
    assert len([p for p in own if p.name.startswith("bad-")]) >= 60


@pytest.mark.node
@pytest.mark.parametrize("path", FILES, ids=[p.parent.name + "/" + p.name for p in FILES])
def test_same_reading_as_mermaid(path, mermaid_results):
    theirs = mermaid_results[str(path)]
    d, messages, notes, participants = _ours(path)
    assert d.valid == theirs["valid"], (
        "verdict differs: mermaid says %s (%s); we report %s"
        % (theirs["valid"], (theirs.get("error") or "")[:300], [(e.line, e.message) for e in d.errors]))
    if theirs["valid"]:
        assert messages == theirs["messages"]
        assert notes == theirs["notes"]
        assert participants == theirs["participants"]


@pytest.mark.node
def test_corpus_file_names_match_mermaid_verdict(mermaid_results):
    """`ok-*` files are ones Mermaid accepts, `bad-*` ones it refuses (keeps the corpus honest)."""
    wrong = [p.name for p in sorted(CORPUS.glob("*.mmd"))
             if mermaid_results[str(p)]["valid"] != p.name.startswith("ok-")]
    assert wrong == []
