"""Tokeniser that splits text exactly where Mermaid 12.3.0's sequence lexer does.

Mermaid's lexer is a list of regular expressions tried in order at the current
position; the first one that matches wins (not the longest). Some rules switch
the lexer into a state (after `participant` it reads a name, after `loop` the
rest of the line, ...), and each state has its own rule list. We keep the same
facts (which text becomes which token, in which state, in which order) and try
the rules of the current state in that order, skipping those that cannot start
with the character at hand: the same "first match wins" rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from drawcheck.parse.jsregex import DOT, FLAGS, JS_WS_CHARS, WS, WS_BODY, WS_NO_NL, js_trim

# Arrows, in the order Mermaid tries them (the order matters: `->>` before `->`).
ARROWS = (
    "->>", "<<->>", "-->>", "<<-->>", "->", "-->", "-x", "--x", "-)", "--)",
    "--|\\", "--|/", "--\\\\", "--//", "/|--", "\\|--", "//--", "\\\\--",
    "-|\\", "-|/", "-\\\\", "-//", "/|-", "\\|-", "//-", "\\\\-",
)

_ACTOR_STOP = "[^<>:\\n,;@" + WS_BODY + "]"  # a name character in ID state, no spaces
_ID_CHAR = "[^<>:\\n,;@]"
_LINK_AHEAD = "(?=[ \\t]+[^/\\\\+()<>:\\n,;" + WS_BODY + "\\-])"
# Prefixes that stop a name before an arrow (Mermaid's ACTOR rule lookahead): -x --x -) --) -|\ -\ -/ -// -|/
# /|- \|- //- \\- --|\ -- (). One that starts with a shorter one (`--x` with `--`) adds nothing; the others
# after a `-` go in one class (one test of the next character instead of one alternative each).
_ARROW_PREFIXES = r"-[x)\\/-]|-\|[\\/]|/\|-|\\\|-|//-|\\\\-|\(\)"
_NAME = (
    "[^/\\\\+()<\\->:\\n,;]+"
    "(?:(?!" + _ARROW_PREFIXES + ")-*[^+<\\->:\\n,;]+)*"
)

# (rule id, pattern, token or None to skip, state action, trim text)
# State actions: "push:S", "pop", "pop2", "pop_push:S", "pop2_push:S".
_R = [
    # `\n+`, then the whitespace after it, which the next rule (`ws`) would skip: one match instead of two
    ("nl", r"\n" + WS + "*", "NEWLINE", None, False),
    ("ws", WS + "+", None, None, False),
    ("ws_line", WS_NO_NL + "+", None, None, False),
    ("hash_comment", r"#[^\n]*", None, None, False),
    ("pct_comment", r"%(?!\{)[^\n]*", None, None, False),
    ("pct2_comment", r"[^}]%%[^\n]*", None, None, False),
    ("num", r"(?:[0-9]+(?:\.[0-9]{1,2})?|\.[0-9]{1,2})(?=[ \n]+)", "NUM", None, False),
    ("config_start", r"@\{", "CONFIG_START", "push:CONFIG", False),
    ("config_content", r"[^}]+", "CONFIG_CONTENT", None, False),
    ("config_end_alias", r"\}(?=" + WS + "+as" + WS + ")", "CONFIG_END", "pop_push:ALIAS", False),
    ("config_end", r"\}", "CONFIG_END", "pop2", False),
    ("id_before_config", _ACTOR_STOP + "+(?=" + WS + r"*@\{)", "ACTOR", None, True),
    ("id_before_as", _ACTOR_STOP + "+(?=" + WS + "+as" + WS + ")", "ACTOR", "push:ALIAS", True),
    ("id", _ID_CHAR + "+(?=" + WS + r"*[\n;#]|\Z)", "ACTOR", "pop", True),
    ("id_lt", _ID_CHAR + r"*<[^\n]*", "INVALID", "pop", False),
    ("id_rest", r"[^\n]+", "INVALID", "pop", True),
    ("box", r"box\b", "box", "push:LINE", False),
    ("participant", r"participant\b", "participant", "push:ID", False),
    ("actor", r"actor\b", "participant_actor", "push:ID", False),
    ("create", r"create\b", "create", None, False),
    ("destroy", r"destroy\b", "destroy", "push:ID", False),
    ("as", r"as\b", "AS", "pop2_push:LINE", False),
    ("no_as", r"", "NEWLINE", "pop2", False),
    ("loop", r"loop\b", "loop", "push:LINE", False),
    ("rect", r"rect\b", "rect", "push:LINE", False),
    ("opt", r"opt\b", "opt", "push:LINE", False),
    ("alt", r"alt\b", "alt", "push:LINE", False),
    ("else", r"else\b", "else", "push:LINE", False),
    ("par", r"par\b", "par", "push:LINE", False),
    ("par_over", r"par_over\b", "par_over", "push:LINE", False),
    ("and", r"and\b", "and", "push:LINE", False),
    ("critical", r"critical\b", "critical", "push:LINE", False),
    ("option", r"option\b", "option", "push:LINE", False),
    ("break", r"break\b", "break", "push:LINE", False),
    ("rest_of_line", r"(?:[:]?(?:no)?wrap)?[^#\n;]*", "restOfLine", "pop", False),
    ("end", r"end\b", "end", None, False),
    ("left_of", r"left of\b", "left_of", None, False),
    ("right_of", r"right of\b", "right_of", None, False),
    ("links", r"links" + _LINK_AHEAD, "links", None, False),
    ("link", r"link" + _LINK_AHEAD, "link", None, False),
    ("properties", r"properties" + _LINK_AHEAD, "properties", None, False),
    ("details", r"details" + _LINK_AHEAD, "details", None, False),
    ("over", r"over\b", "over", None, False),
    ("note", r"note\b", "note", None, False),
    ("activate", r"activate\b", "activate", "push:ID", False),
    ("deactivate", r"deactivate\b", "deactivate", "push:ID", False),
    ("title", "title" + WS + r"[^#\n;]+", "title", None, False),
    ("legacy_title", "title:" + WS + r"[^#\n;]+", "legacy_title", None, False),
    ("acc_title", "accTitle" + WS + "*:" + WS + "*", "acc_title", "push:acc_title", False),
    ("acc_title_value", r"[^\n]*", "acc_title_value", "pop", False),
    ("acc_descr", "accDescr" + WS + "*:" + WS + "*", "acc_descr", "push:acc_descr", False),
    ("acc_descr_value", r"[^\n]*", "acc_descr_value", "pop", False),
    ("acc_descr_multi", "accDescr" + WS + r"*\{" + WS + "*", None, "push:acc_descr_multiline", False),
    ("acc_descr_multi_end", r"\}", None, "pop", False),
    ("acc_descr_multi_value", r"[^}]*", "acc_descr_multiline_value", None, False),
    ("sd", r"sequenceDiagram\b", "SD", None, False),
    ("autonumber", r"autonumber\b", "autonumber", None, False),
    ("off", r"off\b", "off", None, False),
    ("comma", r",", ",", None, False),
    ("semicolon", r";", "NEWLINE", None, False),
    ("name", _NAME, "ACTOR", None, True),
    ("arrow", "|".join(re.escape(a) for a in ARROWS), "ARROW", None, False),  # the first that matches, in order
    ("txt", r":(?:(?:no)?wrap)?[^#\n;]*", "TXT", None, False),
    ("colon", r":", "TXT", None, False),
    ("plus", r"\+", "+", None, False),
    ("minus", r"-", "-", None, False),
    ("central", r"\(\)", "()", None, False),
    ("eof", r"\Z", "NEWLINE", None, False),
    ("any", DOT, "INVALID", None, False),
]
_BY_NAME = {r[0]: r for r in _R}

_STATE_RULES = {
    "INITIAL": [
        "nl", "ws", "hash_comment", "pct_comment", "pct2_comment", "num", "box", "participant", "actor",
        "create", "destroy", "loop", "rect", "opt", "alt", "else", "par", "par_over", "and", "critical",
        "option", "break", "end", "left_of", "right_of", "links", "link", "properties", "details", "over",
        "note", "activate", "deactivate", "title", "legacy_title", "acc_title", "acc_descr", "acc_descr_multi",
        "sd", "autonumber", "off", "comma", "semicolon", "name",
        "arrow",
        "txt", "colon", "plus", "minus", "central", "eof", "any",
    ],
    "ID": ["ws_line", "hash_comment", "config_start", "id_before_config", "id_before_as", "id", "id_lt", "id_rest"],
    "ALIAS": ["ws_line", "hash_comment", "as", "no_as"],
    "LINE": ["ws_line", "hash_comment", "rest_of_line"],
    "CONFIG": ["config_content", "config_end_alias", "config_end"],
    "acc_title": ["acc_title_value"],
    "acc_descr": ["acc_descr_value"],
    "acc_descr_multiline": ["acc_descr_multi_end", "acc_descr_multi_value"],
}

SKIP_COMMENT_RULES = frozenset({"hash_comment", "pct_comment", "pct2_comment"})

# ---- which rules can start with which character -------------------------------
# Trying every rule of a state at every position is slow (80 in the initial state), so for each state and
# first character we take the rules that can start with it, in the state's order, into one regex ("first
# match wins" is unchanged). Characters that every rule treats alike share a key: non-ASCII
# characters that are not whitespace (_OTHER), and the end of the text (_EOF).
_EOF = ""
_OTHER = "\x80"
_KEYS = [chr(c) for c in range(128)] + [c for c in JS_WS_CHARS if c >= "\x80"] + [_OTHER, _EOF]


def _one_of(chars: str):
    return lambda c: c != _EOF and c in chars


def _not(chars: str):
    return lambda c: c != _EOF and c not in chars


def _any(c: str) -> bool:  # rules that can match empty, at any character or at the end
    return True


_FIRST = {
    "nl": _one_of("\n"), "ws": _one_of(JS_WS_CHARS), "ws_line": _one_of(JS_WS_CHARS.replace("\n", "")),
    "hash_comment": _one_of("#"), "pct_comment": _one_of("%"), "pct2_comment": _not("}"),
    "num": _one_of("0123456789."), "config_start": _one_of("@"), "config_content": _not("}"),
    "config_end_alias": _one_of("}"), "config_end": _one_of("}"),
    "no_as": _any, "rest_of_line": _any, "acc_title_value": _any, "acc_descr_value": _any,
    "acc_descr_multi_value": _any, "eof": lambda c: c == _EOF,
    "acc_descr_multi_end": _one_of("}"), "comma": _one_of(","), "semicolon": _one_of(";"),
    "name": _not("/\\+()<->:\n,;"), "txt": _one_of(":"), "colon": _one_of(":"), "plus": _one_of("+"),
    "minus": _one_of("-"), "central": _one_of("("), "any": _not("\n\r\u2028\u2029"),
    "arrow": _one_of("".join(a[0] for a in ARROWS)),
}
for _name, _pattern, *_ in _R:  # the rest are keywords (`left of`, `accTitle`, `sequenceDiagram`, ...)
    if _name not in _FIRST and not _name.startswith("id"):  # (the ID state has its own matcher)
        assert _pattern[0].isalpha(), _name
        _FIRST[_name] = _one_of(_pattern[0].lower() + _pattern[0].upper())


def _master(names) -> re.Pattern:
    """One regex that tries the rules `names` in order at a position and takes the first that matches (Python's
    alternation is ordered, like Mermaid's rule list, not longest-match); `lastgroup` names the rule."""
    return re.compile("|".join("(?P<%s>%s)" % (n, _BY_NAME[n][1]) for n in names), FLAGS | re.IGNORECASE)


def _candidates(names: list[str]) -> dict[str, re.Pattern]:
    """first character -> the regex of the rules (of `names`, in order) that can match there."""
    regex_of: dict[tuple[str, ...], re.Pattern] = {}  # characters with the same rules share one regex
    table = {}
    for key in _KEYS:
        rules = tuple(n for n in names if _FIRST[n](key))
        if rules:
            table[key] = regex_of.setdefault(rules, _master(rules))
    return table


# state -> first character -> the regex of the rules that can match there
_CANDIDATES = {state: _candidates(names) for state, names in _STATE_RULES.items() if state != "ID"}  # (ID: none)


# The ID state's `id` rule, /[^<>:\n,;@]+(?=\s*[\n;#]|$)/, backtracks quadratically on a
# long run of spaces; we compute the same match directly (see _match_id_state).
_ID_FIRST = _master(("ws_line", "hash_comment", "config_start", "id_before_config", "id_before_as"))
_ID_LAST = _master(("id_lt", "id_rest"))
_ID_RUN = re.compile(_ID_CHAR + "+", FLAGS)


def _match_id_state(text: str, pos: int) -> tuple[str | None, int]:
    """(rule, end) of the ID-state rule that matches at pos, or (None, pos); same result as Mermaid's rule list."""
    m = _ID_FIRST.match(text, pos)
    if m is not None:
        return m.lastgroup, m.end()
    run = _ID_RUN.match(text, pos)
    if run is not None:
        run_end = run.end()
        if run_end == len(text) or text[run_end] in "\n;":
            return "id", run_end
        hash_at = text.rfind("#", pos + 1, run_end)
        if hash_at != -1:
            return "id", hash_at
    m = _ID_LAST.match(text, pos)
    if m is not None:
        return m.lastgroup, m.end()
    return None, pos


_POPS = {"": 0, "push": 0, "pop": 1, "pop_push": 1, "pop2": 2, "pop2_push": 2}
# rule -> (token or None, states to pop, state to push or "", trim the text, a comment)
_ACTIONS = {name: (token, _POPS[(action or "").partition(":")[0]], (action or "").partition(":")[2], trim,
                   name in SKIP_COMMENT_RULES)
            for name, _p, token, action, trim in _R}


@dataclass(slots=True)
class Token:
    type: str  # Mermaid's terminal name, e.g. "ACTOR", "ARROW", "TXT", "NEWLINE", "EOF"; ours: "LEXERROR"
    text: str
    line: int  # 0-based line in the lexed text
    col: int  # 0-based column in the lexed text


@dataclass(slots=True)
class Comment:
    line: int
    text: str


_WRAP_PREFIXES = ("wrap:", ":wrap:", "nowrap:", ":nowrap:")


def parse_message(s: str) -> str:
    """Mermaid's parseMessage: trim, drop a `wrap:`/`nowrap:` prefix, trim."""
    text = js_trim(s)
    if text.startswith(_WRAP_PREFIXES):
        text = js_trim(text.partition("wrap:")[2])
    return text


def tokenize(text: str) -> tuple[list[Token], list[Comment]]:
    """Split `text` (already preprocessed like Mermaid does) into tokens.

    Ends with an EOF token. A spot no rule matches (only possible after
    `participant`/`actor`/`activate`/`destroy` with no name) gives a LEXERROR
    token; we then continue in the initial state so later errors are found too.
    """
    tokens: list[Token] = []
    comments: list[Comment] = []
    stack = ["INITIAL"]
    table = _CANDIDATES["INITIAL"]  # the current state's regexes by first character (None: the ID state)
    pos = 0
    end = len(text)
    line = 0
    line_start = 0
    while True:
        if table is None:
            rule, m_end = _match_id_state(text, pos)
        elif (m := (table.get(text[pos:pos + 1]) or table[_OTHER]).match(text, pos)) is not None:  # ("": _EOF)
            rule, m_end = m.lastgroup, m.end()
        else:
            rule = None
        if rule is None:
            if pos >= end:
                break
            tokens.append(Token("LEXERROR", "", line, pos - line_start))
            stack = ["INITIAL"]
            table = _CANDIDATES["INITIAL"]
            continue
        s = text[pos:m_end]
        token, pops, push, trim, comment = _ACTIONS[rule]
        if token is not None:
            tokens.append(Token(token, js_trim(s) if trim else s, line, pos - line_start))
        elif comment:
            comments.append(Comment(line, s))
        if pops or push:
            if pops:
                del stack[max(1, len(stack) - pops):]  # the initial state is never popped
            if push:
                stack.append(push)
            table = _CANDIDATES.get(stack[-1])
        if "\n" in s:
            line += s.count("\n")
            line_start = pos + s.rfind("\n") + 1
        if pos >= end and m_end == pos:
            break  # the end of the text, matched (by `eof` or an empty rule)
        pos = m_end
    tokens.append(Token("EOF", "", line, pos - line_start))
    return tokens, comments
