"""The name matcher's shortcuts for cheap misses give what the general code gives.

A class brings new participant names (`S42`, `PreFilter7`) in every drawing, so each is matched
once: one-word names skip the phrase scan and the tokenizer, `participant_step` skips splitting into
tokens when no `plugin(s)` word ends the name, and `_words_text` keeps a plain word as it is. Each is
compared here with the general code it stands for.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck.recognise import _words_text
from drawcheck.recognise.names import _PLUGIN_WORDS, _one_plain_word, matcher, participant_step, tokens


def _words_of(reference) -> list[str]:
    names = [n for s in reference.steps for n in (s.id, s.name, *s.synonyms)]
    names += [w for c in reference.cycles.values() for w in c.words]
    names += [ns.name for ns in reference.not_steps] + list(reference.labels) + list(reference.ignore_words)
    return names


def _mutations(word: str, rng: random.Random) -> list[str]:
    """The word, a swap, a drop, a doubled letter, a number after it, and mixed case."""
    out = [word, word + str(rng.randrange(100)), word.upper(), word.lower(), word.title()]
    if len(word) > 2:
        k = rng.randrange(len(word) - 1)
        out.append(word[:k] + word[k + 1] + word[k] + word[k + 2:])
        out.append(word[:k] + word[k + 1:])
        out.append(word[:k] + word[k] + word[k:])
    return out


def _single_words(reference) -> list[str]:
    rng = random.Random(5)
    words = []
    for name in _words_of(reference):
        for variant in _mutations(name.replace(" ", ""), rng):
            words.append(variant)
    words += [f"{p}{n}" for p in ("S", "B", "PF", "API", "sched", "Cache", "q") for n in range(0, 100, 7)]
    return words


def test_one_word_shortcut_equals_the_general_scan(reference):
    names = matcher(reference)
    checked = 0
    for text in _single_words(reference):
        toks = names._unwrap_run(text, tokens(text))
        if len(toks) != 1:
            continue
        assert names._one_word(toks[0]) == names._words(toks), text
        checked += 1
    assert checked > 200


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="abcdefilnoprstuABCDFPRS0123456789", min_size=1, max_size=14))
def test_one_word_shortcut_on_random_words(reference, word):
    names = matcher(reference)
    toks = names._unwrap_run(word, tokens(word))
    if len(toks) == 1:
        assert names._one_word(toks[0]) == names._words(toks)


def _participant_step_by_tokens(reference, label: str) -> str | None:
    words = [t[0] for t in tokens(label)]
    while words and words[-1] in _PLUGIN_WORDS:
        words.pop()
    return matcher(reference).id_keys.get("".join(words))


@pytest.mark.parametrize("suffix", ["", " plugins", "Plugin", " plugin plugins", "-plugins!", "s", " 7"])
def test_participant_step_shortcut_equals_the_token_definition(reference, suffix):
    rng = random.Random(9)
    for name in _words_of(reference):
        for variant in _mutations(name, rng):
            label = variant + suffix
            assert participant_step(matcher(reference), label) == _participant_step_by_tokens(reference, label)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="aeilnoprstuAFPS ._-0123\u00e9\u212a", max_size=20))
def test_participant_step_shortcut_on_random_labels(reference, label):
    assert participant_step(matcher(reference), label) == _participant_step_by_tokens(reference, label)


def test_plain_word_shortcut_equals_the_tokens(reference):
    names = matcher(reference)
    checked = 0
    for text in _single_words(reference) + ["", "a", "7", "S42", "s-42", "S 42", "\u00e9t\u00e9", "Sched66", "RunX"]:
        toks = _one_plain_word(text)
        if toks is not None:
            assert toks == names._unwrap_run(text, tokens(text)), text
            checked += 1
    assert checked > 100


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="abcXYZ019 _-\u00e9\u0131\u212a", max_size=8))
def test_plain_word_shortcut_on_random_texts(reference, text):
    toks = _one_plain_word(text)
    if toks is not None:
        assert toks == matcher(reference)._unwrap_run(text, tokens(text))


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="abcXYZ019 _-.\u00e9\u0130\u212a", max_size=10))
def test_words_text_shortcut_equals_the_definition(text):
    assert _words_text(text) == " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "
