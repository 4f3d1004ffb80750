"""Other languages as data: LANGUAGES.yml is merged into the exercise, and words in scripts written
without spaces (Chinese, Japanese, Korean) or with accents are read the way learners write them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from drawcheck.grade import grade_text
from drawcheck.recognise import read_text
from drawcheck.recognise.phrases import ScriptPhrases, phrase_text, phrases_regex

HERE = Path(__file__).resolve().parent
LANGUAGES = yaml.safe_load((HERE / "corpus" / "LANGUAGES.yml").read_text(encoding="utf-8"))
EXERCISE = yaml.safe_load((HERE.parents[1] / "reference" / "two-cycles" / "exercise.yml").read_text(encoding="utf-8"))
LANGS = ("zh", "ja", "ko", "es", "de", "fr")
BELIEFS_INSTEAD = {"permit-wait-blocks", "assumed-pods-expire"}  # `beliefs:` entries, wrong anywhere


def _low(words) -> set[str]:
    return {w.lower() for w in words}


def _step(sid: str) -> dict:
    return next(s for s in EXERCISE["steps"] if s["id"] == sid)


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_a_language_is_in_the_exercise(lang):
    data = LANGUAGES["languages"][lang]
    for cid, c in data["cycles"].items():
        cycle = EXERCISE["cycles"][cid]
        assert _low(c["words"]) <= _low(cycle["words"] + cycle.get("loose_words", [])), (lang, cid)
    for bid, b in data["branches"].items():
        assert _low(b["words"]) <= _low(EXERCISE["branches"][bid]["words"]), (lang, bid)
    assert _low(data["reason"]["prefixes"]) <= _low(EXERCISE["reason"]["prefixes"])
    groups = {g["name"]: g for g in EXERCISE["reason"]["groups"]}
    for g in data["reason"]["groups"]:
        assert _low(g["words"]) <= _low(groups[g["name"]]["words"]), (lang, g["name"])
    for sid, s in data["steps"].items():
        assert _low(s["synonyms"]) <= _low(_step(sid).get("synonyms", [])), (lang, sid)


def test_every_misconception_is_in_the_exercise_with_a_source():
    by_id = {m["id"]: m for m in EXERCISE["reason"]["misconceptions"]}
    for m in LANGUAGES["misconceptions"]:
        if m["id"] in BELIEFS_INSTEAD:
            target = next(b for b in EXERCISE["beliefs"] if _low(m["words"]["en"]) & _low(b["words"]))
            assert "source" in target, m["id"]
        else:
            target = by_id[m["id"]]
            assert target["message"] == m["message"] and target["source"], m["id"]
        for lang, words in m["words"].items():
            assert _low(words) <= _low(target["words"]), (m["id"], lang)
        for lang, words in m.get("with", {}).items():
            assert _low(words) <= _low(target["with"]), (m["id"], lang)


def test_words_in_scripts_without_spaces_need_no_word_gap_but_latin_edges_do():
    rx = phrases_regex(["绑定周期", "API 서버", "síncrono"])
    assert rx.search(phrase_text("绑定周期（每个 Pod 一个 goroutine）"))
    assert rx.search(phrase_text("느린API 서버쓰기"))  # 느린API: the script change is a word gap
    assert rx.search(phrase_text("es síncrono, un pod a la vez"))
    assert not rx.search(phrase_text("es asíncrono"))
    assert phrase_text("调度周期（串行）写API") == " 调度周期 串行 写 api "


def test_a_whole_name_is_not_read_inside_a_longer_word_and_spans_point_into_the_text():
    phrases = ScriptPhrases([("绑定", "step", "B", True), ("绑定后", "step", "PB", True),
                             ("绑定周期", "cycle", "binding", False), ("异步", "cycle", "binding", False)])
    text = "Bind 绑定, 异步绑定, 绑定后, 绑定周期"
    found = [(kind, target, text[a:b]) for kind, target, a, b in phrases.find(text)]
    assert found == [("step", "B", "绑定"), ("cycle", "binding", "异步"), ("step", "PB", "绑定后"),
                     ("cycle", "binding", "绑定周期")]


@pytest.mark.parametrize("text, steps, phases", [
    ("Bind 绑定", ["Bind"], set()),  # a name and its translation draw the step once
    ("go sched.runBindingCycle 异步绑定", [], {"binding"}),  # 绑定 inside 异步绑定 is no Bind
    ("绑定周期（每个 Pod 一个 goroutine）", [], {"binding"}),
    ("等待允许", ["WaitOnPermit"], set()),  # longest name first, not Permit (允许)
    ("后置过滤（抢占）", ["PostFilter"], set()),
    ("PreFilter（事前フィルタ）", ["PreFilter"], set()),
    ("バインディングサイクル", [], {"binding"}),  # バインド (Bind) is not read inside it
    ("예약 해제", ["Unreserve"], set()),
    ("비동기", [], {"binding"}),  # 동기 (synchronous) is not read inside 비동기
    ("Binding-Zyklus (asynchron)", [], {"binding"}),
    ("Gorrutina de vinculación", [], {"binding"}),
])
def test_names_and_cycle_words_in_other_languages(reference, text, steps, phases):
    reading = read_text(reference, text)
    assert [h.target for h in reading.hits] == steps
    assert reading.phases == phases


def _drawing(reason: str, binding_label: str = "binding cycle") -> str:
    return f"""sequenceDiagram
    participant S as Scheduler
    participant B as Binder
    Note over S: scheduling cycle
    S->>S: PreFilter
    S->>S: Filter
    opt no node fits
        S->>S: PostFilter
    end
    S->>S: PreScore
    S->>S: Score
    S->>S: NormalizeScore
    S->>S: AssumePod
    S->>S: Reserve
    S->>S: Permit
    S-)B: go sched.runBindingCycle
    Note over S,B: {reason}
    Note over B: {binding_label}
    B->>B: WaitOnPermit
    B->>B: PreBind
    B->>B: Bind
    B->>B: PostBind
    opt on failure
        B->>B: Unreserve
    end
