"""Tokeniser that splits text exactly where Mermaid 12.3.0's sequence lexer does.

Mermaid's lexer is a list of regular expressions tried in order at the current
position; the first one that matches wins (not the longest). Some rules switch
the lexer into a state (after `participant` it reads a name, after `loop` the
rest of the line, ...), and each state has its own rule list. We keep the same
facts (which text becomes which token, in which state, in which order) and
implement them as one alternation per state, which Python tries left to right:
the same "first match wins" rule, in a single C-level regex call per token.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from drawcheck.parse.jsregex import DOT, FLAGS, JS_WS_CHARS, NOT_WS, WS, WS_BODY, WS_NO_NL, js_trim
from drawcheck.parse.preprocess import decode_entities

# Arrows, in the order Mermaid tries them (the order matters: `->>` before `->`).
ARROWS = (
    "->>", "<<->>", "-->>", "<<-->>", "->", "-->", "-x", "--x", "-)", "--)",
    "--|\\", "--|/", "--\\\\", "--//", "/|--", "\\|--", "//--", "\\\\--",
    "-|\\", "-|/", "-\\\\", "-//", "/|-", "\\|-", "//-", "\\\\-",
)

_ACTOR_STOP = "[^<>:\\n,;@" + WS_BODY + "]"  # a name character in ID state, no spaces
_ID_CHAR = "[^<>:\\n,;@]"
_LINK_AHEAD = "(?=[ \\t]+[^/\\\\+()<>:\\n,;" + WS_BODY + "\\-])"
# Prefixes that stop a name before an arrow (Mermaid's ACTOR rule lookahead).
_ARROW_PREFIXES = "|".join(
    re.escape(a) for a in (
        "-x", "--x", "-)", "--)", "-|\\", "-\\", "-/", "-//", "-|/", "/|-", "\\|-",
        "//-", "\\\\-", "/|-", "--|\\", "--", "()",
    )
)
_NAME = (
    "[^/\\\\+()<\\->:\\n,;]+"
    "(?:(?!" + _ARROW_PREFIXES + ")-*[^+<\\->:\\n,;]+)*"
)

# (rule id, pattern, token or None to skip, state action, trim text)
# State actions: "push:S", "pop", "pop2", "pop_push:S", "pop2_push:S".
_R = [
    ("nl", r"\n+", "NEWLINE", None, False),
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
    *[("arrow%d" % i, re.escape(a), "ARROW", None, False) for i, a in enumerate(ARROWS)],
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
        *["arrow%d" % i for i in range(len(ARROWS))],
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

# ---- first-character dispatch ------------------------------------------------
# Trying 80 alternatives at every position is slow, so for each state and each
# possible first character we compile only the rules that can start with it
# (same order, so "first match wins" is unchanged). Non-ASCII characters that
# are not whitespace all behave alike in every rule, so they share one key.
_EOF_KEY = ""
_OTHER_KEY = "\x80"
_ALL = None  # any character, and the end of the text (rules that can match empty)


def _not(chars: str):
    return lambda c: c != _EOF_KEY and c not in chars


def _one_of(chars: str):
    return lambda c: c != _EOF_KEY and c in chars


def _keyword(word: str):
    return _one_of(word[0].lower() + word[0].upper())


_FIRST = {
    "nl": _one_of("\n"), "ws": _one_of(JS_WS_CHARS), "ws_line": _one_of(JS_WS_CHARS.replace("\n", "")),
    "hash_comment": _one_of("#"), "pct_comment": _one_of("%"), "pct2_comment": _not("}"),
    "num": _one_of("0123456789."), "config_start": _one_of("@"), "config_content": _not("}"),
    "config_end_alias": _one_of("}"), "config_end": _one_of("}"),
    "id_before_config": _not("<>:\n,;@" + JS_WS_CHARS), "id_before_as": _not("<>:\n,;@" + JS_WS_CHARS),
    "id": _not("<>:\n,;@"), "id_lt": _not(">:\n,;@"), "id_rest": _not("\n"),
    "no_as": _ALL, "rest_of_line": _ALL, "acc_title_value": _ALL, "acc_descr_value": _ALL,
    "acc_descr_multi_value": _ALL, "eof": lambda c: c == _EOF_KEY,
    "acc_descr_multi_end": _one_of("}"), "comma": _one_of(","), "semicolon": _one_of(";"),
    "name": _not("/\\+()<->:\n,;"), "txt": _one_of(":"), "colon": _one_of(":"), "plus": _one_of("+"),
    "minus": _one_of("-"), "central": _one_of("("), "any": _not("\n\r\u2028\u2029"),
    "left_of": _keyword("left"), "right_of": _keyword("right"), "acc_title": _keyword("a"), "acc_descr": _keyword("a"),
    "acc_descr_multi": _keyword("a"), "sd": _keyword("s"), "legacy_title": _keyword("t"),
}
for _i, _a in enumerate(ARROWS):
    _FIRST["arrow%d" % _i] = _one_of(_a[0])
for _name, _pattern, _token, _action, _trim in _R:
    if _name not in _FIRST:
        _FIRST[_name] = _keyword(_name if _name != "actor" else "actor")

_DISPATCH: dict[tuple[str, str], re.Pattern] = {}


def _dispatch(state: str, key: str) -> re.Pattern:
    names = [n for n in _STATE_RULES[state] if _FIRST[n] is None or _FIRST[n](key)]
    regex = re.compile("|".join("(?P<%s>%s)" % (n, _BY_NAME[n][1]) for n in names) or "(?!)",
                       FLAGS | re.IGNORECASE)
    _DISPATCH[(state, key)] = regex
    return regex


# The ID state's `id` rule, /[^<>:\n,;@]+(?=\s*[\n;#]|$)/, backtracks quadratically on a
# long run of spaces; we compute the same match directly (see _match_id_state).
_ID_FIRST = re.compile("|".join("(?P<%s>%s)" % (n, _BY_NAME[n][1]) for n in
                                 ("ws_line", "hash_comment", "config_start", "id_before_config", "id_before_as")),
                       FLAGS | re.IGNORECASE)
_ID_LAST = re.compile("|".join("(?P<%s>%s)" % (n, _BY_NAME[n][1]) for n in ("id_lt", "id_rest")), FLAGS | re.IGNORECASE)
_ID_RUN = re.compile(_ID_CHAR + "+", FLAGS)


def _match_id_state(text: str, pos: int):
    """(rule, end) of the ID-state rule that matches at pos, or None; same result as Mermaid's rule list."""
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
    return None


