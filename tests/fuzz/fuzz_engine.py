"""A small deterministic mutation fuzzer over the repository's diagram corpora.

Used by tests/fuzz/test_fuzz.py (10^5 inputs in CI) and bench/fuzz.py (10^6 and ns/byte). Every input goes through
parse_text, find_unsafe (with and without the model), the escapers, and grade_text on a share of them;
any exception, or a broken invariant, is a failure kept with the input that caused it.
"""

from __future__ import annotations

import random
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from drawcheck.parse import parse_text
from drawcheck.safety import find_unsafe, html_text, mermaid_text, workflow_property, workflow_text

ROOT = Path(__file__).resolve().parents[2]
CORPUS_GLOBS = [
    "tests/parse/corpus/**/*.mmd", "tests/hostile/*.mmd", "tests/plugin/**/*.mmd", "answers/*.mmd",
    "reference/**/*.mmd",
]

TOKENS = [
    "sequenceDiagram", "\n", "\n", "    ", "participant ", "actor ", " as ", "->>", "-->>", "-)", "--)", "-x",
    "--x", "<<->>", "<<-->>", "->", "-->", "+", "-", ": ", ":", ";", "#", "%%", "%%{init: {}}%%", "Note over ",
    "Note left of ", "Note right of ", ",", "loop ", "alt ", "else ", "opt ", "par ", "and ", "critical ",
    "option ", "break ", "rect rgb(1,2,3)", "end", "box ", "activate ", "deactivate ", "autonumber", "create ",
    "destroy ", "title ", "accTitle: ", "accDescr {", "}", "link A: x @ ", "links A: {\"a\": \"b\"}",
    "properties A: {", "details A: ", "---", "config:", "@{ \"type\": \"database\" }", "<br/>", "<b>", "</b>",
    "<script>", "javascript:", "#58;", "&#106;", "$$", "{{", "{%", "::error::", "--8<--", "```", "???", "\u202e",
    "\x00", "\r", "\t", "\ufeff", "é", "東京", "\U0001f600", "\ufb02\xb0\xb0", "\xb6\xdf", "S", "C", "P",
    "Scheduler", "Cache", "assume", "Cache.AssumePod", "Permit", "Reserve", "Bind", "go runBindingCycle",
    "scheduling cycle", "binding cycle", "reason: ", "wrap:", "nowrap:",
]


