"""parse: Mermaid sequenceDiagram text -> typed model with line numbers."""

from drawcheck.parse.model import (  # noqa: F401
    Activation, Autonumber, Block, Box, Branch, Diagram, Directive, Link, Message, Note,
    ParseError, Participant, Statement,
)
