"""Round nine (round_nine.py says what was found and what held): an abbreviation key that multiplied the drawing's
texts, participant inference that walked the drawing once per participant, the steps notes drew gathered again for
every message, long runs of combining marks sorted by insertion, long participant names read again for every
message, words counted again from a step for every phase word after it, names in two scripts compared pair by pair,
and stacks of learner rects composited again for every rect."""

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



def _graded_within(reference, text: str, seconds: float) -> bool:
    """Is `text` graded (not refused as invalid) within `seconds` of CPU time?"""
    started = time.process_time()
    graded = _manager(reference).grade("a", "answers/a.mmd", text)
    return graded.result.status != "invalid" and time.process_time() - started < seconds

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
        assert _graded_within(reference, text, 2), name  # was 15 to 25 s


def test_a_short_key_is_still_written_out():
    text = ("sequenceDiagram\n    participant S\n    participant P\n"
            "    Note over S,P: PF = PreFilter, NS = NormalizeScore\n    S->>P: PF\n    S->>P: NS\n")
    read = with_abbreviations(parse_text(text), matcher(FLAGSHIP))
    assert [s.text for s in read.statements if isinstance(s, Message)] == ["PreFilter", "NormalizeScore"]


def test_past_the_bound_a_text_keeps_its_short_names():
    long = "Filter (" + "y" * 38 + ")"  # 47 characters: a long form within LONGEST
    diagram = parse_text(round_nine.key_bomb(long, 1_900, per_message=1))
    assert diagram.valid, diagram.errors
    read = with_abbreviations(diagram, matcher(FLAGSHIP))
    texts = [s.text for s in read.statements if isinstance(s, Message)]
    written = sum(1 for t in texts if t == long)
    assert written == WRITTEN_OUT // (len(long) - 1) and all(t in (long, "F") for t in texts)


def test_a_key_for_a_long_text_is_no_key():
    text = round_nine.key_bomb("Filter (" + "y" * 100 + ")", 3)
    read = with_abbreviations(parse_text(text), matcher(FLAGSHIP))
    assert any(isinstance(s, Note) for s in read.statements)  # the note stays: it is no key
    assert [s.text for s in read.statements if isinstance(s, Message)] == ["F F F"]
    within = with_abbreviations(parse_text(round_nine.key_bomb("Filter (" + "y" * 38 + ")", 3)), matcher(FLAGSHIP))
    assert not any(isinstance(s, Note) for s in within.statements)  # within LONGEST: a key


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


# --------------------------------------------------------------------------- combining marks


@pytest.mark.parametrize("name", sorted(round_nine.mark_runs()))
@pytest.mark.parametrize("where", ["message", "alias"])
def test_a_long_run_of_combining_marks_is_read_fast(name, where):
    """`recognise.composed` put every text in NFC, and CPython sorts a run of combining marks into canonical order by
    insertion (square in the run, in one C call the time budget cannot stop): 48,000 marks of 50 classes, highest
    first, took 5.7 s; 48,000 U+0F73 (two marks each once decomposed) as long."""
    run = round_nine.mark_runs()[name]
    text = (f"sequenceDiagram\n    A->>B: {run}\n" if where == "message"
            else f"sequenceDiagram\n    participant A as {run}\n    A->>B: x\n")
    assert len(text) < 50_000
    for reference in (FLAGSHIP, KUBECTL):
        assert _graded_within(reference, text, 2), name


def test_letters_typed_with_combining_marks_are_still_read_composed():
    from drawcheck.recognise.composed import composed

    nfd = "planificacio\u0301n, co\u0300la, \u1ec7 a" + "\u0301" * 30  # thirty marks on one letter: still composed
    diagram = parse_text(f"sequenceDiagram\n    A->>B: {nfd}\n")
    text = composed(diagram).statements[0].text
    assert text.startswith("planificaci\u00f3n, c\u00f2la, \u1ec7") and len(text) < len(nfd)


def test_every_character_that_sorts_among_marks_is_a_mark():
    """`composed._too_many_marks` counts the characters of general category M: every character a canonical
    decomposition puts among the marks sorted (a combining class above 0, or a decomposition that starts with one)
    is one, in this Python's Unicode data."""
    import sys
    import unicodedata

    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        if not (unicodedata.combining(ch) or unicodedata.decomposition(ch)):
            continue
        nfd = unicodedata.normalize("NFD", ch)
        if unicodedata.combining(ch) or unicodedata.combining(nfd[0]):
            assert unicodedata.category(ch).startswith("M"), hex(cp)


# --------------------------------------------------------------------------- directions


def test_a_step_drawn_the_wrong_way_round_reads_each_participants_name_once(monkeypatch):
    """Counted, not timed: `DirectionsCheck` asked, for every message that draws the step, whether its participants'
    names say the rule's words, putting each whole name through `phrase_text` every time: a name of 24,000
    characters (`a中` repeated) and 1,750 messages took 10.9 s for kubectl-apply (past the 10 s budget), `x `
    repeated 4.7 s. Now each participant is asked once per rule's words."""
    from drawcheck.grade.checks import directions

    phrased = [0]
    says = directions.says

    def counted(pattern, text):
        phrased[0] += len(text)
        return says(pattern, text)

    monkeypatch.setattr(directions, "says", counted)
    text = round_nine.wrong_way_round("x ", 6_000, 1_000)
    assert len(text) < 50_000
    result = grade_text(text, file="a.mmd", reference=KUBECTL)
    assert any(f.kind == "direction" for f in result.findings)  # still drawn the wrong way round
    assert phrased[0] < 20 * 6_000, phrased[0]  # the name once per rule and side, not once per message