def load_seeds() -> list[str]:
    seeds = []
    for pattern in CORPUS_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            try:
                seeds.append(path.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, OSError):
                seeds.append(path.read_bytes().decode("utf-8", "replace"))
    for path in sorted((ROOT / "tests" / "grade" / "golden").glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        match = re.search(r"(?ms)^drawing: \|\n((?:  .*\n|\n)+)", text)
        if match:
            seeds.append("\n".join(line[2:] for line in match.group(1).splitlines()) + "\n")
    return seeds or ["sequenceDiagram\n    A->>B: hi\n"]


def _random_char(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.6:
        return chr(rng.randint(32, 126))
    if roll < 0.8:
        return chr(rng.randint(0, 31))
    return chr(rng.choice([rng.randint(0x80, 0x2FFF), rng.randint(0xFB00, 0xFFFF), rng.randint(0x1F300, 0x1F6FF)]))


def mutate(rng: random.Random, text: str, seeds: list[str]) -> str:
    """1 to 4 random edits: insert a token or character, delete, duplicate or swap lines, splice a seed."""
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        pos = rng.randint(0, len(text))
        if op == 0:
            text = text[:pos] + rng.choice(TOKENS) + text[pos:]
        elif op == 1:
            text = text[:pos] + _random_char(rng) + text[pos:]
        elif op == 2 and text:
            end = min(len(text), pos + rng.randint(1, 20))
            text = text[:pos] + text[end:]
        elif op in (3, 4):
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if op == 3:
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif op == 5:
            other = rng.choice(seeds)
            cut = rng.randint(0, len(other))
            text = text[:pos] + other[cut:cut + rng.randint(1, 200)] + text[pos:]
        elif op == 6 and text:
            text = text[:pos] + text[pos:].swapcase()[:3] + text[pos + 3:]
        elif op == 7:
            text = text[:pos]
        else:
            text = text[:pos] + rng.choice(TOKENS) * rng.randint(2, 30) + text[pos:]
    return text


def window(rng: random.Random, text: str, max_lines: int = 12) -> str:
    """A random run of lines (keeps the header line more often than not), so inputs stay small."""
    lines = text.split("\n")
    if len(lines) <= max_lines:
        return text
    start = rng.randrange(len(lines) - max_lines + 1)
    picked = lines[start:start + rng.randint(1, max_lines)]
    if rng.random() < 0.7 and lines[0] not in picked:
        picked.insert(0, lines[0])
    return "\n".join(picked)


@dataclass
class Outcome:
    inputs: int = 0
    graded: int = 0
    bytes: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)  # (input, traceback)


def _check_invariants(text: str, diagram, items_with, items_without) -> None:
    line_count = len(re.split(r"\r\n|\r|\n", text))
    for items in (items_with, items_without):
        assert items == sorted(items, key=lambda i: (i.line, i.what)), "find_unsafe items out of order"
        for item in items:
            assert 1 <= item.line, f"line {item.line} out of range"
            assert item.what, "empty description"
    for item in items_without:
        assert item.line <= line_count, f"line {item.line} beyond {line_count} lines"
    for item in items_with:  # the parser's directive lines must agree with the file's lines
        assert item.line <= line_count, f"line {item.line} (from the model) beyond {line_count} lines"
    for error in diagram.errors:
        assert error.line >= 1 and error.message, f"bad parse error {error}"


def _check_escapers(fragment: str) -> None:
    label = mermaid_text(fragment)
    stripped = re.sub(r"#\d+;", "", label)
    assert not re.search(r"[<>&\"'%:;\n\r$`{}@,#-]", stripped), f"mermaid_text let through {stripped!r}"
    assert not re.search(r"[<>\"'\n\r`*_\[\]{}]", re.sub(r"&#\d+;", "", html_text(fragment)))
    assert "\n" not in workflow_text(fragment) and "\r" not in workflow_text(fragment)
    assert not re.search(r"[\n\r:,]", workflow_property(fragment))


def run_one(text: str, grade=None) -> None:
    diagram = parse_text(text)
    items_with = find_unsafe(diagram, text)
    items_without = find_unsafe(None, text)
    _check_invariants(text, diagram, items_with, items_without)
    _check_escapers(text[:300])
    if grade is not None:
        grade(text)


def make_grader(reference_path: str | None = None):
    """grade_text bound to the shipped reference (or `reference_path`), or None while grading is not importable."""
    try:
        from drawcheck.grade import grade_text
        from drawcheck.reference import load_reference
    except ImportError:
        return None
    reference = load_reference(reference_path or str(ROOT / "reference" / "two-cycles" / "exercise.yml"))

    def grade(text: str) -> None:
        result = grade_text(text, file="answers/fuzz.mmd", reference=reference)
        assert result.status in ("correct", "corrections", "invalid"), result.status
        for finding in result.findings:
            assert finding.line is None or finding.line >= 1, finding

    return grade


def fuzz(count: int, seed: int, *, grade_every: int = 10, max_failures: int = 20,
         reference_path: str | None = None) -> Outcome:
    """Run `count` mutated inputs from seed `seed`; grade every `grade_every`-th one (0: never)."""
    rng = random.Random(seed)
    seeds = load_seeds()
    grader = make_grader(reference_path) if grade_every else None
    outcome = Outcome()
    for n in range(count):
        base = rng.choice(seeds)
        text = mutate(rng, window(rng, base) if rng.random() < 0.9 else base, seeds)
        use_grader = grader if grader is not None and n % grade_every == 0 else None
        try:
            run_one(text, use_grader)
        except Exception:  # noqa: BLE001 - the point is to catch everything
            outcome.failures.append((text, traceback.format_exc(limit=6)))
            if len(outcome.failures) >= max_failures:
                break
        outcome.inputs += 1
        outcome.graded += use_grader is not None
        outcome.bytes += len(text.encode("utf-8", "surrogatepass"))
    return outcome
