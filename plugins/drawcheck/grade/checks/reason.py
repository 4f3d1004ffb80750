"""The learner's one-line reason for the boundary: present, and touching enough of the ideas it needs.

Section `reason:` — `prefixes` (how a reason line starts), `groups` ({name, words, hint_if_absent?}),
`min_groups`, the messages `missing`, `wrong` and `unread` (a hint, for an unlabelled note beside the
boundary in letters outside ASCII, too few of whose words are listed), `shown_as` (its title on the feedback
page), and
`misconceptions` ({id, belief, words, with?, message, source?}): a reason that states one is a correction
that names it, whatever ideas it also touches; `negations`: words that, in the same clause, deny it instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Cited, Drawing, cited, Finding, FindingKind, Outcome
from drawcheck.recognise import (BOUNDARY, PLAIN, Item, Role, beside_boundary, labelled_sentence, prefix_regex,
                                  words_regex)
from drawcheck.recognise.phrases import clauses, foreign_letters, phrase_text, stated

ROLE = "reason"
UNREAD = ("drawcheck could not read this reason: too few of its words are ones the exercise lists (is it in a "
          "language the exercise does not list yet?); a reviewer will read it")


@dataclass(frozen=True, slots=True)
class ReasonGroup:
    name: str
    words: tuple[str, ...]
    hint_if_absent: str | None = None


@dataclass(frozen=True, slots=True)
class Misconception(Cited):
    """A wrong belief about why the boundary exists, as a reason states it."""

    id: str
    belief: str
    words: tuple[str, ...]
    message: str
    with_words: tuple[str, ...] = ()  # when set, one of these must be in the same text too


@dataclass(eq=False)
class ReasonCheck(Check):
    section = "reason"
    kinds = (FindingKind.REASON,)
    weight = 1

    prefixes: tuple[str, ...]
    groups: tuple[ReasonGroup, ...]
    missing: str
    wrong: str
    min_groups: int
    shown_as: str
    misconceptions: tuple[Misconception, ...] = ()
    negations: tuple[str, ...] = ()
    unread_message: str = UNREAD
    pattern: re.Pattern | None = field(init=False)
    group_patterns: list = field(init=False)
    negation_pattern: re.Pattern | None = field(init=False)
    misconception_patterns: list = field(init=False)
    any_misconception: re.Pattern | None = field(init=False)

    def __post_init__(self):
        self.pattern = prefix_regex(self.prefixes)
        self.group_patterns = [(g, words_regex(g.words)) for g in self.groups]
        self.negation_pattern = words_regex(self.negations)
        self.misconception_patterns = [(mc, words_regex(mc.words), words_regex(mc.with_words))
                                       for mc in self.misconceptions]
        self.any_misconception = words_regex([w for mc in self.misconceptions for w in mc.words])

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, "reason", ("prefixes", "groups", "missing", "wrong"),
                      ("min_groups", "shown_as", "misconceptions", "negations", "unread"))
        groups = []
        for item in r.seq(m["groups"], "reason.groups"):
            gm = r.mapping(item, "a reason group", ("name", "words"), ("hint_if_absent",))
            groups.append(ReasonGroup(r.string(gm["name"], "name"), r.strings(gm["words"], "words"),
                                      r.optional_string(gm, "hint_if_absent", "reason.groups")))
        if not groups:
            r.fail(m["groups"], "reason.groups needs at least one group of words")
        min_groups = 1
        if "min_groups" in m:
            n = m["min_groups"]
            if not (n.tag == "tag:yaml.org,2002:int" and 1 <= int(n.value) <= len(groups)):
                r.fail(n, f"reason.min_groups must be a whole number from 1 to {len(groups)} (the number of groups)")
            min_groups = int(n.value)
        return cls(r.strings(m["prefixes"], "reason.prefixes"), tuple(groups), r.string(m["missing"], "reason.missing"),
                   r.string(m["wrong"], "reason.wrong"), min_groups,
                   r.optional_string(m, "shown_as", "reason", "Reason at the boundary"),
                   _misconceptions(r, m["misconceptions"]) if "misconceptions" in m else (),
                   r.strings(m["negations"], "reason.negations") if "negations" in m else (),
                   r.optional_string(m, "unread", "reason", UNREAD))

    def role(self):
        return Role(ROLE, self.pattern, anchored=True) if self.pattern else None

    def groups_in(self, item: Item) -> list[ReasonGroup]:
        """The ideas the item's text touches; the words by which it announces a phase are none of them (`the
        harvest, in its own shed, so …` heads the phase, it says nothing of what is slow)."""
        if not item.header:
            return [g for g, rx in self.group_patterns if item.says(rx)]
        text = item.text
        for m in item.matches:
            if m.kind == "cycle":
                text = text[:m.start] + " " * (m.end - m.start) + text[m.end:]
        phrased = phrase_text(text)
        return [g for g, rx in self.group_patterns if rx is not None and rx.search(phrased)]

    def misconception_in(self, item: Item) -> Misconception | None:
        """The misconception the item's text states first (by where its words stand), if any. A clause that
        also holds a negation next to its words ("no lock is involved", "ロックは不要") denies it instead."""
        if not item.says(self.any_misconception):
            return None  # a text without their words states none of them
        text_clauses = clauses(item.text)
        found = []
        for mc, rx, with_rx in self.misconception_patterns:
            if with_rx is not None and not item.says(with_rx):
                continue
            where = stated(rx, text_clauses, self.negation_pattern)
            if where is not None:
                found.append((where, mc))
        return min(found, key=lambda f: f[0])[1] if found else None

    def find(self, rec):
        """The learner's reason: a line written as one, else an unlabelled note by the boundary that
        reads like one (right beside it, one that names steps or announces a phase when it touches every
        idea: "async harvest, safe as it is planted, the sowing does not wait"), else a `%% reason: ...`
        comment."""
        explicit = rec.with_role(ROLE)
        if explicit:
            return explicit[0]
        b = rec.boundary
        if b is not None:
            candidates = [(b.item, self.min_groups)] if b.item is not None else []
            for k in ((b.index,) if b.item is None else ()) + (b.index + 1, b.index - 1, b.index + 2, b.index - 2):
                if 0 <= k < len(rec.items):
                    it = rec.items[k]
                    says_more = bool(it.header or it.reading.names("step"))  # a label, a step's note
                    if it.kind != "note" or it.role not in (PLAIN, BOUNDARY) or (says_more and abs(k - b.index) > 1):
                        continue
                    candidates.append((it, len(self.groups) if says_more else self.min_groups))
            for it, needed in candidates:
                if len(self.groups_in(it)) >= needed:
                    return it
        return next((c for c in rec.comments if c.role == ROLE), None)

    def unread(self, rec) -> Item | None:
        """A note right beside the boundary that announces no phase, in letters outside ASCII or labelled by a word
        the exercise does not know (`labelled_sentence`): a reason in a language whose words it does not list yet."""
        for it in beside_boundary(rec.items, rec.boundary):
            if labelled_sentence(it) or (it.kind == "note" and it.role in (PLAIN, BOUNDARY) and not it.header
                                         and foreign_letters(it.text)):
                return it
        return None

    def grade(self, drawing: Drawing) -> Outcome:
        rec = drawing.recognised
        item = self.find(rec)
        guessed = item is None and (item := self.unread(rec)) is not None  # a note we may not read
        if item is None:
            line = rec.boundary.line if rec.boundary else None
            return Outcome([(Finding(FindingKind.REASON, None, line, "correction", self.missing), 1)])
        wrong = self.misconception_in(item)
        if wrong is not None:
            return Outcome([(Finding(FindingKind.REASON, None, item.line, "correction", wrong.message), 1)], item.text)
        hit = self.groups_in(item)
        if len(hit) < self.min_groups and guessed:  # words not listed may say it all: no verdict
            return Outcome([(Finding(FindingKind.REASON, None, item.line, "hint", self.unread_message), 0)], item.text)
        if len(hit) < self.min_groups:
            return Outcome([(Finding(FindingKind.REASON, None, item.line, "correction", self.wrong), 1)], item.text)
        out = [(Finding(FindingKind.REASON, None, item.line, "hint", g.hint_if_absent), 0)
               for g in self.groups if g.hint_if_absent and g not in hit]
        return Outcome(out, item.text)

    def notes(self):
        for mc in self.misconceptions:
            yield f"reason misconception {mc.id!r}", mc.line, None, mc.sources


def _misconceptions(r, node) -> tuple[Misconception, ...]:
    out = []
    seen = set()
    for item in r.seq(node, "reason.misconceptions"):
        m = r.mapping(item, "a reason misconception", ("id", "belief", "words", "message"), ("with", "source"))
        ident = r.ident(m["id"], "reason.misconceptions.id")
        if ident in seen:
            r.fail(m["id"], f"duplicate misconception id {ident!r}; list it once")
        seen.add(ident)
        out.append(Misconception(
            ident, r.string(m["belief"], "reason.misconceptions.belief"),
            r.strings(m["words"], "reason.misconceptions.words"), r.string(m["message"], "reason.misconceptions.message"),
            r.strings(m["with"], "reason.misconceptions.with") if "with" in m else (),
            **cited(r, m, item, "reason.misconceptions")))
    return tuple(out)
