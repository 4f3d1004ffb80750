"""Numbered circles and the one numbering of corrections every report shares.

`number_corrections` is the single source of the numbers: the feedback page's circles and table, the
CLI's text, Markdown and JSON output, the GitHub annotations, the job summaries, the PR comment and the
"assumed N:" notes of a corrected drawing all use it. Only corrections of a drawing are numbered: hints,
and the errors that stop a file being graded (syntax, unsafe, intake), have no number anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.model import Finding, Result


def circle(number: int) -> str:
    """The circled digit for `number` (1-based); plain "(n)" past 50."""
    if 1 <= number <= 20:
        return chr(0x2460 + number - 1)
    if 21 <= number <= 35:
        return chr(0x3251 + number - 21)
    if 36 <= number <= 50:
        return chr(0x32B1 + number - 36)
    return f"({number})"


def circle_number(mark: str) -> int | None:
    """The number of a circled digit (`②` -> 2), or None when `mark` is not one."""
    for i in range(1, 51):
        if circle(i) == mark:
            return i
    return None


@dataclass(frozen=True, slots=True)
class Numbered:
    """One correction and its number, as every report shows it."""

    number: int
    finding: Finding

    @property
    def circle(self) -> str:
        return circle(self.number)


UNGRADED_KINDS = frozenset({"syntax", "unsafe", "intake"})
"""Finding kinds that say why a file could not be graded: errors to fix first, never numbered."""


def number_corrections(result: Result) -> list[Numbered]:
    """Corrections (not hints, not errors) in reading order (by line; those with no line last), numbered from 1."""
    ordered = sorted((f for f in result.corrections if f.kind not in UNGRADED_KINDS),
                     key=lambda f: (f.line is None, f.line or 0))
    return [Numbered(i, f) for i, f in enumerate(ordered, 1)]


def numbers_by_finding(result: Result) -> dict[int, int]:
    """{id(finding): number} for the numbered corrections of `result` (hints and errors have none)."""
    return {id(n.finding): n.number for n in number_corrections(result)}
