"""Several exercises on one site: a third exercise is a folder of data and one line of config.

The throw-away exercise below (a DNS lookup) exists only in this file: its YAML, its reference drawing and
two learners' answers. The site is the repository's own (mkdocs.yml, docs/, reference/), built for real.
"""

from __future__ import annotations

import difflib
import json
import html
import logging
import re
from contextlib import contextmanager

import pytest

from plugin_site import CORPUS, build
from drawcheck.grade import grade_diagram
from drawcheck.parse import parse_text
from drawcheck.reference import load_reference

DNS_YAML = """\
exercise: dns-lookup
title: One name, four servers
product: RFC 1034
cycles:
  iterate:
    name: iterative resolution
    words: [iterative, iterating, resolution]
  answer:
    name: answering the client
    words: [answer phase, answering]
steps:
  - {id: Query, cycle: iterate, tier: A, teach: "asks the recursive resolver for a name", synonyms: [lookup]}
  - {id: Root, cycle: iterate, tier: A, teach: "sends the resolver on to the TLD servers",
     synonyms: [ask root]}
  - {id: TLD, cycle: iterate, tier: A, teach: "sends the resolver on to the zone's servers",
     synonyms: [ask tld]}
  - {id: Authoritative, cycle: iterate, tier: A, teach: "gives the address from the zone itself",
     synonyms: [ask authoritative]}
  - {id: Answer, cycle: answer, tier: A, teach: "returns the address to the stub and caches it",
     synonyms: [reply]}
boundary:
  after: Authoritative
  cycles: [iterate, answer]
  markers: ["resolution done"]
  missing: "mark where the resolver has its answer"
  early: "resolution is done after {after}: {n} {step_word} too early ({steps})"
  late: "resolution is done right after {after}: {n} {step_word} too late ({steps})"
reason:
  prefixes: [reason, why]
  groups:
    - name: the authoritative server holds the record
      words: [authoritative, holds the record, owns the zone]
  missing: "say why resolution ends there"
  wrong: "resolution ends when the server that owns the zone answers"
reference_diagram: reference.mmd
"""

DNS_REFERENCE = """\
sequenceDiagram
    participant C as Stub
    participant R as Resolver
    participant N as Name servers
    Note over C,N: iterative resolution
    C->>R: Query
    R->>N: Root
    R->>N: TLD
    R->>N: Authoritative
    R->>R: resolution done
    Note over C,N: reason: the authoritative server holds the record
    Note over C,N: answering the client
    R->>C: Answer
"""

DNS_ANSWERS = {
    "grace": DNS_REFERENCE,  # drew it as the reference does
    "linus": DNS_REFERENCE.replace("    R->>N: TLD\n", ""),  # forgot the TLD step
}

DNS_LINE = "        - {id: dns-lookup, reference: reference/dns-lookup}"


@pytest.fixture
def dns_site(site_factory):
    """The repository's site plus the third exercise: a folder of data and one added line of config."""
    root = site_factory({"barbara.mmd": (CORPUS / "barbara.mmd").read_text(encoding="utf-8")}, corpus=False)
    folder = root / "reference" / "dns-lookup"
    folder.mkdir()
    (folder / "exercise.yml").write_text(DNS_YAML, encoding="utf-8")
    (folder / "reference.mmd").write_text(DNS_REFERENCE, encoding="utf-8")
    (root / "answers" / "dns-lookup").mkdir()
    for handle, text in DNS_ANSWERS.items():
        (root / "answers" / "dns-lookup" / f"{handle}.mmd").write_text(text, encoding="utf-8")
    yml = root / "mkdocs.yml"
    before = yml.read_text(encoding="utf-8").split("\n")
    at = next(i for i, ln in enumerate(before) if "{id: two-cycles" in ln)
    after = before[: at + 1] + [DNS_LINE] + before[at + 1:]
    yml.write_text("\n".join(after), encoding="utf-8")
    changed = [d for d in difflib.ndiff(before, after) if d[:1] in "+-"]
    assert changed == ["+ " + DNS_LINE]
    return root


@contextmanager
def config_messages():
    """The messages mkdocs.config logs while the block runs (it logs config errors outside caplog's reach)."""
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger = logging.getLogger("mkdocs.config")
    logger.addHandler(handler)
    try:
        yield seen
    finally:
        logger.removeHandler(handler)


