"""The size policy of a full build's job summary: counts for the whole class, then the worst cases.

GitHub drops a step's summary over 1 MiB, so the full build never writes every row: it writes the counts,
then the files that most need attention (could not be checked first, then the lowest scores) for as long as
they fit in SUMMARY_BUDGET. Every learner still has their page; the class overview lists everyone.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from drawcheck.grade.model import Result
from drawcheck.report import job_summary, report_lines

SUMMARY_BUDGET = 512 * 1024
"""Bytes (UTF-8) of the whole summary: half of GitHub's 1 MiB, leaving room for the job's other steps."""

WORST_CASES = 25
"""Most files shown with their findings."""


def worst_first(results: Sequence[Result]) -> list[Result]:
    """Files that could not be checked, then by score (lowest first), then by number of corrections."""
    return sorted(results, key=lambda r: (r.status != "invalid", r.score, -len(r.corrections), r.file))


def counts_section(results: Sequence[Result], *, title: str, product: str = "") -> str:
    status = Counter(r.status for r in results)
    severities = Counter(i.severity for r in results for i in report_lines(r, product=product))
    kinds = Counter(f.kind for r in results for f in r.findings if f.severity != "hint")
    out = [f"## {title}", "",
           f"**{len(results)}** file(s): {status.get('correct', 0)} correct, {status.get('corrections', 0)} with "
           f"corrections, {status.get('invalid', 0)} that could not be checked.", "",
           f"Findings: {severities.get('error', 0)} error(s), {severities.get('correction', 0)} correction(s), "
           f"{severities.get('hint', 0)} hint(s).", ""]
    if kinds:
        out += ["| Kind | Findings |", "|---|---|"]
        out += [f"| {kind} | {n} |" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))]
        out.append("")
    return "\n".join(out) + "\n"


def bounded_summary(results: Sequence[Result], *, title: str, product: str = "", budget: int = SUMMARY_BUDGET,
                    worst: int = WORST_CASES) -> str:
    """Counts, then the worst `worst` files with their findings, never more than `budget` bytes in all."""
    head = counts_section(results, title=title, product=product)
    ranked = worst_first(results)
    room = budget - len(head.encode("utf-8")) - 1024  # the closing line and the table's own header
    chosen: list[Result] = []
    for result in ranked:
        if len(chosen) == worst:
            break
        size = len(job_summary([result], title="", product=product).encode("utf-8"))
        if size > room:
            continue  # one huge file must not crowd out the others; it is counted above
        chosen.append(result)
        room -= size
    out = [head]
    if chosen:
        out.append(job_summary(chosen, title=f"The {len(chosen)} file(s) that most need attention", product=product))
    left = len(results) - len(chosen)
    if left:
        out.append(f"\n{left} more file(s) not listed here: each has its feedback page, and the class overview "
                   "lists them all.\n")
    return "\n".join(out)
