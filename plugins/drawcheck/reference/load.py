"""Load and validate an exercise's reference YAML.

The loader reads what every exercise has (title, phases, steps, names, page texts) and hands each other
section to the check registered for it (drawcheck.grade.checks.REGISTRY). Every error names the file
and line (from YAML node marks) and says what to write instead.
"""

from __future__ import annotations

import os

import yaml

from drawcheck.reference.model import (
    PHASE_ROLES, TIERS, LegacyName, PageTexts, Phase, Reference, ReferenceError, Step,
)
from drawcheck.reference.reader import Reader, compact, line_of
from drawcheck.reference.source import read_defaults
from drawcheck.recognise.phrases import phrase_text

TOP_REQUIRED = ("exercise", "title", "cycles", "steps")
TOP_OPTIONAL = ("labels", "ignore_words", "denials", "retractions", "wrappers", "explanations", "reference_diagram", "product", "feedback", "sources")
STEP_KEYS = (
    "name", "tier", "required", "teach", "synonyms", "callers", "legacy", "branch", "after", "before", "also_in",
    "wrong_cycle", "main_path", "repeats", "source",
)
FEEDBACK_KEYS = ("correct", "assumed_example")
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser, when PyYAML was built with it


def load_reference(path: str | os.PathLike, *, require_sources: bool = True) -> Reference:
    """Read, validate and return the exercise at `path`; raise ReferenceError with file:line on any problem.

    `require_sources`: refuse a version note or legacy name that has no `source:` (see `unsourced`)."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ReferenceError(path, None, f"cannot read the reference file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ReferenceError(path, None, "the reference file is not UTF-8 text") from exc
    return parse_reference(text, file=path, require_sources=require_sources)


def parse_reference(text: str, *, file: str, require_sources: bool = True) -> Reference:
    """Validate reference YAML text; relative files are resolved next to `file`."""
    # imported here: the checks read the reference's model, and grade imports this package
    from drawcheck.grade.checks import REGISTRY, Core
    from drawcheck.grade.layout import plan
    from drawcheck.recognise.names import NameMatcher, NotStepName, read_wrappers

    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ReferenceError(file, mark.line + 1 if mark else None, f"not valid YAML: {exc.problem}") from exc
    if root is None:
        raise ReferenceError(file, 1, "the reference file is empty; it needs at least: " + ", ".join(TOP_REQUIRED))
    r = Reader(file)
    top = r.mapping(root, "the exercise file", TOP_REQUIRED, TOP_OPTIONAL + tuple(REGISTRY))
    base = os.path.dirname(os.path.abspath(file))
    if "sources" in top:
        r.sources = read_defaults(r, top["sources"])

    phases = _phases(r, top["cycles"])
    branch_ids = tuple(k.value for k, _ in r.pairs(top["branches"], "branches") if k.value != "messages") \
        if "branches" in top else ()
    steps = _steps(r, top["steps"], phases, branch_ids)
    core = Core({s.id: s for s in steps}, phases, r)
    _cross_references(r, top["steps"], core)
    _names_unique(r, top, steps)

    ref = Reference(exercise_id=r.ident(top["exercise"], "exercise"), title=r.string(top["title"], "title"),
                    steps=steps, phases=phases, path=file)
    if "product" in top:
        ref.product = r.string(top["product"], "product")
    if "labels" in top:
        ref.labels = r.strings(top["labels"], "labels")
    if "ignore_words" in top:
        ref.ignore_words = tuple(compact(w) for w in r.strings(top["ignore_words"], "ignore_words"))
    if "denials" in top:
        ref.denials = tuple(compact(w) for w in r.strings(top["denials"], "denials"))
    if "retractions" in top:
        ref.retractions = r.strings(top["retractions"], "retractions")
    if "feedback" in top:
        m = r.mapping(top["feedback"], "feedback", (), FEEDBACK_KEYS)
        ref.page = PageTexts(**{k: r.string(v, f"feedback.{k}") for k, v in m.items()})
    if "explanations" in top:
        for key_node, value_node in r.pairs(top["explanations"], "explanations"):
            key = r.ident(key_node, "an explanations key")
            if key in ref.explanations:
                r.fail(key_node, f"duplicate key {key!r} in explanations; keep one of them")
            ref.explanations[key] = _read_relative(r, value_node, base, f"explanations.{key}")
    if "reference_diagram" in top:
        ref.reference_diagram = _read_relative(r, top["reference_diagram"], base, "reference_diagram")

    checks = []
    for section, cls in REGISTRY.items():
        if section in top or cls.core:
            check = cls.load(r, top.get(section), core)
            check.line = line_of(top[section]) if section in top else 0
            checks.append(check)
    ref.checks = tuple(checks)
    extras = ref.check("not_steps")
    not_steps = tuple(NotStepName(n.name, n.whole) for n in extras.entries) if extras else ()
    wrappers = read_wrappers(r, top["wrappers"]) if "wrappers" in top else ()
    ref.vocabulary = NameMatcher(steps, phases, ref.labels, not_steps, ref.ignore_words, wrappers, ref.denials,
                                 ref.retractions)
    roles = [role for c in ref.checks if (role := c.role()) is not None]
    ref.roles = tuple(sorted(roles, key=lambda role: not role.anchored))  # stable: then in check order
    ref.plan = plan(ref)
    for check in ref.checks:
        check.prepare(ref)
    if require_sources:
        refuse_unsourced(ref)
    return ref


def _compose(text: str) -> yaml.Node | None:
    """The YAML node tree, read by libyaml when present (same nodes and marks, fifteen times faster); a text it
    refuses is read again by PyYAML's own parser, whose error names the character at fault."""
    try:
        return yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


