"""The pages and explanations state Kubernetes facts as the facts file does: inferred releases hedged with
"about", recalled details hedged or left out, and one expiry history everywhere.

Source of truth: /work/shared/reference/scheduler-facts.md. Each test names the review item it guards.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
EXPLANATIONS = ROOT / "reference" / "two-cycles" / "explanations"
ORACLE = ROOT / "tests" / "parse" / "mermaid_oracle.mjs"
PAGES = {
    "index": ROOT / "docs" / "index.md",
    "table": ROOT / "docs" / "table.md",
    "submit": ROOT / "docs" / "submit.md",
    "boundary": EXPLANATIONS / "boundary.md",
    "cache-function": EXPLANATIONS / "cache-function.md",
    "answers-readme": ROOT / "answers" / "README.md",
}


def chunks(path: Path) -> list[tuple[str, str]]:
    """(heading, text) for every paragraph, list item and table row, whitespace folded."""
    heading, out, paragraph = "", [], []

    def flush():
        if paragraph:
            out.append((heading, " ".join(" ".join(paragraph).split())))
            paragraph.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#"):
            flush()
            heading = line.lstrip("#").strip()
        elif not line or line.startswith(("|", "- ", "* ")) or re.match(r"\d+\. ", line):
            flush()
            if line.startswith("|"):
                out.append((heading, line))
            elif line:
                paragraph.append(line)
        else:
            paragraph.append(line)
    flush()
    return out


def all_chunks() -> list[tuple[str, str, str]]:
    return [(name, heading, text) for name, path in PAGES.items() for heading, text in chunks(path)]


def test_the_chunk_reader_sees_every_page():
    found = {name for name, _, _ in all_chunks()}
    assert found == set(PAGES)
    rows = [text for name, _, text in all_chunks() if name == "table" and text.startswith("|")]
    assert len(rows) > 40, "table rows are read one by one"


# ----------------------------------------------------------------------------- review item 7


UNHEDGED_REORDER = re.compile(r"(?<!about )\b(since|from|to|until|up to|before|after) v1\.(18|19)\b", re.I)


def test_the_assume_before_reserve_release_is_hedged():
    """Facts §3/§5a: assume-before-Reserve dates from v1.19 only by inference: "about v1.19", "up to about v1.18"."""
    offenders = [(name, text) for name, _, text in all_chunks()
                 if "assume" in text.lower() and "reserve" in text.lower() and UNHEDGED_REORDER.search(text)]
    assert offenders == []
    table = PAGES["table"].read_text(encoding="utf-8")
    assert "before** Reserve since about v1.19" in table
    assert "| about v1.19 to v1.33 |" in table
    assert "up to about v1.18" in table
    cache = PAGES["cache-function"].read_text(encoding="utf-8")
    assert "| about v1.19 to about v1.35 |" in cache and "| v1.15 to about v1.18 |" in cache


def test_the_hedge_check_catches_an_unhedged_release():
    assert UNHEDGED_REORDER.search("assume runs before Reserve since v1.19")
    assert UNHEDGED_REORDER.search("assume ran after Reserve up to v1.18")
    assert not UNHEDGED_REORDER.search("assume runs before Reserve since about v1.19")


# ----------------------------------------------------------------------------- review item 8


EXPIRY_HISTORY = ("up to about v1.24", "30 seconds at first (up to about v1.22)", "15 minutes from about v1.23",
                  "PR #106412", "no expiry from about v1.25", "PR #110925", "removed in about v1.36", "PR #136204")


def test_the_assumed_pod_expiry_history_is_the_same_wherever_it_appears():
    """Facts §3: 30 s, then 15 min from about v1.23, never from about v1.25, code gone about v1.36."""
    mentions = [(name, text) for name, _, text in all_chunks() if re.search(r"\bexpir", text, re.I)
                and re.search(r"v1\.\d+", text)]
    assert mentions, "the table states when assumed pods expired"
    for name, text in mentions:
        for phrase in EXPIRY_HISTORY:
            assert phrase in text, (name, phrase, text)
        for wrong in ("≤v1.24", "until about v1.25", "until v1.25", "up to v1.24"):
            assert wrong not in text, (name, wrong)


# ----------------------------------------------------------------------------- review items 9, 10, 25


def test_recalled_details_are_hedged_or_left_out():
    boundary = PAGES["boundary"].read_text(encoding="utf-8")
    assert "volume" not in boundary.lower(), "PreBind-for-volumes is [recalled] in the facts file"
    rows = [text for name, _, text in all_chunks() if "PreFilterExtensions" in text and "preemption" in text]
    assert rows, "the table says where PreFilterExtensions are called"
    for text in rows:
        assert "probably" in text and "unchecked" in text, text


def test_the_old_file_layout_is_dated_with_about():
    index = PAGES["index"].read_text(encoding="utf-8")
    assert "| about v1.23 and earlier |" in index
    assert not re.search(r"\|\s*v1\.23 and earlier", index)


def test_every_pod_group_mention_says_it_is_behind_a_feature_gate():
    """Facts §1 notes: the pod-group cycle is gated (v1.36+)."""
    group = re.compile(r"pod.group|as a group", re.I)
    seen = 0
    for name, heading, text in all_chunks():
        if name in ("index", "table") and "v1.36" in text and group.search(text + " " + heading):
            seen += 1
            assert "feature gate" in (text + " " + heading), (name, text)
    assert seen >= 4


# ----------------------------------------------------------------------------- review items 2, 3


def test_the_exercise_page_says_what_the_kep_says_and_hedges_the_throughput_reading():
    index = " ".join(PAGES["index"].read_text(encoding="utf-8").split())
    assert "which code cannot" not in index
    assert "The reason is throughput." not in index
    assert "binding cycles may run concurrently" in index
    assert '"keep scheduling without waiting on binding to occur"' in index
    assert '"we can do this b/c of the assumption step"' in index
    assert "read that as a throughput argument" in index and "does not name throughput" in index


# ----------------------------------------------------------------------------- review item 17


def test_submit_warns_about_semicolons_and_hashes():
    text = PAGES["submit"].read_text(encoding="utf-8")
    assert '!!! warning "No `;` and no `#` in your texts"' in text
    assert "`;` ends a Mermaid statement" in text and "Use a comma instead" in text
    assert "`#` starts an entity code" in text
    template = (ROOT / "answers" / "_template.mmd").read_text(encoding="utf-8")
    assert "No semicolons and no hash signs" in template


def test_the_warning_examples_behave_as_the_page_says(tmp_path):
    """The pinned Mermaid rejects the page's `;` example, accepts it with a comma, and cuts text at a bare `#`."""
    text = PAGES["submit"].read_text(encoding="utf-8")
    semicolon = re.search(r"In `(Note over S,B: reason: [^`]*;[^`]*)`", text).group(1)
    node = shutil.which("node")
    assert node, "node is required (Node 20): the pinned Mermaid runs in it"
    with_semicolon = f"sequenceDiagram\n    {semicolon}\n"
    with_comma = with_semicolon.replace(";", ",")
    with_hash = "sequenceDiagram\n    S->>P: see PR #106412 here\n"
    paths = []
    for i, body in enumerate((with_semicolon, with_comma, with_hash)):
        path = tmp_path / f"w{i}.mmd"
        path.write_text(body, encoding="utf-8")
        paths.append(str(path))
    done = subprocess.run([node, str(ORACLE)], input=json.dumps(paths), capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"file"')]
    assert [r["valid"] for r in results] == [False, True, True]
    assert results[2]["messages"][0][2] == "see PR"


def test_submit_points_to_the_grading_page():
    text = PAGES["submit"].read_text(encoding="utf-8")
    assert "[How drawings are graded](grading.md)" in text
    assert (ROOT / "docs" / "grading.md").is_file()
