"""The order check's chain search equals its plain definition, and its messages name the neighbours."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck.grade.checks.order import heaviest_increasing


def _heaviest_by_definition(seq):
    """Max-weight strictly increasing subsequence: the first heaviest chain, ties to the earliest."""
    n = len(seq)
    best = [w for _, w in seq]
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if seq[j][0] < seq[i][0] and best[j] + seq[i][1] > best[i]:
                best[i] = best[j] + seq[i][1]
                prev[i] = j
    if not seq:
        return set()
    end = max(range(n), key=lambda k: (best[k], -k))  # the heaviest chain's end, the earliest of ties
    chain = [end]
    while prev[chain[-1]] != -1:
        chain.append(prev[chain[-1]])
    return set(chain)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=40), unique=True, max_size=16), st.randoms())
def test_heaviest_increasing_equals_the_definition(keys, rng):
    seq = [(k, rng.choice((1, 2, 3))) for k in keys]
    assert heaviest_increasing(seq) == _heaviest_by_definition(seq)


def test_out_of_order_messages_name_the_neighbours(reference):
    notes = reference.check("order").notes_by_step
    path = reference.plan.main_path
    assert set(notes) == {s.id for s in path}
    for step in path:
        msg, severity, edits = notes[step.id]
        assert msg.startswith(step.name)
        assert severity == ("correction" if step.tier in ("A", "B") else "hint")
        assert edits == (1 if severity == "correction" else 0)
