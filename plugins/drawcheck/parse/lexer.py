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


def _key(c: str) -> str:
    if c < "\x80" or c in JS_WS_CHARS:
        return c
    return _OTHER_KEY


# ---- whole-line fast path for `A->>B: text` -----------------------------------
# Only for lines where the rule-by-rule lexer provably gives the same tokens:
# plain word names, no keyword as first word, text without `#`/`;`.
_WORDS = r"[A-Za-z_][A-Za-z0-9_]*(?: +[A-Za-z0-9_]+)*"
# Names are matched atomically (lookahead + backreference) so a line that is
# not a message fails in one pass instead of backtracking through every split.
_MESSAGE_FORM = (
    r"(?=(?P<a>" + _WORDS + r"))(?P=a)[ \t]*(?P<arrow>" + "|".join(re.escape(a) for a in ARROWS)
    + r")(?P<mod>[+-]?)[ \t]*(?=(?P<b>" + _WORDS + r"))(?P=b)[ \t]*(?P<txt>:[^#\n;]*)"
)
# Other common whole lines, same rule: only where the rule-by-rule lexer gives these exact tokens.
_WORD = r"[A-Za-z0-9_]+"
_KEYWORD_FORMS = (
    r"(?P<blk>loop|rect|opt|alt|else|par_over|par|and|critical|option|break)(?:[ \t]+(?P<blabel>[^#\n;]*))?"
    r"|(?P<end>end)"
    r"|(?P<pkw>participant|actor)[ \t]+(?:(?=(?P<pn>" + _WORD + r"))(?P=pn)[ \t]+(?P<pas>as)[ \t]+"
    r"(?P<plabel>[^ \t#\n;][^#\n;]*)|(?=(?P<pm>" + _WORDS + r"))(?P=pm)[ \t]*)"
    r"|(?P<akw>activate|deactivate)[ \t]+(?=(?P<an>" + _WORDS + r"))(?P=an)[ \t]*"
    r"|(?P<nkw>note)[ \t]+(?P<place>left of|right of|over)[ \t]+(?=(?P<n1>" + _WORDS + r"))(?P=n1)[ \t]*"
    r"(?:(?P<comma>,)[ \t]*(?=(?P<n2>" + _WORDS + r"))(?P=n2)[ \t]*)?(?P<ntxt>:[^#\n;]*)"
)
# One regex per line: a message, or one of the keyword lines, then the line break(s).
FAST_LINE = re.compile(r"[ \t]*(?:" + _MESSAGE_FORM + "|" + _KEYWORD_FORMS + r")(?P<nl>\n+)", FLAGS | re.IGNORECASE)
_FAST_BLOCKERS = frozenset(
    "box participant actor create destroy loop rect opt alt else par par_over and critical option break end left "
    "right links link properties details over note activate deactivate title acctitle accdescr sequencediagram "
    "autonumber off".split()
)


def _second_word_is_as(name: str) -> bool:
    words = name.split()
    return len(words) > 1 and words[1].lower() == "as"


# Mermaid's `name as alias` rule looks across the line break: `activate A` followed
# by a line starting with `as ` is read differently, so the fast path leaves it alone.
_AS_AHEAD = re.compile(WS + "+as" + WS, FLAGS | re.IGNORECASE)


def _fast_line_tokens(m: re.Match, line: int, line_start: int) -> list | None:
    """Tokens for a FAST_LINE match, or None when the slow lexer must decide."""
    col = m.start
    new = tuple.__new__
    if m.group("blk"):
        kw = m.group("blk")
        label = m.group("blabel")
        return [new(Token, (kw.lower(), kw, line, col("blk") - line_start)),
                new(Token, ("restOfLine", label or "", line, (col("blabel") if label is not None else m.end()) - line_start))]
    if m.group("end"):
        return [new(Token, ("end", m.group("end"), line, col("end") - line_start))]
    if m.group("pkw"):
        kw = m.group("pkw")
        kind = "participant" if kw.lower() == "participant" else "participant_actor"
        out = [new(Token, (kind, kw, line, col("pkw") - line_start))]
        if m.group("pn") is not None:
            out.append(new(Token, ("ACTOR", m.group("pn"), line, col("pn") - line_start)))
            out.append(new(Token, ("AS", m.group("pas"), line, col("pas") - line_start)))
            out.append(new(Token, ("restOfLine", m.group("plabel"), line, col("plabel") - line_start)))
            return out
        name = m.group("pm")
        if _second_word_is_as(name) or (" " not in name and _AS_AHEAD.match(m.string, m.end("pm"))):
            return None
        out.append(new(Token, ("ACTOR", name, line, col("pm") - line_start)))
        return out
    if m.group("akw"):
        name = m.group("an")
        if _second_word_is_as(name) or (" " not in name and _AS_AHEAD.match(m.string, m.end("an"))):
            return None
        kw = m.group("akw")
        return [new(Token, (kw.lower(), kw, line, col("akw") - line_start)),
                new(Token, ("ACTOR", name, line, col("an") - line_start))]
    n1, n2 = m.group("n1", "n2")
    if n1.split(" ", 1)[0].lower() in _FAST_BLOCKERS or (n2 and n2.split(" ", 1)[0].lower() in _FAST_BLOCKERS):
        return None
    place = m.group("place")
    out = [new(Token, ("note", m.group("nkw"), line, col("nkw") - line_start)),
           new(Token, (place.lower().replace(" ", "_") if place.lower() != "over" else "over", place, line,
                       col("place") - line_start)),
           new(Token, ("ACTOR", n1, line, col("n1") - line_start))]
    if n2 is not None:
        out.append(new(Token, (",", ",", line, col("comma") - line_start)))
        out.append(new(Token, ("ACTOR", n2, line, col("n2") - line_start)))
    out.append(new(Token, ("TXT", m.group("ntxt"), line, col("ntxt") - line_start)))
    return out


