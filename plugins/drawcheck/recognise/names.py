"""Find the reference's names in free text: step names, cycle labels, non-steps, labels.

Names are compared after normalising case, spaces, hyphens and underscores, after
splitting camelCase, and after stripping `Run…Plugins` wrappers. A near miss of a
step name (small edit distance) is a spelling hint, not a mistake.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from drawcheck.recognise.phrases import ScriptPhrases, gapless, is_plain
from drawcheck.reference.model import LegacyName, Phase, Reference, Step

_RAW = re.compile(r"[A-Za-z0-9]+")
_SUB = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_PLUGIN_WORDS = ("plugins", "plugin")
_INFLECTIONS = ("s", "es", "d", "ed", "ing")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Match:
    kind: str  # "step" | "cycle" | "not-step" | "label"
    target: str  # step id, cycle id, not-step name, or label compact
    start: int  # span in the text
    end: int
    how: str = "exact"  # "exact" | "legacy" | "typo"
    legacy: LegacyName | None = None


@dataclass(frozen=True, slots=True)
class _Entry:
    kind: str
    target: str
    how: str = "exact"
    legacy: LegacyName | None = None


@dataclass(frozen=True, slots=True)
class NotStepName:
    """A name learners draw that is no step (`whole`: only when it is the whole text)."""

    name: str
    whole: bool = False


def compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def words_text(text: str) -> str:
    """Lower-case words separated by single spaces, with a space at each end (for whole-word search)."""
    return " " + _NOT_WORD.sub(" ", text.lower()).strip() + " "


def tokens(text: str) -> list[tuple[str, int, int]]:
    """Lower-case word pieces with their spans; camelCase split, `Run…Plugins` unwrapped."""
    out: list[tuple[str, int, int]] = []
    for raw in _RAW.finditer(text):
        word = raw.group()
        base = raw.start()
        if _inside_other_word(text, base, raw.end()):
            continue  # `vinculaci` of `vinculación`: recognise/phrases.py reads such words
        if word.islower() or word.isupper() or word.isdigit():
            out.append((word.lower(), base, raw.end()))
            continue
        subs = [(m.group().lower(), base + m.start(), base + m.end()) for m in _SUB.finditer(word)]
        out.extend(subs)
    return out


def _inside_other_word(text: str, start: int, end: int) -> bool:
    """ASCII letters glued to a non-ASCII letter of a spaced script (é, ñ, ß): part of a longer word."""
    return any(0 <= i < len(text) and text[i].isalpha() and not text[i].isascii() and not gapless(text[i])
               for i in (start - 1, end))


class NameMatcher:
    """Every name of one exercise, built once when it loads: `find(text)` lists the names in a text."""

    def __init__(self, steps: tuple[Step, ...], phases: dict[str, Phase], labels: tuple[str, ...] = (),
                 not_steps: tuple[NotStepName, ...] = (), ignore_words: tuple[str, ...] = ()):
        self.phrases: dict[str, _Entry] = {}
        self.whole: dict[str, _Entry] = {}
        inflected: dict[str, _Entry] = {}
        script = []  # names in other scripts or with accents: recognise/phrases.py reads them
        for step in steps:
            for name in (step.id, step.name, *step.synonyms):
                if not is_plain(name):
                    script.append((name, "step", step.id, True))
                    continue
                key = compact(name)
                self.phrases.setdefault(key, _Entry("step", step.id))
                if len(tokens(name)) > 1:
                    inflected.setdefault(key + "s", _Entry("step", step.id))
                    continue
                for suffix in _INFLECTIONS:
                    inflected.setdefault(key + suffix, _Entry("step", step.id))
                if key.endswith("e"):
                    inflected.setdefault(key[:-1] + "ing", _Entry("step", step.id))
            for legacy in step.legacy:
                entry = _Entry("step", step.id, "legacy", legacy)
                (self.whole if legacy.whole else self.phrases).setdefault(compact(legacy.name), entry)
        self.step_keys = {k: e.target for k, e in self.phrases.items() if e.kind == "step" and e.how == "exact"}
        self.id_keys = {compact(n): step.id for step in steps for n in (step.id, step.name)}
        for phase in phases.values():
            for word in phase.words:
                if not is_plain(word):
                    script.append((word, "cycle", phase.id, False))
                    continue
                self.phrases.setdefault(compact(word), _Entry("cycle", phase.id))
        for label in labels:
            self.phrases.setdefault(compact(label), _Entry("label", compact(label)))
        for ns in not_steps:
            if ns.whole:
                self.whole.setdefault(compact(ns.name), _Entry("not-step", ns.name))
                continue
            self.phrases.setdefault(compact(ns.name), _Entry("not-step", ns.name))
            inflected.setdefault(compact(ns.name) + "s", _Entry("not-step", ns.name))
        for key, entry in inflected.items():
            self.phrases.setdefault(key, entry)
        self.script = ScriptPhrases(script)
        self.prefixes = {key[:i] for key in self.phrases for i in range(1, len(key) + 1)}
        self.ignore = set(ignore_words)
        # by first letter (a near miss keeps it): (key, step id, its letters)
        self._fuzzy_pool: dict[str, list[tuple[str, str, frozenset]]] = {}
        for k, t in self.step_keys.items():
            if len(k) >= 5:
                self._fuzzy_pool.setdefault(k[0], []).append((k, t, frozenset(k)))

    def find(self, text: str) -> tuple[Match, ...]:
        """The names in `text`, in text order."""
        found = self._find(text)
        extra: list[Match] = []
        for kind, target, start, end in self.script.find(text):
            if any(f.start < end and start < f.end for f in found) or (
                    kind == "step" and any(f.kind == "step" and f.target == target for f in found + extra)):
                continue  # `Name（名前）`: a name and its translation draw the step once
            extra.append(Match(kind, target, start, end))
        return tuple(sorted(found + extra, key=lambda m: m.start)) if extra else tuple(found)

    def _unwrap_run(self, text: str, toks: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """`RunXPlugins[Y]` -> Y if Y names a step, else X; done per raw word."""
        out: list[tuple[str, int, int]] = []
        i = 0
        while i < len(toks):
            word, start, end = toks[i]
            j = i + 1
            while j < len(toks) and toks[j][1] == toks[j - 1][2]:
                j += 1  # pieces of one raw word are adjacent
            piece = toks[i:j]
            i = j
            if len(piece) > 1 and word == "run" and "".join(p[0] for p in piece) not in self.phrases:
                rest = piece[1:]
                cut = next((k for k, p in enumerate(rest) if p[0] in _PLUGIN_WORDS), None)
                if cut is not None:
                    middle, tail = rest[:cut], rest[cut + 1:]
                    if tail and self.step_keys.get("".join(p[0] for p in tail)):
                        rest = tail
                    elif middle:
                        rest = middle
                out.extend(rest)
            else:
                out.extend(piece)
        return out

    def _find(self, text: str) -> list[Match]:
        toks = self._unwrap_run(text, tokens(text))
        whole = self.whole.get("".join(t[0] for t in toks))
        if whole is not None and toks:
            return [Match(whole.kind, whole.target, toks[0][1], toks[-1][2], whole.how, whole.legacy)]
        return self._words(toks)

    def _words(self, toks: list[tuple[str, int, int]]) -> list[Match]:
        """Longest phrases first, then near misses among the words left over."""
        found: list[Match] = []
        used = [False] * len(toks)
        self._misspelt_words(toks, used, found)
        i = 0
        n_toks = len(toks)
        while i < n_toks:
            key = ""
            best = None
            for j in range(i, n_toks):
                key += toks[j][0]
                if key not in self.prefixes:
                    break
                entry = self.phrases.get(key)
                if entry is not None:
                    best = (j, entry)
            if best is None or any(used[i:best[0] + 1]):
                i += 1
                continue
            j, entry = best
            found.append(Match(entry.kind, entry.target, toks[i][1], toks[j][2], entry.how, entry.legacy))
            for k in range(i, j + 1):
                used[k] = True
            i = j + 1
        if not all(used):
            found.extend(self._typos(toks, used))
        found.sort(key=lambda m: m.start)
        return found

    def _misspelt_words(self, toks, used, found) -> None:
        """A camelCase identifier that is a near miss as a whole (`NormalizeScroe`) is one typo."""
        i = 0
        while i < len(toks):
            j = i + 1
            while j < len(toks) and toks[j][1] == toks[j - 1][2]:
                j += 1
            if j - i > 1:
                key = "".join(t[0] for t in toks[i:j])
                if key not in self.phrases:
                    target = self._fuzzy(key)
                    if target:
                        found.append(Match("step", target, toks[i][1], toks[j - 1][2], "typo"))
                        for k in range(i, j):
                            used[k] = True
            i = j

    def _typos(self, toks, used) -> list[Match]:
        out = []
        i = 0
        while i < len(toks):
            if used[i] or not self._fuzzy_ok(toks[i][0]):
                i += 1
                continue
            for n in (3, 2, 1):
                window = toks[i:i + n]
                if len(window) < n or any(used[i + k] for k in range(n)) or not self._fuzzy_ok(window[-1][0]):
                    continue
                key = "".join(t[0] for t in window)
                target = self._fuzzy(key)
                if target:
                    out.append(Match("step", target, window[0][1], window[-1][2], "typo"))
                    for k in range(n):
                        used[i + k] = True
                    i += n - 1
                    break
            i += 1
        return out

    def _fuzzy_ok(self, word: str) -> bool:
        return len(word) > 2 and not word.isdigit() and word not in self.ignore

    def _fuzzy(self, key: str) -> str | None:
        if len(key) < 5 or key in self.ignore:
            return None
        limit = 1 if len(key) < 9 else 2
        best, best_d = None, limit + 1
        letters, n = frozenset(key), len(key)
        for cand, target, cand_letters in self._fuzzy_pool.get(key[0], ()):
            if abs(len(cand) - n) > limit or len(letters ^ cand_letters) > 2 * limit:
                continue  # _osa's own first test
            d = _osa(key, cand, limit)
            if d < best_d and not (len(key) < 7 and len(key) == len(cand) and not _swapped(key, cand)):
                best, best_d = target, d  # short words: a changed letter is usually another word (store/score)
        return best


def _swapped(a: str, b: str) -> bool:
    """Equal-length words that differ only by two adjacent letters swapped."""
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _without_common_ends(a: str, b: str) -> tuple[str, str]:
    """`a` and `b` without the prefix and then the suffix they share."""
    short = min(len(a), len(b))
    i = 0
    while i < short and a[i] == b[i]:
        i += 1
    j = 0
    while j < short - i and a[-1 - j] == b[-1 - j]:
        j += 1
    return a[i:len(a) - j], b[i:len(b) - j]


def _osa(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (adjacent swaps cost 1) when it is at most `limit`, else limit + 1.

    A cell further than `limit` from the diagonal cannot hold a distance that small, so only the band
    of 2 * limit + 1 cells around it is computed; every other cell counts as too far (limit + 1).
    """
    far = limit + 1
    a, b = _without_common_ends(a, b)  # a shared prefix or suffix never changes the distance
    n, m = len(a), len(b)
    if not n or not m:
        return min(n + m, far)
    if abs(n - m) > limit or len(set(a).symmetric_difference(b)) > 2 * limit:
        return far  # each edit adds or removes at most one letter, a change both, a swap neither
    prev2: list[int] = []
    prev = [j if j <= limit else far for j in range(m + 1)]
    for i in range(1, n + 1):
        cur = [far] * (m + 1)
        if i <= limit:
            cur[0] = i
        row_min = cur[0]
        a_i = a[i - 1]
        for j in range(max(1, i - limit), min(m, i + limit) + 1):
            b_j = b[j - 1]
            v = prev[j - 1] + (a_i != b_j)
            if prev[j] + 1 < v:
                v = prev[j] + 1
            if cur[j - 1] + 1 < v:
                v = cur[j - 1] + 1
            if i > 1 and j > 1 and a_i == b[j - 2] and a[i - 2] == b_j and prev2[j - 2] + 1 < v:
                v = prev2[j - 2] + 1
            if v > far:
                v = far
            cur[j] = v
            if v < row_min:
                row_min = v
        if row_min > limit:
            return far
        prev2, prev = prev, cur
    return prev[m]


def participant_step(names: NameMatcher, label: str) -> str | None:
    """The step a participant is named after: its id or name, optionally followed by `plugin(s)`."""
    words = [t[0] for t in tokens(label)]
    while words and words[-1] in _PLUGIN_WORDS:
        words.pop()
    return names.id_keys.get("".join(words))


def matcher(ref: Reference) -> NameMatcher:
    """The reference's vocabulary (built when it loads)."""
    return ref.vocabulary