def _action_table():
    table = {}
    for name, _pattern, token, action, trim in _R:
        op, _, arg = (action or "").partition(":")
        table[name] = (token, op, arg, trim)
    return table


_ACTIONS = _action_table()


_new = tuple.__new__


class Token(NamedTuple):
    type: str  # Mermaid's terminal name, e.g. "ACTOR", "ARROW", "TXT", "NEWLINE", "EOF"; ours: "MSG", "LEXERROR"
    text: str  # for MSG: (source, arrow, modifier, target, `:text`)
    line: int  # 0-based line in the lexed text
    col: int  # 0-based column in the lexed text


class Comment(NamedTuple):
    line: int
    text: str


# ---- whole-line fast paths ---------------------------------------------------
# Most lines are plain messages, declarations, notes or block keywords. For those
# one regex reads the whole line and the lexer emits its tokens directly (a
# message, participant, note or activation line becomes ONE statement token; see
# FAST_TOKEN_TYPES) followed by the line's NEWLINE token. Each form only accepts
# lines where the rule-by-rule lexer provably gives the same tokens
# (tests/parse/test_lexer_fast_paths.py checks this): plain word names, no keyword
# as a name's first word, no `#`/`;` in text, and nothing Mermaid's `name as alias`
# rule could read across the line break. A line is only read this way at the start
# of a statement (the previous token is a NEWLINE), so the parser meets statement
# tokens only where a statement starts.
_KEYWORD_SET = frozenset((
    "box participant actor create destroy loop rect opt alt else par par_over and critical option break end left "
    "right links link properties details over note activate deactivate title acctitle accdescr sequencediagram "
    "autonumber off").split())
_WORD = r"[A-Za-z0-9_]++"
# The longest run of words, never given back. An atomic group, not a possessive `(?:...)*+`: Python 3.11.0 to
# 3.11.4 match a possessive group that backtracks inside wrongly (CPython gh-106052; `Alice  ->>` read as
# `Alice  `), and Debian 12 ships 3.11.2.
_WORDS = r"[A-Za-z_][A-Za-z0-9_]*+(?>(?: ++[A-Za-z0-9_]++)*)"