def _fast_message(m: re.Match, line: int, line_start: int) -> list | None:
    if not _fast_ok(m):
        return None
    a, arrow, mod, b, txt = m.group("a", "arrow", "mod", "b", "txt")
    return [tuple.__new__(Token, ("MSG", (a, arrow, mod, b, txt, m.start("arrow") - line_start,
                                          m.start("b") - line_start, m.start("txt") - line_start),
                                  line, m.start("a") - line_start))]


def _fast_ok(m: re.Match) -> bool:
    a = m.group("a")
    b = m.group("b")
    if a.split(" ", 1)[0].lower() in _FAST_BLOCKERS or b.split(" ", 1)[0].lower() in _FAST_BLOCKERS:
        return False
    if m.group("mod") == "-" and b[0] in "xX":
        return False
    return True


def _action_table():
    table = {}
    for name, _pattern, token, action, trim in _R:
        op, _, arg = (action or "").partition(":")
        table[name] = (token, op, arg, trim)
    return table


_ACTIONS = _action_table()


class Token(NamedTuple):
    type: str  # Mermaid's terminal name, e.g. "ACTOR", "ARROW", "TXT", "NEWLINE", "EOF", "LEXERROR"
    text: str
    line: int  # 0-based line in the lexed text
    col: int  # 0-based column in the lexed text


class Comment(NamedTuple):
    line: int
    text: str


def tokenize(text: str, fast_paths: bool = True) -> tuple[list[Token], list[Comment]]:
    """Split `text` (already preprocessed like Mermaid does) into tokens.

    Ends with an EOF token. A spot no rule matches (only possible after
    `participant`/`actor`/`activate`/`destroy` with no name) gives a LEXERROR
    token; we then continue in the initial state so later errors are found too.
    A plain message line may come as one MSG token whose text is the tuple
    (source, arrow, modifier, target, `:text`, column of arrow, column of target, column of text).
    """
    tokens: list[Token] = []
    comments: list[Comment] = []
    append = tokens.append
    stack = ["INITIAL"]
    state = "INITIAL"
    dispatch = _DISPATCH
    actions = _ACTIONS
    fast_line = FAST_LINE.match
    new_token = tuple.__new__
    pos = 0
    end = len(text)
    line = 0
    line_start = 0
    done = False
    while not done:
        if pos >= end:
            done = True
            key = _EOF_KEY
        else:
            c = text[pos]
            key = c if (c < "\x80" or c in JS_WS_CHARS) else _OTHER_KEY
            if pos == line_start and state == "INITIAL" and fast_paths:
                fl = fast_line(text, pos)
                if fl is not None:
                    if fl.group("a") is not None:
                        line_tokens = _fast_message(fl, line, line_start)
                    else:
                        line_tokens = _fast_line_tokens(fl, line, line_start)
                    if line_tokens is not None:
                        tokens.extend(line_tokens)
                        nl_start = fl.start("nl")
                        pos = fl.end()
                        append(new_token(Token, ("NEWLINE", fl.group("nl"), line, nl_start - line_start)))
                        line += pos - nl_start
                        line_start = pos
                        continue
        regex = dispatch.get((state, key)) or _dispatch(state, key)
        m = regex.match(text, pos)
        if m is None:
            if pos >= end:
                break
            append(Token("LEXERROR", "", line, pos - line_start))
            stack = ["INITIAL"]
            state = "INITIAL"
            continue
        rule = m.lastgroup
        s = m.group()
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
        pos = m.end()
        if done and pos < end:
            done = False
    append(Token("EOF", "", line, pos - line_start))
    return tokens, comments
