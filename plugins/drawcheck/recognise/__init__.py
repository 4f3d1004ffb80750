"""recognise: a parsed drawing -> the learner's steps, phases and boundary, as frozen dataclasses.

One walk over the statements reads every message, note, block label and participant name; it knows
nothing about any particular exercise: names come from the reference's vocabulary, and the roles a text
may play (a reason, a named function, a boundary marker) from its checks (`Role`).

Phase conventions understood: `rect` blocks labelled by a Note inside them; Notes alone as section
headers; block/branch labels (`par`, `loop`, `alt` ...); `box` groups; one participant per phase (by
name); an inline phase word next to a step. Boundary conventions (when the exercise has one): a marker
text, the first region labelled with the second phase, an async arrow (`-)`, `--)`), a `par` block, or
the second of several unlabelled top-level `rect` blocks. docs/grading.md has the details.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass

from drawcheck.parse.model import Block, Diagram, Message, Note
from drawcheck.recognise.abbreviations import with_abbreviations
from drawcheck.recognise.composed import composed
from drawcheck.recognise.legend import with_legend
from drawcheck.recognise.names import Match, matcher, not_struck_out, participant_steps
from drawcheck.recognise.phrases import phrase_text, phrases_regex
from drawcheck.reference.model import LegacyName, Reference

CONDITIONAL_BLOCKS = ("alt", "opt", "break")
BRANCHING_BLOCKS = ("par", "alt", "critical")  # blocks whose branches are not drawn one after the other
NESTING_BLOCKS = frozenset((*CONDITIONAL_BLOCKS, "critical", "par", "loop"))  # blocks that change the context
ASYNC_ARROWS = ("-)", "--)")
_LINE_BREAK = re.compile(r"<br\s*/?>", re.I)  # Mermaid's line break inside a label
GUESSED_SOURCES = ("async", "par", "rects")  # boundary conventions that only suggest a boundary
PLAIN = "plain"  # the role of a text that plays none of the checks' roles
BOUNDARY = "boundary"  # the role of a boundary marker (engine concept: the split between two phases)
BY_PARTICIPANTS = -3  # a mention's `pos` when it is drawn by whom its message goes between (`Between`)


@dataclass(frozen=True, slots=True)
class Between:
    """A message from one of `senders` to one of `receivers` (exercise participants, see `Role.who`) whose
    text names no step draws one of `steps`: the first one not yet drawn that comes after the step drawn
    last before it (e.g. a write to a store is one of several steps' writes by where it is drawn)."""

    senders: frozenset[str]
    receivers: frozenset[str]
    steps: tuple[str, ...]  # in reference order
    words: re.Pattern | None = None  # only when its text says one of these words (a `words_regex`)
    over_names: bool = False  # also when its text names other steps: between these, it is this step
    after: str | None = None  # only once this step is drawn
    unless: re.Pattern | None = None  # never when its text says one of these words (another object's message)


@dataclass(frozen=True, slots=True)
class Context:
    """Where an item is drawn, as the blocks around it say (one record for all the items of a branch)."""

    conditional: bool = False  # inside alt/opt/break or an option of critical
    conditional_line: int | None = None  # line of the innermost conditional block or branch
    in_par: int | None = None  # line of the enclosing par block
    branch_of: tuple[int, int] | None = None  # (block, branch) lines of the outermost par/alt/critical around it:
    # its branches run side by side or instead of each other, so their source order is no time order
    in_loop: int | None = None  # line of the outermost loop around it
    conditions: tuple[int, ...] = ()  # lines of every conditional block branch around it, outermost first


TOP_LEVEL = Context()  # outside every block


@dataclass(frozen=True, slots=True)
class Role:
    """A part a text can play, contributed by a check: e.g. a line starting `reason:`."""

    name: str
    pattern: re.Pattern | None  # searched in the lower-cased text (None: the role goes by participants)
    draws: frozenset[str] | None = frozenset()  # steps such a text still draws: None every step, () none
    headers: bool = False  # such a text may announce a phase
    anchored: bool = False  # matched at the start of a line: wins over roles matched anywhere
    participants: re.Pattern | None = None  # a `words_regex`: the role of a plain message to or from a
    # participant whose name says one of these words (its own calls: no old names are read in them)
    who: tuple[tuple[str, str], ...] = ()  # (exercise participant, one of its words as a `phrase_needle`), longest
    # first: the first word a drawn participant's name says tells whom it stands for
    between: tuple[Between, ...] = ()  # steps a message drawing none by its words draws by whom it goes between


@dataclass(frozen=True, slots=True)
class Reading:
    """What one text says, wherever it is drawn."""

    matches: tuple[Match, ...]
    role: str
    hits: tuple[Match, ...]  # the names of the steps it draws, for its role (kind "step")
    header: str | None  # the phase it announces as a note or block label
    inline: str | None  # `Step (some phase)`: a phase word after a step name
    phrased: str  # its `phrase_text`, what a `words_regex` searches

    @property
    def header_as_message(self) -> str | None:
        """The phase it announces as a message: only when it draws no step."""
        return self.header if not self.hits else None

    @property
    def phases(self) -> frozenset[str]:
        """Every phase it names."""
        return frozenset(m.target for m in self.matches if m.kind == "cycle")

    @property
    def misnamed(self) -> bool:
        return any(h.how != "exact" for h in self.hits)

    def names(self, kind: str) -> list[Match]:
        return [m for m in self.matches if m.kind == kind]


@dataclass(frozen=True, slots=True)
class Item:
    """One piece of learner text where it is drawn: a message, a note, a block label, or a comment."""

    index: int  # position among the items (-1 for a comment, which is not drawn)
    line: int
    text: str
    kind: str  # "message" | "note" | "label" | "comment"
    reading: Reading
    role: str
    header: str | None  # the phase this item announces for what follows
    phase: str | None  # the explicit phase label in force here
    phase_line: int | None  # where that label was written
    context: Context = TOP_LEVEL  # the blocks around it
    source: str | None = None  # a message's participants
    target: str | None = None
    actors: tuple[str, ...] = ()  # the participants it is drawn between or over
    async_arrow: bool = False
    own_hits: tuple[Match, ...] | None = None  # the steps it draws when its participants' role narrows its text's
    arrow: str = ""  # a message's arrow as written, e.g. "->>", "-->>", "-)"

    @property
    def matches(self) -> tuple[Match, ...]:
        return self.reading.matches

    @property
    def hits(self) -> tuple[Match, ...]:
        return self.reading.hits if self.own_hits is None else self.own_hits

    def says(self, pattern: re.Pattern | None) -> bool:
        """Does its text contain one of the words of a `words_regex`?"""
        return pattern is not None and pattern.search(self.reading.phrased) is not None


def side_by_side(a: Item, b: Item) -> bool:
    """Drawn in different branches of one par/alt/critical: neither comes before the other."""
    a, b = a.context.branch_of, b.context.branch_of
    return a is not None and b is not None and a[0] == b[0] and a != b


STAND_INS = frozenset({"caller", "participant"})
"""How a mention draws a step only where no name of its own draws it: a function running several steps
(`caller`); a participant named after the step, beside the name of a step that extends it (`participant`)."""


@dataclass(frozen=True, slots=True)
class Mention:
    """A step the learner drew."""

    step: str
    label: str  # the learner's own words for it
    line: int
    item: Item
    pos: int  # character offset inside the item's text (-2: named by the message's source; by its target: see
    # `_Walk.arrival`; -3: by whom it goes between)
    how: str = "exact"
    legacy: LegacyName | None = None

    @property
    def order(self) -> tuple[int, int]:
        """Source order."""
        return (self.item.index, self.pos)


@dataclass(frozen=True, slots=True)
class FoundBoundary:
    index: int  # items with index >= this are after the boundary
    line: int
    source: str  # "marker" | "cycles" | "par-label" | "async" | "par" | "rects"
    item: Item | None

    @property
    def guessed(self) -> bool:
        """Read from a mark that may mean something else (an async arrow, an unlabelled par or rect)."""
        return self.source in GUESSED_SOURCES


@dataclass(frozen=True, slots=True)
class Actor:
    """A declared participant and what its name says."""

    id: str
    label: str
    phase: str | None  # the phase its name or box announces
    steps: tuple[str, ...]  # the steps it is named after (one, or a list such as `A, B`)
    names: tuple[str, ...]  # its label and id
    phrased: tuple[str, ...]  # their `phrase_text` (a camelCase name also with its words apart)
    steps_said: tuple[str, ...] = ()  # the steps its label's words name (`watering can`: water), named or not after them
    heads: tuple[str, ...] = ()  # `phrased` without what brackets hold: `shed (only the gardener opens it)` -> shed
    box: tuple[str, ...] = ()  # the `phrase_text` of the title of the box it is drawn in, if any

    def says(self, pattern: re.Pattern | None) -> bool:
        """Does its label or id contain one of the words of a `words_regex`?"""
        return pattern is not None and any(pattern.search(p) for p in self.phrased)


@dataclass(frozen=True, slots=True)
class Recognised:
    items: tuple[Item, ...]
    mentions: tuple[Mention, ...]
    first: dict[str, Mention]  # step -> where it is first drawn (messages first), in source order
    boundary: FoundBoundary | None
    phases_marked: bool  # the drawing says which steps run in which phase
    rect_starts: tuple[tuple[int, int], ...]  # (first item index, line) of top-level rects
    actors: dict[str, Actor]
    comments: tuple[Item, ...]  # `%% ...` comments that play a role (`%% reason: ...`), never drawn
    steps_at: dict[int, set[str]]  # item index -> the steps drawn there

    def effective_phase(self, item: Item, pair: tuple[str, str] | None) -> str | None:
        """The item's phase label, else the side of the boundary it is drawn on."""
        if item.phase is not None:
            return item.phase
        if self.boundary is None or pair is None:
            return None
        return pair[1] if item.index >= self.boundary.index else pair[0]

    def with_role(self, role: str) -> list[Item]:
        return [item for item in self.items if item.role == role]


def prefix_regex(prefixes) -> re.Pattern | None:
    """Texts that start with one of `prefixes` (after punctuation), as whole words; a prefix's `:` may be
    written as Mermaid's entity code `#58;`."""
    if not prefixes:
        return None
    alts = "|".join(re.escape(p.lower()).replace(r"\ ", r"\s+").replace(":", "(?::|#58;)")
                    for p in sorted(prefixes, key=len, reverse=True))
    return re.compile(rf"^\W*(?:{alts})(?![a-z0-9])")


def marker_regex(markers, starts=()) -> re.Pattern | None:
    """Markers match anywhere (at a word start); `starts` only at the start of the text."""
    def body(m: str) -> str:
        text = re.escape(m.lower().strip()).replace(r"\ ", r"\s+")
        if m.endswith(" "):
            return text + r"(?:\s|$)"
        return text + r"(?![a-z0-9])" if m[-1:].isalnum() else text

    def either(group) -> str:
        return "(?:" + "|".join(body(m) for m in sorted(group, key=len, reverse=True)) + ")"

    # the word-start lookbehind once, before every marker that starts with a letter or digit (a start
    # needs none: `[^a-z0-9]*` ends on no letter or digit); the pattern is only searched, so order is free
    worded = [m for m in markers if m[:1].isalnum()]
    other = [m for m in markers if not m[:1].isalnum()]
    alts = ([r"(?<![a-z0-9])" + either(worded)] if worded else []) + ([either(other)] if other else []) \
        + ([r"^[^a-z0-9]*" + either(starts)] if starts else [])
    return re.compile("|".join(alts)) if alts else None


def words_regex(words) -> re.Pattern | None:
    """Matches any of `words` as whole words in `phrase_text` output (words in scripts written without
    spaces, e.g. 队列, need no word gap on their side: recognise/phrases.py)."""
    return phrases_regex(words)


def says(pattern: re.Pattern | None, text: str) -> bool:
    """Does `text` contain one of the words of a `words_regex`?"""
    return pattern is not None and pattern.search(phrase_text(text)) is not None


def text_role(ref: Reference, text: str) -> Role | None:
    """The first of the checks' roles whose pattern `text` matches (None: a plain text)."""
    low = text.lower()
    for role in ref.roles:
        if role.pattern is not None and role.pattern.search(low):
            return role
    return None


_ASKED = re.compile(r"\s*[:：]\s*[^:?]*\?\W*$")
"""After a step's name, a colon and a question to the end: what the question names is asked, not drawn."""
_TO_DO = re.compile(r"\s*(?:TODO|FIXME)\b")
"""A note to self (`TODO: look up where Sow goes`): it draws, names and announces nothing (unless the whole
text is in capitals: Spanish `TODO` is "all")."""


_TAG = re.compile(r"\s*\[[^\[\]]{1,40}\]")
"""A tag in square brackets that starts a text (`[sowing] Water`): what it names is no step where the rest names one."""


_NUMBERED_PART = re.compile(r"(?i)[\s,]*\s(?:step|part)\s*(?:#35;|#|no\.\s*)?\d")
"""After a name, `step 1`: one numbered part of what the name does (`sowOne step 2, Water` cites the function
`sowOne`, whose second part is the step drawn)."""


_QUESTION = re.compile(r"\s*Q\d*\s*[:.)]\s*[^?]*\?\s*A\d*\s*[:.)]")
"""`Q: why there? A: reason: ...`: a question the text answers; the answer is what it says."""


def read_text(ref: Reference, text: str) -> Reading:
    """What a text says: its names, its role, the steps it draws, the phase it announces (of a question and
    its answer, the answer's)."""
    asked = _QUESTION.match(text)
    if asked:
        text = " " * asked.end() + text[asked.end():]  # every word keeps its place
    text = not_struck_out(matcher(ref).unretracted(text))  # `Sow — sorry, PreSow`, `~~Sow~~`: what it takes back or
    # crosses out says nothing
    if _TO_DO.match(text) and not text.isupper():
        return Reading(matches=(), role=PLAIN, hits=(), header=None, inline=None, phrased=phrase_text(text))
    role = text_role(ref, text)
    # a misspelt step name matters only where the text draws steps or may announce a phase
    matches = matcher(ref).find(text, spelling=role is None or role.draws != frozenset() or role.headers)
    tag = _TAG.match(text)
    if tag and any(m.kind == "step" and m.start >= tag.end() for m in matches):  # `[sowing] Water`: a tag, then the step
        matches = tuple(m for m in matches if m.kind != "step" or m.start >= tag.end())
    tagged = matcher(ref).phase_tag(text)  # `second: Water`: the phase's short name, no step of its own
    if tagged and any(m.kind == "step" and m.start >= tagged[1] for m in matches):
        matches = tuple(m for m in matches if m.start >= tagged[1])
    else:
        tagged = None
    steps = [m for m in matches if m.kind == "step"]
    cited = [m for m in steps if _NUMBERED_PART.match(text, m.end)]
    if cited and len(cited) < len(steps):  # `Water (sowOne step 2)`: a function cited by its numbered parts
        matches = tuple(m for m in matches if m not in cited)
        steps = [m for m in steps if m not in cited]
    if steps and _ASKED.match(text, steps[0].end):  # `Sow: may it be watered now?`: a question draws nothing
        steps = [m for m in steps if m.start < steps[0].end]
    exact = {m.target for m in steps if m.how == "exact"}
    hits = []
    for m in steps:
        if role is not None and role.draws is not None and m.target not in role.draws:
            continue
        if m.legacy and m.legacy.also and exact & {m.target, *m.legacy.also}:
            continue  # an old name for several steps, qualified by one of them ("admission (mutating)")
        hits.append(m)
        for other in m.legacy.also if m.legacy else ():
            hits.append(Match("step", other, m.start, m.end))  # an old name that covers several of today's steps draws them all
    header = _header_phase(text, matches) if role is None or role.headers else None
    return Reading(
        matches=matches, role=role.name if role else PLAIN, hits=tuple(hits), header=header,
        inline=tagged[0] if tagged else _inline_phase(text, matches), phrased=phrase_text(text),
    )


HEADER_LEAD_WORDS = 3  # "--- <phase>", "Part 1: <phase>", "start of the <phase>"
_WORD = re.compile(r"\w+")


def _header_phase(text: str, matches) -> str | None:
    """A text announces a phase when it is a label: a phase word before any step name, written at its
    start (after at most a few words) or as its last words. A sentence that names a phase in passing
    ("... was taken from <phase> (<another phase word>)") announces nothing."""
    for m in matches:
        if m.kind == "step":
            return None
        if m.kind == "cycle":
            lead = len(_WORD.findall(text[:m.start]))
            ends = _WORD.search(text, m.end) is None
            return m.target if lead <= HEADER_LEAD_WORDS or ends else None
    return None


def _inline_phase(text: str, matches) -> str | None:
    """`Step (some phase)`: a phase word written right after a step name (at most a few words between,
    "<Step>, in the <phase>"); a phase named further on ("Step (..., then back to the <phase>)"), or by a
    loose word (said of other work too), or one after a dot (part of a dotted name, `bed.sowLoop`) labels
    nothing."""
    step_end = None
    too_far = None  # where the word after the HEADER_LEAD_WORDS words past the step starts (counted once a step:
    # counting from the step again for every phase word after it was square time, 13 s for `kø ` repeated)
    for m in matches:
        if m.kind == "step":
            step_end, too_far = m.end, None
        elif m.kind == "cycle" and step_end is not None and m.how != "loose" and text[m.start - 1:m.start] != ".":
            if too_far is None:
                after = [w.start() for w in itertools.islice(_WORD.finditer(text, step_end), HEADER_LEAD_WORDS + 1)]
                too_far = after[-1] if len(after) > HEADER_LEAD_WORDS else len(text)
            if m.start <= too_far:
                return m.target
    return None


def _after_its_predecessor(step: str, first: dict[str, Mention], mentions, ref: Reference) -> Mention:
    """Where a step done more than once (`repeats`) is drawn: its first message after the drawn step that comes
    right before it in the reference, when the one drawn first is sent by the same participant (one of its
    repeats), else where it is first drawn."""
    index, drawn = ref.step(step).index, first[step]
    before = [m for s, m in first.items() if ref.step(s).index < index]
    if not before or drawn.item.kind != "message":
        return drawn
    predecessor = max(before, key=lambda m: ref.step(m.step).index)
    return next((o for o in mentions if o.step == step and o.item.kind == "message" and o.order > predecessor.order
                 and o.item.source == drawn.item.source), drawn)


def _frames(statements) -> int:
    """How many `rect`s frame the whole drawing, one inside the other: a frame marks no region of its own."""
    depth = 0
    while True:
        drawn = [s for s in statements if isinstance(s, (Message, Note, Block))]
        if len(drawn) != 1 or not isinstance(drawn[0], Block) or drawn[0].kind != "rect":
            return depth
        depth, statements = depth + 1, drawn[0].statements


def recognise(diagram: Diagram, ref: Reference) -> Recognised:
    """Everything the learner drew, in source order, with phases and the boundary (its text composed:
    recognise/composed.py; a colour legend read: recognise/legend.py)."""
    diagram = with_abbreviations(with_legend(composed(diagram)), matcher(ref))
    walk = _Walk(ref, diagram, _actors(diagram, ref), frames=_frames(diagram.statements))
    walk.visit(diagram.statements, None, None, TOP_LEVEL, None)
    items = tuple(walk.items)
    boundary = _find_boundary(items, walk.mentions, walk.rect_starts, ref)
    remarks = {item.index for item in beside_boundary(items, boundary) if labelled_sentence(item)}
    if any(m.item.index in remarks for m in walk.mentions):  # a reason in words not listed names no step
        walk.mentions = [m for m in walk.mentions if m.item.index not in remarks]
        walk.late = [m for m in walk.late if m.item.index not in remarks]
        boundary = _find_boundary(items, walk.mentions, walk.rect_starts, ref)
    first = walk.first
    late = [m for m in walk.late if m.step not in first]
    if late:  # notes and labels draw a step only where no message does
        for m in late:
            first.setdefault(m.step, m)
    answered = answers(walk.items)
    own = {}  # a step drawn by a name of its own: a stand-in (e.g. a caller) does not draw it
    steps_of: dict[int, set[str]] = {}  # item index -> the steps drawn there
    for m in walk.mentions:
        steps_of.setdefault(m.item.index, set()).add(m.step)
    for m in walk.mentions:
        if m.how not in STAND_INS:
            own.setdefault(m.step, m)
    for step, m in first.items():
        if m.how in STAND_INS and step in own:
            first[step] = own[step]
        elif m.item.context.in_loop is not None:  # a try in a retry loop: the step is where it is drawn after it
            first[step] = next((o for o in walk.mentions if o.step == step and o.item.kind == "message"
                                and o.item.context.in_loop is None and o.order > m.order
                                and steps_of[o.item.index] == {step}  # on a message of its own,
                                and o.item.index not in answered), m)  # not an answer (`harvest results`)
    for step in sorted((step for step in first if ref.step(step).repeats), key=lambda step: ref.step(step).index):
        first[step] = _after_its_predecessor(step, first, walk.mentions, ref)
    first = dict(sorted(first.items(), key=lambda kv: kv[1].order))
    main = {p.id for p in ref.phases.values() if p.role == "main"}
    comments = tuple(item for line, text in diagram.comments if (item := _comment(ref, line, text)) is not None)
    return Recognised(
        items=items, mentions=tuple(walk.mentions), first=first, boundary=boundary,
        phases_marked=boundary is not None or any(i.phase in main for i in items),
        rect_starts=tuple(walk.rect_starts), actors=walk.actors, comments=comments, steps_at=steps_of,
    )


_LABEL_HEAD = re.compile(r"\s*(?=[^\W\d_])[^\s:：]+[:：]")  # one word (its marks too: காரணம்) and a colon
LABELLED_WORDS = 6  # words after the label: a sentence, not a step's name with a remark


def labelled_sentence(item: Item) -> bool:
    """`<word>: <a sentence>`, a note whose label word names nothing the exercise knows (`Grund: …`, `原因: …` in
    a language it does not list): a remark, not a step's note."""
    if item.kind != "note" or item.role not in (PLAIN, BOUNDARY) or item.header:
        return False
    head = _LABEL_HEAD.match(item.text)
    return head is not None and not any(m.start < head.end() for m in item.matches) \
        and len(_WORD.findall(item.text, head.end())) >= LABELLED_WORDS


def beside_boundary(items, boundary) -> list[Item]:
    """The items right after and right before the boundary (where its reason is written)."""
    if boundary is None:
        return []
    return [items[k] for k in (boundary.index + 1, boundary.index - 1) if 0 <= k < len(items)]


def answers(items) -> set[int]:
    """The messages that answer the message before them (from its receiver back to its sender)."""
    out, before = set(), None
    for item in items:
        if item.kind != "message":
            continue
        if before is not None and before.source != before.target \
                and (item.source, item.target) == (before.target, before.source):
            out.add(item.index)
        before = item
    return out


def _comment(ref: Reference, line: int, text: str) -> Item | None:
    """A `%%` comment that plays one of the checks' roles (e.g. `%% reason: ...`), else None: it draws and
    names nothing."""
    role = text_role(ref, text)
    if role is None:
        return None
    reading = Reading(matches=(), role=role.name, hits=(), header=None, inline=None, phrased=phrase_text(text))
    return Item(-1, line, text, "comment", reading, reading.role, None, None, None)


class _Walk:
    """One walk over a drawing's statements: makes the items and, as it goes, the mentions of steps."""

    def __init__(self, ref: Reference, diagram: Diagram, actors: dict[str, Actor], *, frames: int = 0):
        self.ref = ref
        self.diagram = diagram
        self.actors = actors
        self.items: list[Item] = []
        self.mentions: list[Mention] = []
        self.first: dict[str, Mention] = {}  # where a message first draws each step
        self.late: list[Mention] = []  # drawn by notes and labels: count only where no message draws the step
        self.rect_starts: list[tuple[int, int]] = []
        self.frames = frames  # rects around the whole drawing (`_frames`): the regions are the rects inside them
        self.rect_depth = 0  # rects around the statement being walked
        self.readings: dict[str, Reading] = {}  # this drawing's texts, each read once (gone with the walk)
        self.calls_of: dict[str, Role] = {  # participant -> the role of its own calls
            a.id: r for r in ref.roles if r.participants is not None
            for a in actors.values() if a.says(r.participants)}
        boundary = ref.boundary
        self.before_phase, self.after_phase = boundary.phases if boundary else (None, None)
        self.between = [(r, b) for r in ref.roles for b in r.between]
        self.who_of: dict[tuple[str, str], str | None] = {}  # (role, participant) -> exercise participant
        self.sent: dict[str, list[str]] | None = None  # participant -> its messages' texts (`texts_sent_by`)
        self.latest = -1  # the reference index of the step the last message drawing one drew
        self.previous: Item | None = None  # the message before
        self.previous_drew = False  # ... drew a step (not a long-lived watch's opening)
        self.late_steps: set[str] = set()  # the steps of `late`
        self.noted: dict[str, tuple[int, set[str]]] = {}  # `noted_since`: step -> (`late` read, their steps)
        self.spans: dict[int, frozenset[str]] = {}  # a header note's line -> the participants it is drawn over

    def read(self, text: str) -> Reading:
        reading = self.readings.get(text)
        if reading is None:
            reading = self.readings[text] = read_text(self.ref, text)
        return reading

    def visit(self, statements, current: str | None, current_line: int | None, context, backfill_line: int | None):
        statements = [line for s in statements for line in self.note_lines(s)]
        header_scope = False  # `current` was set by a header written in this scope
        interrupted = (None, None, False)  # the label an outside phase's label took over from
        if backfill_line is not None:
            # An unlabelled block takes the phase of its first header note (the rect convention).
            for s in statements:
                if isinstance(s, Block):
                    break  # a region inside it comes first: the block's own label would be written before
                if isinstance(s, (Note, Message)):
                    reading = self.read(s.text or "")
                    header = reading.header_as_message if isinstance(s, Message) else reading.header
                    if header:
                        # like a section header, it ends at the boundary when the block holds one
                        current, current_line, header_scope = header, backfill_line, True
                    break
        for s in statements:
            if isinstance(s, Block):
                self.visit_block(s, current, current_line, context)
                continue
            if not isinstance(s, (Message, Note)):
                continue
            is_message = isinstance(s, Message)
            text = s.text or ""
            reading = self.read(self.without_speaker(text, (s.source, s.target) if is_message else ()))
            role, hits, async_arrow, own_hits = reading.role, reading.hits, False, None
            between = None
            if is_message:
                header = reading.header_as_message
                actors = (s.source, s.target)
                calls = self.calls_of.get(s.source) or self.calls_of.get(s.target)
                if calls is not None and role == PLAIN:
                    role = calls.name
                    old = {h.start for h in hits if h.how == "legacy"}  # with the further steps it covers
                    hits = own_hits = tuple(h for h in hits if h.start not in old
                                            and (calls.draws is None or h.target in calls.draws))
                if s.arrow in ASYNC_ARROWS:
                    async_arrow = True
                    if role == PLAIN and self.after_phase in reading.phases:
                        role, header, hits = BOUNDARY, self.after_phase, ()
                if role == PLAIN and self.between:
                    others = self.other_objects(s)
                    if others:  # a message about another object ("store the Sowing plan") draws none of its steps
                        hits = own_hits = tuple(h for h in hits if h.target not in others)
                    # no new step named (only ones drawn before: a repeated name; or only by its spelling),
                    # or an `over_names` pair
                    fresh = [h for h in hits if h.target not in self.first and h.how != "typo"]
                    # a step named again by a name of several words (`sow the seed`, not the bare `sow` that
                    # may be the next step's too) is that step again, not the next of its rule
                    again = {h.target for h in hits if h.how != "typo" and h.target in self.first
                             and len(_WORD.findall(text[h.start:h.end])) > 1}
                    retried = set() if context.in_loop is not None else {  # tried in a loop: open again after it
                        step for step, m in self.first.items() if m.item.context.in_loop is not None}
                    between = self.between_step(s, named=bool(fresh), again=again, retried=retried)
                    if between is not None:
                        header = None  # it draws a step: no phase label
                        if not fresh:
                            hits = own_hits = tuple(h for h in hits if h.how != "typo")
            else:
                header, actors = reading.header, tuple(s.actors)
            if header and header != current:
                if self.ref.phases[header].role == "outside":
                    interrupted = (current, current_line, header_scope)
                current, current_line, header_scope = header, s.line, True
                if not is_message:
                    self.spans[s.line] = self.drawn_over(s)
            elif header_scope and role == BOUNDARY and current == self.before_phase:
                # A section header for the first phase ends at the boundary: what follows is labelled by
                # its sender (a participant named after the second phase) or by the boundary itself.
                current, current_line, header_scope = None, None, False
            elif current and self.ref.phases[current].role == "outside" \
                    and any(self.ref.step(h.target).cycle != current for h in hits):
                # A phase outside the flow (placement only) is no region of it: its label holds its own
                # steps, and the first step of another phase goes back to the label it interrupted.
                current, current_line, header_scope = interrupted
            if reading.inline:
                phase, phase_line = reading.inline, s.line
            elif current:
                phase, phase_line = current, current_line
                lane = self.phase_of((s.source,)) if is_message else None
                if lane and lane != current and s.source not in self.spans.get(current_line, (s.source,)):
                    phase, phase_line = lane, s.line  # a header note labels what is under it, not a lane beside it
            else:
                # a message by its sender, a note by the first participant it is over
                phase = self.phase_of((s.source,) if is_message else actors)
                phase_line = s.line if phase else None
            item = Item(
                index=len(self.items), line=s.line, text=text, kind="message" if is_message else "note",
                reading=reading, role=role, header=header, phase=phase, phase_line=phase_line, context=context,
                source=s.source if is_message else None, target=s.target if is_message else None,
                actors=actors, async_arrow=async_arrow, own_hits=own_hits, arrow=s.arrow if is_message else "",
            )
            self.items.append(item)
            if not is_message:
                self.add(item, hits, late=True)
                continue
            drawn = len(self.mentions)
            if between is not None and between[1]:
                self.add_between(item, between[0])  # over the steps its words name: drawn first
            if role == PLAIN:
                self.draw_actor_steps(item)
            self.add(item, hits, late=False)
            if between is not None and not between[1] \
                    and not any(self.first[m.step] is m for m in self.mentions[drawn:]):
                self.add_between(item, between[0])
            self.previous, self.previous_drew = item, False
            steps = [self.ref.step(m.step) for m in self.mentions[drawn:]]
            if steps:
                self.latest = max(step.index for step in steps)
                self.previous_drew = any(self.ref.phases[step.cycle].role != "outside" for step in steps)

    def without_speaker(self, text: str, pids) -> str:
        """`3 Gardener: Sow` sent by the participant labelled `3 Gardener`: the label names who speaks, not a step
        (blanked, so every other word keeps its place)."""
        head, colon, _ = text.partition(":")
        if not colon:
            return text
        spoken = " ".join(head.split()).strip("\"'").lower()
        if spoken and any(spoken == " ".join(self.actors[pid].label.split()).strip("\"'").lower()
                          for pid in pids if pid in self.actors):
            return " " * (len(head) + 1) + text[len(head) + 1:]
        return text

    def note_lines(self, s) -> list:
        """A note that lists the drawing in `<br>` lines, the boundary marker among them after its first line
        (`…<br>Water<br>go …<br>Harvest…`), as one note per line (at the note's line); any other
        statement as it is (a reason written over several lines stays one text)."""
        if not isinstance(s, Note) or not _LINE_BREAK.search(s.text or ""):
            return [s]
        lines = [line for line in _LINE_BREAK.split(s.text) if line.strip()]
        if not any((role := text_role(self.ref, line)) is not None and role.name == BOUNDARY for line in lines[1:]):
            return [s]
        return [dataclasses.replace(s, text=line) for line in lines]

    def drawn_over(self, note: Note) -> frozenset[str]:
        """The participants a note spans: from its first to its last, in the order they are drawn."""
        order = list(self.actors)
        ends = [order.index(a) for a in note.actors if a in self.actors]
        return frozenset(order[min(ends):max(ends) + 1]) if ends else frozenset(order)

    def phase_of(self, pids) -> str | None:
        """The phase the first of these participants announces by its name or box, if any."""
        for pid in pids:
            actor = self.actors.get(pid)
            if actor is not None and actor.phase:
                return actor.phase
        return None

    def visit_block(self, block: Block, current: str | None, current_line: int | None, context) -> None:
        """Each branch of a block: its label is an item; a phase it names labels what is inside."""
        if block.kind == "rect" and context == TOP_LEVEL:
            if self.rect_depth == self.frames:
                self.rect_starts.append((len(self.items), block.line))
            self.rect_depth += 1
            self._visit_branches(block, current, current_line, context)
            self.rect_depth -= 1
            return
        self._visit_branches(block, current, current_line, context)

    def _visit_branches(self, block: Block, current: str | None, current_line: int | None, context) -> None:
        for branch in block.branches:
            inner = _context(context, block, branch) if block.kind in NESTING_BLOCKS else context
            own = None
            if block.kind != "rect" and branch.label and branch.label.strip():
                reading = self.read(branch.label)
                own = reading.header
                phase, phase_line = (own, branch.line) if own else (current, current_line)
                item = Item(
                    index=len(self.items), line=branch.line, text=branch.label, kind="label", reading=reading,
                    role=reading.role, header=own, phase=phase, phase_line=phase_line, context=inner,
                )
                self.items.append(item)
                self.add(item, reading.hits, late=True)
            if own:
                self.visit(branch.statements, own, branch.line, inner, None)
            else:
                self.visit(branch.statements, current, current_line, inner, branch.line)

    def add(self, item: Item, hits, *, late: bool) -> None:
        for h in hits:
            m = Mention(h.target, item.text[h.start:h.end], item.line, item, h.start, h.how, h.legacy)
            self.mentions.append(m)
            if late:
                self.late.append(m)
                self.late_steps.add(m.step)
            else:
                self.first.setdefault(h.target, m)

    def draw_actor_steps(self, item: Item) -> None:
        """Participants named after steps: `S->>F: run` draws F's step; `A->>B: next` draws A's, then B's (placed
        among the steps the message's words name by the reference: `arrival`). Beside a
        step the words name that extends the participant's (`PreSow` to a participant named after Sow: one plugin
        serving both), the participant's step is a stand-in: drawn there only if no name of its own draws it."""
        ends = [(end, actor) for end, pid in (("source", item.source), ("target", item.target))
                if (actor := self.actors.get(pid)) is not None and actor.steps]
        if not ends:
            return
        named = {m.target for m in item.matches if m.kind == "step"}
        for end, actor in ends:
            for step in actor.steps:
                if step in named:
                    continue
                extended = any(step.lower() in other.lower() for other in named)
                pos = -2 if end == "source" else self.arrival(item, step)
                m = Mention(step, actor.label, item.line, item, pos, "participant" if extended else "exact")
                self.mentions.append(m)
                self.first.setdefault(step, m)

    def arrival(self, item: Item, step: str) -> int:
        """Where the receiver's `step` falls among the steps the message's words name (a `pos`): before the first
        of them that comes after it in the reference (`S->>W: run, then Harvest` to a participant named after
        Water), else after them all (`U->>W: sow` to it)."""
        index = self.ref.step(step).index
        later = [m.start for m in item.matches if m.kind == "step" and self.ref.step(m.target).index > index]
        return min(later) - 1 if later else len(item.text) + 1

    def between_step(self, message: Message, named: bool, again: set[str] = frozenset(),
                     retried: set[str] = frozenset()) -> tuple[str, bool] | None:
        """The step a message whose words name none (`named`: they name a new one; `again`: steps they name
        again by a name of several words, which no rule of those steps reads as its next one) draws by its
        participants and its place (`Between`), and whether it stands over the named ones; none for an answer
        to the message before it when that one drew a step of its own (e.g. an `ok`). Steps in `retried` were
        drawn inside a loop: after it they may be drawn again."""
        prev = self.previous
        if prev is not None and prev.source != prev.target and self.previous_drew \
                and (prev.source, prev.target) == (message.target, message.source):
            return None
        for role, b in self.between:
            if self.who(role, message.source) not in b.senders or self.who(role, message.target) not in b.receivers:
                continue
            if ((named or again & set(b.steps)) and not b.over_names) \
                    or (b.words is not None and not says(b.words, message.text or "")) \
                    or says(b.unless, message.text or "") or (b.after is not None and b.after not in self.first):
                continue
            noted = self.noted_since(b.after)
            named_by = self.named_by_participants(message, b.steps)
            if named_by:  # `A->>W: check` to a participant named after one of the steps: that step, by its name
                step = next((s for s in named_by if (s not in self.first or s in retried) and s not in noted), None)
                return (step, b.over_names) if step is not None else None
            open_steps = [s for s in b.steps if (s not in self.first or s in retried) and s not in noted]
            later = [s for s in open_steps if self.ref.step(s).index > self.latest]
            step = later[0] if later else (open_steps[-1] if open_steps else None)
            return (step, b.over_names) if step is not None else None
        return None

    def noted_since(self, after: str | None) -> set[str]:
        """The steps notes and labels drew (a message draws them no more), from step `after` on when given: a
        note before it (`the watches are open from the start`) is about no place in the flow."""
        if after is None or after not in self.first:
            return self.late_steps
        # `late` only grows and `first[after]` stays, so each mention is read once for each `after` (reading them all
        # for every message was square time: 6,000 noted mentions and 3,420 messages read 20 million)
        read, steps = self.noted.get(after, (0, set()))
        since = self.first[after].order
        steps.update(m.step for m in self.late[read:] if m.order > since)
        self.noted[after] = (len(self.late), steps)
        return steps

    def other_objects(self, message: Message) -> set[str]:
        """The steps of the `between` rules whose participants the message goes between and whose
        `unless_words` it says: it is about another object, so it is none of them."""
        return {step for role, b in self.between if b.unless is not None
                and self.who(role, message.source) in b.senders and self.who(role, message.target) in b.receivers
                and says(b.unless, message.text or "") for step in b.steps}

    def named_by_participants(self, message: Message, steps: tuple[str, ...]) -> list[str]:
        """Which of `steps` the message's participants' labels name (`watering can` of a call to it)."""
        said = [s for pid in (message.source, message.target) if pid in self.actors
                for s in self.actors[pid].steps_said]
        return [s for s in dict.fromkeys(said) if s in steps]

    def add_between(self, item: Item, step: str) -> None:
        m = Mention(step, item.text, item.line, item, BY_PARTICIPANTS)  # before its words
        self.mentions.append(m)
        self.first.setdefault(step, m)

    def who(self, role: Role, pid: str | None) -> str | None:
        key = (role.name, pid or "")
        if key not in self.who_of:
            self.who_of[key] = stands_for(role.who, self.actors, pid) or self.by_what_it_sends(role, pid)
        return self.who_of[key]

    def by_what_it_sends(self, role: Role, pid: str | None) -> str | None:
        """A drawn participant whose name says no word of the exercise's (a language it does not list) stands
        for the one exercise participant that, by the `between` rules, alone sends a step its messages name
        (`Jardinier` who sends Sow is the gardener)."""
        if pid is None:
            return None
        senders: dict[str, set[str]] = {}
        for r, b in self.between:
            if r.name == role.name:
                for step in b.steps:
                    senders.setdefault(step, set()).update(b.senders)
        found = {next(iter(senders[h.target])) for text in self.texts_sent_by().get(pid, ())
                 for h in self.read(text).hits
                 if h.how != "typo" and len(senders.get(h.target, ())) == 1}
        return found.pop() if len(found) == 1 else None

    def texts_sent_by(self) -> dict[str, list[str]]:
        """Participant -> the texts of the messages it sends, in order (one walk of the drawing, made once: a walk
        for each participant was square time, 4,400 senders of one message each took 5 s)."""
        if self.sent is None:
            self.sent = {}
            for s, _chain in self.diagram.walk():
                if isinstance(s, Message):
                    self.sent.setdefault(s.source, []).append(s.text or "")
        return self.sent


_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")  # where a camelCase name's next word starts


def stands_for(who: tuple[tuple[str, str], ...], actors: dict[str, Actor], pid: str | None) -> str | None:
    """The exercise participant a drawn participant stands for: the first of `who` ((id, one of its words as a
    `phrase_needle`), longest word first) whose word its label or id says (in any script) outside brackets, else
    inside them, else the title of the box it is drawn in (`box Gardener` around `participant Can`), else None.
    (Needles, not regexes: a regex per word, tried at every place of a name of 48,000 characters, took 2.3 s.)"""
    actor = actors.get(pid) if pid is not None else None
    texts = actor.phrased if actor else (phrase_text(pid),) if pid else ()
    reads = ((actor.heads, texts) if actor.heads != texts else (texts,)) + ((actor.box,) if actor.box else ()) \
        if actor else (texts,)
    for read in reads:  # what brackets hold is a remark: read it later
        said = "\x00".join(read)  # (no needle holds a NUL, so none is found across two texts)
        found = next((ex for ex, needle in who if needle in said), None)
        if found is not None:
            return found
    return None


def _context(parent: Context, block: Block, branch) -> Context:
    """The context inside `branch` of `block`."""
    conditional, conditional_line, conditions = parent.conditional, parent.conditional_line, parent.conditions
    if block.kind in CONDITIONAL_BLOCKS or block.kind == "critical":
        conditional_line = branch.line
        if block.kind != "critical" or branch is not block.branches[0]:
            conditional, conditions = True, (*conditions, branch.line)
    in_par = block.line if block.kind == "par" and parent.in_par is None else parent.in_par
    branch_of = (block.line, branch.line) if block.kind in BRANCHING_BLOCKS and parent.branch_of is None \
        else parent.branch_of
    in_loop = block.line if block.kind == "loop" and parent.in_loop is None else parent.in_loop
    return Context(conditional, conditional_line, in_par, branch_of, in_loop, conditions)


def _actors(diagram: Diagram, ref: Reference) -> dict[str, Actor]:
    """Each declared participant: the phase its box or name announces, the step it is named after."""
    out = {}
    names = matcher(ref)
    for p in diagram.participants:
        phase, steps, said = None, (), ()
        own = tuple(dict.fromkeys(t for t in (p.label, p.id) if t))  # an id without an alias is its own label
        for text in dict.fromkeys(t for t in (p.box, *own) if t):
            # the phase it announces (spelling guesses name only steps, so they are not read)
            found = names.find(text, spelling=False)
            named = next((m.target for m in found if m.kind == "cycle"), None)
            phase = phase or named
            if text == own[0]:
                said = tuple(dict.fromkeys(m.target for m in found if m.kind == "step"))
                if not named:  # an alias with a label is no name of its own
                    steps = participant_steps(names, text)
        read = tuple(dict.fromkeys(x for n in own for x in (n, _CAMEL_HUMP.sub(" ", n))))  # `SeedBed`: seed bed
        phrased = tuple(phrase_text(n) for n in read)
        heads = tuple(phrase_text(_BRACKETED.sub(" ", n)) if _BRACKETED.search(n) else t for n, t in zip(read, phrased))
        out[p.id] = Actor(p.id, p.label or p.id, phase, steps, own, phrased, said, heads,
                          (phrase_text(p.box),) if p.box else ())
    return out


def _find_boundary(items, mentions, rect_starts, ref: Reference) -> FoundBoundary | None:
    """Where the drawing splits the boundary's two phases, by the first convention that applies."""
    boundary = ref.boundary
    if boundary is None:
        return None
    last_step_index = mentions[-1].item.index if mentions else -1
    first_step_index = mentions[0].item.index if mentions else -1
    after_phase = boundary.phases[1]
    # A marker that heads another phase ("--- <first phase> ---", "=== <a branch> ===") starts that
    # phase; it splits nothing.
    markers = [item for item in items if item.role == BOUNDARY and item.header in (None, after_phase)]
    # A marker with no step on one side separates nothing (e.g. a title note about the boundary): use it
    # only when there is no better one.
    inside = [item for item in markers if first_step_index < item.index <= last_step_index]
    # The split is on the main path: a marker in an `opt`/`alt` branch ("go back to …" after a failure)
    # counts only when none is drawn outside one.
    if inside or markers:
        item = min(inside or markers, key=lambda item: item.context.conditional)  # the first of the least conditional
        return FoundBoundary(item.index, item.line, "marker", item)
    for item in items:
        if item.phase == after_phase:
            if item.context.in_par is not None:
                # The second phase starts in a `par`: its branches run side by side, so a first-phase step
                # the par holds beside it is drawn after the split too: the boundary is the par's start.
                start = next(i for i in items if i.context.in_par == item.context.in_par)
                return FoundBoundary(start.index, item.context.in_par, "par-label", start)
            return FoundBoundary(item.index, item.phase_line or item.line, "cycles", item)
    previous = None
    for item in items:
        if item.kind != "message":
            continue
        reply = previous is not None and (previous.source, previous.target) == (
            item.target, item.source) and item.source != item.target
        if item.async_arrow and item.index <= last_step_index and not reply:
            return FoundBoundary(item.index, item.line, "async", item)
        previous = item
    # a `par` for the second phase: the first one that holds a step of it (a par around first-phase steps
    # run in parallel is no boundary)
    second = {m.item.context.in_par for m in mentions
              if m.item.context.in_par is not None and ref.step(m.step).cycle == after_phase}
    for item in items:
        if item.context.in_par in second and item.index <= last_step_index:
            return FoundBoundary(item.index, item.context.in_par, "par", None)
    if len(rect_starts) >= 2 and rect_starts[1][0] <= last_step_index:
        # Two coloured regions and nothing else: the second one starts the second phase.
        index, line = rect_starts[1]
        return FoundBoundary(index, line, "rects", None)
    return None
