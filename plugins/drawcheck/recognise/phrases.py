"""Words in any script: the phrase matcher for words that are not plain ASCII (中文, 日本語, 한국어, razón).

Scripts without spaces between words (Chinese, Japanese; Korean attaches particles) need no word gap on
their side of a word: `队列` is found in `调度队列（先进先出）`. A Latin edge of a word still needs a word
gap (`síncrono` is not in `asíncrono`). Names in such scripts (`whole`) are stricter: no letter of those
scripts may touch them, so the name `过滤` is not read inside `过滤器` or `预过滤`.
"""

from __future__ import annotations

import re

_GAPLESS = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"  # Thai, Lao, Myanmar, Khmer
            "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff")
_GAPLESS_MARKS = "\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u0eb1\u0eb4-\u0ebc\u0ec8-\u0ecd"  # their vowel and tone marks
_GAPLESS_CHAR = re.compile(f"[{_GAPLESS}]")
SPACED_LETTER = f"[^\\W\\d_\\x00-\\x7f{_GAPLESS}]"  # a letter beyond ASCII of a script with spaces: é, ñ, ß
# a word: a run of letters and digits (str.isalnum), all of scripts without spaces or all of other ones
_SCRIPT_WORD = re.compile(f"(?:(?=[^\\W_])[{_GAPLESS}]|[{_GAPLESS_MARKS}])+|[^\\W_{_GAPLESS}]+")
_GAPLESS_GAP = re.compile(f"(?<=[{_GAPLESS}])[\\s_-]+(?=[{_GAPLESS}])")  # a gap between two such letters
_LOWER_ALONE = str.maketrans({"\u0130": "i", "\u03a3": "\u03c3"})


def foreign_letters(text: str) -> bool:
    """Written (in part) in letters outside ASCII: another script, or accents."""
    return not text.isascii() and any(ch.isalpha() and not ch.isascii() for ch in text)


def is_plain(word: str) -> bool:
    """ASCII only: the word needs none of this module (the name matcher reads it)."""
    return word.isascii()


def phrase_text(text: str) -> str:
    """Lower-case words separated by single spaces, a space at each end; scripts kept apart."""
    return _spaced(_words(text))


_CLAUSE_END = re.compile(r"[,;.:!?，。、；：！？]")


NEGATION_BEFORE = 20  # characters of `phrase_text` a negation may stand before the words it denies
NEGATION_AFTER = 8  # ... or after them (ロックは不要, 락이 필요 없다)


def clauses(text: str) -> tuple[str, ...]:
    """The `phrase_text` of each clause of `text` (split at , ; . : and their CJK forms), for `stated`."""
    return tuple(phrase_text(clause) for clause in _CLAUSE_END.split(text))


def stated(pattern: re.Pattern | None, text_clauses: tuple[str, ...], negations: re.Pattern | None) \
        -> tuple[int, int] | None:
    """Where a text (its `clauses`) first says a `phrases_regex` without denying it: (clause, offset), else None.

    A negation denies only what stands next to it in its clause, so "no lock is involved" states no lock,
    but "expires after 30s if the bind never lands" states expiry.
    """
    if pattern is None:
        return None
    for n, low in enumerate(text_clauses):
        for m in pattern.finditer(low):
            near = low[max(0, m.start() - NEGATION_BEFORE):m.end() + NEGATION_AFTER]
            if negations is None or negations.search(near) is None:
                return n, m.start()
    return None


def _edge(char: str) -> bool:
    return _GAPLESS_CHAR.match(char) is None


GAP_BEFORE = "(?<= )"  # a word gap before a word, in `phrase_text` output


def phrase_pattern(word: str, *, whole: bool = False) -> str | None:
    """The regex body for `word` in `phrase_text` output (None for a word with no letters)."""
    body = phrase_text(word).strip()
    if not body:
        return None
    # the word gaps as lookarounds: two names side by side ("autenticación, autorización") share the gap.
    # `phrase_text` puts a space wherever a gapless script meets anything else, so a whole name's gapless
    # edge, too, needs only a space beside it
    left = GAP_BEFORE if _edge(body[0]) or whole else ""
    right = "(?= )" if _edge(body[-1]) or whole else ""
    return left + re.escape(body).replace(r"\ ", " ") + right