def unsourced(ref: Reference) -> list[tuple[str, int]]:
    """(what, line) of every version note and legacy name that has no `source:`."""
    return [(what, line) for what, line, versions, sources in ref.all_notes()
            if not sources and (versions is not None or what.startswith("legacy name"))]


def refuse_unsourced(ref: Reference) -> None:
    """ReferenceError at the first version note or legacy name without a `source:`."""
    missing = unsourced(ref)
    if missing:
        what, line = min(missing, key=lambda m: m[1])
        more = f" ({len(missing) - 1} more without one)" if len(missing) > 1 else ""
        raise ReferenceError(ref.path, line, f"{what} needs `source:` (a PR, KEP, code line or docs page: "
                                             f"see docs/grading.md){more}")


def _read_relative(r: Reader, node, base: str, where: str) -> str:
    rel = r.string(node, where)
    if os.path.isabs(rel) or ".." in rel.replace("\\", "/").split("/"):
        r.fail(node, f"{where} must be a path relative to the exercise folder, without `..`; got {rel!r}")
    full = os.path.join(base, rel)
    try:
        with open(full, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        r.fail(node, f"{where} points to {rel!r}, which does not exist next to the exercise file ({full})")
    except (OSError, UnicodeDecodeError) as exc:
        r.fail(node, f"{where}: cannot read {rel!r} as UTF-8 text ({exc})")


def _phases(r: Reader, node) -> dict[str, Phase]:
    if not isinstance(node, yaml.MappingNode) or not node.value:
        r.fail(node, "cycles must map each phase id to `name:` and `words:`, e.g. "
                     "`first: {name: first phase, words: [first phase]}`")
    out: dict[str, Phase] = {}
    for key_node, value_node in node.value:
        pid = r.ident(key_node, "a cycle id")
        if pid in out:
            r.fail(key_node, f"duplicate cycle {pid!r}; keep one of them")
        m = r.mapping(value_node, f"cycles.{pid}", ("name", "words"), ("role", "loose_words", "tag_words"))
        out[pid] = Phase(
            id=pid, name=r.string(m["name"], f"cycles.{pid}.name"), words=r.strings(m["words"], f"cycles.{pid}.words"),
            role=r.choice(m["role"], f"cycles.{pid}.role", PHASE_ROLES) if "role" in m else "main",
            line=line_of(key_node),
            loose_words=r.strings(m["loose_words"], f"cycles.{pid}.loose_words") if "loose_words" in m else (),
            tag_words=r.strings(m["tag_words"], f"cycles.{pid}.tag_words") if "tag_words" in m else (),
        )
    return out


def _steps(r: Reader, node, phases, branch_ids) -> tuple[Step, ...]:
    items = r.seq(node, "steps")
    if not items:
        r.fail(node, "steps must list at least one step")
    steps: list[Step] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        if not isinstance(item, yaml.MappingNode):
            r.fail(item, "each step must be a mapping such as `- {id: StepName, cycle: CYCLE_ID, tier: A}`")
        head = {k.value: v for k, v in item.value if isinstance(k, yaml.ScalarNode)}
        sid = r.ident(head["id"], "steps[].id") if "id" in head else r.fail(item, "each step needs `id:`")
        where = f"step {sid}"
        m = r.mapping(item, where, ("id", "cycle", "tier"), STEP_KEYS)
        if sid in seen:
            r.fail(m["id"], f"duplicate step id {sid!r} (first at line {seen[sid]}); step ids must be unique")
        seen[sid] = line_of(m["id"])
        tier = r.choice(m["tier"], f"{where}: tier", TIERS)
        legacy = []
        for ln in r.seq(m["legacy"], f"{where}: legacy") if "legacy" in m else ():
            lm = r.mapping(ln, f"a legacy name of {sid}", ("name", "message"), ("versions", "whole", "also", "source"))
            legacy.append(LegacyName(
                r.string(lm["name"], "legacy.name"), r.string(lm["message"], "legacy.message"),
                r.optional_string(lm, "versions", "legacy"),
                r.boolean(lm["whole"], "legacy.whole") if "whole" in lm else False,
                r.strings(lm["also"], "legacy.also") if "also" in lm else (), r.source(lm, f"{where}: legacy"),
                line_of(ln),
            ))
        steps.append(Step(
            id=sid, name=r.optional_string(m, "name", where, sid), cycle=r.choice(m["cycle"], f"{where}: cycle", tuple(phases)),
            tier=tier, required=r.boolean(m["required"], f"{where}: required") if "required" in m else tier in ("A", "B"),
            index=i, teach=r.optional_string(m, "teach", where, ""),
            synonyms=r.strings(m["synonyms"], f"{where}: synonyms") if "synonyms" in m else (),
            callers=r.strings(m["callers"], f"{where}: callers") if "callers" in m else (),
            legacy=tuple(legacy),
            branch=r.choice(m["branch"], f"{where}: branch", branch_ids or ("(declare `branches:` first)",))
            if "branch" in m else None,
            after=r.strings(m["after"], f"{where}: after") if "after" in m else (),
            before=r.strings(m["before"], f"{where}: before") if "before" in m else (),
            also_in=tuple(r.choice(n, f"{where}: also_in", tuple(phases)) for n in r.seq(m["also_in"], f"{where}: also_in"))
            if "also_in" in m else (),
            wrong_cycle=r.note(m["wrong_cycle"], f"{where}: wrong_cycle") if "wrong_cycle" in m else None,
            main_path=r.note(m["main_path"], f"{where}: main_path") if "main_path" in m else None,
            repeats=r.boolean(m["repeats"], f"{where}: repeats") if "repeats" in m else False,
            sources=r.source(m, where), line=line_of(item),
        ))
    return tuple(steps)


def _cross_references(r: Reader, node, core) -> None:
    """`after:`, `before:` and `legacy.also:` name steps: checked once all ids are known."""
    for item in r.seq(node, "steps"):
        m = {k.value: v for k, v in item.value}
        sid = m["id"].value
        for key in ("after", "before"):
            for n in r.seq(m[key], f"steps.{sid}.{key}") if key in m else ():
                core.step(n, f"steps.{sid}.{key}")
        for ln in r.seq(m["legacy"], f"steps.{sid}.legacy") if "legacy" in m else ():
            lm = {k.value: v for k, v in ln.value}
            for n in r.seq(lm["also"], f"steps.{sid}.legacy.also") if "also" in lm else ():
                core.step(n, f"steps.{sid}.legacy.also")


def _names_unique(r: Reader, top, steps) -> None:
    """A name may mean one step only; say which two steps claim it."""
    owner: dict[str, str] = {}
    for step, item in zip(steps, r.seq(top["steps"], "steps")):
        m = {k.value: v for k, v in item.value}
        nodes = [(step.id, m["id"])]
        if "name" in m:
            nodes.append((step.name, m["name"]))
        for key in ("synonyms", "callers"):
            if key in m:
                nodes += [(n.value, n) for n in m[key].value]
        if "legacy" in m:
            for ln, legacy in zip(m["legacy"].value, step.legacy):
                lm = {k.value: v for k, v in ln.value}
                # whole-line names are their own namespace: a word alone on a line vs inside other text
                nodes.append((("whole:" if legacy.whole else "") + lm["name"].value, lm["name"]))
        local: set[str] = set()
        for name, node in nodes:
            bare = name.removeprefix("whole:")
            key = ("whole:" if name.startswith("whole:") else "") + (compact(bare) if bare.isascii()
                                                                     else phrase_text(bare).strip())
            name = name.removeprefix("whole:")
            if not key.removeprefix("whole:"):
                r.fail(node, f"{name!r} has no letters or digits; a synonym must contain a word")
            if key in owner and owner[key] != step.id:
                r.fail(node, f"{name!r} is already a name of step {owner[key]}; a name may mean one step only")
            if key in local and node is not m.get("name"):
                r.fail(node, f"synonym {name!r} of step {step.id} is already covered (names are compared ignoring "
                             "case, spaces, hyphens and underscores); delete this one")
            local.add(key)
            owner[key] = step.id
