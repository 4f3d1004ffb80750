"""Recursive-descent parser for Mermaid sequenceDiagram tokens, with recovery.

The grammar is Mermaid 12.3.0's (same statements, same token order); what we
add is recovery: after an error we skip to the end of that line and go on, so
one run reports every error in the file. After parsing we replay what
Mermaid's sequence database does with the statements (implicit participants,
boxes, create/destroy, activations) because some of its checks fail a diagram
that the grammar accepted.
"""

from __future__ import annotations

import difflib
import re

from drawcheck.parse.grammar import BLOCK_KEYWORDS, BRANCH_KEYWORDS, BRANCH_OF, MAX_DEPTH, MAX_ERRORS, parse_box_data
from drawcheck.parse.jsregex import js_trim
from drawcheck.parse.lexer import ARROWS, Token, parse_message, tokenize
from drawcheck.parse.model import (
    Activation, Autonumber, Block, Box, Branch, Diagram, Directive, Link, Message, Note, ParseError, Participant,
)
from drawcheck.parse.preprocess import Prepared, decode_entities, load_yaml, prepare

PARTICIPANT_KEYWORDS = ("participant", "participant_actor", "destroy")
LINK_KEYWORDS = ("links", "link", "properties", "details")
KEYWORD_TOKENS = frozenset({
    "box", "participant", "participant_actor", "create", "destroy", "loop", "rect", "opt", "alt", "else", "par",
    "par_over", "and", "critical", "option", "break", "end", "left_of", "right_of", "links", "link", "properties",
    "details", "over", "note", "activate", "deactivate", "autonumber", "off", "SD",
})
_ARROW_CHARS = set("-<>=x)|/\\.~>→⟶—–")
# Each run is only tried from its first character (the lookbehinds), so a long run without `>` costs its length
# once, not its length at every start.
_FAKE_ARROW = re.compile(r"(?<!=)=+>+|→|⟶|⇒|(?<!~)~+>|(?<!\.)\.+>|(?<!—)—+>|(?<!–)–+>|<=+|←")
_HTML_ESCAPE = re.compile(r"&(?:amp;)*(?:amp|lt|gt|quot|apos|nbsp|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});", re.ASCII)
_HIDDEN_LINE_BREAKS = {
    "\u2028": "U+2028 (LINE SEPARATOR)", "\u2029": "U+2029 (PARAGRAPH SEPARATOR)", "\u0085": "U+0085 (NEXT LINE)",
    "\v": "U+000B (LINE TABULATION)", "\f": "U+000C (FORM FEED)",
}
_DESCRIBE = {
    "NEWLINE": "the end of the line", "EOF": "the end of the file", "TXT": "`:` text", "ARROW": "an arrow",
    "ACTOR": "a name", "NUM": "a number", "restOfLine": "text", "LEXERROR": "the end of the line",
    "INVALID": "an unexpected character",
}


def _text_after_colon(txt: Token) -> str:
    """The text of a message, note or link: Mermaid's `yy.parseMessage($1.trim().substring(1))` of its `TXT`
    token (which starts with the `:`, so the first trim has only the end to trim, and parseMessage trims it)."""
    return decode_entities(parse_message(txt.text[1:]))


class _Stop(Exception):
    """Raised inside a statement after its error was recorded; the caller skips the line."""



def _load_metadata(text: str):
    """(the YAML of an `@{...}`, None) or (None, why it is refused or not valid YAML)."""
    doc, problem, refused = load_yaml(("{\n" + text + "\n}") if "\n" not in text else text + "\n")
    if problem:
        return None, ("is refused: %s" if refused else "is not valid YAML: %s") % problem[0]
    return doc, None


