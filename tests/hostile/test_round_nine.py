"""Round nine (round_nine.py says what was found and what held): an abbreviation key that multiplied the drawing's
texts, participant inference that walked the drawing once per participant, and the steps notes drew gathered again
for every message."""

from __future__ import annotations

import time

import pytest

import round_nine

from drawcheck.grade import grade_text
from drawcheck.parse import parse_text
from drawcheck.parse.model import Block, Diagram, Message, Note
from drawcheck.recognise.abbreviations import WRITTEN_OUT, with_abbreviations
from drawcheck.recognise.names import matcher
from drawcheck.reference import load_reference

FLAGSHIP = load_reference(round_nine.ROOT / "reference" / "two-cycles" / "exercise.yml")
KUBECTL = load_reference(round_nine.ROOT / "reference" / "kubectl-apply" / "exercise.yml")


def _text_length(statements) -> int:
    """Characters in every text the recogniser reads: messages, notes, block and branch labels."""
    total = 0
    for s in statements:
        if isinstance(s, (Message, Note)):
            total += len(s.text or "")
        elif isinstance(s, Block):
            total += len(s.label or "") + sum(len(b.label or "") + _text_length(b.statements) for b in s.branches)
    return total


def _manager(reference):
    from drawcheck.plugin.submissions import SubmissionsManager

    return SubmissionsManager(answers_dir="answers", site_root=".", reference=reference, max_bytes=262144,
                              max_lines=2000, max_seconds=None)


# --------------------------------------------------------------------------- the abbreviation key


@pytest.mark.parametrize("name", sorted(round_nine.KEY_BOMBS))
def test_an_abbreviation_key_adds_a_bounded_number_of_characters(name):
    """Counted, not timed: the texts as the key reads them are at most WRITTEN_OUT characters longer than as drawn
    (written out without a bound, `one-long-name` was 288 million characters)."""
    long, uses, per = round_nine.KEY_BOMBS[name]
    text = round_nine.key_bomb(long, uses, per_message=per)
    assert len(text) < 50_000
    diagram = parse_text(text)
    assert diagram.valid, diagram.errors
    for reference in (FLAGSHIP, KUBECTL):
        read = with_abbreviations(diagram, matcher(reference))
        assert _text_length(read.statements) <= _text_length(diagram.statements) + WRITTEN_OUT


@pytest.mark.parametrize("name", sorted(round_nine.KEY_BOMBS))
def test_a_drawing_with_an_abbreviation_key_at_the_limits_is_graded_fast(name):
    long, uses, per = round_nine.KEY_BOMBS[name]
    text = round_nine.key_bomb(long, uses, per_message=per)
    for reference in (FLAGSHIP, KUBECTL):
        started = time.process_time()
        graded = _manager(reference).grade("a", "answers/a.mmd", text)
        assert graded.result.status != "invalid" and time.process_time() - started < 2, name  # was 15 to 25 s


def test_a_short_key_is_still_written_out():
    text = ("sequenceDiagram\n    participant S\n    participant P\n"
            "    Note over S,P: PF = PreFilter, NS = NormalizeScore\n    S->>P: PF\n    S->>P: NS\n")
    read = with_abbreviations(parse_text(text), matcher(FLAGSHIP))
    assert [s.text for s in read.statements if isinstance(s, Message)] == ["PreFilter", "NormalizeScore"]


def test_past_the_bound_a_text_keeps_its_short_names():
    long = "Filter " + "y" * 40  # 47 characters: a long form within LONGEST
    diagram = parse_text(round_nine.key_bomb(long, 1_900, per_message=1))
    assert diagram.valid, diagram.errors
    read = with_abbreviations(diagram, matcher(FLAGSHIP))
    texts = [s.text for s in read.statements if isinstance(s, Message)]
    written = sum(1 for t in texts if t == long)
    assert written == WRITTEN_OUT // (len(long) - 1) and all(t in (long, "X") for t in texts)


def test_a_key_for_a_long_text_is_no_key():
    text = round_nine.key_bomb("Filter " + "y" * 100, 3)
    read = with_abbreviations(parse_text(text), matcher(FLAGSHIP))
    assert any(isinstance(s, Note) for s in read.statements)  # the note stays: it is no key
    assert [s.text for s in read.statements if isinstance(s, Message)] == ["X X X"]


# --------------------------------------------------------------------------- participants by what they send


def test_participants_known_by_what_they_send_walk_the_drawing_a_bounded_number_of_times(monkeypatch):
    """Counted, not timed: 2,000 senders of one message each took 4.8 million steps of `Diagram.walk` (one walk
    for each participant asked about); 4,400 (48 KB) took 19 million, 5 to 9 s for kubectl-apply."""
    steps = [0]
    walk = Diagram.walk

    def counted(self):
        for x in walk(self):
            steps[0] += 1
            yield x

    monkeypatch.setattr(Diagram, "walk", counted)
    text = round_nine.many_senders(2_000)
    for reference in (FLAGSHIP, KUBECTL):
        steps[0] = 0
        assert grade_text(text, file="a.mmd", reference=reference).status != "invalid"
        assert steps[0] <= 20 * 2_000, steps[0]  # a few walks of the drawing, not one for each participant



def test_the_steps_notes_drew_are_gathered_once_for_all_messages(monkeypatch):
    """Counted, not timed: each message a `between` rule with `after:` reads asked every mention notes and labels had
    drawn (`_Walk.noted_since`), so 6,000 in one note and 3,420 such messages (48 KB) read 20 million mentions'
    places: 1.4 to 1.6 s, the largest cost of any file within the limits. Now each is read once for each `after:` step."""
    from drawcheck.recognise import Mention

    reads = [0]
    order = Mention.order

    def counted(self):
        reads[0] += 1
        return order.fget(self)

    monkeypatch.setattr(Mention, "order", property(counted))
    text = round_nine.noted_then_sent(1_500, 1_000)
    assert len(text) < 50_000
    assert grade_text(text, file="a.mmd", reference=KUBECTL).status != "invalid"
    assert reads[0] < 20 * (1_500 + 1_000), reads[0]  # every message reading every note's mention: 1.5 million
