"""recognise builds its mentions, `first` and `notable` in the same walk that makes the items.

Each is checked against its plain definition over the items, on the golden drawings and on random
variants of them (lines dropped, swapped, repeated, lower-cased, extra steps and cycle words).
"""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest
import yaml

from drawcheck.grade import grade_text
from drawcheck.parse import parse_text
from drawcheck.recognise import recognise

GOLDEN = [yaml.safe_load(p.read_text(encoding="utf-8"))["drawing"]
          for p in sorted((Path(__file__).parent / "golden").glob("*.yml"))]
EXTRA_LINES = (
    "    Note over S: scheduling cycle", "    Note over S,B: binding cycle", "    S-)B: go func()",
    "    S->>S: Reserve", "    S->>S: Permit (binding cycle)", "    B->>B: PreBind", "    S->>C: AssumePod",
    "    alt failure", "    par", "    rect rgb(1, 2, 3)", "    end", "    S->>S: predicates",
    "    S->>S: PostScore", "    Note over S: reason: the API call is slow, so it does not block",
)


def _variants(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        lines = rng.choice(GOLDEN).splitlines()
        for _ in range(rng.randrange(1, 5)):
            k = rng.randrange(1, len(lines))
            op = rng.random()
            if op < 0.25:
                del lines[k]
            elif op < 0.5:
                j = rng.randrange(1, len(lines))
                lines[k], lines[j] = lines[j], lines[k]
            elif op < 0.7:
                lines.insert(k, rng.choice(EXTRA_LINES))
            elif op < 0.85:
                lines.insert(k, lines[rng.randrange(1, len(lines))])
            else:
                lines[k] = lines[k].lower()
        out.append("\n".join(lines) + "\n")
    return out


DRAWINGS = GOLDEN + _variants(11, 150)


def _first_by_definition(mentions) -> dict:
    """A step counts where a message first draws it; a note or label only when no message does."""
    first = {}
    for m in mentions:
        if m.item.kind == "message" and m.step not in first:
            first[m.step] = m
    late = False
    for m in mentions:
        if m.step not in first:
            first[m.step] = m
            late = True
    return dict(sorted(first.items(), key=lambda kv: kv[1].order)) if late else first


@pytest.mark.parametrize("index", range(len(DRAWINGS)))
def test_one_pass_equals_the_definitions(reference, index):
    rec = recognise(parse_text(DRAWINGS[index]), reference)
    assert [m.order for m in rec.mentions] == sorted(m.order for m in rec.mentions)
    assert all(m.order == (m.item.index, m.pos) and m.line == m.item.line for m in rec.mentions)
    assert list(_first_by_definition(rec.mentions).items()) == list(rec.first.items())
    assert rec.notable == [
        i for i in rec.items
        if i.role != "plain" or i.info.has_not_step or i.info.beliefs or i.async_arrow or i.to_cache
        or any(how != "exact" for _, _, _, how, _ in i.info.hits)]
    assert [i.index for i in rec.items] == list(range(len(rec.items)))


def test_the_variants_cover_every_kind_of_notable_item(reference):
    notable = [i for d in DRAWINGS for i in recognise(parse_text(d), reference).notable]
    assert {i.role for i in notable} == {"plain", "reason", "cache", "boundary"}
    assert any(i.async_arrow for i in notable) and any(i.to_cache for i in notable)
    assert any(i.info.has_not_step for i in notable) and any(i.info.beliefs for i in notable)


def test_grading_leaves_no_reference_cycles(reference):
    """Every object made while grading is freed at once, none waits for the cycle collector."""
    texts = DRAWINGS[:60]
    for text in texts:
        grade_text(text, file="x.mmd", reference=reference)  # warm the name caches
    gc.collect()
    gc.disable()
    try:
        for text in texts:
            grade_text(text, file="x.mmd", reference=reference)
        assert gc.collect() == 0
    finally:
        gc.enable()