class _Parser:
    def __init__(self, tokens: list[Token], prep: Prepared, diagram: Diagram):
        tokens.extend([tokens[-1]] * 4)  # spare EOF tokens (the list is ours: tokenize made it for us)
        self.toks = tokens
        self.i = 0
        self.tok = tokens[0]  # the current token, toks[i]
        self.prep = prep
        self.d = diagram
        # Mermaid's sequence database, replayed
        self.actors: dict[str, Participant] = {}
        self.current_box: Box | None = None
        self.last_created: str | None = None
        self.last_destroyed: str | None = None
        self.active: dict[str, int] = {}
        self.box_of: dict[str, Box] = {}
        self._line_starts: list[int] | None = None
        self.error_lines: set[int] = set()  # lines that have their syntax error
        self.statement_start = 0  # index of the first token of the statement being read
        self.depth = 0  # blocks open around the current statement
        self.stopped = False  # nesting went past MAX_DEPTH, or MAX_ERRORS errors were found: read no further
        self.unlisted = 0  # errors found after the first MAX_ERRORS, not listed
        self.read_to_end = False  # every statement was read (only the blocks left open remain to report)
        self.unclosed: list[tuple[Block, int]] = []  # blocks still open at the end of the file, innermost first
        self.block_events: list[tuple[str, int, int]] = []  # (keyword or "end", line, column) of each open/close
        self.block_tokens: dict[int, Token] = {}  # line -> the keyword token of the block opened there

    # ---- helpers -------------------------------------------------------
    def line(self, tok: Token) -> int:
        return self.prep.line(tok.line)

    def peek(self, k: int) -> Token:
        """The token k after the current one (the token list ends with spare EOF tokens)."""
        return self.toks[self.i + k]

    def next(self) -> Token:
        """Take the current token (`self.tok`) and move on to the next one; EOF is never passed."""
        tok = self.tok
        if tok.type != "EOF":
            self.i += 1
            self.tok = self.toks[self.i]
        return tok

    def error(self, tok: Token, message: str, expected: str = "", hint: str = "", line: int | None = None) -> None:
        """Record a syntax error at tok; only the first on each line (what follows on it is seldom news)."""
        line = line if line is not None else self.line(tok)
        if line in self.error_lines:
            return
        self.error_lines.add(line)
        source = self.source_line_text(tok)
        escaped = _HTML_ESCAPE.search(source)
        if escaped:
            folds = 1 + len(re.findall("amp;", escaped.group()))
            message = ("this line is HTML-escaped%s (`%s`), so Mermaid does not see the characters you meant: it "
                       "reads each `;` of `&...;` as the end of a statement, and the line falls apart"
                       % (" %d times over" % folds if folds > 1 else "",
                          source[escaped.start():escaped.start() + 60].strip()))
            expected, hint = "", ("write the characters themselves (`>` for `&gt;`, `<` for `&lt;`, `&` for "
                                  "`&amp;`): undo what escaped the line (a copy from a web page, an editor "
                                  "plugin); for `#` and `;` in text write `#35;` and `#59;`")
        else:
            notes, hints = [], [hint] if hint else []
            terminator = next((c for c in source if c in _HIDDEN_LINE_BREAKS), None)
            if terminator is not None:
                name = _HIDDEN_LINE_BREAKS[terminator]
                notes.append("this line holds %s, an invisible character that JavaScript and many editors show as a "
                             "line break, but Mermaid's statements do not end there: what looks like the next line "
                             "is read as part of this one" % name)
                hints.insert(0, "replace %s with a real line break" % name.split(" (")[0])
            if self.statement_after_semicolon(tok):
                notes.append("a `;` ends a statement in Mermaid, so what follows it on the line is read as a new "
                             "statement")
                hints = hints[:1] if terminator is not None else []  # the statement's own hint would mislead
                hints.append("write `#59;` for a `;` in text, e.g. `text/html#59;base64`")
            if notes:
                message += " (%s)" % "; and ".join(notes)
                hint = "; ".join(hints)
        self.record(ParseError(
            line=line, column=tok.col + 1 if tok.line < len(self.prep.line_of) and self.line(tok) == line else 1,
            message=message, expected=expected, found=self.describe(tok), hint=hint,
        ))

    def record(self, error: ParseError) -> None:
        """Keep `error` if fewer than MAX_ERRORS are listed; at MAX_ERRORS, stop reading the file."""
        if len(self.d.errors) >= MAX_ERRORS:
            self.unlisted += 1
            return
        self.d.errors.append(error)
        if len(self.d.errors) == MAX_ERRORS:
            self.stopped = True

    def closing_error(self) -> ParseError | None:
        """After MAX_ERRORS errors: the last error, saying where reading stopped and what to do."""
        if len(self.d.errors) < MAX_ERRORS:
            return None
        line = max(e.line for e in self.d.errors)
        if self.read_to_end:  # the limit was reached by the blocks left open at the end of the file
            message = "and %d more errors: drawcheck lists the first %d" % (self.unlisted, MAX_ERRORS)
        else:
            message = ("drawcheck stopped reading at line %d after %d errors; the lines after it were not checked"
                       % (line, MAX_ERRORS))
        return ParseError(line=line, column=1, message=message, hint="fix these first, then check the file again")

    def statement_after_semicolon(self, tok: Token) -> bool:
        """Did a `;` on tok's line start the statement tok is in?"""
        before = self.toks[self.statement_start - 1] if self.statement_start > 0 else None
        return before is not None and before.type == "NEWLINE" and before.text == ";" and before.line == tok.line

    def describe(self, tok: Token) -> str:
        if tok.type in ("ACTOR", "TXT", "ARROW", "INVALID", "NUM") and tok.text:
            return "`%s`" % decode_entities(tok.text)[:60]
        if tok.type in _DESCRIBE:
            return _DESCRIBE[tok.type]
        return "`%s`" % decode_entities(tok.text.strip() or tok.type)[:60]

    def fail(self, tok: Token, message: str, expected: str = "", hint: str = "") -> None:
        self.error(tok, message, expected, hint)
        raise _Stop

    def expect(self, kind: str, message: str, expected: str, hint: str = "") -> Token:
        tok = self.tok
        if tok.type != kind:
            self.fail(tok, message, expected, hint)
        return self.next()

    def skip_line(self) -> None:
        """Skip the rest of the line, statements after a `;` on it included: only its first error is listed."""
        while True:
            tok = self.tok
            if tok.type == "EOF":
                return
            self.next()
            if (tok.type == "NEWLINE" and tok.text != ";") or tok.type == "LEXERROR":
                return

    def end_of_statement(self, what: str) -> None:
        tok = self.tok
        if tok.type == "NEWLINE":
            self.next()
            return
        if tok.type == "EOF":  # cannot happen after Mermaid's trailing newline, kept for safety
            return
        prev = self.toks[self.i - 1] if self.i else tok
        if tok.line != prev.line:
            self.fail(tok, "%s must end its line exactly: Mermaid reads the spaces after it together with the line "
                      "break, so `%s` on the next line is read as part of the same statement" % (what, self.describe(tok).strip("`")),
                      "the end of the line", "remove the spaces at the end of line %d" % self.line(prev))
        self.fail(tok, "unexpected %s after %s" % (self.describe(tok), what), "the end of the line",
                  "put each statement on its own line")

    def source_line_text(self, tok: Token) -> str:
        text = self.prep.text
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        starts = self._line_starts
        start = starts[min(tok.line, len(starts) - 1)]
        end = text.find("\n", start)
        return text[start:end if end != -1 else len(text)]

    # ---- top level -----------------------------------------------------
    def parse(self) -> None:
        while self.tok.type == "NEWLINE":
            self.next()
        tok = self.tok
        if tok.type != "SD":
            self.error(tok, "a sequence diagram must start with `sequenceDiagram`", "`sequenceDiagram`",
                       "put `sequenceDiagram` alone on the first line")
            self.skip_line()
        else:
            self.next()
            self.d.header_line = self.line(tok)
        self.d.statements.extend(self.document(None))
        self.read_to_end = not self.stopped
        self.report_unclosed()

    def report_unclosed(self) -> None:
        """One error per block left open at the end of the file, on its opening line.

        Mermaid closes the innermost open block at each `end`, so its count of open blocks is exact but not
        which ones they are: in `rect` / `alt` / `end` the `end` closes `alt` and `rect` is left open. When the
        indentation says otherwise (the `end` lines up with `rect`), we blame the block the indentation shows
        as unclosed, here the `alt`, and say which block each misplaced `end` closed."""
        if not self.unclosed:
            return
        blamed, moved = _blame_by_indent(self.block_events)
        if len(blamed) != len(self.unclosed):
            blamed, moved = [(b.kind, b.line, col) for b, col in self.unclosed], {}
        for kind, line, col in blamed:
            hint = self._keyword_hint(self.block_tokens[line]) or (
                "add `end` on its own line after the last statement of this `%s`" % kind)
            if line in moved:
                end_line, outer_kind, outer_line = moved[line]
                hint += ("; the `end` on line %d lines up with `%s` (line %d), but Mermaid pairs it with this "
                         "`%s`, the innermost open block" % (end_line, outer_kind, outer_line, kind))
            self.record(ParseError(
                line=line, column=col + 1, message="`%s` opened on line %d is never closed" % (kind, line),
                expected="`end`", found="the end of the file", hint=hint))

    def document(self, block: str | None) -> list:
        """Statements until EOF, or (inside a block) until `end` or this block's branch keyword."""
        out: list = []
        branch = BRANCH_OF.get(block or "")
        while not self.stopped:
            tok = self.tok
            t = tok.type
            if t == "NEWLINE":
                self.next()
                continue
            if t == "EOF":
                return out
            if t == "end":
                if block is not None:
                    return out
                self.error(tok, "`end` without an open block", "a statement",
                           self._keyword_hint(tok) or "remove this `end`, or open a block (`loop`, `alt`, `opt`, "
                           "`par`, `critical`, `break`, `rect` or `box`) above it")
                self.next()
                if self.tok.line == tok.line:
                    self.skip_line()
                continue
            if t in BRANCH_KEYWORDS:
                if t == branch:
                    return out
                owner = BRANCH_KEYWORDS[t]
                where = ("inside `%s`" % block) if block else "outside any block"
                owner_text = {"alt": "an `alt`", "par": "a `par` or `par_over`", "critical": "a `critical`"}[owner]
                self.error(tok, "`%s` only belongs inside %s block, but this one is %s"
                           % (tok.text.strip() or t, owner_text, where), "a statement",
                           self._keyword_hint(tok) or "put `%s` between `%s ...` and its `end`, or remove it"
                           % (t, owner))
                self.skip_line()
                continue
            start = self.statement_start = self.i
            try:
                self.statement(out)
            except _Stop:
                if self.i == start:
                    self.next()
                self.skip_line()
        return out

    # ---- statements ----------------------------------------------------
    def statement(self, out: list) -> None:
        tok = self.tok
        t = tok.type
        if t == "ACTOR" or (t == "link" and self.peek(1).type in ("ARROW", "()")):  # most statements are messages
            self.signal(out)
            return
        if t in ("NEWLINE", "INVALID"):
            self.next()
            return
        if t in PARTICIPANT_KEYWORDS:
            self.participant_statement(created=False)
            return
        if t == "create":
            self.next()
            if self.tok.type not in PARTICIPANT_KEYWORDS:
                self.fail(self.tok, "`create` must be followed by `participant` or `actor`",
                          "`participant` or `actor`", "write `create participant B` on the line before B's first message")
            self.participant_statement(created=True)
            return
        if t == "box":
            self.box_statement()
            return
        if t == "autonumber":
            self.autonumber(out)
            return
        if t in ("activate", "deactivate"):
            self.activation(out)
            return
        if t == "note":
            self.note(out)
            return
        if t in LINK_KEYWORDS:
            self.link(out)
            return
        if t in ("title", "legacy_title"):
            self.next()
            self.d.title = js_trim(decode_entities(tok.text[6 if t == "title" else 7:]))
            self.d.title_line = self.line(tok)
            return
        if t in ("acc_title", "acc_descr"):
            self.next()
            value = self.expect(t + "_value", "missing text after `%s:`" % ("accTitle" if t == "acc_title" else "accDescr"),
                                "text")
            if t == "acc_title":
                self.d.acc_title = js_trim(decode_entities(value.text))
            else:
                self.d.acc_descr = js_trim(decode_entities(value.text))
            return
        if t == "acc_descr_multiline_value":
            self.next()
            self.d.acc_descr = js_trim(decode_entities(tok.text))
            return
        if t in BLOCK_KEYWORDS:
            self.block(out)
            return
        self.unexpected_start(tok)

    def unexpected_start(self, tok: Token) -> None:
        t = tok.type
        hint = self._keyword_hint(tok)
        if t in ("-", "ARROW", "+") and set(self.source_line_text(tok).strip()) <= set("-=_ <>"):
            self.fail(tok, "a line of dashes is not a Mermaid statement", "a statement",
                      "to mark a boundary, write a note such as `Note over A,B: ---- boundary ----`")
        if t == "SD":
            self.fail(tok, "`sequenceDiagram` may appear only once, on the first line", hint="delete this line")
        if t == "NUM":
            self.fail(tok, "a line cannot start with a number followed by a space: Mermaid reads `%s` as a number"
                      % tok.text, "a statement",
                      "give the participant a name that does not start with a number and a space, "
                      "e.g. `participant U as %s ...`" % tok.text)
        if t in ("over", "left_of", "right_of"):
            self.fail(tok, "`%s` must follow `Note`" % tok.text, "a statement",
                      "write e.g. `Note %s A: text`" % tok.text)
        if t == "ARROW":
            self.fail(tok, "a message must start with the sender's name before the arrow", "a name",
                      "write e.g. `Alice%sBob: hello`" % tok.text)
        if t == "TXT":
            self.fail(tok, "text after `:` needs a message or note in front of it", "a statement",
                      "write e.g. `Alice->>Bob%s`" % decode_entities(tok.text)[:40])
        if t == "LEXERROR":
            self.fail(tok, "a name is missing here", "a name")
        self.fail(tok, "unexpected %s at the start of a statement" % self.describe(tok), "a statement",
                  hint or "a statement is a message (`A->>B: text`), a note, `participant`, `activate`, a block "
                  "(`loop`, `alt`, ...) or `end`")

    def _keyword_hint(self, tok: Token) -> str:
        """Hint when a name such as `end-user` was read as the keyword `end`."""
        if tok.type not in KEYWORD_TOKENS or tok.type == "SD" or not isinstance(tok.text, str):
            return ""
        line = self.source_line_text(tok)
        word = tok.text.strip()
        after = line[tok.col + len(tok.text):tok.col + len(tok.text) + 1]
        if after and after not in " \t:;#" and not after.isspace():
            m = line[tok.col:]
            name = ""
            for ch in m:
                if ch in " \t:;,<>+" or (ch == "-" and name and name[-1] == "-"):
                    break
                name += ch
            name = name.rstrip("-")
            if name and name != word:
                return ("`%s` starts with the keyword `%s`, so Mermaid reads the keyword; rename it (e.g. `%s`) or "
                        "declare `participant X as %s` and use `X`" % (name, word, name.replace("-", "_"), name))
        return ""

    def actor_token(self, after: str) -> Token:
        tok = self.tok
        if tok.type == "ACTOR" or tok.type == "link":
            return self.next()
        hint = self._keyword_hint(tok)
        self.fail(tok, "expected a participant name %s, found %s" % (after, self.describe(tok)), "a name", hint)
        raise AssertionError  # unreachable

    def participant_statement(self, created: bool) -> None:
        kw = self.next()
        keyword = {"participant": "participant", "participant_actor": "actor", "destroy": "destroy"}[kw.type]
        tok = self.tok
        if tok.type != "ACTOR":
            if tok.type == "INVALID" and "<" in tok.text:
                self.fail(tok, "a participant name cannot contain `<` or `>`", "a name",
                          "use an alias for the label: `participant A as label`")
            if tok.type == "INVALID":
                self.fail(tok, "`%s` needs a name; found %s" % (keyword, self.describe(tok)), "a name",
                          "names cannot contain `:`, `,`, `;`, `<`, `>` or `@`")
            self.fail(tok, "`%s` needs a name" % keyword, "a name", "write e.g. `%s Alice`" % keyword)
        self.next()
        pid = decode_entities(tok.text)
        line = self.line(kw)
        if kw.type == "destroy":
            self.end_of_statement("`destroy %s`" % pid)
            if created:  # `create destroy X`: Mermaid treats it as a create
                self.apply_create(pid, None, None, None, line)
            else:
                self.apply_destroy(pid, line)
            return
        metadata = None
        if self.tok.type == "CONFIG_START":
            self.next()
            content = self.expect("CONFIG_CONTENT", "empty `@{ }` after `%s`" % pid, "`@{ type: ... }`",
                                  "write e.g. `participant %s@{ \"type\": \"database\" }`" % pid)
            self.expect("CONFIG_END", "`@{` is never closed with `}`", "`}`")
            metadata = js_trim(decode_entities(content.text))
        description = None
        if self.tok.type == "AS":
            self.next()
            rest = self.expect("restOfLine", "missing label after `as`", "a label")
            description = decode_entities(parse_message(rest.text))
        self.end_of_statement("the participant")
        draw = "actor" if kw.type == "participant_actor" else "participant"
        if created:
            self.apply_create(pid, description, draw, metadata, line)
        else:
            self.add_actor(pid, description, draw, metadata, line)

    def box_statement(self) -> None:
        kw = self.next()
        rest = self.tok
        text = ""
        if rest.type == "restOfLine":
            self.next()
            text = decode_entities(rest.text)
        label, color = parse_box_data(text)
        box = Box(label=label, color=color, line=self.line(kw), end_line=self.line(kw))
        self.d.boxes.append(box)
        self.current_box = box
        while not self.stopped:
            tok = self.tok
            if tok.type == "end":
                self.next()
                box.end_line = self.line(tok)
                break
            if tok.type == "EOF":
                self.error(tok, "`box` opened on line %d is never closed" % box.line, "`end`",
                           "add `end` after the box's last participant", line=box.line)
                break
            if tok.type == "NEWLINE":
                self.next()
                continue
            start = self.i
            try:
                if tok.type in PARTICIPANT_KEYWORDS:
                    self.participant_statement(created=False)
                else:
                    self.fail(tok, "only `participant`/`actor` lines can be inside a `box` (opened on line %d)"
                              % box.line, "`participant`, `actor` or `end`",
                              self._keyword_hint(tok) or "close the box with `end` before messages and notes")
            except _Stop:
                if self.i == start:
                    self.next()
                self.skip_line()
        self.current_box = None

    def block(self, out: list) -> None:
        kw = self.tok
        if self.depth >= MAX_DEPTH:
            self.stopped = True
            self.fail(kw, "this `%s` is nested %d blocks deep; drawcheck reads at most %d nested blocks and stops "
                      "reading here" % (kw.type, self.depth + 1, MAX_DEPTH), "`end` of an open block",
                      "close blocks with `end` before opening new ones: the exercise needs a "
                      "few levels at most")
        self.next()
        kind = kw.type
        label = ""
        if self.tok.type == "restOfLine":
            label = decode_entities(parse_message(self.next().text))
        block = Block(kind=kind, label=label, line=self.line(kw), end_line=self.line(kw))
        branch = Branch(keyword=kind, label=label, line=block.line)
        block.branches.append(branch)
        out.append(block)
        self.block_events.append((kind, block.line, kw.col))
        self.block_tokens[block.line] = kw
        self.depth += 1
        while True:
            branch.statements.extend(self.document(kind))
            tok = self.tok
            if self.stopped:
                block.end_line = self.line(tok)
                break
            if tok.type == "end":
                self.next()
                block.end_line = self.line(tok)
                self.block_events.append(("end", block.end_line, tok.col))
                break
            if tok.type == "EOF":
                self.unclosed.append((block, kw.col))
                block.end_line = self.line(tok)
                break
            # this block's branch keyword
            bkw = self.next()
            blabel = ""
            if self.tok.type == "restOfLine":
                blabel = decode_entities(parse_message(self.next().text))
            branch = Branch(keyword=bkw.type, label=blabel, line=self.line(bkw))
            block.branches.append(branch)
        self.depth -= 1

    def signal(self, out: list) -> None:
        src_tok = self.next()
        source = decode_entities(src_tok.text)
        line = self.line(src_tok)
        central_source = False
        if self.tok.type == "()":
            self.next()
            central_source = True
        tok = self.tok
        if tok.type != "ARROW":
            self.bad_arrow(src_tok, tok, source)
        arrow = self.next().text
        activate = deactivate = central_target = False
        mod = self.tok
        if mod.type in ("+", "-", "()"):
            if central_source and mod.type != "()":
                self.fail(mod, "`%s` cannot follow `()%s`" % (mod.text, arrow), "`()` or a name")
            self.next()
            activate = mod.type == "+"
            deactivate = mod.type == "-"
            central_target = mod.type == "()"
        target_tok = self.tok
        if target_tok.type not in ("ACTOR", "link"):
            if target_tok.type == "TXT":
                self.fail(target_tok, "the message has no receiver: a name must follow `%s`" % arrow, "a name",
                          "write e.g. `%s%sBob%s`" % (source, arrow, decode_entities(target_tok.text)[:30]))
            hint = self._keyword_hint(target_tok)
            if target_tok.type in ("+", "-", "ARROW", "INVALID", "()"):
                hint = hint or "did you mean `%s`? Arrows are `->>`, `-->>`, `->`, `-->`, `-x`, `--x`, `-)`, `--)`" % (
                    arrow if target_tok.type != "()" else arrow + "()")
            self.fail(target_tok, "expected the receiver's name after `%s`, found %s" % (arrow, self.describe(target_tok)),
                      "a name", hint)
        self.next()
        target = decode_entities(target_tok.text)
        txt = self.tok
        if txt.type != "TXT":
            if txt.type == "NEWLINE":
                self.fail(txt, "the message `%s%s%s` has no text: Mermaid needs `: text` after the receiver"
                          % (source, arrow, target), "`: text`", "write e.g. `%s%s%s: request`" % (source, arrow, target))
            self.fail(txt, "expected `: text` after `%s`, found %s" % (target, self.describe(txt)), "`: text`",
                      self._keyword_hint(txt) or "names cannot contain `+`, `<`, `>`, `,` or `;`")
        self.next()
        text = _text_after_colon(txt)
        self.end_of_statement("the message")
        msg = Message(source=source, target=target, text=text, arrow=arrow, line=line,
                      activate_target=activate, deactivate_source=deactivate,
                      central_source=central_source, central_target=central_target)
        self.apply_message(msg, src_tok)
        out.append(msg)

    def _guess_arrow(self, src_tok: Token) -> str:
        line = self.source_line_text(src_tok)
        rest = line[src_tok.col + len(src_tok.text):]
        chunk = ""
        for ch in rest.lstrip():
            if ch in _ARROW_CHARS:
                chunk += ch
            elif chunk:
                break
        dashes = chunk.count("-") + chunk.count("=")
        if not chunk:
            return "->>"
        if chunk.startswith("<") and not chunk.startswith("<<"):
            return "<"
        if set(chunk) <= {"-", "=", ">"}:
            return "-->>" if dashes >= 2 else "->>"
        close = difflib.get_close_matches(chunk[:12], ARROWS, n=1, cutoff=0.5)  # (an arrow is at most 6 long)
        return close[0] if close else ("-->>" if dashes >= 2 else "->>")

    def bad_arrow(self, src_tok: Token, tok: Token, source: str) -> None:
        if set(source) <= set("-=_~*. "):
            self.fail(src_tok, "a line of `%s` is not a Mermaid statement" % source[:1], "a statement",
                      "to mark a boundary, write a note such as `Note over A,B: ---- boundary ----`")
        hint = self._keyword_hint(src_tok)
        fake = _FAKE_ARROW.search(source + (tok.text if tok.type == "INVALID" else ""))
        if fake and not hint:
            self.fail(src_tok, "`%s` is not a Mermaid arrow, so `%s` is read as one name" % (fake.group(), source),
                      "an arrow", "did you mean `->>`? Arrows are `->>`, `-->>`, `->`, `-->`, `-x`, `--x`, `-)`, `--)`")
        if tok.type == "TXT":
            self.fail(tok, "`%s` is followed by `:` but there is no arrow and receiver" % source, "an arrow",
                      hint or "a message is written `%s->>Bob: text`; a note is `Note right of %s: text`"
                      % (source, source))
        if tok.type == "NEWLINE":
            self.fail(tok, "`%s` alone is not a statement: expected an arrow such as `->>` after it" % source,
                      "an arrow", hint or "declare it with `participant %s`, or write a message `%s->>Bob: text`"
                      % (source, source))
        guess = self._guess_arrow(src_tok)
        if guess == "<":
            hint = hint or "arrows point from sender to receiver: write `B->>A`, not `A<-B`"
        self.fail(tok, "expected an arrow after `%s`, found %s" % (source, self.describe(tok)), "an arrow",
                  hint or "did you mean `%s`?" % guess)

    def autonumber(self, out: list) -> None:
        kw = self.next()
        auto = Autonumber(line=self.line(kw))
        tok = self.tok
        if tok.type == "NUM":
            auto.start = float(self.next().text)
            if self.tok.type == "NUM":
                auto.step = float(self.next().text)
            else:
                auto.step = 1.0
        elif tok.type == "off":
            self.next()
            auto.off = True
        self.end_of_statement("`autonumber`")
        out.append(auto)

    def activation(self, out: list) -> None:
        kw = self.next()
        word = kw.type
        tok = self.tok
        if tok.type != "ACTOR":
            self.fail(tok, "`%s` needs a participant name" % word, "a name", "write e.g. `%s Alice`" % word)
        self.next()
        actor = decode_entities(tok.text)
        self.end_of_statement("`%s %s`" % (word, actor))
        act = Activation(actor=actor, active=word == "activate", line=self.line(kw))
        if act.active:
            self.active[actor] = self.active.get(actor, 0) + 1
        else:
            self.deactivate(actor, kw, act.line)
        out.append(act)

    def note(self, out: list) -> None:
        kw = self.next()
        tok = self.tok
        if tok.type in ("left_of", "right_of"):
            self.next()
            placement = "left of" if tok.type == "left_of" else "right of"
            actors = (decode_entities(self.actor_token("after `%s`" % placement).text),)
        elif tok.type == "over":
            self.next()
            first = decode_entities(self.actor_token("after `over`").text)
            actors = (first,)
            if self.tok.type == ",":
                self.next()
                actors = (first, decode_entities(self.actor_token("after `,`").text))
            placement = "over"
        else:
            self.fail(tok, "`Note` must be followed by `left of`, `right of` or `over`", "`left of`, `right of` or `over`",
                      self._keyword_hint(kw) or "write e.g. `Note right of Alice: text` or `Note over Alice,Bob: text`")
            raise AssertionError
        txt = self.tok
        if txt.type != "TXT":
            self.fail(txt, "the note has no text: Mermaid needs `: text` after the participant", "`: text`",
                      "write e.g. `Note %s %s: text`" % (placement, ",".join(actors)))
        self.next()
        text = _text_after_colon(txt)
        self.end_of_statement("the note")
        line = self.line(kw)
        for a in actors:
            if a not in self.actors:  # Mermaid keeps a known one as it is (and no box is open at a note)
                self.add_actor(a, None, None, None, line)
        out.append(Note(placement=placement, actors=actors, text=text, line=line))

    def link(self, out: list) -> None:
        kw = self.next()
        word = kw.text.strip().lower()
        actor = decode_entities(self.actor_token("after `%s`" % word).text)
        txt = self.tok
        if txt.type != "TXT":
            self.fail(txt, "`%s %s` needs `: text`" % (word, actor), "`: text`")
        self.next()
        text = _text_after_colon(txt)
        self.end_of_statement("`%s`" % word)
        line = self.line(kw)
        self.add_actor(actor, None, None, None, line)
        out.append(Link(keyword=word, actor=actor, text=text, line=line))

    # ---- Mermaid's database checks, replayed ----------------------------
    def sem_error(self, line: int, message: str, hint: str = "") -> None:
        self.record(ParseError(line=line, column=1, message=message, hint=hint))

    def add_actor(self, pid: str, description: str | None, draw: str | None, metadata: str | None, line: int) -> None:
        if description is None and metadata is None and self.current_box is None and pid in self.actors:
            return  # Mermaid keeps an existing participant as it is
        kind = draw
        meta: dict[str, str] = {}
        if metadata is not None:
            doc, problem = _load_metadata(metadata)
            if problem:
                self.sem_error(line, "the `@{ ... }` of `%s` %s" % (pid, problem),
                               "write e.g. `participant %s@{ \"type\": \"database\" }`" % pid)
                return
            if isinstance(doc, dict):
                meta = {str(k): str(v) for k, v in doc.items()}
                if doc.get("type") is not None:
                    kind = str(doc["type"])
                alias = doc.get("alias")
                if alias and (description is None or description == pid):
                    description = str(alias)
        old = self.actors.get(pid)
        box = self.current_box
        if old is not None:
            old_box = self.box_of.get(pid)
            if box is not None and old_box is not None and box is not old_box:
                self.sem_error(line, "`%s` is already in the box `%s` (line %d); a participant can be in only one box"
                               % (pid, old_box.label, old_box.line))
                return
            if old_box is None and box is not None:
                old.box = box.label
                self.box_of[pid] = box
            if description is None:
                return
            old.label = description
            old.kind = kind or "participant"
            old.metadata = meta
            return
        p = Participant(id=pid, label=description if description is not None else pid, kind=kind or "participant",
                        line=line, box=box.label if box else None, metadata=meta)
        if box is not None:
            box.participants.append(pid)
            self.box_of[pid] = box
        self.actors[pid] = p
        self.d.participants.append(p)

    def apply_create(self, pid, description, draw, metadata, line) -> None:
        if pid in self.actors:
            self.sem_error(line, "`%s` already exists, so it cannot be created here" % pid,
                           "create it only once, before its first use; to show a new one use another name with an "
                           "alias: `create participant %s2 as %s`" % (pid, pid))
            return
        self.last_created = pid
        self.add_actor(pid, description, draw, metadata, line)
        if pid in self.actors:
            self.actors[pid].created_line = line

    def apply_destroy(self, pid, line) -> None:
        self.last_destroyed = pid
        p = self.actors.get(pid)
        if p is not None:
            p.destroyed_line = line

    def apply_message(self, msg: Message, tok: Token) -> None:
        for pid in (msg.source, msg.target):
            if pid not in self.actors:  # Mermaid keeps a known one as it is (and no box is open at a message)
                self.add_actor(pid, None, None, None, msg.line)
        if self.last_created is not None:
            if msg.target != self.last_created:
                self.sem_error(msg.line, "`%s` was created but the next message does not go to it"
                               % self.last_created,
                               "the message right after `create participant %s` must be sent to `%s`"
                               % (self.last_created, self.last_created))
            self.last_created = None
        elif self.last_destroyed is not None:
            if msg.target != self.last_destroyed and msg.source != self.last_destroyed:
                self.sem_error(msg.line, "`%s` was destroyed but the next message neither comes from nor goes to it"
                               % self.last_destroyed,
                               "put `destroy %s` just before the message that ends it" % self.last_destroyed)
            self.last_destroyed = None
        if msg.activate_target:
            self.active[msg.target] = self.active.get(msg.target, 0) + 1
        if msg.deactivate_source:
            self.deactivate(msg.source, tok, msg.line)

    def deactivate(self, actor: str, tok: Token, line: int) -> None:
        if self.active.get(actor, 0) < 1:
            self.sem_error(line, "`%s` is deactivated but it is not active" % actor,
                           "activate it first (`activate %s` or `+` before the receiver, e.g. `A->>+%s: call`), or "
                           "remove the `-`/`deactivate`" % (actor, actor))
            return
        self.active[actor] -= 1


