"""Randomized differential test: seeded random documents, read by us and by Mermaid in one node run."""

from __future__ import annotations

import os

import pytest
from parse_fuzz import documents
from parse_oracle import node_available, run_oracle

from drawcheck.parse import parse_text
from drawcheck.parse.model import Message, Note

COUNT = int(os.environ.get("DRAWCHECK_FUZZ_COUNT", "600"))


@pytest.mark.node
def test_random_documents_read_like_mermaid():
    reason = node_available()
    if reason:
        if os.environ.get("DRAWCHECK_REQUIRE_NODE"):
            pytest.fail("DRAWCHECK_REQUIRE_NODE is set but %s" % reason)
        pytest.skip(reason)
    texts = documents(seed=20261130, count=COUNT)
    results = run_oracle(texts=texts)
    assert len(results) == len(texts)
    mismatches = []
    for text, theirs in zip(texts, results):
        d = parse_text(text)
        if d.valid != theirs["valid"]:
            mismatches.append((text, "verdict", theirs.get("error")))
        elif d.valid:
            ours = {
                "messages": [[s.source, s.target, s.text] for s, _ in d.walk() if isinstance(s, Message)],
                "notes": [[s.actors[0], s.actors[-1], s.text] for s, _ in d.walk() if isinstance(s, Note)],
                "participants": [[p.id, p.label, p.kind] for p in d.participants],
            }
            for key, value in ours.items():
                if value != theirs[key]:
                    mismatches.append((text, key, theirs[key]))
    assert mismatches == []
    assert 0 < sum(r["valid"] for r in results) < len(results)  # both kinds really occur
