"""recognise: a parsed drawing -> the learner's steps, cycles, boundary and reason.

Reads every message, note, block label and participant name; knows nothing about
any particular exercise (all names come from the Reference).

Cycle conventions understood: `rect` blocks labelled by a Note inside them; Notes
alone as section headers; block/branch labels (`par`, `loop`, `alt` ...); `box`
groups; one participant per cycle (by name); an inline cycle word next to a step.
Boundary conventions: a marker text (e.g. the `go` statement), the first region
labelled with the second cycle, an async arrow (`-)`, `--)`), a `par` block, or the
second of several unlabelled top-level `rect` blocks. docs/grading.md has the details.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from drawcheck.parse.model import Block, Diagram, Message, Note
from drawcheck.recognise.names import Match, matcher, participant_step
from drawcheck.reference.model import Reference

CONDITIONAL_BLOCKS = ("alt", "opt", "break")
ROOT = (False, None, None)  # (conditional, line of the conditional block, line of the par block) at top level
ASYNC_ARROWS = ("-)", "--)")
DRAWING_ROLES = ("plain", "boundary")  # the roles whose text may draw steps and talk with the cache


class Item:
    """One piece of learner text: a message, a note, or a block label.

    Made once per line of every drawing, by `_new_item`; read many times by the checks: slots, so reading
    a field is cheap.
    """

    __slots__ = (
        "index",
        "line",
        "text",
        "kind",  # "message" | "note" | "label" | "comment" (only ever the reason)
        "info",  # the cached TextInfo of `text`
        "context",  # (conditional, conditional_line, in_par): see the properties below
        "source",
        "target",
        "role",  # "plain" | "reason" | "cache" | "boundary"
        "header",  # the cycle this item announces for what follows
        "cycle",  # explicit cycle label in force here
        "cycle_line",  # where that label was written
        "async_arrow",
        "to_cache",  # a message to/from (or note over) a cache participant
    )

    @property
    def matches(self) -> tuple[Match, ...]:
        return self.info.matches

    @property
    def conditional(self) -> bool:
        """Inside alt/opt/break or an option of critical."""
        return self.context[0]

    @property
    def conditional_line(self) -> int | None:
        """Line of the innermost conditional block or branch."""
        return self.context[1]

    @property
    def in_par(self) -> int | None:
        """Line of the enclosing par block."""
        return self.context[2]

    def __repr__(self) -> str:
        return f"Item({self.index}, line {self.line}, {self.kind}, {self.text!r}, cycle={self.cycle})"


_allocate = object.__new__


def _new_item(index, line, text, kind, info, context, source, target, role, header, cycle, cycle_line,
              async_arrow, to_cache) -> Item:
    """A new Item with every field given. A plain function, not an `__init__`: calling a class runs its
    `__init__` in a fresh interpreter frame from C, which costs several times more (one per line)."""
    item = _allocate(Item)
    item.index = index
    item.line = line
    item.text = text
    item.kind = kind
    item.info = info
    item.context = context
    item.source = source
    item.target = target
    item.role = role
    item.header = header
    item.cycle = cycle
    item.cycle_line = cycle_line
    item.async_arrow = async_arrow
    item.to_cache = to_cache
    return item


class Mention(NamedTuple):
    """A step the learner drew (a tuple: made once per step name in every drawing)."""

    step: str
    label: str  # the learner's own words for it
    line: int
    item: Item
    pos: int  # character offset inside the item's text
    how: str = "exact"  # "exact" | "legacy" | "typo"
    legacy: object = None
    order: tuple[int, int] = (0, 0)  # (item index, pos): source order


@dataclass(slots=True, unsafe_hash=True)  # treat as immutable; not frozen=True, whose __init__ is 4x slower
class FoundBoundary:
    index: int  # items with index >= this are after the boundary
    line: int
    source: str  # "marker" | "cycles" | "async" | "par" | "rects"
    item: Item | None


@dataclass(slots=True)
class Recognised:
    items: list[Item] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    first: dict[str, Mention] = field(default_factory=dict)
    boundary: FoundBoundary | None = None
    reason: Item | None = None
    reason_explicit: bool = False
    cycles_marked: bool = False
    rect_starts: list[tuple[int, int]] = field(default_factory=list)  # (first item index, line) of top-level rects
    # The few items the checks read one by one: a role (reason, cache, boundary), a non-step, a belief,
    # a misspelt or old step name, an async arrow, or talk with the cache. Same order as `items`.
    notable: list[Item] = field(default_factory=list)

    def effective_cycle(self, item: Item, spec_cycles: tuple[str, str] | None) -> str | None:
        if item.cycle is not None:
            return item.cycle
        if self.boundary is None or spec_cycles is None:
            return None
        return spec_cycles[1] if item.index >= self.boundary.index else spec_cycles[0]


def _prefix_regex(prefixes) -> re.Pattern | None:
    if not prefixes:
        return None
    alts = "|".join(re.escape(p.lower()).replace(r"\ ", r"\s+") for p in sorted(prefixes, key=len, reverse=True))
    return re.compile(rf"^\W*(?:{alts})(?![a-z0-9])")


def _marker_regex(markers, starts=()) -> re.Pattern | None:
    """Markers match anywhere (at a word start); `starts` only at the start of the text."""
    alts = []
    for group, anchor in ((markers, ""), (starts, r"^[^a-z0-9]*")):
        for m in sorted(group, key=len, reverse=True):
            body = re.escape(m.lower().strip()).replace(r"\ ", r"\s+")
            if m.endswith(" "):
                body += r"(?:\s|$)"
            elif m[-1:].isalnum():
                body += r"(?![a-z0-9])"
            alts.append(anchor + ("(?<![a-z0-9])" if m[:1].isalnum() else "") + body)
    return re.compile("|".join(alts)) if alts else None


_NOT_WORD = re.compile(r"[^a-z0-9]+")


def _words_text(text: str) -> str:
    if text.isascii() and text.isalnum():
        return " " + text.lower() + " "  # one plain word (most participant names): nothing to replace
    return " " + _NOT_WORD.sub(" ", text.lower()).strip() + " "


def words_regex(words) -> re.Pattern | None:
    """Matches any of `words` as whole words in `_words_text` output."""
    parts = [re.escape(_words_text(w).strip()) for w in words if _words_text(w).strip()]
    if not parts:
        return None
    return re.compile(r" (?:" + "|".join(sorted(parts, key=len, reverse=True)) + r") ")


class _Patterns:
    """Regexes compiled once per Reference."""

    def __init__(self, ref: Reference):
        self.reason = _prefix_regex(ref.reason.prefixes) if ref.reason else None
        cf = ref.cache_function
        self.cache = _prefix_regex(cf.prefixes) if cf else None
        self.cache_participant = words_regex(cf.participant_words) if cf and cf.participant_words else None
        self.marker = _marker_regex(ref.boundary.markers, ref.boundary.starts) if ref.boundary else None
        self.reason_groups = [(g, words_regex(g.words)) for g in ref.reason.groups] if ref.reason else []
        self.branch_words = {b.id: words_regex(b.words) for b in ref.branches.values()}
        self.beliefs = [(b, words_regex(b.words), words_regex(b.with_words)) for b in ref.beliefs]


def _patterns(ref: Reference) -> _Patterns:
    pats = ref._derived.get("patterns")
    if pats is None:
        pats = ref._derived["patterns"] = _Patterns(ref)
    return pats


@dataclass(frozen=True, slots=True)
class TextInfo:
    """Everything about one piece of text that does not depend on where it is drawn (cached per text)."""

    matches: tuple[Match, ...]
    steps_named: frozenset  # ids of the steps it names
    hits: tuple[tuple, ...]  # the steps it draws, for its role: (step, label, start, how, legacy) each
    role: str
    header_message: str | None  # the cycle it announces when written as a message
    header_other: str | None  # ... as a note or block label
    inline: str | None
    has_not_step: bool
    cycles: frozenset
    beliefs: tuple
    reason_groups: tuple
    misnamed: bool  # draws a step under a misspelt or old name
    notable: bool  # has a role, a non-step, a belief or a misnamed step: see Recognised.notable
    # What the walk reads of it, in one piece: (hits, notable, role, header, inline) as a message / as a note
    as_message: tuple
    as_note: tuple


MAX_INFO_CACHE = 50_000


def text_info(ref: Reference, text: str) -> TextInfo:
    cache = ref._derived.setdefault("text_info", {})
    info = cache.get(text)
    if info is None:
        if len(cache) > MAX_INFO_CACHE:
            cache.clear()
        info = cache[text] = _text_info(ref, text)
    return info


def _text_info(ref: Reference, text: str) -> TextInfo:
    pats = _patterns(ref)
    matches = matcher(ref).find(text)
    low = text.lower()
    wt = _words_text(text)
    if pats.reason and pats.reason.search(low):
        role = "reason"
    elif pats.cache and pats.cache.search(low):
        role = "cache"
    elif pats.marker and pats.marker.search(low):
        role = "boundary"
    else:
        role = "plain"
    step_matches = tuple(m for m in matches if m.kind == "step")
    has_step = bool(step_matches)
    hdr = _header_cycle(matches) if role in ("plain", "boundary") else None
    has_not_step = any(m.kind == "not-step" for m in matches)
    beliefs = tuple(bl for bl, rx, with_rx in pats.beliefs
                    if rx is not None and rx.search(wt) and (with_rx is None or with_rx.search(wt)))
    hits = _hits(ref, text, role, step_matches)
    misnamed = any(how != "exact" for _, _, _, how, _ in hits)
    notable = role != "plain" or has_not_step or bool(beliefs) or misnamed
    header_message = hdr if hdr and (role == "boundary" or not has_step) else None
    inline = _inline_cycle(matches)
    return TextInfo(
        matches=matches, steps_named=frozenset(m.target for m in step_matches), role=role,
        hits=hits, header_message=header_message, header_other=hdr, inline=inline,
        has_not_step=has_not_step, cycles=frozenset(m.target for m in matches if m.kind == "cycle"), beliefs=beliefs,
        reason_groups=tuple(g for g, rx in pats.reason_groups if rx is not None and rx.search(wt)),
        misnamed=misnamed, notable=notable,
        as_message=(hits, notable, role, header_message, inline), as_note=(hits, notable, role, hdr, inline),
    )


def _hits(ref: Reference, text: str, role: str, step_matches: tuple[Match, ...]) -> tuple[tuple, ...]:
    """The steps a text draws: none in a reason or at the boundary, only the cache step in a cache line."""
    if role in ("reason", "boundary"):
        return ()
    cache_step = ref.cache_function.step if ref.cache_function else None
    out = []
    for m in step_matches:
        if role == "cache" and m.target != cache_step:
            continue
        label = text[m.start:m.end]
        out.append((m.target, label, m.start, m.how, m.legacy))
        for other in m.legacy.also if m.legacy else ():
            # an old name that covers several of today's steps draws them all, here
            out.append((other, label, m.start, "exact", None))
    return tuple(out)


def reason_groups_hit(ref: Reference, text: str) -> list:
    return list(text_info(ref, text).reason_groups)


def branch_words_hit(ref: Reference, branch_id: str, text: str) -> bool:
    cache = ref._derived.setdefault("branch_words", {})
    key = (branch_id, text)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > MAX_INFO_CACHE:
            cache.clear()
        rx = _patterns(ref).branch_words.get(branch_id)
        hit = cache[key] = bool(rx and rx.search(_words_text(text)))
    return hit


def recognise(diagram: Diagram, ref: Reference) -> Recognised:
    """Everything the learner drew, in source order, with cycles and the boundary."""
    rec = Recognised()
    walk = _Walk(ref, rec, _participant_tables(diagram, ref))
    walk.visit(diagram.statements, None, None, ROOT, None)
    first = rec.first
    if any(m.step not in first for m in walk.late):
        for m in walk.late:
            if m.step not in first:
                first[m.step] = m
        rec.first = dict(sorted(first.items(), key=lambda kv: kv[1].order))
    _find_boundary(rec, ref)
    _find_reason(rec, ref)
    if rec.reason is None and ref.reason is not None:
        # A `%% reason: ...` comment is not drawn, but it is the learner's reason all the same.
        for line, comment in diagram.comments:
            info = text_info(ref, comment)
            if info.role == "reason":
                rec.reason = _new_item(-1, line, comment, "comment", info, ROOT, None, None, info.role, None, None,
                                       None, False, False)
                rec.reason_explicit = True
                break
    main = ref._derived.get("main_cycles")
    if main is None:
        main = ref._derived["main_cycles"] = {c.id for c in ref.cycles.values() if c.role == "main"}
    rec.cycles_marked = rec.boundary is not None or any(i.cycle in main for i in rec.items)
    return rec


# `_new_tuple(Mention, fields)`: a Mention from one plain tuple, as Mention._make but with no Python-level
# call (runs once per step drawn).
_new_tuple = tuple.__new__


class _Walk:
    """One walk over a drawing's statements: makes the items and, as it goes, the mentions of steps.

    A class, not nested functions: a recursive closure is a reference cycle, which would leave each
    drawing's items to the garbage collector instead of freeing them at once.
    """

    __slots__ = ("ref", "infos", "rec", "late", "before_cycle", "after_cycle",
                 "participant_cycle", "participant_step", "participant_cache", "labels")

    def __init__(self, ref: Reference, rec: Recognised, participants: tuple[dict, dict, set, dict]):
        self.ref = ref
        self.infos = ref._derived.setdefault("text_info", {})
        self.rec = rec  # its `first`: where a message first draws each step
        self.late: list[Mention] = []  # drawn by notes and labels: count only where no message draws the step
        self.before_cycle, self.after_cycle = ref.boundary.cycles if ref.boundary else (None, None)
        self.participant_cycle, self.participant_step, self.participant_cache, self.labels = participants

    def visit(self, statements, current: str | None, current_line: int | None, ctx, backfill_line: int | None):
        ref, infos = self.ref, self.infos
        items, mentions, first, notable = self.rec.items, self.rec.mentions, self.rec.first, self.rec.notable
        before_cycle, after_cycle = self.before_cycle, self.after_cycle
        participant_cycle, participant_step, participant_cache = (
            self.participant_cycle, self.participant_step, self.participant_cache)
        source = target = None
        header_scope = False  # `current` was set by a header written in this scope
        if backfill_line is not None:
            # An unlabelled block takes the cycle of its first header note (the rect convention).
            for first_text in statements:
                if isinstance(first_text, (Note, Message)):
                    info = text_info(ref, first_text.text or "")
                    hdr = info.header_message if isinstance(first_text, Message) else info.header_other
                    if hdr:
                        current, current_line = hdr, backfill_line
                    break
        for s in statements:
            is_message = isinstance(s, Message)
            if not is_message and not isinstance(s, Note):
                if isinstance(s, Block):
                    self.visit_block(s, current, current_line, ctx)
                continue
            # Every field of the item is worked out first, then it is made in one call.
            if is_message:
                source, target, text, arrow, line = s.source, s.target, s.text, s.arrow, s.line
            else:
                actors, text, line = s.actors, s.text, s.line
            text = text or ""
            info = infos.get(text) or text_info(ref, text)
            async_arrow = to_cache = False
            if is_message:
                hits, is_notable, role, header, inline = info.as_message
                if arrow in ASYNC_ARROWS:
                    async_arrow = is_notable = True
                    if role == "plain" and after_cycle in info.cycles:
                        role, header, hits = "boundary", after_cycle, ()
                if participant_cache and not header and role in DRAWING_ROLES and (
                        source in participant_cache or target in participant_cache):
                    to_cache = is_notable = True
            else:
                hits, is_notable, role, header, inline = info.as_note
                if participant_cache and not header and role in DRAWING_ROLES and any(
                        a in participant_cache for a in actors):
                    to_cache = is_notable = True
            if header and header != current:
                current, current_line, header_scope = header, line, True
            elif header_scope and role == "boundary" and current == before_cycle:
                # A section header for the first cycle ends at the `go`: what follows is labelled by
                # its sender (a participant named after the second cycle) or by the boundary itself.
                current, current_line, header_scope = None, None, False
            if inline:
                cycle, cycle_line = inline, line
            elif current:
                cycle, cycle_line = current, current_line
            else:
                cycle = cycle_line = None
                if participant_cycle:
                    # a message by its sender, a note by the first participant it is over
                    pc = participant_cycle.get(source) if is_message else next(
                        (participant_cycle[a] for a in actors if a in participant_cycle), None)
                    if pc:
                        cycle, cycle_line = pc, line
            index = len(items)
            if not is_message:
                item = _new_item(index, line, text, "note", info, ctx, None, None, role, header, cycle, cycle_line,
                                 False, to_cache)
                items.append(item)
                if is_notable:
                    notable.append(item)
                if hits:
                    self.add_late(item)
                continue
            item = _new_item(index, line, text, "message", info, ctx, source, target, role, header, cycle,
                             cycle_line, async_arrow, to_cache)
            items.append(item)
            if is_notable:
                notable.append(item)
            if participant_step and role == "plain":
                self.draw_participant_steps(item)
            for step, label, start, how, legacy in hits:
                m = _new_tuple(Mention, (step, label, line, item, start, how, legacy, (index, start)))
                mentions.append(m)
                if step not in first:
                    first[step] = m

    def visit_block(self, block: Block, current: str | None, current_line: int | None, ctx) -> None:
        """Each branch of a block: its label is an item; a cycle it names labels what is inside."""
        items = self.rec.items
        kind = block.kind
        if kind == "rect" and ctx == ROOT:
            self.rec.rect_starts.append((len(items), block.line))
        nested = kind in _NESTING_BLOCKS  # the others (rect, loop) leave the context as it is
        for br in block.branches:
            inner = _context(ctx, block, br) if nested else ctx
            own = None
            if kind != "rect" and br.label and br.label.strip():
                info = self.infos.get(br.label) or text_info(self.ref, br.label)
                own = info.header_other
                cycle, cycle_line = (own, br.line) if own else (current, current_line)
                label_item = _new_item(len(items), br.line, br.label, "label", info, inner, None, None, info.role,
                                       own, cycle, cycle_line, False, False)
                items.append(label_item)
                if info.notable:
                    self.rec.notable.append(label_item)
                if info.hits:
                    self.add_late(label_item)
            if own:
                self.visit(br.statements, own, br.line, inner, None)
            else:
                self.visit(br.statements, current, current_line, inner, br.line)

    def draw_participant_steps(self, item: Item) -> None:
        """Participants named after steps: `S->>F: run` draws F's step; `A->>B: next` draws A's and B's."""
        named = item.info.steps_named
        first = self.rec.first
        for pos, pid in ((-2, item.source), (-1, item.target)):
            st = self.participant_step.get(pid)
            if st and st not in named:
                m = Mention(st, self.labels.get(pid, pid), item.line, item, pos, order=(item.index, pos))
                self.rec.mentions.append(m)
                if st not in first:
                    first[st] = m

    def add_late(self, item: Item) -> None:
        index, line = item.index, item.line
        for step, label, start, how, legacy in item.info.hits:
            m = _new_tuple(Mention, (step, label, line, item, start, how, legacy, (index, start)))
            self.rec.mentions.append(m)
            self.late.append(m)