def _blame_by_indent(events: list[tuple[str, int, int]]):
    """Which blocks the indentation says are unclosed: each `end` closes the nearest open block in its column
    (or the innermost, when none is). Returns [(keyword, line, column)] and, for each blamed block that an `end`
    in another block's column skipped, {line: (end line, keyword, line of the block that `end` lines up with)}."""
    stack: list[tuple[str, int, int]] = []
    blamed: list[tuple[str, int, int]] = []
    moved: dict[int, tuple[int, str, int]] = {}
    for kind, line, col in events:
        if kind != "end":
            stack.append((kind, line, col))
            continue
        if not stack:
            return [], {}
        at = next((k for k in range(len(stack) - 1, -1, -1) if stack[k][2] == col), len(stack) - 1)
        for skipped in stack[at + 1:]:
            blamed.append(skipped)
            moved[skipped[1]] = (line, stack[at][0], stack[at][1])
        del stack[at:]
    return blamed + stack[::-1], moved


def parse_prepared(prep: Prepared) -> Diagram:
    d = Diagram()
    if prep.front_matter is not None:
        d.front_matter = prep.front_matter.body
        d.front_matter_line = prep.front_matter.line
        if prep.front_matter.error:
            d.errors.append(ParseError(
                line=prep.front_matter.error_line or prep.front_matter.line, column=1,
                message="the front matter between `---` lines %s: %s" % (
                    "is refused" if prep.front_matter.refused else "is not valid YAML", prep.front_matter.error),
                hint="fix the YAML or remove the `---` block"))
    d.directives = [Directive(text=t, line=ln) for ln, t in prep.directives]
    if prep.diagram_type != "sequence":
        d.errors.append(_not_sequence(prep))
        return d
    tokens, comments = tokenize(prep.text)
    parser = _Parser(tokens, prep, d)
    parser.parse()
    d.comments = sorted(prep.comments + [(prep.line(c.line), c.text) for c in comments])
    d.errors.sort(key=lambda e: (e.line, e.column))
    closing = parser.closing_error()
    if closing is not None:
        d.errors.append(closing)
    return d