def why_it_stopped(root, caplog) -> tuple[str, object]:
    """What stopped the build: a config error (logged by mkdocs.config) or a PluginError (mkdocs.commands.build)."""
    with config_messages() as seen:
        built = build(root, caplog)
    assert built.error is not None
    return " ".join(seen + built.build_errors + [str(built.error)]), built


def dns_results(root):
    reference = load_reference(root / "reference" / "dns-lookup" / "exercise.yml")
    out = {}
    for handle, text in DNS_ANSWERS.items():
        file = f"answers/dns-lookup/{handle}.mmd"
        out[handle] = grade_diagram(parse_text(text), text, file=file, reference=reference)
    return out


def test_a_third_exercise_gets_its_own_overview_and_feedback_pages(dns_site, caplog):
    built = build(dns_site, caplog)
    assert built.error is None, built.build_errors
    results = dns_results(dns_site)
    assert results["grace"].status == "correct", [f.message for f in results["grace"].findings]
    assert results["linus"].status == "corrections"
    assert any(f.kind == "missing" and f.point == "TLD" for f in results["linus"].findings)

    overview = built.html("feedback/dns-lookup/index.html")
    assert "Class overview: One name, four servers" in overview
    rows = re.findall(r"<tr>(.*?)</tr>", overview, re.S)
    learners = {h: next(r for r in rows if f'href="{h}/"' in r) for h in DNS_ANSWERS}
    assert "✓ correct" in learners["grace"]
    assert f"corrections ({len(results['linus'].corrections)})" in learners["linus"]
    assert "barbara" not in overview  # the flagship's learner is not in this exercise

    linus = built.html("feedback/dns-lookup/linus/index.html")
    missing = next(f for f in results["linus"].findings if f.kind == "missing")
    assert missing.message in html.unescape(linus)
    assert "One name, four servers" in linus or "Stub" in linus  # the exercise's own reference drawing
    assert "PreFilter" not in linus  # nothing of the flagship leaks into this exercise's pages
    grace = built.html("feedback/dns-lookup/grace/index.html")
    assert "Feedback: grace" in grace

    # the flagship keeps its flat answers and its addresses
    flagship = built.html("feedback/index.html")
    assert 'href="barbara/"' in flagship and "grace" not in flagship
    assert (built.site / "feedback" / "barbara" / "index.html").is_file()
    assert not (built.site / "feedback" / "dns-lookup.html").exists()
    # both overviews are in the nav; the flat answers folder's exercise subfolder is not reported as a mistake
    home = built.html("index.html")
    assert 'href="feedback/dns-lookup/"' in home and 'href="feedback/"' in home
    assert not any("answers/dns-lookup" in m and "folders inside" in m for m in built.messages())


def test_the_flagship_also_reads_its_own_folder_and_one_copy_per_learner(dns_site, caplog):
    ada = (CORPUS / "ada.mmd").read_text(encoding="utf-8")
    (dns_site / "answers" / "two-cycles").mkdir()
    (dns_site / "answers" / "two-cycles" / "ada.mmd").write_text(ada, encoding="utf-8")
    (dns_site / "answers" / "two-cycles" / "barbara.mmd").write_text(ada, encoding="utf-8")  # also flat
    built = build(dns_site, caplog)
    assert built.error is None, built.build_errors
    flagship = html.unescape(built.html("feedback/index.html"))
    assert 'href="ada/"' in flagship and 'href="barbara/"' in flagship
    assert "answers/two-cycles/barbara.mmd is graded for this exercise" in flagship
    assert (built.site / "feedback" / "ada" / "index.html").is_file()


@pytest.mark.parametrize("entry, key, words", [
    ("        - {id: Bad_Id, reference: reference/dns-lookup}", "id", "lower-case letters"),
    ("        - {id: dns, reference: reference/nope}", "reference", "does not exist"),
    ("        - {id: two-cycles, reference: reference/dns-lookup}", "id", "already exercise 1"),
    ("        - {reference: reference/dns-lookup}", None, "`id:` is missing"),
    ("        - {id: dns, reference: reference/dns-lookup, feedback_dir: ../out}", "feedback_dir", "inside docs"),
    ("        - {id: dns, reference: reference/dns-lookup, answers_dir: nowhere}", "answers_dir", "does not exist"),
    ("        - {id: dns, reference: reference/dns-lookup, feedback_dir: feedback}", "feedback_dir", "already"),
])
def test_a_wrong_exercise_entry_names_its_mkdocs_yml_line(dns_site, caplog, entry, key, words):
    yml = dns_site / "mkdocs.yml"
    text = yml.read_text(encoding="utf-8").replace(DNS_LINE, entry)
    yml.write_text(text, encoding="utf-8")
    line = text.split("\n").index(entry) + 1
    message, built = why_it_stopped(dns_site, caplog)
    assert f"mkdocs.yml:{line}: exercise 2" in message, message
    assert words in message, message
    assert not (built.site / "feedback").exists()