@pytest.mark.parametrize("unit", ["x ", "a\u4e2d"])
def test_a_step_drawn_the_wrong_way_round_between_long_names_is_graded_fast(unit):
    text = round_nine.wrong_way_round(unit, 24_000, 1_750)
    assert len(text) < 50_000
    assert _graded_within(KUBECTL, text, 2.5)  # was 4.7 and 10.9 s


def test_the_named_functions_home_is_looked_for_once_per_participant(monkeypatch):
    """Counted, not timed: where no line names the cache function, `NamedFunctionCheck` looks for a message to or
    from its home, and asked each message's participants whether their names say it: a name of 24,000 characters
    (`a中` repeated) and 3,000 messages took 2.1 s for the flagship. Now each participant is asked once."""
    from drawcheck.recognise import Actor

    asked = [0]
    says = Actor.says

    def counted(self, pattern):
        asked[0] += 1
        return says(self, pattern)

    monkeypatch.setattr(Actor, "says", counted)
    text = round_nine.long_name_sends("a\u4e2d", 2_000, 3_000)
    assert len(text) < 50_000
    assert grade_text(text, file="a.mmd", reference=FLAGSHIP).status != "invalid"
    assert asked[0] < 100, asked[0]  # once per participant and pattern, not once per message (6,000)


def test_a_long_named_participant_sending_many_messages_is_graded_fast():
    text = round_nine.long_name_sends("a\u4e2d", 24_000, 3_000)
    for reference in (FLAGSHIP, KUBECTL):
        assert _graded_within(reference, text, 2)  # was 2.1 s for the flagship


# --------------------------------------------------------------------------- who a participant stands for


@pytest.mark.parametrize("name", sorted(round_nine.LONG_NAMES))
def test_who_a_long_named_participant_stands_for_is_found_fast(name):
    """`stands_for` searched a participant's name once with each of the exercise participants' words (268 regexes for
    kubectl-apply, each with a lookbehind at every place): a name of 48,000 characters (`aB中` repeated) took 1.5 to 2.3 s,
    however many participants share the characters. Now each word is looked for as the substring its pattern
    matches (`phrase_needle`): the same answer."""
    unit, participants, chars = round_nine.LONG_NAMES[name]
    text = round_nine.long_names(unit, participants, chars)
    if name == "brackets":
        text = text.replace("\n    P0->>", " (etcd)\n    P0->>", 1)
    assert len(text) < 50_000
    for reference in (FLAGSHIP, KUBECTL):
        assert _graded_within(reference, text, 1.5), name


def test_a_phrase_needle_finds_what_its_pattern_finds():
    """`phrase_needle(w) in t` is `phrases_regex([w]).search(t)` for every participant word of both exercises, on the
    words themselves and beside letters, digits, spaces and letters of scripts without spaces."""
    from drawcheck.grade.checks.misconceptions import MisconceptionsCheck
    from drawcheck.recognise import words_regex
    from drawcheck.recognise.phrases import phrase_needle, phrase_text

    words = sorted({w for reference in (FLAGSHIP, KUBECTL) for check in reference.checks
                    if isinstance(check, MisconceptionsCheck)
                    for p in check.participants.values() for w in p.words + (p.name,)})
    assert len(words) > 100
    texts = {phrase_text(f) for w in words for f in (w, f"a {w} b", f"{w}x", f"x{w}", f"{w}\u961f", f"\u961f{w}",
                                                     f"({w})", f"{w}2", w.replace(" ", ""), w.split()[0])}
    texts |= {phrase_text(" ".join(words[k:k + 3])) for k in range(len(words))}
    for w in words:
        rx, needle = words_regex([w]), phrase_needle(w)
        assert (rx is None) == (needle is None), w
        if rx is not None:
            assert [t for t in texts if rx.search(t)] == [t for t in texts if needle in t], w


# --------------------------------------------------------------------------- a phase word after a step


@pytest.mark.parametrize("name", sorted(round_nine.PHASE_WORDS_AFTER_A_STEP))
def test_phase_words_far_after_a_step_are_read_fast(name):
    """`_inline_phase` (`Step (some phase)` labels the step) counted the words between the step and each phase word
    after it, from the step every time: a step, four words and `kø ` repeated over 48 KB took 13.4 s."""
    word, exercise = round_nine.PHASE_WORDS_AFTER_A_STEP[name]
    reference = FLAGSHIP if exercise == "two-cycles" else KUBECTL
    text = round_nine.phase_words_after_a_step(word)
    assert len(text) < 50_000
    assert _graded_within(reference, text, 2), name


