"""Find the reference's names in free text: step names, cycle labels, non-steps, labels.

A name is read from whole identifiers only: the text is cut into words (`[A-Za-z0-9]+`, so `a.b(c)` is
three), and a name is one word or a run of words, compared lower-case without spaces, hyphens or
underscores. `SeedPlanting` is one word, so it never reads as a step `Plant`. The exercise's `wrappers:`
(e.g. `Run{step}Plugins`) unwrap a call named after a step. A near miss of a step name (small edit
distance) is a spelling hint, not a mistake, unless it is the name with its words inflected
(`plantedSeeds` is a real identifier, not a misspelt `plant seed`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass

from drawcheck.recognise.phrases import SPACED_LETTER, ScriptPhrases, is_plain, phrase_text
from drawcheck.reference.model import LegacyName, Phase, Reference, Step

_WORD = re.compile(r"[A-Za-z0-9]+")
_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")  # camelCase pieces of a name in the exercise
_INFLECTIONS = ("s", "es", "d", "ed", "ing")
_NOT_WORD = re.compile(r"[^a-z0-9]+")
STEP_SLOT = "{step}"  # where the step's name goes in a wrapper


@dataclass(frozen=True, slots=True)
class Match:
    kind: str  # "step" | "cycle" | "not-step" | "label"
    target: str  # step id, cycle id, not-step name, or label compact
    start: int  # span in the text
    end: int
    how: str = "exact"  # "exact" | "legacy" | "typo" | "caller" (a function running several steps) | "loose" (a loose phase word)
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


@dataclass(frozen=True, slots=True)
class Wrapper:
    """A call named after a step, `Run{step}Plugins`: compact prefix and suffix around the step."""

    prefix: str
    suffix: str

    @classmethod
    def parse(cls, template: str) -> Wrapper:
        before, _, after = template.partition(STEP_SLOT)
        return cls(compact(before), compact(after))


@dataclass(frozen=True, slots=True)
class _Near:
    """A step key that a misspelling may be near: its letters, and the forms of each of its pieces."""

    key: str
    target: str
    letters: frozenset
    forms: tuple[tuple[str, ...], ...]  # per camelCase piece: the piece and its inflections

    def inflected(self, word: str) -> bool:
        """Is `word` the name with any of its pieces inflected (`plantedseeds` for `plant seed`)?"""
        ends = {0}
        for forms in self.forms:
            ends = {at + len(f) for at in ends for f in forms if word.startswith(f, at)}
        return len(word) in ends


_DERIVATIONS = ("ions", "ion", "ings", "ing", "ed", "ie")  # -ie: Dutch for -ion; (not -er or -s: often a slip of the ending)


def _stem(word: str) -> str:
    """`word` without one derivational ending, when at least four letters stay: `watering`, `watered` -> water."""
    for ending in _DERIVATIONS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


def compact(text: str) -> str:
    return _NOT_WORD.sub("", text.lower())


def words_text(text: str) -> str:
    """Lower-case words separated by single spaces, with a space at each end (for whole-word search)."""
    return " " + _NOT_WORD.sub(" ", text.lower()).strip() + " "


_LEADING_TAG = re.compile(r"\s*(?:\[([^\[\]]{1,40})\]|([^\W\d_][\w-]{0,39})\s*[:：])")
"""A text's leading tag: a bracketed word or two (`[first] Sow`), or one word and a colon (`first: Sow`)."""


_PHRASE_BREAK = re.compile(r"[()\[\]{}<>:;,|→]")


_WORD_ALONE = re.compile(rf"(?<![A-Za-z0-9])(?<!{SPACED_LETTER})[A-Za-z0-9]++(?!{SPACED_LETTER})")


_PLACE_NAME = re.compile(
    r"(?i)(?<![\w.-])(?:(?:[a-z0-9-]+\.)+(?:io|com|org|net|dev|local|svc|internal)\b(?:/[^\s,;:()\[\]<>]*)?"
    r"|(?<![\w./-])/?(?:[\w.-]+/)*[\w-]+\.(?:go|py|proto|ya?ml|json|md|sh|rs|java|ts|js)\b(?::\d+)?)"
    r"|(?<=/)(?-i:[a-z0-9]+(?:-[a-z0-9]+)+)(?=/)")
