"""Branch steps (run only on a condition) must be drawn as a branch, after what they depend on.

Section `branches:` maps each branch kind to `{name, words}`; a step names its kind with `branch:`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Drawing, Finding, FindingKind, Outcome
from drawcheck.recognise import side_by_side, words_regex


@dataclass(frozen=True, slots=True)
class BranchKind:
    """A condition under which a branch step runs (e.g. "nothing fits")."""

    id: str
    name: str
    words: tuple[str, ...]


@dataclass(eq=False)
class BranchesCheck(Check):
    section = "branches"
    kinds = ()  # its findings are ORDER findings, circled where drawn
    messages = {
        "main_path": "{step} runs only {branch}: draw it as a branch",
        "too_early": "{step} can only run after {anchor}: draw it later",
        "too_late": "{step} runs {branch}, right after {after} and before {before}: draw it earlier",
        "too_late_plain": "{step} runs before {before}: draw it earlier",
    }

    branch_kinds: dict[str, BranchKind]
    texts: dict[str, str]
    patterns: dict = field(init=False)
    steps: tuple = field(init=False, default=())

    def __post_init__(self):
        self.patterns = {k.id: words_regex(k.words) for k in self.branch_kinds.values()}

    @classmethod
    def load(cls, r, node, core):
        out: dict[str, BranchKind] = {}
        messages = None
        for key_node, value_node in r.pairs(node, "branches"):
            if key_node.value == "messages":
                messages = value_node
                continue
            bid = r.ident(key_node, "a branch id")
            if bid in out:
                r.fail(key_node, f"duplicate branch {bid!r}; keep one of them")
            m = r.mapping(value_node, f"branches.{bid}", ("name", "words"), ())
            out[bid] = BranchKind(bid, r.string(m["name"], f"branches.{bid}.name"),
                                  r.strings(m["words"], f"branches.{bid}.words"))
        return cls(out, r.templates(messages, "branches.messages", cls.messages))

    def prepare(self, ref) -> None:
        self.steps = tuple(s for s in ref.steps if s.branch is not None)

    def grade(self, drawing: Drawing) -> Outcome:
        ref, rec = drawing.reference, drawing.recognised
        first = rec.first
        labels = {i.line: i for i in rec.items if i.kind == "label"}  # block and branch labels by line
        out = []
        for step in self.steps:
            m = first.get(step.id)
            if m is None:
                continue
            item = m.item
            kind = self.branch_kinds[step.branch]
            # a branch block, a branch phase, or the branch's words (`critical no node fits`: the learner's
            # condition, though Mermaid's first critical branch is the one that always runs)
            conditional = (item.context.conditional or self._said(m, step, labels) or self._noted(m, step, rec)
                           or self._headed(m, step, rec)
                           or (item.phase is not None and ref.phases[item.phase].role == "branch"))
            severity = "correction" if step.required else "hint"
            edits = 1 if step.required else 0
            if not conditional or self._on_the_other_path(m, step, rec, labels):
                note = step.main_path
                msg = note.message if note else self.texts["main_path"].format(step=step.name, branch=kind.name)
                out.append((Finding(FindingKind.ORDER, step.id, m.line, severity, msg,
                                    note.versions if note else None), edits))
                continue
            def drawn_before(other):  # source order, unless they are branches side by side
                return other.order < m.order and not side_by_side(other.item, item)

            late = next((b for b in step.before if b in first and drawn_before(first[b])), None)
            if late is not None and not any(
                    s.cycle == step.cycle and s.id in first and first[s.id].order > m.order
                    for s in ref.plan.main_path):
                late = None  # drawn after its whole phase: a section of branches, not a place in the flow
            anchor = next((a for a in step.after if a in first and m.order < first[a].order
                           and not side_by_side(first[a].item, item)), None)
            if anchor is not None and not any(s.id in first and first[s.id].order < m.order for s in ref.plan.main_path):
                anchor = None  # drawn before the whole flow: a section of branches drawn first, not a place in it
            if anchor is not None:
                msg = self.texts["too_early"].format(step=step.name, anchor=ref.step(anchor).name)
                out.append((Finding(FindingKind.ORDER, step.id, m.line, severity, msg), edits))
            elif late is not None:
                after = " and ".join(ref.step(a).name for a in step.after)
                template = self.texts["too_late"] if after else self.texts["too_late_plain"]
                msg = template.format(step=step.name, branch=kind.name, after=after, before=ref.step(late).name)
                out.append((Finding(FindingKind.ORDER, step.id, m.line, severity, msg), edits))
        return Outcome(out)

    def _said(self, mention, step, labels) -> bool:
        """Do the branch's words stand in the mention's own text or in the label of the block branch around it?"""
        pattern = self.patterns[step.branch]
        label = labels.get(mention.item.context.conditional_line)
        return mention.item.says(pattern) or (label is not None and label.says(pattern))

    def _noted(self, mention, step, rec) -> bool:
        """Does a note right after the mention's message name the step with the branch's words (`Sow?` then
        `Note: Sow only if it rained`)?"""
        after = mention.item.index + 1
        if after >= len(rec.items) or rec.items[after].kind != "note":
            return False
        note = rec.items[after]
        return note.says(self.patterns[step.branch]) and any(
            h.kind == "step" and h.target == step.id for h in note.reading.matches)

    def _headed(self, mention, step, rec) -> bool:
        """Does the note before the mention, past the messages of its branch's steps between them, say the
        branch's words (`Note over A,B: if watering fails`, then `Unsow`: a region headed by its condition)? Not
        a note that names the step itself: that one describes the step (`Unsow (only on failure)`), drawn on
        the main path all the same."""
        branch = {s.id for s in self.steps if s.branch == step.branch}
        for item in reversed(rec.items[:mention.item.index]):
            if item.kind == "note":
                return item.says(self.patterns[step.branch]) and not any(
                    m.kind == "step" and m.target == step.id for m in item.reading.matches)
            if item.kind != "message" or not rec.steps_at.get(item.index, set()) & branch:
                return False
        return False

    def _on_the_other_path(self, m, step, rec, labels) -> bool:
        """Drawn in one branch of an `alt` whose label does not say the branch's words, while a sibling
        branch that says them draws it too (`alt it worked … else it failed`): that one is the other path."""
        where = m.item.context.branch_of
        if where is None or labels.get(m.item.context.conditional_line) is None or self._said(m, step, labels):
            return False
        return any(o.step == step.id and o.item.context.branch_of is not None
                   and o.item.context.branch_of[0] == where[0] and o.item.context.branch_of[1] != where[1]
                   and self._said(o, step, labels) for o in rec.mentions)