def _not_sequence(prep: Prepared) -> ParseError:
    kind = prep.diagram_type
    line = prep.line(0)
    if kind == "empty":
        return ParseError(line=1, column=1, message="the file has no diagram", expected="`sequenceDiagram`",
                          hint="start the file with `sequenceDiagram`, then one statement per line")
    if kind == "c4":
        return ParseError(line=line, column=1, message="Mermaid reads this as a C4 diagram because the text contains "
                          "`C4Container`, `C4Component`, `C4Dynamic` or `C4Deployment`",
                          hint="reword the text so none of those words appears")
    if kind == "---":
        return ParseError(line=line, column=1, message="the `---` front matter block is not closed",
                          expected="`---`", hint="close the front matter with a line `---`, or remove it")
    first = kind.split(":", 1)[1] if ":" in kind else kind
    word = first.split(None, 1)[0] if first.split() else first
    what = OTHER_DIAGRAMS.get(word.lower())
    if what:
        return ParseError(line=line, column=1, message="`%s` starts %s, so this is not a sequence diagram" % (word, what),
                          expected="`sequenceDiagram`", found="`%s`" % first,
                          hint="draw the steps as a `sequenceDiagram`: put `sequenceDiagram` alone on the first line, "
                               "then one message or `Note` per step (e.g. `A->>B: first step`)")
    return ParseError(line=line, column=1, message="this is not a sequence diagram: the first line must be "
                      "`sequenceDiagram`", expected="`sequenceDiagram`", found="`%s`" % first,
                      hint="put `sequenceDiagram` alone on the first line")