def phrase_needle(word: str) -> str | None:
    """What `phrase_pattern(word)` matches, as plain text: its body with a space on each side that has a word gap
    (`needle in phrase_text(text)` is `re.search(phrase_pattern(word), phrase_text(text))`, without a regex tried
    at every place; None for a word with no letters)."""
    body = phrase_text(word).strip()
    if not body:
        return None
    return (" " if _edge(body[0]) else "") + body + (" " if _edge(body[-1]) else "")


def phrases_regex(words, *, whole: bool = False) -> re.Pattern | None:
    """Any of `words` (longest first) in `phrase_text` output."""
    bodies = sorted({b for w in words if (b := phrase_pattern(w, whole=whole))}, key=len, reverse=True)
    return re.compile(one_of(bodies)) if bodies else None


def one_of(patterns: list[str]) -> str:
    """`phrase_pattern`s as one alternation that tries them in their order at each place.

    Those that need a gap before them and start with a letter of a spaced script share one `(?<= )`, so
    each place's gap is tested once rather than once a word. The order stays: they start with no gapless
    letter and every other one starts with one, so no two of different groups match at the same place."""
    def shared(p: str) -> bool:
        return p.startswith(GAP_BEFORE) and _edge(p[len(GAP_BEFORE)])

    gapped = [p.removeprefix(GAP_BEFORE) for p in patterns if shared(p)]
    return "|".join(([GAP_BEFORE + "(?:" + "|".join(gapped) + ")"] if gapped else [])
                    + [p for p in patterns if not shared(p)])


class ScriptPhrases:
    """Names written in other scripts: `find(text)` gives (kind, target, start, end) in `text`.

    Entries are (word, kind, target, whole). Longest first at each place; a match never overlaps another.
    """

    def __init__(self, entries):
        self.by_body: dict[str, tuple[str, str]] = {}
        alts = []
        # each word as written, then (where written words do not already have it) without the spaces
        # between two words of a script without spaces: Korean writes a compound noun spaced or not
        # (`점수 정규화` = `점수정규화`)
        entries = list(entries)
        joined = [(_GAPLESS_GAP.sub("", word), kind, target, whole) for word, kind, target, whole in entries
                  if _GAPLESS_GAP.search(word)]
        for word, kind, target, whole in entries + joined:
            body = phrase_text(word).strip()
            pattern = phrase_pattern(word, whole=whole)
            if pattern is None or body in self.by_body:
                continue
            self.by_body[body] = (kind, target)
            alts.append((len(body), pattern))
        self.regex = re.compile(one_of([p for _, p in sorted(alts, key=lambda a: -a[0])])) if alts else None

    def find(self, text: str) -> list[tuple[str, str, int, int]]:
        if self.regex is None or text.isascii():
            return []
        spaced, offsets = _spaced_with_offsets(text)
        out = []
        for m in self.regex.finditer(spaced):
            body = m.group().strip()
            kind, target = self.by_body[body]
            start = m.start() + (len(m.group()) - len(m.group().lstrip()))
            end = start + len(body)
            out.append((kind, target, offsets[start], offsets[end - 1] + 1))
        return out


def _spaced_with_offsets(text: str) -> tuple[str, list[int]]:
    """`phrase_text(text)` and, for each of its characters, where it came from in `text` (a space: where
    the word before it ends; the first space: 0)."""
    low = _lower(text)
    words, offsets = [], [0]
    for word in _SCRIPT_WORD.finditer(low):
        words.append(word.group())
        offsets.extend(range(word.start(), word.end() + 1))
    return _spaced(words), offsets


def _words(text: str) -> list[str]:
    """The lower-case words of `text`: runs of letters and digits (str.isalnum), cut where the script changes
    between one written with spaces and one without."""
    return _SCRIPT_WORD.findall(_lower(text))


def _spaced(words: list[str]) -> str:
    return " " + " ".join(words) + " " if words else " "


def _lower(text: str) -> str:
    """Each character lower-cased on its own: `İ` is `i` (not two characters), `Σ` is `σ` (never a final `ς`)."""
    return text.translate(_LOWER_ALONE).lower()
