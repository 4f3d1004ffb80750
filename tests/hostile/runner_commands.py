"""A port of the GitHub Actions runner's workflow-command parser (actions/runner, src/Runner.Common/
ActionCommand.cs `TryParseV2` / `TryParse`, and src/Runner.Worker/ActionCommandManager.cs
`TryProcessCommand`), to replay a build log and list every command the runner would obey.

- `::name k=v,k=v::data`: only at the start of a line after leading whitespace (`TrimStart`), the
  command info ends at the next `::`; the name is up to the first space.
- `##[name k=v;k=v]data`: the legacy form, found anywhere in the line (`IndexOf("##[")`), info up to the
  next `]`. Tried only when the `::` form did not parse.
- names are compared case-insensitively against the registered commands; `stop-commands` with data TOKEN
  stops all processing until a command named TOKEN (in either form) resumes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

REGISTERED = frozenset({
    "stop-commands", "set-env", "set-output", "save-state", "add-mask", "add-path", "add-matcher",
    "remove-matcher", "warning", "error", "notice", "debug", "group", "endgroup", "echo",
})


@dataclass
class Command:
    line_number: int
    name: str
    properties: dict[str, str] = field(default_factory=dict)
    data: str = ""
    line: str = ""


def _unescape(text: str, mappings: list[tuple[str, str]]) -> str:
    for token, replacement in mappings:
        text = text.replace(replacement, token)
    return text


_DATA = [("\r", "%0D"), ("\n", "%0A"), ("%", "%25")]
_PROPERTY = [("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C"), ("%", "%25")]
_LEGACY = [(";", "%3B"), ("\r", "%0D"), ("\n", "%0A"), ("]", "%5D"), ("%", "%25")]


def parse_v2(message: str, registered) -> Command | None:
    if not message:
        return None
    message = message.lstrip()  # C# TrimStart: Unicode whitespace
    if not message.startswith("::"):
        return None
    end = message.find("::", 2)
    if end < 0:
        return None
    return _command(message[2:end], message[end + 2:], registered, props=(lambda p: p.strip().split(","), _PROPERTY),
                    data_escapes=_DATA)


def _command(info: str, data: str, registered, *, props, data_escapes) -> Command | None:
    """A command from its `name k=v...` part and its data, as both of the runner's parsers build it."""
    split, prop_escapes = props
    space = info.find(" ")
    name = info if space < 0 else info[:space]
    if name.lower() not in registered:
        return None
    command = Command(0, name)
    if space > 0:
        for prop in (p for p in split(info[space + 1:]) if p):
            pair = [x for x in prop.split("=", 1) if x]
            if len(pair) == 2:
                command.properties[pair[0].lower()] = _unescape(pair[1], prop_escapes)
    command.data = _unescape(data, data_escapes)
    return command


def parse_legacy(message: str, registered) -> Command | None:
    if not message:
        return None
    prefix = message.find("##[")
    if prefix < 0:
        return None
    rb = message.find("]", prefix)
    if rb < 0:
        return None
    return _command(message[prefix + 3:rb], message[rb + 1:], registered, props=(lambda p: p.split(";"), _LEGACY),
                    data_escapes=_LEGACY)


def replay(log: str) -> list[Command]:
    """Every command the runner would process in `log`, in order, honouring stop-commands / resume."""
    registered = set(REGISTERED)
    stop_token: str | None = None
    obeyed: list[Command] = []
    for number, line in enumerate(log.split("\n"), 1):
        line = line.rstrip("\r")
        command = parse_v2(line, registered) or parse_legacy(line, registered)
        if command is None:
            continue
        command.line_number, command.line = number, line
        if stop_token is not None:
            if command.name.lower() == stop_token.lower():
                registered.discard(stop_token.lower())
                stop_token = None
                obeyed.append(command)
            continue
        if command.name.lower() == "stop-commands":
            stop_token = command.data
            registered.add(stop_token.lower())
        obeyed.append(command)
    return obeyed