# Mermaid's other diagram keywords, lower-cased: what the file is drawn as instead.
OTHER_DIAGRAMS = {
    "flowchart": "a flowchart", "flowchart-elk": "a flowchart", "graph": "a flowchart (`graph`)",
    "classdiagram": "a class diagram", "classdiagram-v2": "a class diagram", "statediagram": "a state diagram",
    "statediagram-v2": "a state diagram", "erdiagram": "an entity-relationship diagram", "journey": "a user journey",
    "gantt": "a Gantt chart", "pie": "a pie chart", "mindmap": "a mind map", "timeline": "a timeline",
    "gitgraph": "a git graph", "quadrantchart": "a quadrant chart", "requirementdiagram": "a requirement diagram",
    "sankey-beta": "a Sankey diagram", "xychart-beta": "an XY chart", "block-beta": "a block diagram",
    "packet-beta": "a packet diagram", "architecture-beta": "an architecture diagram", "kanban": "a kanban board",
    "zenuml": "a ZenUML diagram", "radar-beta": "a radar chart", "treemap-beta": "a treemap",
}


# drawcheck's own intake limits (the defaults of the site's `max_file_bytes` and `max_file_lines`): a longer text
# is refused before it is read, so every stage's time and memory stay bounded.
MAX_CHARS = 262_144
MAX_LINES = 2_000
# Mermaid's default `maxTextSize`: longer text is not drawn ("Maximum text size in diagram exceeded").
MAX_TEXT_SIZE = 50_000