@pytest.mark.parametrize("text, phase", [
    ("Filter (scheduling cycle)", "scheduling"), ("Filter, in the binding cycle", "binding"),
    ("Filter a b c binding cycle", "binding"), ("Filter a b c d binding cycle", None),
    ("RunFilterPlugins a b binding cycle", "binding"), ("RunFilterPlugins a b c binding cycle", None),
    ("Filter then sync a b c d binding cycle", "scheduling"), ("Filter a b c d sync; Bind binding cycle", "binding"),
])
def test_a_phase_word_within_three_words_of_a_step_still_labels_it(text, phase):
    from drawcheck.recognise import read_text

    assert read_text(FLAGSHIP, text).inline == phase


# --------------------------------------------------------------------------- names in two scripts


@pytest.mark.parametrize("name", sorted(round_nine.NAMES_IN_TWO_SCRIPTS))
def test_names_in_two_scripts_side_by_side_are_read_fast(name):
    """`NameMatcher.find` compared every name it found in another script with every name it found in ASCII (and
    copied the list of them once per step name): `bind过滤` repeated over 48 KB took 5.9 s."""
    unit = round_nine.NAMES_IN_TWO_SCRIPTS[name]
    text = "sequenceDiagram\n    A->>B: " + unit * (48_000 // len(unit)) + "\n"
    for reference in (FLAGSHIP, KUBECTL):
        assert _graded_within(reference, text, 2), name


def _find_as_before(names, text, spelling=True):
    """`NameMatcher.find` as it was before round nine (square time), to compare with."""
    from drawcheck.recognise.names import Match, not_struck_out
    from drawcheck.recognise.phrases import phrase_text

    text = not_struck_out(text)
    if "\u0130" in text:
        text = text.translate({0x130: "I"})
    found = names._find(text, spelling)
    in_scripts = names.script.find(text)
    if not in_scripts:
        return found
    found = list(found)
    extra = []
    for kind, target, start, end in in_scripts:
        inside = [f for f in found if f.start < end and start < f.end]
        if inside and all(f.how == "typo" for f in inside):
            found = [f for f in found if f not in inside]
        if any(f.start < end and start < f.end for f in found) or (
                kind == "step" and any(f.kind == "step" and f.target == target for f in found + extra)):
            continue
        how = "loose" if kind == "cycle" and phrase_text(text[start:end]).strip() in names.loose_script else "exact"
        extra.append(Match(kind, target, start, end, how))
    return tuple(sorted(found + extra, key=lambda m: m.start)) if extra else tuple(found)


def test_names_in_two_scripts_are_found_as_before():
    """On texts mixing names in ASCII, misspelt ones, and names in other scripts, `find` finds what it found before."""
    import random

    rng = random.Random(9)
    pieces = ["Bind", "bind", "Filter", "Fliter", "PreFilter", "Permitt", "Reserve", "queue", "\u8fc7\u6ee4", "\u961f\u5217",
              "\u7ed1\u5b9a", "\u7ed1\u5b9a\u5468\u671f", "\u8c03\u5ea6\u961f\u5217", "\u30d5\u30a3\u30eb\u30bf",
              "admisi\u00f3n mutante", "admisi\u00f3n", "mutante", "API \u30b5\u30fc\u30d0\u30fc", "etcd", "kubelet",
              "cola", "cua", "k\u00f8", "Zamanlama", "sync", "(", ")", ",", " ", " ", "  ", "\u3001", "\uff08", "\uff09"]
    for reference in (FLAGSHIP, KUBECTL):
        names = matcher(reference)
        for _ in range(600):
            text = "".join(rng.choice(pieces) + rng.choice(["", " ", " "]) for _ in range(rng.randrange(1, 14)))
            for spelling in (True, False):
                assert names.find(text, spelling=spelling) == _find_as_before(names, text, spelling), text


# --------------------------------------------------------------------------- learner rects over learner rects


@pytest.mark.parametrize("shape", ["siblings", "tree"])
def test_each_stack_of_rects_is_composited_once(shape, monkeypatch):
    """Counted, not timed: a learner rect is checked over every rect around it, on each page, and the PR comment checks
    it again (`untinted_marks`); every check parsed and composited the whole stack beneath it again: 1,300 rects
    inside 98 (43 KB) made 1.35 million compositing steps, 5.2 s for `drawcheck check --format markdown` (the PR
    check). Now a stack is composited from the one below it, once."""
    from drawcheck import safety
    from drawcheck.report.markdown import untinted_marks
    from drawcheck.render.mermaid import render_diagram

    steps = [0]
    over = safety._over

    def counted(rgb, alpha, below):
        steps[0] += 1
        return over(rgb, alpha, below)

    monkeypatch.setattr(safety, "_over", counted)
    text = round_nine.nested_rects(shape)
    assert len(text) < 50_000
    diagram = parse_text(text)
    assert diagram.valid, diagram.errors
    started = time.process_time()
    drawing = render_diagram(diagram)
    untinted_marks(drawing.replace("rect rgb(0,0,9)", "rect rgba(220, 50, 47, 0.18)", 1))
    assert steps[0] < 200_000, steps[0]
    assert time.process_time() - started < 2