def _keyword_trie() -> str:
    """A regex for the keywords, case-insensitive, grouped by first letter (one cheap test per letter)."""
    by_first: dict[str, list[str]] = {}
    for word in sorted(_KEYWORD_SET, key=len, reverse=True):
        by_first.setdefault(word[0], []).append(word[1:])

    def ci(word: str) -> str:
        return "".join("[%s%s]" % (c, c.upper()) if c.isalpha() else re.escape(c) for c in word)

    return "|".join(ci(first) + "(?:" + "|".join(ci(rest) for rest in rests) + ")" for first, rests in by_first.items())


_KEYWORD_START = "(?:" + _keyword_trie() + r")(?![A-Za-z0-9_])"
_NOT_KEYWORD = "(?!" + _KEYWORD_START + ")"
_NO_AS_NEXT = r"(?!" + _WORD + r"[ \t]+(?i:as)(?![A-Za-z0-9_]))"  # `A as ...` goes to the slow path


def _fast_line(name: str, text: str, label: str) -> re.Pattern:
    """One regex for every fast form. Each form ends with a group named after it (its text, label or last name;
    an empty one for BLOCK, whose label is optional), so m.lastgroup names the form (a Match with few groups is
    cheaper). Patterns with %s for their group's name: `name` a message's or note's participant name, `text` a
    message's or note's `:text`, `label` the rest of a block's or `as` line after the keyword's spaces."""
    return re.compile(
        r"[ \t]*+(?:"
        + name % "a" + r"[ \t]*+(?P<arrow>" + "|".join(re.escape(a) for a in ARROWS) + r")(?P<mod>\+|-(?![xX])|)[ \t]*+"
        + name % "b" + r"[ \t]*+" + text % "MSG"
        + r"|(?P<blk>(?i:loop|rect|opt|alt|else|par_over|par|and|critical|option|break))(?:" + WS_NO_NL
        + r"++" + label % "blabel" + ")?"
        r"(?P<BLOCK>)"
        r"|(?P<END>(?i:end|autonumber))"
        r"|(?P<pkw>(?i:participant|actor))[ \t]+(?:(?P<pn>" + _WORD + r")[ \t]+(?P<pas>(?i:as))" + WS_NO_NL
        + r"++(?!\Z)" + label % "PART_AS" + "|" + _NO_AS_NEXT + "(?P<PART>" + _WORDS + r")[ \t]*+)"
        r"|(?P<akw>(?i:activate|deactivate))[ \t]+" + _NO_AS_NEXT + "(?P<ACT>" + _WORDS + r")[ \t]*+"
        r"|(?P<nkw>(?i:note))[ \t]+(?P<place>(?i:left of|right of|over))[ \t]+" + name % "n1" + r"[ \t]*+"
        r"(?:(?P<comma>,)[ \t]*+" + name % "n2" + r"[ \t]*+)?" + text % "NOTE"
        + r")\Z", FLAGS)


_REST = r"[^#\n;]*+"  # the rest of a statement's line, as the lexer's rules read it
FAST_LINE = _fast_line("(?P<%s>" + _NOT_KEYWORD + _WORDS + ")", "(?P<%s>:" + _REST + ")", "(?P<%s>" + _REST + ")")
# For one line with no `#` or `;` (and no line break), as the one-pass reader (plain.py) reads: the same forms,
# with texts and labels captured trimmed and `:` left out (`(?s:.*)` then finds the end of the line at once), and
# message and note names not checked against the keywords. The check is the costliest part of the match, and
# names repeat, so the reader checks each new name once with KEYWORD_START instead: when every name passes,
# FAST_LINE gives this very match (it tries the same paths in the same order).
_TRIMMED = "(?P<%s>(?s:.*)" + NOT_WS + "|)" + WS_NO_NL + "*+"
PLAIN_LINE = _fast_line("(?P<%s>" + _WORDS + ")", ":" + WS_NO_NL + "*+" + _TRIMMED, _TRIMMED)
KEYWORD_START = re.compile(_KEYWORD_START, FLAGS)
assert FAST_LINE.groupindex == PLAIN_LINE.groupindex
_GI = {name: index for name, index in FAST_LINE.groupindex.items()}
_G_A, _G_ARROW, _G_MOD, _G_B, _G_TXT = (_GI[n] for n in ("a", "arrow", "mod", "b", "MSG"))
_G_BLK, _G_BLABEL, _G_END = _GI["blk"], _GI["blabel"], _GI["END"]
_G_PKW, _G_PN, _G_PAS, _G_PLABEL, _G_PM = (_GI[n] for n in ("pkw", "pn", "pas", "PART_AS", "PART"))
_G_AKW, _G_AN = _GI["akw"], _GI["ACT"]
_G_NKW, _G_PLACE, _G_N1, _G_COMMA, _G_N2, _G_NTXT = (_GI[n] for n in ("nkw", "place", "n1", "comma", "n2", "NOTE"))
# `participant A` / `activate A` followed (across the line break) by `as `: Mermaid reads an alias.
AS_AHEAD = re.compile(WS + "+as" + WS, FLAGS | re.IGNORECASE)

