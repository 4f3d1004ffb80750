"""The full build's job summary stays under GitHub's 1 MiB at any class size: counts, then the worst cases."""

from __future__ import annotations

from drawcheck.grade.model import Finding, Result
from drawcheck.plugin.summary import SUMMARY_BUDGET, WORST_CASES, bounded_summary, worst_first
from drawcheck.report import job_summary

MIB = 1024 * 1024


def a_class(size: int, findings_each: int = 40) -> list[Result]:
    out = []
    for i in range(size):
        if i % 10 == 0:
            out.append(Result(f"answers/broken-{i}.mmd", "invalid", 0.0,
                              findings=[Finding("syntax", None, 3, "correction", "unknown arrow `->>>`; use ->>")]))
            continue
        findings = [Finding("order", "Permit", n + 1, "correction", "Permit runs before the boundary " * 8, "v1.15")
                    for n in range(findings_each)]
        out.append(Result(f"answers/learner-{i}.mmd", "corrections", (i % 97) / 100, findings=findings))
    return out


def test_every_class_size_fits_where_the_old_summary_did_not():
    for size in (10, 1000, 3000):
        results = a_class(size)
        text = bounded_summary(results, title="drawcheck: site build")
        assert len(text.encode("utf-8")) <= SUMMARY_BUDGET < MIB, size
        assert f"**{size}** file(s)" in text and f"{size // 10} that could not be checked" in text
    assert len(job_summary(a_class(1000)).encode("utf-8")) > MIB  # what the plugin wrote before


def test_the_worst_cases_come_first_and_the_rest_are_counted():
    results = a_class(300)
    text = bounded_summary(results, title="t")
    shown = [r for r in results if f"<code>{r.file.replace('/', '&#47;').replace('.', '&#46;').replace('-', '&#45;')}</code>" in text
             or f"<code>{r.file}</code>" in text]
    assert 0 < len(shown) <= WORST_CASES
    assert {r.file for r in shown} == {r.file for r in worst_first(results)[:len(shown)]}
    assert all(r.status == "invalid" for r in worst_first(results)[:30])
    assert f"{300 - len(shown)} more file(s) not listed here" in text


def test_one_enormous_file_does_not_crowd_out_the_others():
    huge = Result("answers/huge.mmd", "invalid", 0.0,
                  findings=[Finding("syntax", None, n, "correction", "x" * 400) for n in range(1, 5000)])
    results = [huge] + a_class(50, findings_each=2)
    text = bounded_summary(results, title="t", budget=200 * 1024)
    assert len(text.encode("utf-8")) <= 200 * 1024
    assert "learner" in text  # the others are still listed
