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


# --- Six more languages as data (tr, fi, da, ro, vi, uk), in both exercises -------------------------------

KUBECTL_APPLY = HERE.parents[1] / "reference" / "kubectl-apply" / "exercise.yml"


@pytest.fixture(scope="module")
def kubectl_reference():
    from drawcheck.reference import load_reference
    return load_reference(KUBECTL_APPLY)


def _exercise(request, exercise: str):
    return request.getfixturevalue("reference" if exercise == "two-cycles" else "kubectl_reference")


TEXTS = yaml.safe_load((HERE / "language_texts.yml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", TEXTS["names"], ids=lambda c: f"{c['exercise']}:{c['text']}")
def test_texts_in_the_newer_languages_name_the_right_step_or_phase(request, case):
    reading = read_text(_exercise(request, case["exercise"]), case["text"])
    assert [h.target for h in reading.hits] == case["steps"]
    assert reading.phases == set(case["phases"])


@pytest.mark.parametrize("case", TEXTS["nothing"], ids=lambda c: f"{c['exercise']}:{c['text']}")
def test_everyday_words_in_the_newer_languages_name_nothing(request, case):
    reading = read_text(_exercise(request, case["exercise"]), case["text"])
    assert [h.target for h in reading.hits] == [] and reading.phases == frozenset()


def _reason_findings(reference, reason: str) -> list:
    result = grade_text(_drawing(reason), file="r.mmd", reference=reference)
    return [(f.severity, f.message) for f in result.findings if f.kind == "reason"]


@pytest.mark.parametrize("good, one_idea", [
    ("neden: bağlama API sunucusuna yazar ve yavaştır, zamanlayıcı beklemez, pod zaten önbellekte varsayılmış",
     "neden: Filter yavaştır"),  # tr
    ("syy: sidonta on hidas API-kutsu, ajoitussäie ei odota vaan ottaa seuraavan podin, pod on jo välimuistissa",
     "syy: se on hidasta"),  # fi
    ("årsag: binding er et langsomt API-kald, scheduleren venter ikke og tager næste pod, poden er allerede antaget i cachen",
     "årsag: det er langsomt"),  # da
    ("motiv: legarea este un apel lent către serverul API, planificatorul nu așteaptă, podul este deja presupus în cache",
     "motiv: este lent"),  # ro
    ("de ce: legarea e lenta, planificatorul nu asteapta, podul e deja in cache", "de ce: e lenta"),  # ro without diacritics
    ("motiv: legarea e lentă, planificatorul nu aşteaptă, podul e deja în cache", "motiv: e lentă"),  # ro, ş with a cedilla
    ("lý do: ràng buộc là lời gọi API chậm, luồng lập lịch không chờ mà xử lý pod tiếp theo, pod đã được giả định trong bộ nhớ đệm",
     "lý do: nó chậm"),  # vi
    ("причина: прив'язка — це повільний виклик до API-сервера, планувальник не чекає і бере наступний под, под уже в кеші",
     "причина: це повільно"),  # uk
])
def test_six_more_languages_reason_is_read(reference, good, one_idea):
    assert _reason_findings(reference, good) == []  # read: neither a correction nor the "could not read" hint
    wrong = EXERCISE["reason"]["wrong"]
    assert _reason_findings(reference, one_idea) == [("correction", wrong)]  # its prefix is read, one idea is too few


@pytest.mark.parametrize("lang", sorted(TEXTS["kubectl_apply_participants"]))
def test_six_more_languages_name_the_participants(kubectl_reference, lang):
    api, scheduler, runtime, cni, event, status = TEXTS["kubectl_apply_participants"][lang]
    fields = dict(api=api, scheduler=scheduler, runtime=runtime, cni=cni, event=event, status=status)
    right = grade_text(TEXTS["kubectl_apply_drawing"].format(bind_to="A", **fields), file="a.mmd", reference=kubectl_reference)
    # the events, the CNI call and the status report draw their steps by who they go between
    assert [(f.kind, f.point, f.message) for f in right.corrections] == []
    wrong = grade_text(TEXTS["kubectl_apply_drawing"].format(bind_to="E", **fields), file="a.mmd", reference=kubectl_reference)
    assert [(f.kind, f.point) for f in wrong.corrections] == [("belief", "Bind")]  # the scheduler writes etcd




@pytest.mark.parametrize("case", TEXTS["misconception_reasons"], ids=lambda c: c["reason"][:40])
def test_six_more_languages_misconception_stated_or_denied(reference, case):
    reason, start = case["reason"], case["start"]
    found = [m[:len(start)] for m in _reason_corrections(reference, reason)] if start else _reason_corrections(reference, reason)
    assert found == ([start] if start else [])


@pytest.mark.parametrize("note, denied", [
    ("izin beklemesi zamanlayıcıyı bloklar", False), ("izin beklemesi zamanlayıcıyı bloklamaz", True),  # tr
    ("Permit-odotus estää ajoittajan", False), ("Permit-odotus ei estä ajoittajaa", True),  # fi
    ("permit-ventetiden blokerer scheduleren", False), ("permit-ventetiden blokerer ikke scheduleren", True),  # da
    ("așteptarea Permit blochează planificatorul", False), ("așteptarea Permit nu blochează planificatorul", True),  # ro
    ("chờ Permit sẽ chặn bộ lập lịch", False), ("chờ Permit không chặn bộ lập lịch", True),  # vi
    ("очікування Permit блокує планувальник", False), ("очікування Permit не блокує планувальник", True),  # uk
])
def test_six_more_languages_belief_a_permit_wait_blocks_the_scheduler(reference, note, denied):
    text = _drawing("reason: the API write is slow, the scheduling thread does not wait for it, the pod is assumed")
    text = text.replace("    B->>B: PreBind\n", f"    Note over B: {note}\n    B->>B: PreBind\n")
    result = grade_text(text, file="b.mmd", reference=reference)
    beliefs = [f for f in result.corrections if f.kind == "wrong-cycle" and f.point == "WaitOnPermit"]
    assert (beliefs == []) is denied


@pytest.mark.parametrize("reason", [
    "neden: bağlama yavaştır, zamanlayıcı beklemez, pod önbellekte varsayılmış, süresi dolar",  # tr
    "syy: sidonta on hidas, ajoitussäie ei odota, välimuistiin oletettu pod vanhenee",  # fi
    "årsag: binding er langsom, scheduleren venter ikke, den antagne pod udløber",  # da
    "motiv: legarea este lentă, planificatorul nu așteaptă, podul presupus în cache expiră",  # ro
    "lý do: ràng buộc chậm, luồng lập lịch không chờ, pod giả định trong bộ nhớ đệm sẽ hết hạn",  # vi
    "причина: прив'язка повільна, планувальник не чекає, припущений под у кеші спливає",  # uk
])
def test_six_more_languages_belief_assumed_pods_expire(reference, reason):
    result = grade_text(_drawing(reason), file="r.mmd", reference=reference)
    assert [f.point for f in result.findings if "no longer expire" in f.message] == ["Assume"]
    calm = reason.rsplit(",", 1)[0]  # the same reason without its expiry clause
    assert [f for f in grade_text(_drawing(calm), file="r.mmd", reference=reference).findings
            if "no longer expire" in f.message] == []


_WHOLE = {  # scheduling cycle label, binding cycle label, no-fit branch, failure branch, reason (no `go` drawn)
    "tr": ("Zamanlama döngüsü (her seferinde bir pod)", "Bağlama döngüsü, pod başına bir goroutine", "uygun düğüm yoksa",
           "başarısız olursa",
           "neden: bağlama API sunucusuna yazar ve yavaştır, zamanlayıcı beklemez, pod zaten önbellekte varsayılmış"),
    "fi": ("Ajoitussykli, yksi pod kerrallaan", "Sidontasykli (oma gorutiini jokaiselle podille)", "mikään solmu ei sovi",
           "jos jokin epäonnistuu", "syy: sidonta on hidas API-kutsu, ajoitussäie ei odota, pod on jo välimuistissa"),
    "da": ("Planlægningscyklus, én pod ad gangen", "Bindingscyklus: en goroutine per pod", "ingen node passer",
           "hvis noget fejler", "årsag: binding er et langsomt API-kald, scheduleren venter ikke, poden er antaget i cachen"),
    "ro": ("Ciclul de planificare, câte un pod", "Ciclul de legare, o goroutine per pod", "niciun nod nu se potrivește",
           "dacă eșuează",
           "motiv: legarea este un apel lent către serverul API, planificatorul nu așteaptă, podul este presupus în cache"),
    "vi": ("Chu kỳ lập lịch, mỗi lần một pod", "Chu kỳ ràng buộc, mỗi pod một goroutine", "không có nút nào phù hợp",
           "nếu thất bại",
           "lý do: ràng buộc là lời gọi API chậm, luồng lập lịch không chờ, pod đã được giả định trong bộ nhớ đệm"),
    "uk": ("Цикл планування, один под за раз", "Цикл прив'язки, окрема горутина для кожного поду", "жоден вузол не підходить",
           "у разі збою", "причина: прив'язка повільна, планувальник не чекає, под уже в кеші"),
}


@pytest.mark.parametrize("lang", sorted(_WHOLE))
def test_six_more_languages_a_whole_drawing_labelled_in_the_language(reference, lang):
    scheduling, binding, no_fit, failure, reason = _WHOLE[lang]

    def drawing(scheduling=scheduling, binding=binding, no_fit=no_fit, failure=failure):
        text = _drawing(reason, binding).replace("Note over S: scheduling cycle", f"Note over S: {scheduling}")
        # the branch steps on the main path, their condition in their own words
        text = text.replace("    opt no node fits\n        S->>S: PostFilter\n    end\n", f"    S->>S: PostFilter ({no_fit})\n")
        text = text.replace("    opt on failure\n        B->>B: Unreserve\n    end\n", f"    B->>B: Unreserve ({failure})\n")
        return text.replace("    S-)B: go sched.runBindingCycle\n", "")  # the cycle labels alone mark the boundary

    def corrections(text):
        return sorted((f.kind, f.point or "") for f in grade_text(text, file="w.mmd", reference=reference).corrections)

    assert corrections(drawing()) == []
    # the same drawing with labels in no listed language: the cycles, or the branches, are not read
    assert corrections(drawing(scheduling="Qwerty uiop", binding="Asdf ghjk")) == [("cycles", "")]
    assert corrections(drawing(no_fit="Qwerty uiop")) == [("order", "PostFilter")]
    assert corrections(drawing(failure="Qwerty uiop")) == [("order", "Unreserve")]


def test_text_typed_decomposed_reads_like_composed_text(reference):
    """Some keyboards write `ệ` as `e` and two combining marks (NFD): the drawing grades as it does composed."""
    import unicodedata

    text = (HERE / "heldout" / "two-cycles-j" / "c10.mmd").read_text(encoding="utf-8")
    decomposed = unicodedata.normalize("NFD", text)
    assert decomposed != text
    findings = [[(f.kind, f.point, f.line, f.severity) for f in grade_text(t, file="v.mmd", reference=reference).findings]
                for t in (text, decomposed)]
    assert findings[0] == findings[1]


@pytest.mark.parametrize("text", ["İzin bekleme", "İZİN BEKLEME"])
def test_a_turkish_dotted_capital_i_starts_a_word_written_in_ascii(reference, text):
    assert [m.target for m in read_text(reference, text).matches if m.kind == "step"] == ["WaitOnPermit"]


# --- Polish and Swedish for kubectl-apply (two-cycles has them already) -----------------------------------


@pytest.mark.parametrize("lang", sorted(TEXTS["kubectl_apply_labels"]))
def test_polish_and_swedish_a_whole_kubectl_apply_drawing(kubectl_reference, lang):
    labels = TEXTS["kubectl_apply_labels"][lang]

    def corrections(bind_to="A", **changed):
        text = TEXTS["kubectl_apply_labelled"].format(bind_to=bind_to, **{**labels, **changed})
        return sorted((f.kind, f.point or "") for f in
                      grade_text(text, file=f"{lang}.mmd", reference=kubectl_reference).corrections)

    assert corrections() == []
    assert corrections(bind_to="E") == [("belief", "Bind")]  # the scheduler writes etcd itself
    # the words are what is read: the same step in no listed language is missing
    assert corrections(mutating="Qwerty uiop") == [("missing", "MutatingAdmission")]


@pytest.mark.parametrize("lang, label, pushed", [
    ("pl", "zdarzenie", False), ("pl", "powiadomienie: pod przypisany do węzła", False),
    ("pl", "pod przypisany do węzła", True), ("pl", "wyślij poda do kubeleta", True),
    ("sv", "händelse", False), ("sv", "notifiering: podden är bunden till noden", False),
    ("sv", "podden är bunden till noden", True), ("sv", "skicka podden till kubelet", True),
])
def test_polish_and_swedish_an_event_word_says_a_call_to_the_kubelet_is_its_watch(kubectl_reference, lang, label, pushed):
    text = TEXTS["kubectl_apply_labelled"].format(bind_to="A", **{**TEXTS["kubectl_apply_labels"][lang], "kubelet_event": label})
    text = text.replace("    A-->>K: ", "    A->>K: ", 1)  # a call, not the watch's dashed event
    found = [(f.kind, f.point) for f in grade_text(text, file="p.mmd", reference=kubectl_reference).corrections]
    assert found == ([("belief", "KubeletWatch")] if pushed else [])  # the API server pushes the pod


@pytest.mark.parametrize("text, step", [("Filterทุกโหนด", "Filter"), ("AssumePodในแคช", "Assume"), ("Reserveແລ້ວ", "Reserve")])
def test_a_name_beside_a_script_without_spaces_is_read(reference, text, step):
    """Thai and Lao write no spaces: an ASCII name touching their letters is a word of its own (as beside 中文)."""
    assert [m.target for m in read_text(reference, text).matches if m.kind == "step"] == [step]


def test_thai_vowel_marks_are_part_of_their_word():
    assert phrase_text("รอบการจัดตารางเวลา") == " รอบการจัดตารางเวลา "  # one word: the mark U+0E31 splits nothing
