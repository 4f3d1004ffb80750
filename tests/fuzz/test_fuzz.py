"""Fuzzing: parse + find_unsafe + escapers (+ grade_text) never raise and keep their invariants.

10 shards of 10,000 mutated inputs (10^5 in all, split over pytest-xdist workers), plus hypothesis
strategies. DRAWCHECK_FUZZ_INPUTS changes the total; bench/fuzz.py runs 10^6.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_engine import TOKENS, fuzz, load_seeds, make_grader, mutate, run_one

TOTAL = int(os.environ.get("DRAWCHECK_FUZZ_INPUTS", "100000"))
SHARDS = 10


def test_the_corpus_is_there():
    seeds = load_seeds()
    assert len(seeds) >= 50, "fuzzing needs the parse corpus, golden drawings and hostile files"


def test_grading_is_fuzzed_too():
    assert make_grader() is not None, "drawcheck.grade.grade_text and drawcheck.reference.load_reference must import"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_mutated_corpus_never_crashes(shard):
    per_shard = TOTAL // SHARDS
    outcome = fuzz(per_shard, seed=1000 + shard)
    shown = "\n\n".join(f"INPUT {inp[:400]!r}\n{tb}" for inp, tb in outcome.failures[:3])
    assert not outcome.failures, shown
    assert outcome.inputs == per_shard
    assert outcome.graded == per_shard // 10


def test_mutation_changes_inputs():
    import random

    rng = random.Random(7)
    seeds = load_seeds()
    outs = {mutate(rng, seeds[0], seeds) for _ in range(200)}
    assert len(outs) > 150


line = st.lists(st.sampled_from(TOKENS) | st.text(max_size=8), min_size=1, max_size=8).map("".join)
diagram_like = st.lists(line, min_size=1, max_size=25).map(lambda ls: "sequenceDiagram\n" + "\n".join(ls))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_any_text_never_crashes(text):
    run_one(text)


_grader = make_grader()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(diagram_like)
def test_diagram_shaped_text_never_crashes_and_grades(text):
    run_one(text, _grader)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_decoded_leniently_never_crash(data):
    run_one(data.decode("utf-8", "replace"), _grader)
