"""Round four, unit level: the site's script knows the marks' fills; learner text never carries a mark kind's
symbol next to a number; every CLI that reads a learner file reads it under the site's intake limits."""

from __future__ import annotations

import re

import round_four

from drawcheck.render.mermaid import MARK_FILLS

SHIM = round_four.ROOT / "plugins" / "drawcheck" / "plugin" / "assets" / "drawcheck-mermaid.js"


def test_the_sites_script_grounds_exactly_the_marks_fills():
    script = SHIM.read_text(encoding="utf-8")
    listed = re.search(r"var MARK_FILLS = \[([^\]]*)\]", script)
    assert listed, "drawcheck-mermaid.js lists the mark fills it draws on the page's colour"
    assert re.findall(r'"([^"]+)"', listed.group(1)) == list(MARK_FILLS)


# --------------------------------------------------------------------------- the symbols of the marks

import html  # noqa: E402

import pytest  # noqa: E402

from drawcheck import safety  # noqa: E402
from drawcheck.render.circled import SYMBOLS, learner_text  # noqa: E402


def _drawn(mermaid: str) -> str:
    """What Mermaid shows for an escaped label: its `#NNN;` codes read back."""
    return re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), mermaid)


@pytest.mark.parametrize("text", round_four.MARK_SYMBOL_LOOKALIKES)
def test_no_mark_symbol_beside_a_number_reaches_a_page_or_a_drawing(text):
    for shown in (safety.unmark(text), html.unescape(safety.html_text(text)), _drawn(safety.learner_label(text)),
                  _drawn(learner_text(text))):
        assert not round_four.MARK_SYMBOL_GLYPHS.search(shown), (text, shown)
        assert any(ch.isalnum() for ch in shown)  # the number stays, only the symbol is made plain


def test_the_symbols_of_the_mark_kinds_are_in_the_class():
    for symbol in SYMBOLS.values():
        if not symbol.isascii():
            assert safety.MARK_SYMBOLS.fullmatch(symbol), symbol
            assert safety.unmark(f"1 {symbol}") != f"1 {symbol}"


@pytest.mark.parametrize("text", round_four.PROSE_ARROWS)
def test_arrows_in_prose_are_kept(text):
    assert safety.unmark(text) == text
    assert _drawn(safety.learner_label(text)) == text


def test_the_sites_own_marks_keep_their_symbols():
    for symbol in SYMBOLS.values():
        assert symbol in _drawn(safety.mark_label("\u2460", f"{symbol} wrong cycle"))


# --------------------------------------------------------------------------- many answer files

from drawcheck import intake  # noqa: E402


def test_handles_clashing_by_case_cost_work_in_proportion_to_the_files(tmp_path, monkeypatch):
    """A class of thousands of `u1.mmd` / `U1.mmd` pairs: refusing each pair must not compare every file with
    every other (that took 6 s for 10,000 files, and grows with the square). Counted, not timed: the reads
    of a submission's handle."""
    reads = [0]

    class Counted(intake.Submission):
        __slots__ = ()

        def __getattribute__(self, name):
            if name == "handle":
                reads[0] += 1
            return object.__getattribute__(self, name)

    monkeypatch.setattr(intake, "Submission", Counted)
    answers = tmp_path / "answers"
    answers.mkdir()
    pairs = 300
    for i in range(pairs):
        (answers / f"u{i}.mmd").write_text("sequenceDiagram\n", encoding="utf-8")
        (answers / f"U{i}.mmd").write_text("sequenceDiagram\n", encoding="utf-8")
    found, errors = intake.collect_submissions(answers)
    assert found == [] and len(errors) == 2 * pairs
    assert all("differs only by upper/lower case" in e.message for e in errors)
    assert reads[0] < 20 * 2 * pairs, reads[0]  # comparing all pairs would read it 2 * 600 * 600 times


def test_an_exercise_folder_below_a_linked_answers_folder_is_refused(tmp_path):
    outside = tmp_path / "outside"
    (outside / "kubectl-apply").mkdir(parents=True)
    (outside / "kubectl-apply" / "secretive.mmd").write_text("sequenceDiagram\n", encoding="utf-8")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "answers").symlink_to(outside)
    found, errors = intake.collect_submissions(repo / "answers" / "kubectl-apply", root=repo)
    assert found == []
    assert [(e.file, e.line) for e in errors] == [("answers", 1)] and "symbolic link" in errors[0].message
    found, errors = intake.collect_submissions(outside / "kubectl-apply", root=outside)  # a real folder: read
    assert [s.rel_path for s in found] == ["kubectl-apply/secretive.mmd"] and errors == []


# --------------------------------------------------------------------------- bounded time

import string  # noqa: E402

PUMPED_UNITS = list(string.punctuation) + [" ", "a", "8", "on", "::", "##[", "&#", "%%", "<br>", "- ", "-8", "\\u",
                                           "&amp;", "#60;", "on=", "\t", "\u2460", "\u2717 1 "]


@pytest.mark.parametrize("prefix", ["", "    A->>B: "])
def test_find_unsafe_on_a_line_of_one_repeated_unit_is_not_square_time(prefix):
    """A file of 128 KiB (half the size limit) made of one line of one repeated unit. `-` * 131,072 took some 75 s (the
    snippet pattern `-+\\s*8...` backtracked from every dash): a worst case, so a generous bound, far above
    the linear cost and far below the square one."""
    for unit in PUMPED_UNITS:
        text = "sequenceDiagram\n" + prefix + unit * (131_072 // len(unit.encode("utf-8"))) + "\n"
        with intake.time_budget(20):
            safety.find_unsafe(None, text)
