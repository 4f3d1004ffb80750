"""Misconceptions a drawing's shape reveals: a message between the wrong participants, or two steps swapped.

Section `misconceptions:` —
  participants: {id: {name, words, optional?}}   who the exercise's messages go between; a drawn
                participant stands for the id whose longest word its label or id contains
  rules: a list of {id, message, when, severity?, point?, versions?, source?}; `when` lists shapes,
         any of which reveals the misconception:
    {arrow: {from, to}, step?, arrows?, words?, unless_words?, from_not?}
        a message from one of `from` to one of `to` (participant ids, or `any`), only when it draws one
        of `step`, only with one of `arrows` (call `->>`, reply `-->>`, async `-)`), only when its text
        says one of `words`, not when it says one of `unless_words`, not when its sender is `from_not`; never an answer to the message
        before it (from its receiver back to its sender): the call it answers shows the shape
    {order: [X, Y]}   step X drawn before step Y (the truth is Y first)
  between: (optional) a list of {from, to, steps, words?, unless_words?, over_names?, after?}: a message from
         one of `from` to one of `to` whose words name no new step still draws one of `steps` (in reference
         order): the first one not yet drawn after the step drawn last before it; only when it says one of
         `words`, if given, and none of `unless_words` (another object's message); with `over_names: true`
         even when its words name another step (a step drawn between the wrong participants is still that
         step); with `after: X` only once step X is drawn
A finding (kind `belief`) is on the line that shows the shape, about `point` (else the shape's step);
it replaces an order or direction finding of that step and line (and, when its point is drawn too early,
the order findings of the steps it jumped over: one swap, one circle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Cited, Drawing, Finding, FindingKind, Outcome, cited
from drawcheck.grade.checks.order import heaviest_increasing
from drawcheck.grade.layout import drawn_order
from drawcheck.recognise import Between, Role, answers, stands_for, words_regex
from drawcheck.recognise.phrases import phrase_needle

ANY = "any"
SEVERITIES = ("correction", "hint")
ARROW_KINDS = ("call", "reply", "async")
SHAPE_KEYS = ("arrow", "order", "step", "arrows", "words", "unless_words", "from_not")


def arrow_kind(arrow: str) -> str:
    """call (`->>`, `->`, `-x`, `<<->>`), reply (dashed: `-->>`, `-->`, `--x`) or async (`-)`, `--)`)."""
    if arrow.endswith(")"):
        return "async"
    return "reply" if "--" in arrow else "call"


@dataclass(frozen=True, slots=True)
class Participant:
    id: str
    name: str
    words: tuple[str, ...]
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Shape:
    """One drawn shape that reveals a misconception: an arrow (`senders`/`receivers`) or an order."""

    senders: frozenset[str] = frozenset()  # participant ids; empty with `order`
    receivers: frozenset[str] = frozenset()
    steps: tuple[str, ...] = ()  # only messages drawing one of these steps
    arrows: tuple[str, ...] = ARROW_KINDS
    words: re.Pattern | None = None  # only messages that say one of these
    unless: re.Pattern | None = None
    sender_not: str | None = None
    order: tuple[str, str] | None = None  # (drawn first, truly first)


@dataclass(frozen=True, slots=True)
class Misconception(Cited):
    id: str
    message: str
    shapes: tuple[Shape, ...]
    severity: str = "correction"
    point: str | None = None
    versions: str | None = None


@dataclass(eq=False)
class MisconceptionsCheck(Check):
    section = "misconceptions"
    kinds = (FindingKind.BELIEF,)
    supersedes = (FindingKind.ORDER, FindingKind.DIRECTION)  # one circle per step and line

    participants: dict[str, Participant]
    rules: tuple[Misconception, ...]
    between: tuple[Between, ...] = ()
    words: list = field(init=False)

    def __post_init__(self):
        self.weight = sum(1 for m in self.rules if m.severity == "correction")
        # each word alone, longest first: the first one a drawn participant's name says names it
        words = [(p.id, len(w), phrase_needle(w)) for p in self.participants.values() for w in p.words + (p.name,)]
        self.words = [(pid, needle) for pid, _, needle in sorted(words, key=lambda w: -w[1]) if needle is not None]

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, cls.section, ("participants", "rules"), ("between",))
        participants: dict[str, Participant] = {}
        for key_node, value_node in r.pairs(m["participants"], "misconceptions.participants"):
            pid = r.ident(key_node, "a participant id")
            if pid == ANY or pid in participants:
                r.fail(key_node, f"participant id {pid!r} is {'reserved' if pid == ANY else 'listed twice'}; "
                                 "use another id")
            where = f"misconceptions.participants.{pid}"
            pm = r.mapping(value_node, where, ("name", "words"), ("optional",))
            participants[pid] = Participant(pid, r.string(pm["name"], f"{where}.name"),
                                            r.strings(pm["words"], f"{where}.words"),
                                            r.boolean(pm["optional"], f"{where}.optional") if "optional" in pm else False)
        rules, seen = [], set()
        for item in r.seq(m["rules"], "misconceptions.rules"):
            rm = r.mapping(item, "a misconceptions rule", ("id", "message", "when"),
                           ("severity", "point", "versions", "source"))
            rid = r.ident(rm["id"], "misconceptions.rules.id")
            if rid in seen:
                r.fail(rm["id"], f"misconception {rid!r} is listed twice; ids must be unique")
            seen.add(rid)
            where = f"misconception {rid}"
            shapes = tuple(_shape(r, s, where, core, participants) for s in r.seq(rm["when"], f"{where}: when"))
            if not shapes:
                r.fail(rm["when"], f"{where}: `when:` must list at least one shape")
            rules.append(Misconception(
                rid, r.string(rm["message"], f"{where}: message"), shapes,
                r.choice(rm["severity"], f"{where}: severity", SEVERITIES) if "severity" in rm else "correction",
                core.step(rm["point"], f"{where}: point") if "point" in rm else None,
                r.optional_string(rm, "versions", where), **cited(r, rm, item, where),
            ))
        between = []
        for item in r.seq(m["between"], "misconceptions.between") if "between" in m else ():
            where = "misconceptions.between"
            bm = r.mapping(item, f"{where}: an entry", ("from", "to", "steps"),
                           ("words", "unless_words", "over_names", "after"))
            ids = {key: [r.choice(n, f"{where}: {key}", tuple(participants))
                         for n in (r.seq(bm[key], where) if bm[key].tag == "tag:yaml.org,2002:seq" else [bm[key]])]
                   for key in ("from", "to")}
            steps = [core.step(n, f"{where}: steps") for n in r.seq(bm["steps"], f"{where}: steps")]
            index = {sid: i for i, sid in enumerate(core.steps)}
            between.append(Between(frozenset(ids["from"]), frozenset(ids["to"]), tuple(sorted(steps, key=index.get)),
                                   words_regex(r.strings(bm["words"], f"{where}: words")) if "words" in bm else None,
                                   r.boolean(bm["over_names"], f"{where}: over_names") if "over_names" in bm else False,
                                   core.step(bm["after"], f"{where}: after") if "after" in bm else None,
                                   words_regex(r.strings(bm["unless_words"], f"{where}: unless_words"))
                                   if "unless_words" in bm else None))
        return cls(participants, tuple(rules), tuple(between))

    def role(self) -> Role | None:
        """Messages that draw a step by whom they go between (`between:`)."""
        if not self.between:
            return None
        return Role("between", None, who=tuple(self.words), between=self.between)

    def grade(self, drawing: Drawing) -> Outcome:
        rec = drawing.recognised
        drawn_steps = rec.steps_at
        ends = {pid for item in rec.items if item.kind == "message" for pid in (item.source, item.target)}
        who = {pid: stands_for(self.words, rec.actors, pid) for pid in ends}  # each drawn participant once
        answered = answers(rec.items)  # an answer shows no shape of its own: the call it answers does
        messages = [(item, who[item.source], who[item.target]) for item in rec.items
                    if item.kind == "message" and item.index not in answered]
        out = []
        replaces = set()
        shared = _shared_places(rec)
        unordered = _out_of_order(drawing)
        for rule in self.rules:
            hit = next((h for shape in rule.shapes if (h := self._find(shape, rule.point, rec, messages, drawn_steps,
                                                                       shared, unordered))), None)
            if hit is None:
                continue
            line, step = hit
            edits = 1 if rule.severity == "correction" else 0
            point = step if (step, line) in unordered else rule.point or step  # replaces that order finding
            out.append((Finding(FindingKind.BELIEF, point, line, rule.severity, rule.message,
                                rule.versions), edits))
            # the step drawn too early is the belief's point: the steps it jumped over are out of order only
            # because of it (one swap, one circle), so their order findings go too
            jumped = {shape.order[1] for shape in rule.shapes if shape.order and shape.order[0] == rule.point}
            replaces |= {(s, n) for s, n in unordered if s in jumped}
        return Outcome(out, replaces=frozenset(replaces))

    @staticmethod
    def _find(shape: Shape, point, rec, messages, drawn_steps, shared, unordered=frozenset()) \
            -> tuple[int, str | None] | None:
        """(line, step) of the first place the drawing shows `shape`, or None. An order is shown where the
        order check finds one of its two steps out of order, else on the line of the rule's point when it is
        one of the two steps, else on the line drawn too early."""
        if shape.order is not None:
            first, then = (rec.first.get(s) for s in shape.order)
            if first is None or then is None or first.order >= then.order:
                return None
            if {first.step, then.step} & shared:
                return None  # drawn by one old name that covers several steps: its place orders none of them
            flagged = [m for m in (then, first) if (m.step, m.line) in unordered]
            shown = flagged[0] if flagged else then if point == then.step else first
            return shown.line, shown.step
        for item, sender, receiver in messages:
            if sender is None or receiver is None:
                continue  # who it goes between is not known: the grader cannot tell
            if (shape.senders and sender not in shape.senders) or (shape.receivers and receiver not in shape.receivers):
                continue
            if sender == shape.sender_not or arrow_kind(item.arrow) not in shape.arrows:
                continue
            if (shape.words is not None and not item.says(shape.words)) or (
                    shape.unless is not None and item.says(shape.unless)):
                continue
            steps = drawn_steps.get(item.index, set())
            if shape.steps:
                step = next((s for s in shape.steps if s in steps), None)
                if step is None:
                    continue
                return item.line, step
            return item.line, next(iter(sorted(steps)), None)
        return None

    def notes(self):
        for m in self.rules:
            yield f"misconception {m.id}", m.line, m.versions, m.sources


def _out_of_order(drawing) -> frozenset[tuple[str, int]]:
    """(step, line) of the drawn steps the order check finds out of order (as OrderCheck.grade does)."""
    if drawing.layout.in_order:
        return frozenset()
    facts = drawing.reference.plan.facts
    drawn = [m for m in drawn_order(drawing.recognised, facts) if facts[m.step].position >= 0]
    keep = heaviest_increasing([(facts[m.step].position, facts[m.step].weight) for m in drawn])
    return frozenset((m.step, m.line) for k, m in enumerate(drawn) if k not in keep)


def _shared_places(rec) -> set[str]:
    """Steps first drawn by an old name that stands for several steps at once (a legacy name's `also`)."""
    out = set()
    for mention in rec.mentions:
        if mention.legacy is not None and mention.legacy.also:
            for step in (mention.step, *mention.legacy.also):
                first = rec.first.get(step)
                if first is not None and first.item is mention.item and first.pos == mention.pos:
                    out.add(step)
    return out


def _shape(r, node, where: str, core, participants) -> Shape:
    m = r.mapping(node, f"{where}: a `when` shape", (), SHAPE_KEYS)
    if ("arrow" in m) == ("order" in m):
        r.fail(node, f"{where}: each shape is either `arrow: {{from: ID, to: ID}}` or `order: [X, Y]`")
    if "order" in m:
        extra = set(m) - {"order"}
        if extra:
            r.fail(node, f"{where}: an `order` shape takes no {', '.join(sorted(extra))}")
        steps = r.seq(m["order"], f"{where}: order")
        if len(steps) != 2:
            r.fail(m["order"], f"{where}: order lists two steps, the one drawn too early first: `[X, Y]`")
        return Shape(order=tuple(core.step(n, f"{where}: order") for n in steps))
    am = r.mapping(m["arrow"], f"{where}: arrow", ("from", "to"), ())

    def ids(n, key):
        values = r.strings(n, f"{where}: arrow.{key}") if n.tag == "tag:yaml.org,2002:seq" else (r.string(n, key),)
        for v, item in zip(values, n.value if n.tag == "tag:yaml.org,2002:seq" else (n,)):
            if v != ANY and v not in participants:
                r.fail(item, f"{where}: arrow.{key} names {v!r}, which is not a participant; "
                             f"participants: {', '.join(participants)} (or `any`)")
        return frozenset() if ANY in values else frozenset(values)

    steps = ()
    if "step" in m:
        nodes = r.seq(m["step"], f"{where}: step") if m["step"].tag == "tag:yaml.org,2002:seq" else [m["step"]]
        steps = tuple(core.step(n, f"{where}: step") for n in nodes)
    return Shape(
        senders=ids(am["from"], "from"), receivers=ids(am["to"], "to"), steps=steps,
        arrows=tuple(r.choice(n, f"{where}: arrows", ARROW_KINDS) for n in r.seq(m["arrows"], f"{where}: arrows"))
        if "arrows" in m else ARROW_KINDS,
        words=words_regex(r.strings(m["words"], f"{where}: words")) if "words" in m else None,
        unless=words_regex(r.strings(m["unless_words"], f"{where}: unless_words")) if "unless_words" in m else None,
        sender_not=_participant(r, m["from_not"], where, participants) if "from_not" in m else None,
    )


def _participant(r, node, where: str, participants) -> str:
    return r.choice(node, f"{where}: from_not", tuple(participants))