def test_a_wrongly_typed_sub_option_names_its_line(dns_site):
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    yml = dns_site / "mkdocs.yml"
    entry = "        - {id: dns, reference: [not, a, path]}"
    text = yml.read_text(encoding="utf-8").replace(DNS_LINE, entry)
    yml.write_text(text, encoding="utf-8")
    with config_messages() as seen, pytest.raises(Abort):
        load_config(str(yml))
    message = " ".join(seen)
    assert f"mkdocs.yml:{text.split(chr(10)).index(entry) + 1}: exercise 2: Sub-option 'reference'" in message, seen


def test_a_broken_third_exercise_stops_the_build_with_its_file_and_line(dns_site, caplog):
    yml = dns_site / "reference" / "dns-lookup" / "exercise.yml"
    yml.write_text(DNS_YAML.replace("  - {id: TLD, cycle: iterate", "  - {id: TLD, cycle: nowhere"), encoding="utf-8")
    built = build(dns_site, caplog)
    message = " ".join(built.build_errors) + str(built.error)
    assert re.search(r"dns-lookup/exercise\.yml:\d+", message), message


def test_reference_and_exercises_together_are_refused(site_factory, caplog):
    root = site_factory(corpus=False, plugin_options="      reference: reference/two-cycles/exercise.yml\n"
                                                     "      exercises:\n"
                                                     "        - {id: two-cycles, reference: reference/two-cycles}")
    built = build(root, caplog)
    message = " ".join(built.build_errors) + str(built.error)
    line = (root / "mkdocs.yml").read_text().split("\n").index("      reference: reference/two-cycles/exercise.yml") + 1
    assert f"mkdocs.yml:{line}:" in message and "remove `reference:`" in message


def test_a_handle_named_like_an_exercise_folder_does_not_replace_its_overview(dns_site, caplog):
    (dns_site / "answers" / "dns-lookup.mmd").write_text((CORPUS / "ada.mmd").read_text(encoding="utf-8"),
                                                          encoding="utf-8")
    built = build(dns_site, caplog)
    assert built.error is None, built.build_errors
    assert "Class overview: One name, four servers" in built.html("feedback/dns-lookup/index.html")
    assert "would take the address" in html.unescape(built.html("feedback/index.html"))
    assert any("answers/dns-lookup.mmd" in m for m in built.messages(logging.INFO))


@pytest.mark.parametrize("from_folder", ["site", "answers", "elsewhere"])
def test_drawcheck_check_grades_each_file_against_its_own_exercise(dns_site, tmp_path, monkeypatch, capsys,
                                                                 from_folder):
    """`drawcheck check answers/<exercise>/<handle>.mmd` reads the exercise from the file's folder, as the site
    and the PR check do, from whatever folder it runs in; `--reference` still applies to every file."""
    from drawcheck.cli import main

    cwd = {"site": dns_site, "answers": dns_site / "answers", "elsewhere": tmp_path}[from_folder]
    monkeypatch.chdir(cwd)
    linus, barbara = dns_site / "answers" / "dns-lookup" / "linus.mmd", dns_site / "answers" / "barbara.mmd"
    assert main(["check", "--format", "json", str(linus), str(barbara), str(dns_site / "answers" / "dns-lookup" /
                                                                           "grace.mmd")]) == 1
    results = {r["file"].rsplit("/", 1)[-1]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert [(f["kind"], f["point"]) for f in results["linus.mmd"]["findings"] if f["severity"] == "correction"] == \
        [("missing", "TLD")]
    assert results["grace.mmd"]["status"] == "correct"
    assert {p["point"] for p in results["barbara.mmd"]["points"]} >= {"Filter", "Bind"}  # the flagship's steps

    assert main(["check", "--format", "json", "--reference", str(dns_site / "reference" / "dns-lookup" /
                                                                 "exercise.yml"), str(barbara)]) == 1
    (only,) = json.loads(capsys.readouterr().out)["results"]
    assert {p["point"] for p in only["points"]} <= {"Query", "Root", "TLD", "Authoritative", "Answer"}
