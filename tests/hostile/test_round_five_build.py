"""Round five in a real `mkdocs build` under GitHub Actions: answers at and past every limit of depth and size
(`round_five.SIZES`: nesting 999 deep, 1,999 participants, 87,380 comment lines, a label at and past 200
characters, files at and past the line and byte limits, a drawing past Mermaid's 50,000 characters) beside
150 learners who each send a `.corrected.mmd`: each bad file is named with file:line in the log (the
annotations, replayed through the runner's parser, are drawcheck's own); every good one has its page; the build holds."""

from __future__ import annotations

import sys

import pytest

import round_five
from runner_commands import replay

sys.path.insert(0, str(round_five.ROOT / "tests" / "browser"))
from browserkit import github_build  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return github_build(tmp_path_factory.mktemp("round-five-sizes"), round_five.size_answers())


def test_every_file_past_a_limit_is_named_with_its_line(built):
    """In the log's lines, each at its line; the annotations (GitHub shows 10 errors a step) are drawcheck's own."""
    import re

    log, _site = built
    obeyed = replay(log)
    assert 0 < len(obeyed) <= 50 and all(c.properties.get("title", "").startswith("drawcheck") for c in obeyed)
    errors = {}
    for path, line in re.findall(r"drawcheck: (answers/[\w.-]+\.mmd):(\d+): ", log):
        errors.setdefault(path, set()).add(int(line))
    for handle, (_text, line) in round_five.SIZES.items():
        if line is not None:
            assert line in errors.get(f"answers/{handle}.mmd", set()), (handle, errors.get(f"answers/{handle}.mmd"))
        else:
            assert f"answers/{handle}.mmd" not in errors, (handle, errors[f"answers/{handle}.mmd"])


def test_every_learner_has_a_page_and_each_corrected_drawing_is_drawn(built):
    _log, site = built
    for handle in round_five.SIZES:
        assert (site / "feedback" / handle / "index.html").exists(), handle  # a bad file gets its page too
    for i in range(round_five.CORRECTED_LEARNERS):
        page = (site / "feedback" / f"learner-{i}" / "index.html").read_text(encoding="utf-8")
        assert page.count('<pre class="mermaid">') >= 2, i  # the first drawing and the corrected one
    assert "good-reference" in (site / "feedback" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("handle", ["label-at-limit", "label-over-limit"])
def test_a_label_at_the_limit_is_kept_and_one_past_it_is_cut(built, handle):
    import html
    import re

    _log, site = built
    page = (site / "feedback" / handle / "index.html").read_text(encoding="utf-8")
    drawn = [html.unescape(d) for d in re.findall(r'<pre class="mermaid"><code>(.*?)</code></pre>', page, re.S)]
    label = round_five._label(round_five.MAX_LABEL + (handle == "label-over-limit"))
    shown = label if handle == "label-at-limit" else label[: round_five.MAX_LABEL - 1].rstrip() + "#8230;"
    assert any(shown in d for d in drawn), handle
