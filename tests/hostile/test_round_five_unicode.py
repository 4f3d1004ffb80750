"""Round five, Unicode in learner labels: a character that draws nothing but reorders (bidi overrides, embeddings,
isolates, marks), joins (ZWJ, ZWNJ), hides (soft hyphen, BOM, tag characters) or separates text reaches no output
the site writes: the feedback page, the PR comment and job summary, the annotations, the log, the JSON; a file
holding a direction-changing one is refused with its line. (Held: `safety._flatten` drops every invisible
category and `find_unsafe` names the bidi controls; kept as a test over every output.)"""

from __future__ import annotations

import json

import pytest

import round_five

from drawcheck.grade.cli import check_file, default_reference
from drawcheck.reference import load_reference
from drawcheck.render.feedback import feedback_page, feedback_setup
from drawcheck.report.github import github_annotations
from drawcheck.report.markdown import Links, markdown_report
from drawcheck.report.pr_comment import comment_body

FLAGSHIP = load_reference(default_reference())
DIRECTIONAL = {"bidi-override", "bidi-embedding", "pop", "isolate", "pop-isolate", "rlm", "alm"}


@pytest.mark.parametrize("name", sorted(round_five.INVISIBLE))
def test_no_invisible_character_of_a_label_reaches_any_output(tmp_path, name):
    ch = round_five.INVISIBLE[name]
    path = tmp_path / "answers" / "mallory.mmd"
    path.parent.mkdir()
    path.write_text(round_five.unicode_drawing(ch), encoding="utf-8")
    graded = check_file(str(path), FLAGSHIP, label="answers/mallory.mmd")
    report = markdown_report([graded], FLAGSHIP, links=Links(repo=round_five.REPO, sha=round_five.HEAD,
                                                             site_url=round_five.SITE))
    outputs = {
        "page": feedback_page(graded, feedback_setup(FLAGSHIP)),
        "summary": report,
        "comment": comment_body(report),
        "annotations": "\n".join(github_annotations([graded.result], product=FLAGSHIP.product)),
        "json": json.dumps([f.message for f in graded.result.findings], ensure_ascii=False),
    }
    if name == "word-joiner":  # the comment puts its own after each `@`, `#` and scheme (pr_comment.WORD_JOINER)
        outputs["comment"] = outputs["comment"].replace(ch, "") if ch not in report else outputs["comment"]
    for where, text in outputs.items():
        assert ch not in text, (name, where)
    if name in DIRECTIONAL:
        unsafe = [f for f in graded.result.findings if f.kind == "unsafe"]
        assert unsafe and {f.line for f in unsafe} <= {i for i, ln in enumerate(path.read_text().split("\n"), 1)
                                                       if ch in ln}, unsafe
    else:
        assert graded.result.status != "invalid" or name == "line-separator", graded.result.findings
