"""The banded edit distance behind spelling hints equals the full table wherever it matters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck.recognise.names import _osa


def _full_osa(a: str, b: str) -> int:
    """Optimal string alignment distance over the whole table: the plain definition."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


_WORDS = st.text(alphabet="abcdeprst", max_size=12)


@settings(max_examples=3000, deadline=None)
@given(_WORDS, _WORDS, st.integers(min_value=0, max_value=3))
def test_banded_distance_equals_full_table_up_to_the_limit(a, b, limit):
    full = _full_osa(a, b)
    assert _osa(a, b, limit) == (full if full <= limit else limit + 1)


def test_known_distances():
    assert _osa("prefilter", "prefiltr", 2) == 1
    assert _osa("normalizescore", "normalizescroe", 2) == 1  # one swap
    assert _osa("reserve", "permit", 2) == 3
    assert _osa("score", "store", 1) == 1


@settings(max_examples=2000, deadline=None)
@given(_WORDS, _WORDS, _WORDS, _WORDS, st.integers(min_value=0, max_value=3))
def test_shared_prefix_and_suffix_change_nothing(prefix, a, b, suffix, limit):
    full = _full_osa(prefix + a + suffix, prefix + b + suffix)
    assert _osa(prefix + a + suffix, prefix + b + suffix, limit) == (full if full <= limit else limit + 1)