_NESTING_BLOCKS = frozenset((*CONDITIONAL_BLOCKS, "critical", "par"))  # blocks that change the context


def _context(parent: tuple, block: Block, branch) -> tuple:
    """(conditional, line of the innermost conditional, line of the par block) inside `branch`."""
    conditional, cond_line, in_par = parent
    kind = block.kind
    if kind in CONDITIONAL_BLOCKS or kind == "critical":
        cond_line = branch.line
        if kind != "critical" or branch is not block.branches[0]:
            conditional = True
    if kind == "par" and in_par is None:
        in_par = block.line
    return (conditional, cond_line, in_par)


def _participant_tables(diagram: Diagram, ref: Reference) -> tuple[dict, dict, set, dict]:
    """(participant -> cycle its name announces, -> step it is named after, the cache participants,
    participant -> its drawn label); the facts of each participant are cached by its names."""
    participant_cycle: dict[str, str] = {}
    participant_step: dict[str, str] = {}
    participant_cache: set[str] = set()
    labels = {}
    known = ref._derived.setdefault("participants", {})
    for p in diagram.participants:
        labels[p.id] = p.label or p.id
        key = (p.id, p.label, p.box)
        facts = known.get(key)
        if facts is None:
            if len(known) > MAX_INFO_CACHE:
                known.clear()
            facts = known[key] = _participant_facts(p, ref)
        cyc, st, to_cache = facts
        if cyc:
            participant_cycle[p.id] = cyc
        if st:
            participant_step[p.id] = st
        if to_cache:
            participant_cache.add(p.id)
    return participant_cycle, participant_step, participant_cache, labels