def _js_length(text: str) -> int:
    """Length as JavaScript counts it (UTF-16 code units)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def parse_source(text: str, *, max_chars: int = MAX_CHARS, max_lines: int = MAX_LINES) -> Diagram:
    """parse_text: refuse a text over the limits (one error on line 1 naming the limit), else read it."""
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)  # as intake counts them
    if len(text) > max_chars or lines > max_lines:
        d = Diagram()
        what = ("%d characters, more than the %d" % (len(text), max_chars) if len(text) > max_chars
                else "%d lines, more than the %d" % (lines, max_lines))
        d.errors.append(ParseError(
            line=1, column=1, message="the file has %s drawcheck reads; it was not read" % what,
            expected="a diagram of at most %d lines and %d characters" % (max_lines, max_chars),
            found="%d lines, %d characters" % (lines, len(text)),
            hint="keep only your diagram: the exercise needs a few dozen lines"))
        return d
    d = parse_prepared(prepare(text))
    d.source_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(text) > MAX_TEXT_SIZE // 2 and _js_length(text) > MAX_TEXT_SIZE:
        d.errors.insert(0, ParseError(
            line=1, column=1, message="the diagram has %d characters; Mermaid draws at most %d (its maxTextSize) and "
            "shows \"Maximum text size in diagram exceeded\" instead" % (_js_length(text), MAX_TEXT_SIZE),
            hint="shorten the diagram: the exercise needs a few dozen lines"))
    return d
