"""Random Mermaid-ish documents for the randomized differential test (seeded, reproducible)."""

from __future__ import annotations

import random

from drawcheck.parse.lexer import ARROWS

NAMES = ["A", "Bob", "end", "end-user", "loops", "x", "Kube Sched", "1", "10 u", "link", "as", "note", "é", "A#35;",
         "a b", "P_1", "over", "par_x"]
TEXTS = [": hi", ":", ": a #b", ": a;b", ":wrap: x", ": é", " : spaced ", ": %% c", ": C4Context", ": style: #f;",
         ': <b x="y">']
FRAGMENTS = [
    "sequenceDiagram", "\n", "\r\n", " ", "\t", "\u00a0", "\u2028", "\ufeff", "A", "Bob", "end", "loop", "alt", "else",
    "par", "and", "critical", "option", "opt", "break", "rect", "box", "participant", "actor", "as", "Note", "over",
    "left of", "right of", ",", ":", ": t", ";", "#", "#35;", "%%", "%", "%%{init: {}}%%", "---", "+", "-", "()", "@{",
    "}", "{", "activate", "deactivate", "autonumber", "off", "1 ", "2", ".5", "create", "destroy", "title", "title:",
    "accTitle:", "accDescr", "accDescr {", "link", "links", "properties", "details", "<", ">", "é", "x", "wrap:",
    "C4Dynamic", *ARROWS,
]


def _line(rng: random.Random) -> str:
    name = lambda: rng.choice(NAMES)  # noqa: E731
    k = rng.randint(0, 16)
    sp = rng.choice(["", " ", "  ", "\t"])
    if k <= 4:
        return "%s%s%s%s%s%s%s" % (sp, name(), rng.choice(["", " "]), rng.choice(list(ARROWS) + ["=>", "-", "--", "->>>"]),
                                   rng.choice(["", "+", "-", "()"]), name(), rng.choice(TEXTS))
    if k == 5:
        return "%s%s %s%s%s" % (sp, rng.choice(["participant", "actor", "create participant", "destroy", "create actor"]),
                                name(), rng.choice(["", " as L", " as", "@{ type: database }",
                                                    '@{ "type": "queue", "alias": "Q" } as W', "@{ bad: [ }", "@{}"]),
                                rng.choice(["", " ", "  "]))
    if k == 6:
        return sp + rng.choice(["loop", "alt", "else", "par", "and", "opt", "critical", "option", "break",
                                "rect rgb(1,2,3)", "end", "par_over", "box Aqua G", "box", "end "]) + rng.choice(
            ["", " x", " #c", ";"])
    if k == 7:
        return "%s%s %s" % (sp, rng.choice(["activate", "deactivate"]), name())
    if k == 8:
        return "%sNote %s %s%s%s" % (sp, rng.choice(["left of", "right of", "over", "Over", "left"]), name(),
                                     rng.choice(["", ",B", ", C"]), rng.choice(TEXTS))
    if k == 9:
        return sp + rng.choice(["autonumber", "autonumber 5", "autonumber 1 2", "autonumber off", "autonumber  ",
                                "title T", "title", "title: T", "accTitle: a", "accDescr: d", "accDescr {\nx\n}",
                                "accDescr {"])
    if k == 10:
        return sp + rng.choice(["%% c", "%%{init: {}}%%", "# hash", "% pct", "%%", "%%{ x }%%"])
    if k == 11:
        return ""
    if k == 12:
        return sp + rng.choice(["link A: x @ y", 'links A: {"a": "b"}', "properties A: {}", "details A: d"])
    if k == 13:
        return sp + rng.choice(["sequenceDiagram", "---", "<", ">", ";", ",", "()", "+"])
    return "%s%s->>%s: m" % (sp, name(), name())


def structured(rng: random.Random) -> str:
    head = rng.choice(["sequenceDiagram\n"] * 8 + ["", "---\ntitle: t\n---\nsequenceDiagram\n",
                                                   "%%{init: {}}%%\nsequenceDiagram\n", "\ufeffsequenceDiagram\n",
                                                   "  sequenceDiagram  \n", "sequenceDiagram"])
    body = [_line(rng) for _ in range(rng.randint(0, 8))]
    nl = rng.choice(["\n"] * 6 + ["\r\n", "\r", ";"])
    return head + nl.join(body) + rng.choice(["", "\n", nl])


def soup(rng: random.Random) -> str:
    return "sequenceDiagram\n" + "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 25)))


def documents(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [structured(rng) if i % 2 == 0 else soup(rng) for i in range(count)]