def _participant_facts(p, ref: Reference) -> tuple[str | None, str | None, bool]:
    """(cycle its name or box announces, step its name is, whether it is the cache)."""
    cyc = st = None
    to_cache = False
    for text in (p.box, p.label, p.id):
        if not text:
            continue
        c, s, k = _name_facts(ref, text)
        cyc = cyc or c
        if text is not p.box:
            if s and not st and not c:
                st = s
            if k:
                to_cache = True
    return cyc, st, to_cache


def _name_facts(ref: Reference, text: str) -> tuple[str | None, str | None, bool]:
    """(cycle a participant name or box label announces, step it is named after, whether it names the
    cache), cached per name: a class reuses labels under ever new aliases."""
    cache = ref._derived.setdefault("participant_names", {})
    facts = cache.get(text)
    if facts is None:
        if len(cache) > MAX_INFO_CACHE:
            cache.clear()
        names, pats = matcher(ref), _patterns(ref)
        cycle = next((m.target for m in names.find(text) if m.kind == "cycle"), None)
        to_cache = bool(pats.cache_participant and pats.cache_participant.search(_words_text(text)))
        facts = cache[text] = (cycle, participant_step(names, text), to_cache)
    return facts


def _has_step(ms) -> bool:
    return any(m.kind == "step" for m in ms)