"""A domain name, with the path after it (an annotation key `example.com/sow-here`, a host, a URL's host and
path); a source file's name, with its folders and line (`pkg/garden/sow_one.go:123`); an object's name in a
path (`beds/sow-demo/status`: lower case, with a hyphen, between two slashes). Its words name nothing."""


_REQUEST_PATH = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE)\s+(/?(?:[^\s/<>]+/)+)[^\s/<>]")
"""An HTTP request's path: all of it but its last part is where (`POST beds/sowed/harvest`: the bed's name,
then what is done), and its words name nothing. No `<` or `>` is in a path: `POST sow<br/>bed` is a line break."""


_QUERY = re.compile(r"(?<=[\w/])\?[\w.-]+=[^\s<>]*")
"""A URL's query string (`beds?fieldSow=Strict&watch=true`): the request's options, whose words name nothing."""


_FIELD_NAME = re.compile(r"(?<![\w.-])[A-Za-z][\w.-]*(?==\")")
"""The name of a log line's field, `key="value"` (`bed="east" harvest="done"`): it names the field, not a step."""


def words(text: str) -> list[tuple[str, int, int]]:
    """The lower-case words of `text` with their spans; never the ASCII part of a longer word in a script
    with spaces (`vinculaci` of `vinculación`); a `GAP` for the words of a domain, file or object name
    (`_PLACE_NAME`); none for a request's path before its last part (`_REQUEST_PATH`: `PATCH beds/x/status` is a
    `PATCH status`), nor for a query string's (`_QUERY`) or a log field's name (`_FIELD_NAME`)."""
    found = [(m.group().lower(), m.start(), m.end()) for m in _WORD_ALONE.finditer(text)]
    if "." not in text and "/" not in text and "=" not in text:
        return found  # no such name without a dot, a slash or an equals sign
    paths = _merged([r.span(1) for r in _REQUEST_PATH.finditer(text)] + [q.span() for q in _QUERY.finditer(text)]
                    + [f.span() for f in _FIELD_NAME.finditer(text)])
    if paths:
        found = [w for w, path in _spans_of(found, paths) if path is None]
    out = []
    for w, place in _spans_of(found, _merged([d.span() for d in _PLACE_NAME.finditer(text)])):
        if place is None:
            out.append(w)
        elif not out or out[-1] != (GAP, *place):
            out.append((GAP, *place))  # no name spans it: `beds.example.com/sow` is no `beds sow`
    return out


def _spans_of(found, spans):
    """Each word with the span of `spans` (merged, in text order) it stands in, or None; in one pass."""
    k = 0
    for w in found:
        while k < len(spans) and spans[k][1] <= w[1]:
            k += 1
        yield w, (spans[k] if k < len(spans) and spans[k][0] <= w[1] else None)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans in text order, overlapping ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


GAP = "\x00"
"""The word `words` puts where a place's name stands: it is part of no name."""


_DOTTED_CAPITAL_I = {0x130: "I"}
"""Turkish `İ` starts a word the exercise writes in ASCII (`İzin` of `izin`): read as `I` (same length)."""

_STRUCK_OUT = re.compile(r"(?i)~~.+?~~|<(s|del|strike)>[^<]*</\1\s*>")
"""Markdown's strikethrough (`~~Sow~~ Plant` crosses Sow out) and HTML's (`<s>Sow</s>`, `<del>`, `<strike>`: its
text holds no tag, so an unclosed one is read up to the next `<` only, never to the end of the text)."""


def not_struck_out(text: str) -> str:
    """`text` with what it crosses out blanked (so every other word keeps its place)."""
    return _STRUCK_OUT.sub(lambda m: " " * len(m.group()), text) if "~~" in text or "<" in text else text