# Statement tokens (type -> text):
#   MSG:  (source, arrow, modifier, target, `:text` as lexed, message text as the parser keeps it)
#   PART: (keyword token type, keyword as written, id, `as` as written or None, label as lexed or None,
#          label as the parser keeps it or None)
#   NOTE: (keyword as written, placement token type, placement as written, actor, `,` or None, second actor or
#          None, `:text` as lexed, placement as the parser keeps it, actors tuple, note text as the parser keeps it)
#   ACT:  (keyword token type, keyword as written, actor)
FAST_TOKEN_TYPES = frozenset({"MSG", "PART", "NOTE", "ACT"})
PLACEMENTS = {"over": ("over", "over"), "left of": ("left_of", "left of"), "right of": ("right_of", "right of")}
_TRIMMED_TEXT_SPECIAL = frozenset("wn:")  # text starting so may have a `wrap:` prefix (not "": `"" in` is False)


def parse_message(s: str) -> str:
    """Mermaid's parseMessage: trim, drop a `wrap:`/`nowrap:` prefix, trim."""
    text = js_trim(s)
    if text.startswith(("wrap:", ":wrap:")):
        text = text[text.index("wrap:") + 5:]
    elif text.startswith(("nowrap:", ":nowrap:")):
        text = text[text.index("nowrap:") + 7:]
    return js_trim(text)


def final_text(txt: str) -> str:
    """What the parser keeps of a `:text` token: parse_message(txt[1:]) with entity codes decoded."""
    return kept_text(txt[1:].strip(JS_WS_CHARS))


def kept_text(text: str) -> str:
    """final_text of a text given trimmed and without its `:`."""
    if text[:1] in _TRIMMED_TEXT_SPECIAL and text:
        text = parse_message(text)
    if "\ufb02" in text or "\u00b6" in text:
        text = decode_entities(text)
    return text


def read_line(m: re.Match, form: str, text: str, pos: int, nl: int, line: int, append) -> bool:
    """Append the tokens of the line text[pos:nl] that FAST_LINE matched (as `m`, in the form `form`) and return
    True; or return False (appending nothing) when the line needs the rule-by-rule lexer after all."""
    if form == "END":  # `end` or `autonumber` alone (MSG lines are read inline in tokenize)
        kw = m.group(_G_END)
        append(_new(Token, (kw.lower(), kw, line, m.start(_G_END) - pos)))
    elif form == "BLOCK":
        kw, label = m.group(_G_BLK, _G_BLABEL)
        append(_new(Token, (kw.lower(), kw, line, m.start(_G_BLK) - pos)))
        append(_new(Token, ("restOfLine", label or "", line, (m.start(_G_BLABEL) if label is not None else nl) - pos)))
    elif form == "NOTE":
        kw, place, n1, comma, n2, txt = m.group(_G_NKW, _G_PLACE, _G_N1, _G_COMMA, _G_N2, _G_NTXT)
        ptype, placement = PLACEMENTS[place.lower()]
        if n2 is not None and ptype != "over":
            return False  # `left of A, B` is a grammar error: the rule-by-rule parser reports it
        append(_new(Token, ("NOTE", (kw, ptype, place, n1, comma, n2, txt, placement,
                                     (n1,) if n2 is None else (n1, n2), final_text(txt)), line, m.start(_G_NKW) - pos)))
    elif form == "PART_AS":
        kw, pid, as_word, label = m.group(_G_PKW, _G_PN, _G_PAS, _G_PLABEL)
        kind = "participant" if kw.lower() == "participant" else "participant_actor"
        append(_new(Token, ("PART", (kind, kw, pid, as_word, label, decode_entities(parse_message(label))), line,
                            m.start(_G_PKW) - pos)))
    elif AS_AHEAD.match(text, nl):
        return False
    elif form == "PART":
        kw = m.group(_G_PKW)
        kind = "participant" if kw.lower() == "participant" else "participant_actor"
        append(_new(Token, ("PART", (kind, kw, m.group(_G_PM), None, None, None), line, m.start(_G_PKW) - pos)))
    else:  # ACT
        kw = m.group(_G_AKW)
        append(_new(Token, ("ACT", (kw.lower(), kw, m.group(_G_AN)), line, m.start(_G_AKW) - pos)))
    return True