def _header_cycle(ms) -> str | None:
    """A text announces a cycle when a cycle word comes before any step name in it."""
    for m in ms:
        if m.kind == "step":
            return None
        if m.kind == "cycle":
            return m.target
    return None


def _inline_cycle(ms) -> str | None:
    """`Step (some cycle)`: a cycle word written after a step name on the same line."""
    seen_step = False
    for m in ms:
        if m.kind == "step":
            seen_step = True
        elif m.kind == "cycle" and seen_step:
            return m.target
    return None


def _find_boundary(rec: Recognised, ref: Reference) -> None:
    spec = ref.boundary
    if spec is None:
        return
    items = rec.items
    last_step_index = rec.mentions[-1].item.index if rec.mentions else -1
    first_step_index = rec.mentions[0].item.index if rec.mentions else -1
    markers = [item for item in rec.notable if item.role == "boundary"]
    # A marker with no step on one side separates nothing (e.g. a title note about the `go`): use it
    # only when there is no better one.
    inside = [item for item in markers if first_step_index < item.index <= last_step_index]
    for item in inside or markers:
        rec.boundary = FoundBoundary(item.index, item.line, "marker", item)
        return
    after_cycle = spec.cycles[1]
    for item in items:
        if item.cycle == after_cycle:
            rec.boundary = FoundBoundary(item.index, item.cycle_line or item.line, "cycles", item)
            return
    previous_message = None
    for item in items:
        if item.kind != "message":
            continue
        reply = previous_message is not None and (previous_message.source, previous_message.target) == (
            item.target, item.source) and item.source != item.target
        if item.async_arrow and item.index <= last_step_index and not reply:
            rec.boundary = FoundBoundary(item.index, item.line, "async", item)
            return
        previous_message = item
    for item in items:
        if item.in_par is not None and item.index <= last_step_index:
            rec.boundary = FoundBoundary(item.index, item.in_par, "par", None)
            return
    if len(rec.rect_starts) >= 2 and rec.rect_starts[1][0] <= last_step_index:
        # Two coloured regions and nothing else: the second one starts the second cycle.
        index, line = rec.rect_starts[1]
        rec.boundary = FoundBoundary(index, line, "rects", None)


def _find_reason(rec: Recognised, ref: Reference) -> None:
    if ref.reason is None:
        return
    for item in rec.notable:
        if item.role == "reason":
            rec.reason, rec.reason_explicit = item, True
            return
    b = rec.boundary
    if b is None:
        return
    candidates = []
    if b.item is not None:
        candidates.append(b.item)
    for k in ((b.index,) if b.item is None else ()) + (b.index + 1, b.index - 1, b.index + 2, b.index - 2):
        if 0 <= k < len(rec.items):
            it = rec.items[k]
            if it.kind == "note" and it.role in ("plain", "boundary") and not it.header and not _has_step(it.matches):
                candidates.append(it)
    for it in candidates:
        if len(it.info.reason_groups) >= ref.reason.min_groups:
            rec.reason = it
            return