"""


def _reason_corrections(reference, reason: str) -> list[str]:
    result = grade_text(_drawing(reason), file="r.mmd", reference=reference)
    return [f.message for f in result.corrections if f.kind == "reason"]


@pytest.mark.parametrize("reason", [
    "reason: no lock is involved, the scheduling thread must not wait for the API write, the pod is assumed",
    "原因：和锁无关，绑定要写 API，很慢，调度线程不等待，Pod 已经假定在缓存里",
    "理由：ロックは不要、バインドは API 書き込みで遅いので待たずに次の Pod へ、Pod はキャッシュに仮定済み",
    "raison : ce n'est pas un verrou, la liaison est une écriture lente vers l'API, le fil n'attend pas, le pod est supposé dans le cache",
    "reason: the single scheduling thread must not wait for the slow API write, the pod is already assumed",
])
def test_a_denied_misconception_or_a_good_reason_is_no_correction(reference, reason):
    assert _reason_corrections(reference, reason) == []


@pytest.mark.parametrize("reason, start", [
    ("reason: binding must be single threaded because it holds the cache lock", "binding is not single threaded"),
    ("reason: binding holds the cache lock, and must be single threaded", "the `go` is not about a lock"),
    ("이유: 바인딩은 캐시 락을 잡아서 교착을 피해야 한다", "the `go` is not about a lock"),
    ("Grund: das Binden muss seriell sein, ein Bind nach dem anderen", "binding cycles may run concurrently"),
])
def test_the_misconception_stated_first_is_named(reference, reason, start):
    assert [m[:len(start)] for m in _reason_corrections(reference, reason)] == [start]


@pytest.mark.parametrize("note, denied", [
    ("a Permit wait blocks the scheduler until the gang is complete", False),
    ("a Permit wait never blocks the scheduler", True),
    ("如果插件返回等待，这会阻塞调度器", False),
    ("等待允许不会阻塞调度器", True),
    ("ein Permit-Wait blockiert den Scheduler", False),
    ("ein Permit-Wait blockiert den Scheduler nicht", True),
])
def test_a_belief_is_a_correction_unless_the_drawing_denies_it(reference, note, denied):
    text = _drawing("reason: the API write is slow, the scheduling thread does not wait for it, the pod is assumed")
    text = text.replace("    B->>B: PreBind\n", f"    Note over B: {note}\n    B->>B: PreBind\n")
    result = grade_text(text, file="b.mmd", reference=reference)
    beliefs = [f for f in result.corrections if f.kind == "wrong-cycle" and f.point == "WaitOnPermit"]
    assert (beliefs == []) is denied, [(f.kind, f.line, f.message) for f in result.findings]