def tokenize(text: str, fast_paths: bool = True) -> tuple[list[Token], list[Comment]]:
    """Split `text` (already preprocessed like Mermaid does) into tokens.

    Ends with an EOF token. A spot no rule matches (only possible after
    `participant`/`actor`/`activate`/`destroy` with no name) gives a LEXERROR
    token; we then continue in the initial state so later errors are found too.
    With `fast_paths`, whole statement lines may come as one statement token
    (see FAST_TOKEN_TYPES), always followed by a NEWLINE token.
    """
    tokens: list[Token] = []
    comments: list[Comment] = []
    append = tokens.append
    stack = ["INITIAL"]
    state = "INITIAL"
    dispatch = _DISPATCH
    actions = _ACTIONS
    find = text.find
    fast_line = FAST_LINE.match
    new_token = tuple.__new__
    pos = 0
    end = len(text)
    line = 0
    line_start = 0
    done = False
    if fast_paths and text.startswith("sequenceDiagram\n"):  # the usual first line: `sd` then `nl`
        append(new_token(Token, ("SD", "sequenceDiagram", 0, 0)))
        pos = 16
        while pos < end and text[pos] == "\n":
            pos += 1
        append(new_token(Token, ("NEWLINE", text[15:pos], 0, 15)))
        line = pos - 15
        line_start = pos
    while not done:
        if pos >= end:
            done = True
            key = _EOF_KEY
        else:
            if pos == line_start and fast_paths and state == "INITIAL" and tokens and tokens[-1][0] == "NEWLINE":
                # whole statement lines, one after another, until one needs the rule-by-rule lexer
                while True:
                    nl = find("\n", pos)
                    m = fast_line(text, pos, nl) if nl != -1 else None
                    if m is None:
                        break
                    form = m.lastgroup
                    if form == "MSG":
                        a, arrow, mod, b, txt = m.group(_G_A, _G_ARROW, _G_MOD, _G_B, _G_TXT)
                        text_kept = txt[1:].strip(JS_WS_CHARS)
                        if text_kept[:1] in _TRIMMED_TEXT_SPECIAL or "\ufb02" in text_kept or "\u00b6" in text_kept:
                            text_kept = final_text(txt)
                        append(new_token(Token, ("MSG", (a, arrow, mod, b, txt, text_kept), line, m.start(_G_A) - pos)))
                    elif not read_line(m, form, text, pos, nl, line, append):
                        break
                    p = nl + 1
                    while p < end and text[p] == "\n":
                        p += 1
                    append(new_token(Token, ("NEWLINE", text[nl:p], line, nl - pos)))
                    line += p - nl
                    line_start = pos = p
                    if p >= end:
                        break
                if pos >= end:
                    continue
            c = text[pos]
            key = c if (c < "\x80" or c in JS_WS_CHARS) else _OTHER_KEY
        if state == "ID":
            found = _match_id_state(text, pos)
            rule, m_end = found if found is not None else (None, pos)
        else:
            m = (dispatch.get((state, key)) or _dispatch(state, key)).match(text, pos)
            rule, m_end = (m.lastgroup, m.end()) if m is not None else (None, pos)
        if rule is None:
            if pos >= end:
                break
            append(Token("LEXERROR", "", line, pos - line_start))
            stack = ["INITIAL"]
            state = "INITIAL"
            continue
        s = text[pos:m_end]
        token, op, arg, trim = actions[rule]
        if token is not None:
            append(new_token(Token, (token, js_trim(s) if trim else s, line, pos - line_start)))
        elif rule in SKIP_COMMENT_RULES:
            comments.append(Comment(line, s))
        if op:
            if op == "push":
                stack.append(arg)
            elif op == "pop":
                if len(stack) > 1:
                    stack.pop()
            elif op == "pop2":
                for _ in range(2):
                    if len(stack) > 1:
                        stack.pop()
            elif op == "pop_push":
                if len(stack) > 1:
                    stack.pop()
                stack.append(arg)
            elif op == "pop2_push":
                for _ in range(2):
                    if len(stack) > 1:
                        stack.pop()
                stack.append(arg)
            state = stack[-1]
        if "\n" in s:
            line += s.count("\n")
            line_start = pos + s.rfind("\n") + 1
        pos = m_end
        if done and pos < end:
            done = False
    append(Token("EOF", "", line, pos - line_start))
    return tokens, comments
