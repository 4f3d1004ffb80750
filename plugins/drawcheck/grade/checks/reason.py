"""The learner's one-line reason for the boundary: present, and touching enough of the ideas it needs.

Section `reason:` — `prefixes` (how a reason line starts), `groups` ({name, words, hint_if_absent?}),
`min_groups`, the messages `missing` and `wrong`, and `shown_as` (its title on the feedback page).
"""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.checks.base import Check, Drawing, Finding, FindingKind, Outcome
from drawcheck.recognise import BOUNDARY, PLAIN, Role, prefix_regex, says, words_regex

ROLE = "reason"


@dataclass(frozen=True, slots=True)
class ReasonGroup:
    name: str
    words: tuple[str, ...]
    hint_if_absent: str | None = None


class ReasonCheck(Check):
    section = "reason"
    kinds = (FindingKind.REASON,)
    weight = 1

    def __init__(self, prefixes, groups, missing, wrong, min_groups, shown_as):
        self.prefixes = prefixes
        self.groups = groups
        self.missing = missing
        self.wrong = wrong
        self.min_groups = min_groups
        self.shown_as = shown_as
        self.pattern = prefix_regex(prefixes)
        self.group_patterns = [(g, words_regex(g.words)) for g in groups]

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, "reason", ("prefixes", "groups", "missing", "wrong"), ("min_groups", "shown_as"))
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
                   r.optional_string(m, "shown_as", "reason", "Reason at the boundary"))

    def role(self):
        return Role(ROLE, self.pattern, anchored=True) if self.pattern else None

    def groups_in(self, text: str) -> list[ReasonGroup]:
        return [g for g, rx in self.group_patterns if says(rx, text)]

    def find(self, rec):
        """The learner's reason: a line written as one, else an unlabelled note by the boundary that
        reads like one, else a `%% reason: ...` comment."""
        explicit = rec.with_role(ROLE)
        if explicit:
            return explicit[0]
        b = rec.boundary
        if b is not None:
            candidates = [b.item] if b.item is not None else []
            for k in ((b.index,) if b.item is None else ()) + (b.index + 1, b.index - 1, b.index + 2, b.index - 2):
                if 0 <= k < len(rec.items):
                    it = rec.items[k]
                    if (it.kind == "note" and it.role in (PLAIN, BOUNDARY) and not it.header
                            and not it.reading.names("step")):
                        candidates.append(it)
            for it in candidates:
                if len(self.groups_in(it.text)) >= self.min_groups:
                    return it
        return next((c for c in rec.comments if c.role == ROLE), None)

    def grade(self, drawing: Drawing) -> Outcome:
        rec = drawing.recognised
        item = self.find(rec)
        if item is None:
            line = rec.boundary.line if rec.boundary else None
            return Outcome([(Finding(FindingKind.REASON, None, line, "correction", self.missing), 1)])
        hit = self.groups_in(item.text)
        if len(hit) < self.min_groups:
            return Outcome([(Finding(FindingKind.REASON, None, item.line, "correction", self.wrong), 1)], item.text)
        out = [(Finding(FindingKind.REASON, None, item.line, "hint", g.hint_if_absent), 0)
               for g in self.groups if g.hint_if_absent and g not in hit]
        return Outcome(out, item.text)