def _pieces(name: str) -> list[str]:
    """A name's lower-case word pieces, camelCase split: `plant seed`, `PlantSeed` -> plant, seed."""
    return [p.lower() for w in _WORD.findall(name) for p in (_PIECE.findall(w) or [w])]


def _forms(piece: str) -> tuple[str, ...]:
    """A name's piece and its inflections: `plant` -> plant, plants, plantes, plantd, planted, planting."""
    return (piece, *(piece + s for s in _INFLECTIONS), *((piece[:-1] + "ing",) if piece.endswith("e") else ()))


def _inflected_keys(name: str) -> list[str]:
    """The keys of a name's inflected forms: a one-word name's plurals, `-d`/`-ed` and `-ing` forms
    (`PreSowing`, `pre-sowing`), a name of several words' plural only."""
    key = compact(name)
    if not _WORD.fullmatch(name):
        return [key + "s"]
    return [key + suffix for suffix in _INFLECTIONS] + ([key[:-1] + "ing"] if key.endswith("e") else [])


class NameMatcher:
    """Every name of one exercise, built once when it loads: `find(text)` lists the names in a text."""

    def __init__(self, steps: tuple[Step, ...], phases: dict[str, Phase], labels: tuple[str, ...] = (),
                 not_steps: tuple[NotStepName, ...] = (), ignore_words: tuple[str, ...] = (),
                 wrappers: tuple[Wrapper, ...] = (), denials: tuple[str, ...] = (),
                 retractions: tuple[str, ...] = ()):
        self.phrases: dict[str, _Entry] = {}
        self.whole: dict[str, _Entry] = {}
        inflected: dict[str, _Entry] = {}
        script = []  # names in other scripts or with accents: recognise/phrases.py reads them
        for step in steps:
            for name in step.callers:
                self.phrases.setdefault(compact(name), _Entry("step", step.id, "caller"))
            for name in (step.id, step.name, *step.synonyms):
                if not is_plain(name):
                    script.append((name, "step", step.id, True))
                    continue
                self.phrases.setdefault(compact(name), _Entry("step", step.id))
                for form in _inflected_keys(name):
                    inflected.setdefault(form, _Entry("step", step.id))
            for legacy in step.legacy:
                entry = _Entry("step", step.id, "legacy", legacy)
                (self.whole if legacy.whole else self.phrases).setdefault(compact(legacy.name), entry)
                for form in () if legacy.whole else _inflected_keys(legacy.name):  # `planting` of an old name `Plant`
                    inflected.setdefault(form, entry)
        self.step_keys = {k: e.target for k, e in self.phrases.items() if e.kind == "step" and e.how == "exact"}
        self.id_keys = {compact(n): step.id for step in steps for n in (step.id, step.name)}
        for step in steps:  # `plant (PlantSeed)`: the function a name's brackets give, when it is a synonym too
            synonyms = {compact(s) for s in step.synonyms}
            for qualifier in _QUALIFIER.findall(step.name):
                if compact(qualifier) in synonyms:
                    self.id_keys.setdefault(compact(qualifier), step.id)
        self.loose_script: set[str] = set()  # phrase texts of loose phase words in scripts without spaces
        for phase in phases.values():
            for word, how in [(w, "exact") for w in phase.words] + [(w, "loose") for w in phase.loose_words]:
                if not is_plain(word):
                    script.append((word, "cycle", phase.id, False))
                    if how == "loose":
                        self.loose_script.add(phrase_text(word).strip())
                    continue
                self.phrases.setdefault(compact(word), _Entry("cycle", phase.id, how))
        self.tags = {compact(word): phase.id for phase in phases.values() for word in (*phase.tag_words, *phase.words)
                     if is_plain(word)}
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
        self.denials = set(denials)
        # a retraction word before a comma, colon or closing bracket takes back the bracket it stands in, else
        # all that is written before it after a dash or comma: `Sow — sorry, PreSow`, `Harvest (I had Sow here,
        # crossed out)`
        said = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(retractions, key=len, reverse=True))
        self.retraction = re.compile(rf"(?i)\b(?:{said})\s*[,:)]") if retractions else None
        self.retracting_bracket = re.compile(rf"(?i)\((?=[^()]*\b(?:{said})\s*[,:)])[^()]*\)") \
            if retractions else None
        self.retracted_before = re.compile(rf"(?i)^.*(?:[—–]|\s-\s|,)\s*(?:{said})\s*[,:]") if retractions else None
        self.wrappers = tuple(sorted(wrappers, key=lambda w: -len(w.prefix) - len(w.suffix)))  # longest first
        # a word fits a wrapper only when it holds the wrapper's suffix (or starts with a bare one's prefix)
        fits = [re.escape(w.suffix) for w in self.wrappers if w.suffix] + [
            "^" + re.escape(w.prefix) for w in self.wrappers if not w.suffix]
        self.may_be_wrapped = re.compile("|".join(fits)) if fits else None
        # near misses keep the first letter and the length within the edit limit
        by_length: dict[tuple[str, int], list[_Near]] = {}  # (first letter, length) -> step keys
        for step in steps:
            for name in (step.id, step.name, *step.synonyms):
                key = compact(name)
                if len(key) >= 5 and self.step_keys.get(key) == step.id and not any(
                        n.key == key for n in by_length.get((key[0], len(key)), ())):
                    near = _Near(key, step.id, frozenset(key), tuple(_forms(p) for p in _pieces(name)))
                    by_length.setdefault((key[0], len(key)), []).append(near)
        # (first letter, length of a misspelling) -> the step keys it may be near, shortest first
        self._near: dict[tuple[str, int], tuple[_Near, ...]] = {}
        for letter in {letter for letter, _ in by_length}:
            for n in range(5, max(length for first, length in by_length if first == letter) + 3):
                window = tuple(near for length in range(n - _edit_limit(n), n + _edit_limit(n) + 1)
                               for near in by_length.get((letter, length), ()))
                if window:
                    self._near[(letter, n)] = window
        self._near_letters = frozenset(letter for letter, _ in self._near)

    def may_start_a_name(self, text: str) -> bool:
        """Can `text` start with a name: its first word starts a name's key, or it is in another script?"""
        first = _WORD_ALONE.search(text)
        return first is None or first.start() > 0 or compact(first.group()) in self.prefixes

    def phase_tag(self, text: str) -> tuple[str, int] | None:
        """The phase a text's leading tag names by one of its words or `tag_words` (`[first phase] Sow`,
        `first: Sow`), and where the tag ends."""
        tag = _LEADING_TAG.match(text) if self.tags else None
        phase = self.tags.get(compact(tag.group(1) or tag.group(2))) if tag else None
        return (phase, tag.end()) if phase else None

    def unretracted(self, text: str) -> str:
        """`text` with what it takes back blanked (every other word keeps its place)."""
        if self.retraction is None or not ("," in text or ":" in text or ")" in text) \
                or self.retraction.search(text) is None:
            return text
        text = self.retracting_bracket.sub(lambda m: " " * len(m.group()), text)
        return self.retracted_before.sub(lambda m: " " * len(m.group()), text, count=1)

    def find(self, text: str, *, spelling: bool = True) -> tuple[Match, ...]:
        """The names in `text`, in text order (`spelling`: near misses of step names too); none it crosses out."""
        text = not_struck_out(text)
        if "\u0130" in text:
            text = text.translate(_DOTTED_CAPITAL_I)
        found = self._find(text, spelling)
        in_scripts = self.script.find(text)
        if not in_scripts:
            return found
        # each name in another script against the ASCII names near it only, and the steps named kept in counts
        # (comparing it with every name found, and copying them, was square time: `bind过滤` repeated, 5.9 s)
        starts = [f.start for f in found]
        longest = max(f.end - f.start for f in found) if found else 0
        dropped: set[int] = set()  # spelling guesses a name in another script covers
        steps = Counter(f.target for f in found if f.kind == "step")  # the steps named, in ASCII or not
        extra: list[Match] = []
        for kind, target, start, end in in_scripts:
            inside = [i for i in range(bisect_left(starts, start - longest), bisect_left(starts, end))
                      if i not in dropped and found[i].start < end and start < found[i].end]
            if inside and all(found[i].how == "typo" for i in inside):  # `mutante` of `admisión mutante`: a guess
                dropped.update(inside)
                steps.subtract(found[i].target for i in inside if found[i].kind == "step")
                inside = []
            if inside or (kind == "step" and steps[target] > 0):
                continue  # `Name（名前）`: a name and its translation draw the step once
            how = "loose" if kind == "cycle" and phrase_text(text[start:end]).strip() in self.loose_script else "exact"
            extra.append(Match(kind, target, start, end, how))
            if kind == "step":
                steps[target] += 1
        kept = [f for i, f in enumerate(found) if i not in dropped]
        return tuple(sorted(kept + extra, key=lambda m: m.start)) if extra else tuple(kept)

    def _find(self, text: str, spelling: bool) -> tuple[Match, ...]:
        """The names in `text`'s words (scripts with spaces; `ScriptPhrases` reads the others)."""
        toks = [t if t[0] in self.phrases else self.unwrap(*t) for t in words(text)]
        whole = self.whole.get("".join(t[0] for t in toks))
        if whole is not None and toks:
            return (Match(whole.kind, whole.target, toks[0][1], toks[-1][2], whole.how, whole.legacy),)
        return tuple(self._words(toks, text, spelling))

    def unwrap(self, word: str, start: int, end: int) -> tuple[str, int, int]:
        """`RunPlantPlugins` -> `plant` (its span), by the first wrapper that fits; a text after the wrapper
        (`RunPlantPluginsWater`) is the step when it names one."""
        if self.may_be_wrapped is None or self.may_be_wrapped.search(word) is None:
            return word, start, end
        for w in self.wrappers:
            if not word.startswith(w.prefix):
                continue
            cut = word.find(w.suffix, len(w.prefix) + 1) if w.suffix else len(word)
            if cut < 0:
                continue
            tail = word[cut + len(w.suffix):]
            if tail and tail in self.step_keys:
                return tail, end - len(tail), end
            return word[len(w.prefix):cut], start + len(w.prefix), start + cut
        return word, start, end

    def _words(self, toks: list[tuple[str, int, int]], text: str, spelling: bool) -> list[Match]:
        """Longest phrases first (a phrase never spans a bracket, colon, comma or arrow: `Sow (water`
        is no `sow water`), then near misses among the words left over."""
        found: list[Match] = []
        used = [t[0] == GAP for t in toks]
        after = 0  # the first word not in a phrase found so far
        for i, (key, start, _) in enumerate(toks):
            if i < after or key not in self.prefixes:  # most words start no name
                continue
            best = None
            for j in range(i, len(toks)):
                if j > i:
                    key += toks[j][0]
                    if key not in self.prefixes or _PHRASE_BREAK.search(text, toks[j - 1][2], toks[j][1]):
                        break
                entry = self.phrases.get(key)
                if entry is not None:
                    best = (j, entry)
            if best is not None:
                j, entry = best
                if not (entry.kind == "step" and self._denied(toks, i, text)):
                    found.append(Match(entry.kind, entry.target, start, toks[j][2], entry.how, entry.legacy))
                used[i:j + 1] = [True] * (j + 1 - i)
                after = j + 1
        if spelling and not all(used):
            found.extend(self._typos(toks, used, text))
            found.sort(key=lambda m: m.start)
        return found

    def _denied(self, toks, i: int, text: str) -> bool:
        """Is the word before word `i` a denial (`not sown`), in the same phrase?"""
        return i > 0 and toks[i - 1][0] in self.denials and not _PHRASE_BREAK.search(text, toks[i - 1][2], toks[i][1])

    def _typos(self, toks, used, text: str) -> list[Match]:
        """Runs of up to three words left over that are a near miss of a step name (a run starts and ends
        with a word long enough to be misspelt; no run longer than a name of its first letter, plus 2), and
        not a step's name with a short piece after it (`_names_something_else`)."""
        spellable = [not u and self._fuzzy_ok(t[0]) for t, u in zip(toks, used)]
        out = []
        i = 0
        while i < len(toks):
            for end in (i + 3, i + 2, i + 1) if spellable[i] and toks[i][0][0] in self._near_letters else ():
                if end > len(toks) or not spellable[end - 1] or any(used[i:end]):
                    continue
                target = self._fuzzy("".join(t[0] for t in toks[i:end]))
                if target and not self._names_something_else(text[toks[i][1]:toks[end - 1][2]]) \
                        and not self._denied(toks, i, text):
                    out.append(Match("step", target, toks[i][1], toks[end - 1][2], "typo"))
                    i = end - 1
                    break
            i += 1
        return out

    def _names_something_else(self, written: str) -> bool:
        """`SowingPlanId`, `plantIP`, `WaterV2`: a step's whole name, then camelCase pieces of two characters at
        most in all, is the name of a field or a type of that step, spelt right."""
        pieces = _PIECE.findall(written)
        return any(compact("".join(pieces[:k])) in self.step_keys and len("".join(pieces[k:])) <= 2
                   for k in range(1, len(pieces)))

    def _fuzzy_ok(self, word: str) -> bool:
        return len(word) > 2 and not word.isdigit() and word not in self.ignore

    def _fuzzy(self, key: str) -> str | None:
        """The step `key` misspells, if any: within 1 edit (2 from 9 letters), not an inflected form nor another
        word of the name's stem (`watering` of `watered`)."""
        window = self._near.get((key[0], len(key)))
        if window is None or key in self.ignore:
            return None
        limit = _edit_limit(len(key))
        best, best_d = None, limit + 1
        letters = frozenset(key)
        for near in window:
            if len(letters ^ near.letters) > 2 * limit:
                continue  # _osa's own first test
            d = _osa(key, near.key, limit)
            if d < best_d and not (len(key) < 7 and len(key) == len(near.key) and not _swapped(key, near.key)) \
                    and not near.inflected(key) and _stem(key) != _stem(near.key):
                # short words: a changed letter is usually another word (store/score)
                best, best_d = near.target, d
        return best


