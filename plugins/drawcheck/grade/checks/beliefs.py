"""Phrases that reveal an outdated belief: a finding wherever they are written.

Section `beliefs:` — a list of `{words, with?, kind, severity?, point?, message, versions?, source?}`.
One of the reason section's `negations` next to the words, in their clause, denies the belief ("never
blocks", "no longer expire"): nothing is said then. `with` words count in the words' clause or the one
either side ("the sown seed, it rots"), not further off ("a rain of up to 30 mm, ..., the sown seed is
safe" states no rotting of the seed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Cited, Drawing, cited, Finding, FindingKind, Outcome
from drawcheck.recognise import words_regex
from drawcheck.recognise.phrases import clauses, stated

BELIEF_KINDS = tuple(k.value for k in FindingKind if k not in (FindingKind.SYNTAX, FindingKind.UNSAFE,
                                                               FindingKind.PHASES, FindingKind.DIRECTION,
                                                               FindingKind.INTAKE))
SEVERITIES = ("correction", "hint")


@dataclass(frozen=True, slots=True)
class Belief(Cited):
    words: tuple[str, ...]
    kind: FindingKind
    severity: str
    message: str
    versions: str | None = None
    point: str | None = None
    with_words: tuple[str, ...] = ()  # when set, one of these must be in the same text too


@dataclass(eq=False)
class BeliefsCheck(Check):
    section = "beliefs"
    kinds = ()  # its findings take the kind of the concept they are about

    beliefs: tuple[Belief, ...]
    patterns: list = field(init=False)
    any_words: re.Pattern | None = field(init=False)  # a text without them states none
    negation_pattern: re.Pattern | None = field(init=False, default=None)

    def __post_init__(self):
        self.patterns = [(b, words_regex(b.words), words_regex(b.with_words)) for b in self.beliefs]
        self.any_words = words_regex([w for b in self.beliefs for w in b.words])

    def prepare(self, ref):
        reason = ref.check("reason")
        self.negation_pattern = getattr(reason, "negation_pattern", None)

    @classmethod
    def load(cls, r, node, core):
        out = []
        for item in r.seq(node, cls.section):
            m = r.mapping(item, "a beliefs entry", ("words", "kind", "message"),
                          ("severity", "versions", "point", "with", "source"))
            out.append(Belief(
                words=r.strings(m["words"], "beliefs.words"),
                kind=FindingKind(r.choice(m["kind"], "beliefs.kind", BELIEF_KINDS)),
                severity=r.choice(m["severity"], "beliefs.severity", SEVERITIES) if "severity" in m else "hint",
                message=r.string(m["message"], "beliefs.message"),
                versions=r.optional_string(m, "versions", "beliefs"),
                point=core.step(m["point"], "beliefs.point") if "point" in m else None,
                with_words=r.strings(m["with"], "beliefs.with") if "with" in m else (),
                **cited(r, m, item, "beliefs"),
            ))
        return cls(tuple(out))

    def grade(self, drawing: Drawing) -> Outcome:
        out = []
        seen = set()
        for item in drawing.recognised.items:
            if not item.says(self.any_words):
                continue
            text_clauses = clauses(item.text)
            for b, rx, with_rx in self.patterns:
                where = None if id(b) in seen else stated(rx, text_clauses, self.negation_pattern)
                if where is None or (with_rx is not None and not any(
                        with_rx.search(c) for c in text_clauses[max(0, where[0] - 1):where[0] + 2])):
                    continue
                seen.add(id(b))
                out.append((Finding(b.kind, b.point, item.line, b.severity, b.message, b.versions),
                            1 if b.severity == "correction" else 0))
        return Outcome(out)

    def notes(self):
        for b in self.beliefs:
            yield "a beliefs entry", b.line, b.versions, b.sources
