"""Typed model of a Mermaid sequenceDiagram, as the parser produces it.

Every node carries the 1-based line of the source it came from. The model is
plain data: recognise, grade and render read it; nothing here parses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union


@dataclass(frozen=True, slots=True)
class ParseError:
    """One error in a diagram, with where it is and how to fix it."""

    line: int
    column: int
    message: str
    expected: str = ""
    found: str = ""
    hint: str = ""


@dataclass(slots=True)
class Participant:
    """A participant or actor; `id` is the name messages use, `label` what is drawn."""

    id: str
    label: str
    kind: str  # "participant", "actor", or an @{type} such as "database"
    line: int
    created_line: int | None = None
    destroyed_line: int | None = None
    box: str | None = None  # label of the enclosing `box`, if any
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Box:
    label: str
    color: str
    line: int
    end_line: int
    participants: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Message:
    """A message line."""

    source: str  # participant id, as Mermaid's parser reports it
    target: str
    text: str
    arrow: str  # the arrow as written, e.g. "->>", "--)", "<<->>"
    line: int
    activate_target: bool = False  # `+` after the arrow
    deactivate_source: bool = False  # `-` after the arrow
    central_source: bool = False  # `()` before the arrow (Mermaid's central connection)
    central_target: bool = False  # `()` after the arrow


@dataclass(slots=True)
class Note:
    """A note line."""

    placement: str  # "left of", "right of", "over"
    actors: tuple[str, ...]
    text: str
    line: int


@dataclass(slots=True)
class Activation:
    actor: str
    active: bool  # True for activate, False for deactivate
    line: int


@dataclass(slots=True)
class Link:
    """`link`, `links`, `properties` or `details` attached to an actor."""

    keyword: str
    actor: str
    text: str
    line: int


@dataclass(slots=True)
class Autonumber:
    line: int
    start: float | None = None
    step: float | None = None
    off: bool = False


@dataclass(slots=True)
class Branch:
    """A section of a block: the opening one, or one after else/and/option."""

    keyword: str  # "alt", "else", "par", "and", "critical", "option", "loop", ...
    label: str
    line: int
    statements: list["Statement"] = field(default_factory=list)


@dataclass(slots=True)
class Block:
    """rect, loop, alt/else, opt, par/and, par_over, critical/option, break."""

    kind: str
    label: str
    line: int
    end_line: int
    branches: list[Branch] = field(default_factory=list)

    @property
    def statements(self) -> list["Statement"]:
        return [s for b in self.branches for s in b.statements]


Statement = Union[Message, Note, Block, Activation, Link, Autonumber]


@dataclass(slots=True)
class Directive:
    """A `%%{...}%%` directive, kept so the site can refuse it (never applied)."""

    text: str
    line: int


@dataclass(slots=True)
class Diagram:
    """The whole parsed file. `errors` is empty when Mermaid would accept it."""

    participants: list[Participant] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    title: str | None = None
    title_line: int | None = None
    acc_title: str | None = None
    acc_descr: str | None = None
    directives: list[Directive] = field(default_factory=list)
    front_matter: str | None = None  # raw YAML text, never applied
    front_matter_line: int | None = None
    comments: list[tuple[int, str]] = field(default_factory=list)  # (line, text) of %% comments
    errors: list[ParseError] = field(default_factory=list)
    header_line: int | None = None  # line of `sequenceDiagram`
    # The file's lines as errors and nodes number them (CRLF and CR read as line breaks), for an error page
    # that shows the source around each error; `statements` holds what parsed, errors or not.
    source_lines: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    def participant(self, pid: str) -> Participant | None:
        for p in self.participants:
            if p.id == pid:
                return p
        return None

    def walk(self) -> Iterator[tuple[Statement, tuple[tuple[Block, Branch], ...]]]:
        """Every statement in source order, with the chain of (block, branch) around it."""
        # An explicit stack, not recursion: a hostile file may nest blocks a thousand deep.
        stack: list[tuple[Iterator[Statement], tuple[tuple[Block, Branch], ...]]] = [(iter(self.statements), ())]
        while stack:
            statements, chain = stack[-1]
            s = next(statements, None)
            if s is None:
                stack.pop()
                continue
            yield s, chain
            if isinstance(s, Block):
                for br in reversed(s.branches):
                    stack.append((iter(br.statements), chain + ((s, br),)))
