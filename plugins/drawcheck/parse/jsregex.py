"""JavaScript regex character classes, so our patterns match exactly what Mermaid's do.

Python's `\\s`, `.`, `$`, `\\b` and `str.strip()` differ from JavaScript's in small
ways (U+FEFF, U+0085, U+001C..U+001F, trailing newline before `$`, Unicode word
characters). Mermaid runs in JavaScript, so we spell the JavaScript sets out.
"""

from __future__ import annotations

import re

# JavaScript `\s`: WhiteSpace + LineTerminator.
JS_WS_CHARS = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_WS_BODY = r"\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
WS = "[" + _WS_BODY + "]"  # JS \s
NOT_WS = "[^" + _WS_BODY + "]"  # JS \S
WS_BODY = _WS_BODY  # for use inside other classes
WS_NO_NL = r"[\t\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"  # (?!\n)\s
DOT = r"[^\n\r\u2028\u2029]"  # JS `.` without the s flag

# ASCII flag: JS `\b`/`\w` are ASCII-only, and JS /i (no u flag) never folds
# non-ASCII letters onto ASCII ones (Python's would: K and the Kelvin sign).
FLAGS = re.ASCII


def js_trim(s: str) -> str:
    return s.strip(JS_WS_CHARS)


def js_trim_start(s: str) -> str:
    return s.lstrip(JS_WS_CHARS)