def _edit_limit(length: int) -> int:
    """How many edits a misspelling of `length` letters may be from a step name."""
    return 1 if length < 9 else 2


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


_LIST_SEPARATORS = re.compile(r"\s*(?:[,;/+&|]|->|→)\s*")
_QUALIFIER = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def participant_steps(names: NameMatcher, label: str) -> tuple[str, ...]:
    """The steps a participant is named after: its id or name (or the function in its name's brackets,
    `PlantSeed` of `plant (PlantSeed)`), one in a wrapper (`Plant plugins`), or a
    list of step names and nothing else (`A, B, C`, `A / B`); a qualifier in brackets is no part of the
    name (`Plant (by hand)`)."""
    # spaces collapsed first: `\s*` tried from every space of a long run is square time (`a`, 49,700 spaces, `b`)
    parts = [part for part in _LIST_SEPARATORS.split(" ".join(_QUALIFIER.sub(" ", label).split())) if part]
    steps = []
    for part in parts:
        key = compact(part)
        step = names.id_keys.get(key) or names.id_keys.get(names.unwrap(key, 0, len(key))[0])
        if step is None:
            return ()
        steps.append(step)
    return tuple(dict.fromkeys(steps))


def read_wrappers(r, node) -> tuple[Wrapper, ...]:
    """The exercise's `wrappers: [Run{step}Plugins, ...]`: calls named after a step."""
    wrappers = []
    for item in r.seq(node, "wrappers"):
        template = r.string(item, "an item of wrappers")
        if template.count(STEP_SLOT) != 1 or not compact(template.replace(STEP_SLOT, "")):
            r.fail(item, f"the wrapper {template!r} needs one {STEP_SLOT} and a word around it, "
                         f"e.g. 'Run{STEP_SLOT}Plugins'")
        wrappers.append(Wrapper.parse(template))
    return tuple(wrappers)


def matcher(ref: Reference) -> NameMatcher:
    """The reference's vocabulary (built when it loads)."""
    return ref.vocabulary
