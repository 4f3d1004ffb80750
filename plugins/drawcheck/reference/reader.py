"""Typed access to the nodes of an exercise YAML; every failure is a ReferenceError at the node's line."""

from __future__ import annotations

import re

import yaml

from drawcheck.reference.model import Note, ReferenceError
from drawcheck.reference.source import Source, SourceDefaults, read_sources

_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def compact(text: str) -> str:
    """Case, spaces, hyphens and underscores ignored: how names are compared."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def line_of(node) -> int:
    return node.start_mark.line + 1


class Reader:
    """One per exercise file: `fail` names the file and the node's line."""

    def __init__(self, file: str):
        self.file = file
        self.sources = SourceDefaults()  # the exercise's `sources:` section, once read

    def fail(self, node, message: str):
        raise ReferenceError(self.file, line_of(node) if node is not None else None, message)

    def mapping(self, node, where: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict:
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, f"{where} must be a mapping of `key: value` lines, not {kind_of(node)}")
        out: dict = {}
        allowed = required + optional
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key not in allowed:
                self.fail(key_node, f"unknown key {key!r} in {where}; allowed keys: {', '.join(allowed)}")
            if key in out:
                self.fail(key_node, f"duplicate key {key!r} in {where}; keep one of them")
            out[key] = value_node
        for key in required:
            if key not in out:
                self.fail(node, f"{where} needs `{key}:`")
        return out

    def pairs(self, node, where: str) -> list[tuple]:
        """(key node, value node) of a mapping whose keys are data (ids), not fixed keys."""
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, f"{where} must be a mapping, not {kind_of(node)}")
        return list(node.value)

    def string(self, node, where: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
            if isinstance(node, yaml.ScalarNode) and node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
                return node.value
            self.fail(node, f"{where} must be text, not {kind_of(node)}; quote it if needed")
        if not node.value.strip():
            self.fail(node, f"{where} must not be empty")
        return node.value

    def optional_string(self, m: dict, key: str, where: str, default: str | None = None) -> str | None:
        return self.string(m[key], f"{where}.{key}") if key in m else default

    def boolean(self, node, where: str) -> bool:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:bool":
            self.fail(node, f"{where} must be true or false, not {kind_of(node)}")
        return node.value.lower() in ("true", "yes", "on")

    def positive(self, node, where: str) -> int:
        if not (isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int" and int(node.value) > 0):
            self.fail(node, f"{where} must be a whole number above 0, not {kind_of(node)}")
        return int(node.value)

    def seq(self, node, where: str) -> list:
        if not isinstance(node, yaml.SequenceNode):
            self.fail(node, f"{where} must be a list (`- item` lines or `[a, b]`), not {kind_of(node)}")
        return list(node.value)

    def strings(self, node, where: str) -> tuple[str, ...]:
        return tuple(self.string(n, f"an item of {where}") for n in self.seq(node, where))

    def choice(self, node, where: str, choices) -> str:
        value = self.string(node, where)
        if value not in choices:
            self.fail(node, f"{where} is {value!r}; use one of: {', '.join(choices)}")
        return value

    def ident(self, node, where: str) -> str:
        value = self.string(node, where)
        if not _ID.match(value):
            self.fail(node, f"{where} {value!r} must start with a letter and use only letters, digits, `-`, `_`")
        return value

    def source(self, m: dict, where: str) -> tuple[Source, ...]:
        return read_sources(self, m["source"], f"{where}.source", self.sources) if "source" in m else ()

    def note(self, node, where: str) -> Note:
        """A message for the learner: text alone, or `{message, versions?, source?}`."""
        if isinstance(node, yaml.ScalarNode):
            return Note(self.string(node, where), line=line_of(node))
        m = self.mapping(node, where, ("message",), ("versions", "source"))
        return Note(self.string(m["message"], f"{where}.message"), self.optional_string(m, "versions", where),
                    self.source(m, where), line_of(node))

    def templates(self, node, where: str, defaults: dict[str, str]) -> dict[str, str]:
        """A check's messages: its defaults, overridden by `key: text` lines (unknown keys refused)."""
        out = dict(defaults)
        if node is not None:
            m = self.mapping(node, where, (), tuple(defaults))
            out.update({key: self.string(value, f"{where}.{key}") for key, value in m.items()})
        return out


def kind_of(node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if node is None:
        return "nothing"
    tag = node.tag.rsplit(":", 1)[-1]
    return "empty" if tag == "null" else f"a {tag} ({node.value!r})"
