"""Re-emit a parsed learner diagram as fresh, safe Mermaid, optionally with circles drawn on it.

Nothing of the learner's file is copied through: participants get new ids (P1, P2, ...), every
label goes through `drawcheck.safety.learner_label` (with its `<br>` breaks kept: render/circled.py),
arrows and rect and box colours come from allow-lists; boxes, activations and autonumber are kept as drawn,
and directives, front matter, links, create/destroy and comments are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from drawcheck import safety
from drawcheck.parse.model import Activation, Autonumber, Block, Diagram, Message, Note
from drawcheck.render.circled import READABLE_MARKER, accessible_name_lines, learner_text
from drawcheck.render.colours import as_rgb, learner_colour

mermaid_text = learner_text  # learner text: no mark glyphs, `<br>` kept

WRONG_FILL = "rgba(220, 50, 47, 0.18)"
MISSING_FILL = "rgba(255, 170, 0, 0.22)"
BOUNDARY_FILL = "rgba(46, 160, 67, 0.22)"
NEUTRAL_FILL = "rgba(128, 128, 128, 0.10)"
MARK_FILLS = (WRONG_FILL, MISSING_FILL, BOUNDARY_FILL)

ARROWS = frozenset({"->", "-->", "->>", "-->>", "-x", "--x", "-)", "--)", "<<->>", "<<-->>"})
BLOCK_KINDS = frozenset({"loop", "alt", "opt", "par", "par_over", "critical", "break", "rect"})


@dataclass(frozen=True, slots=True)
class Circle:
    """A numbered remark on the learner's drawing at `line` (None: at the end)."""

    number: str  # already formatted, e.g. "①"
    line: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Insertion:
    """Something the learner did not draw, inserted after the statement at `after_line`.

    style "missing": a dotted (`-->>`, never async) self-message in an amber rect; style "boundary": a green note
    spanning every participant. `after_line` None puts it first.
    """

    number: str
    after_line: int | None
    text: str
    style: str  # "missing" | "boundary"
    actor_line: int | None = None  # line of a message whose target carries a missing step
    order: float = 0.0  # position in the reference order; ties at one anchor are drawn in this order


def render_diagram(diagram: Diagram, *, circles: Iterable[Circle] = (), insertions: Iterable[Insertion] = (),
                   autonumber: bool = True, readable: bool = False, acc_title: str = "", acc_descr: str = "") -> str:
    """The learner's diagram as safe Mermaid text, with `circles` and `insertions` drawn on it.

    `autonumber` False leaves the learner's `autonumber` out (its numbers would clash with the circles);
    `readable` asks the site's script to keep the text at least 12.8 px (the page scrolls instead);
    `acc_title`/`acc_descr` give the diagram its accessible name.
    """
    return _Emitter(diagram, list(circles), list(insertions), autonumber=autonumber, readable=readable,
                    acc=accessible_name_lines(acc_title, acc_descr) if acc_title else []).emit()


class _Emitter:
    def __init__(self, diagram: Diagram, circles: list[Circle], insertions: list[Insertion], *,
                 autonumber: bool = True, readable: bool = False, acc: list[str] = ()):
        self.diagram = diagram
        self.autonumber = autonumber
        self.readable = readable
        self.acc = list(acc)
        self.active: dict[str, int] = {}  # activation depth per redrawn id: an unmatched deactivate is dropped
        self.ids: dict[str, str] = {}
        self.labels: dict[str, str] = {}
        self.kinds: dict[str, str] = {}
        self.slots: list = []  # the statements a mark can be placed at, in reading order
        self._collect_participants_and_slots()
        self.wrap: dict[int, list[Circle]] = {}
        self.before: dict[int, list[Circle]] = {}
        self.after: dict[int, list[Insertion]] = {}
        self.first: list[Insertion] = []
        self.last_circles: list[Circle] = []
        for c in circles:
            self._place_circle(c)
        for ins in insertions:
            self._place_insertion(ins)
        self.lines: list[str] = []
        self.fills: list[str] = []  # the fills of the rects around the statement being emitted, outermost first
        self.box_fills: list[str] = []  # the boxes' fills as redrawn: a rect may be drawn over any of them
        self.stacks: dict = {}  # composited stacks of rects, shared by this drawing's rect checks

    # ---- participants -------------------------------------------------------------------
    def _collect_participants_and_slots(self) -> None:
        for p in self.diagram.participants:
            self._pid(p.id, p.label, p.kind)
        for s, _chain in self.diagram.walk():
            if isinstance(s, Message):
                self._pid(s.source)
                self._pid(s.target)
                self.slots.append(s)
            elif isinstance(s, Note):
                for a in s.actors:
                    self._pid(a)
                self.slots.append(s)
            elif isinstance(s, Block):
                self.slots.append(s)
            elif isinstance(s, Activation):
                self._pid(s.actor)

    def _pid(self, learner_id: str, label: str | None = None, kind: str = "participant") -> str:
        if learner_id not in self.ids:
            self.ids[learner_id] = f"P{len(self.ids) + 1}"
            self.labels[learner_id] = label or learner_id
            self.kinds[learner_id] = "actor" if kind == "actor" else "participant"
        return self.ids[learner_id]

    def _span(self) -> str:
        ids = list(self.ids.values())
        return ids[0] if len(ids) == 1 else f"{ids[0]},{ids[-1]}"

    def _actors_of(self, s) -> str:
        if isinstance(s, Message):
            a, b = self.ids[s.source], self.ids[s.target]
            return a if a == b else f"{a},{b}"
        if isinstance(s, Note):
            ids = [self.ids[a] for a in s.actors] or [self._span()]
            return ",".join(dict.fromkeys(ids[:2]))
        return self._span()

    # ---- placing the overlay ----------------------------------------------------------------
    def _place_circle(self, c: Circle) -> None:
        if c.line is None:
            self.last_circles.append(c)
            return
        for s in self.slots:
            if s.line == c.line and not isinstance(s, Block):
                self.wrap.setdefault(id(s), []).append(c)
                return
        for s in self.slots:
            if s.line >= c.line:
                self.before.setdefault(id(s), []).append(c)
                return
        self.last_circles.append(c)

    def _place_insertion(self, ins: Insertion) -> None:
        if ins.after_line is None:
            self.first.append(ins)
            return
        anchor = None
        for s in self.slots:
            if s.line == ins.after_line:
                anchor = s
                break
            if s.line < ins.after_line:
                anchor = s
        if anchor is None:
            self.first.append(ins)
        else:
            self.after.setdefault(id(anchor), []).append(ins)

    # ---- emitting -----------------------------------------------------------------------------
    def emit(self) -> str:
        out = self.lines
        out.append("sequenceDiagram")
        if self.readable:
            out.append("    " + READABLE_MARKER)
        out.extend("    " + line for line in self.acc)
        if self.diagram.title:
            out.append(f"    title {mermaid_text(self.diagram.title)}")
        if not self.ids and (self.first or self.last_circles or self.after):
            self._pid("\0drawing", "your drawing")
        self._participants()
        if self.autonumber and any(isinstance(s, Autonumber) and not s.off for s in self.diagram.statements):
            out.append("    autonumber")
        for ins in self.first:
            self._insertion(ins, 1)
        self._statements(self.diagram.statements, 1)
        for c in self.last_circles:
            self._note_rect(WRONG_FILL, self._span(), [c], 1)
        return "\n".join(out) + "\n"

    def _participants(self) -> None:
        """Participants in order; those of a learner's `box` inside it, with its colour as drawn (a CSS name
        or rgb/hsl form, render/colours.py) when it cannot pass for a mark's (else transparent)."""
        boxes = {p: b for b in self.diagram.boxes for p in b.participants if p in self.ids}
        done: set[str] = set()
        for learner_id in self.ids:
            if learner_id in done:
                continue
            box = boxes.get(learner_id)
            if box is None:
                self._participant(learner_id, 1)
                done.add(learner_id)
                continue
            colour = learner_colour(box.color or "", reserved=MARK_FILLS, neutral="transparent")
            if colour != "transparent":
                self.box_fills.append(as_rgb(colour))
            self._line(f"box {colour} {mermaid_text(box.label)}".rstrip(), 1)
            for member in box.participants:
                if member in self.ids and member not in done:
                    self._participant(member, 2)
                    done.add(member)
            self._line("end", 1)

    def _participant(self, learner_id: str, depth: int) -> None:
        self._line(f"{self.kinds[learner_id]} {self.ids[learner_id]} as {mermaid_text(self.labels[learner_id])}", depth)

    def _activation(self, a: Activation, depth: int) -> None:
        pid = self.ids[a.actor]
        if a.active:
            self.active[pid] = self.active.get(pid, 0) + 1
            self._line(f"activate {pid}", depth)
        elif self.active.get(pid):
            self.active[pid] -= 1
            self._line(f"deactivate {pid}", depth)

    def _statements(self, statements, depth: int) -> None:
        for s in statements:
            if isinstance(s, Activation):
                self._activation(s, depth)
                continue
            if not isinstance(s, (Message, Note, Block)):
                continue  # links, autonumber: not redrawn here
            key = id(s)
            for c in self.before.get(key, ()):
                self._note_rect(WRONG_FILL, self._actors_of(s) if not isinstance(s, Block) else self._span(), [c], depth)
            circles = self.wrap.get(key)
            if circles:
                self._line(f"rect {WRONG_FILL}", depth)
                self.fills.append(WRONG_FILL)
                self._statement(s, depth + 1)
                self.fills.pop()
                for c in circles:
                    self._line(f"Note over {self._actors_of(s)}: {safety.mark_label(c.number, c.text)}", depth + 1)
                self._line("end", depth)
            else:
                self._statement(s, depth)
            for ins in self.after.get(key, ()):
                self._insertion(ins, depth, s)

    def _statement(self, s, depth: int) -> None:
        if isinstance(s, Message):
            arrow = s.arrow if s.arrow in ARROWS else "->>"
            source, target = self.ids[s.source], self.ids[s.target]
            suffix = ""
            if s.activate_target:
                suffix = "+"
                self.active[target] = self.active.get(target, 0) + 1
            elif s.deactivate_source and self.active.get(source):
                suffix = "-"
                self.active[source] -= 1
            self._line(f"{source}{arrow}{suffix}{target}: {mermaid_text(s.text)}", depth)
        elif isinstance(s, Note):
            placement = s.placement if s.placement in ("left of", "right of", "over") else "over"
            actors = self._actors_of(s)
            if placement != "over":
                actors = actors.split(",")[0]
            self._line(f"Note {placement} {actors}: {mermaid_text(s.text)}", depth)
        elif isinstance(s, Block):
            self._block(s, depth)

    def _rect_fill(self, label: str) -> str:
        """A learner rect's fill: its own colour unless, over the rects around it (and any box beneath), it
        could pass for a mark's."""
        for below in [()] + [(box,) for box in self.box_fills]:
            if learner_colour(label, reserved=MARK_FILLS, neutral=NEUTRAL_FILL,
                              under=below + tuple(self.fills), stacks=self.stacks) == NEUTRAL_FILL:
                return NEUTRAL_FILL
        kept = label.strip()
        return kept.lower() if "(" in kept else kept  # an rgb()/hsl() form in lower case, as the PR comment reads it

    def _block(self, b: Block, depth: int) -> None:
        kind = b.kind if b.kind in BLOCK_KINDS else "rect"
        fill = None
        for i, br in enumerate(b.branches):
            if i == 0:
                if kind == "rect":
                    fill = self._rect_fill(b.label)
                    self._line(f"rect {fill}", depth)
                    self.fills.append(as_rgb(fill))
                else:
                    self._line(f"{kind} {mermaid_text(br.label or b.label)}".rstrip(), depth)
            else:
                keyword = {"alt": "else", "par": "and", "par_over": "and", "critical": "option"}.get(kind)
                if keyword is None:
                    continue
                self._line(f"{keyword} {mermaid_text(br.label)}".rstrip(), depth)
            self._statements(br.statements, depth + 1)
        if fill is not None:
            self.fills.pop()
        if not b.branches:
            self._line(f"rect {NEUTRAL_FILL}" if kind == "rect" else kind, depth)
            self._line(f"Note over {self._span()}: (empty)", depth + 1)
        self._line("end", depth)

    def _insertion(self, ins: Insertion, depth: int, anchor=None) -> None:
        text = safety.mark_label(ins.number, ins.text)
        if ins.style == "missing":
            actor = self._missing_actor(anchor)
            self._line(f"rect {MISSING_FILL}", depth)
            self._line(f"{actor}-->>{actor}: {text}", depth + 1)
            self._line("end", depth)
        else:
            self._line(f"rect {BOUNDARY_FILL}", depth)
            self._line(f"Note over {self._span()}: {text}", depth + 1)
            self._line("end", depth)

    def _missing_actor(self, anchor) -> str:
        if isinstance(anchor, Message):
            return self.ids[anchor.target]
        if isinstance(anchor, Note) and anchor.actors:
            return self.ids[anchor.actors[0]]
        return next(iter(self.ids.values()))

    def _note_rect(self, fill: str, actors: str, circles: list[Circle], depth: int) -> None:
        self._line(f"rect {fill}", depth)
        for c in circles:
            self._line(f"Note over {actors}: {safety.mark_label(c.number, c.text)}", depth + 1)
        self._line("end", depth)

    def _line(self, text: str, depth: int) -> None:
        self.lines.append("    " * depth + text)
