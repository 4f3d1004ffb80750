"""Load and validate an exercise's reference YAML.

Every error names the file and line (from YAML node marks) and says what to
write instead, so an instructor can fix the data without reading Python.
"""

from __future__ import annotations

import os
import re

import yaml

from drawcheck.reference.model import (
    CYCLE_ROLES, TIERS, Belief, BoundarySpec, BranchKind, CacheFunctionSpec, Cycle, LegacyName, Note,
    NotStep, OlderBoundary, ReasonGroup, ReasonSpec, Reference, ReferenceError, Step, WrongFunction,
)

_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
FINDING_KINDS_FOR_BELIEFS = ("missing", "extra", "order", "wrong-cycle", "boundary", "reason", "cache-function", "name")
SEVERITIES = ("correction", "hint")


def compact(text: str) -> str:
    """Case, spaces, hyphens and underscores ignored: how names are compared."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


class _Reader:
    """Typed access to YAML nodes; every failure becomes a ReferenceError at the node's line."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, node, message: str):
        line = node.start_mark.line + 1 if node is not None else None
        raise ReferenceError(self.file, line, message)

    def mapping(self, node, where: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict:
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, f"{where} must be a mapping of `key: value` lines, not {_kind(node)}")
        out: dict = {}
        allowed = required + optional
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key == "source":  # facts branch stand-in: the engine's loader reads and checks `source:`
                continue
            if key not in allowed:
                self.fail(key_node, f"unknown key {key!r} in {where}; allowed keys: {', '.join(allowed)}")
            if key in out:
                self.fail(key_node, f"duplicate key {key!r} in {where}; keep one of them")
            out[key] = value_node
        for key in required:
            if key not in out:
                self.fail(node, f"{where} needs `{key}:`")
        return out

    def string(self, node, where: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag not in ("tag:yaml.org,2002:str",):
            if isinstance(node, yaml.ScalarNode) and node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
                return node.value
            self.fail(node, f"{where} must be text, not {_kind(node)}; quote it if needed")
        if not node.value.strip():
            self.fail(node, f"{where} must not be empty")
        return node.value

    def boolean(self, node, where: str) -> bool:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:bool":
            self.fail(node, f"{where} must be true or false, not {_kind(node)}")
        return node.value.lower() in ("true", "yes", "on")

    def seq(self, node, where: str) -> list:
        if not isinstance(node, yaml.SequenceNode):
            self.fail(node, f"{where} must be a list (`- item` lines or `[a, b]`), not {_kind(node)}")
        return list(node.value)

    def strings(self, node, where: str) -> tuple[str, ...]:
        return tuple(self.string(n, f"an item of {where}") for n in self.seq(node, where))

    def choice(self, node, where: str, choices) -> str:
        value = self.string(node, where)
        if value not in choices:
            self.fail(node, f"{where} is {value!r}; use one of: {', '.join(choices)}")
        return value

    def ident(self, node, where: str) -> str:
        value = self.string(node, where)
        if not _ID.match(value):
            self.fail(node, f"{where} {value!r} must start with a letter and use only letters, digits, `-`, `_`")
        return value

    def note(self, node, where: str) -> Note:
        if isinstance(node, yaml.ScalarNode):
            return Note(self.string(node, where))
        m = self.mapping(node, where, ("message",), ("versions",))
        versions = self.string(m["versions"], f"{where}.versions") if "versions" in m else None
        return Note(self.string(m["message"], f"{where}.message"), versions)


def _kind(node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if node is None:
        return "nothing"
    tag = node.tag.rsplit(":", 1)[-1]
    return "empty" if tag == "null" else f"a {tag} ({node.value!r})"


TOP_REQUIRED = ("exercise", "title", "cycles", "steps")
TOP_OPTIONAL = (
    "branches", "not_steps", "labels", "ignore_words", "boundary", "reason", "cache_function", "beliefs",
    "explanations", "reference_diagram", "product",
)
STEP_KEYS = (
    "name", "tier", "required", "teach", "synonyms", "legacy", "branch", "after", "before", "also_in",
    "wrong_cycle", "main_path",
)


def load_reference(path: str | os.PathLike) -> Reference:
    """Read, validate and return the exercise at `path`; raise ReferenceError with file:line on any problem."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ReferenceError(path, None, f"cannot read the reference file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ReferenceError(path, None, "the reference file is not UTF-8 text") from exc
    return parse_reference(text, file=path)


def parse_reference(text: str, *, file: str) -> Reference:
    """Validate reference YAML text; relative files are resolved next to `file`."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ReferenceError(file, mark.line + 1 if mark else None, f"not valid YAML: {exc.problem}") from exc
    if root is None:
        raise ReferenceError(file, 1, "the reference file is empty; it needs at least: " + ", ".join(TOP_REQUIRED))
    r = _Reader(file)
    top = r.mapping(root, "the exercise file", TOP_REQUIRED, TOP_OPTIONAL)
    base = os.path.dirname(os.path.abspath(file))

    cycles = _cycles(r, top["cycles"])
    branches = _branches(r, top["branches"]) if "branches" in top else {}
    steps, step_nodes = _steps(r, top["steps"], cycles, branches)
    ids = {s.id for s in steps}

    def need_step(node, where: str) -> str:
        value = r.string(node, where)
        if value not in ids:
            r.fail(node, f"{where} names {value!r}, which is not a step id; step ids: {', '.join(sorted(ids))}")
        return value

    # Step cross-references (after:) are checked once all ids are known.
    for step, node_map in zip(steps, step_nodes):
        for key in ("after", "before"):
            if key in node_map:
                for n in r.seq(node_map[key], f"steps.{step.id}.{key}"):
                    need_step(n, f"steps.{step.id}.{key}")
        if "legacy" in node_map:
            for ln in r.seq(node_map["legacy"], f"steps.{step.id}.legacy"):
                lm = {k.value: v for k, v in ln.value}
                if "also" in lm:
                    for n in r.seq(lm["also"], f"steps.{step.id}.legacy.also"):
                        need_step(n, f"steps.{step.id}.legacy.also")

    ref = Reference(exercise_id=r.ident(top["exercise"], "exercise"), title=r.string(top["title"], "title"),
                    steps=steps, path=file, cycles=cycles, branches=branches)
    _names_unique(r, top, steps, cycles)
    if "product" in top:
        ref.product = r.string(top["product"], "product")
    if "not_steps" in top:
        ref.not_steps = _not_steps(r, top["not_steps"], need_step)
    if "labels" in top:
        ref.labels = r.strings(top["labels"], "labels")
    if "ignore_words" in top:
        ref.ignore_words = tuple(compact(w) for w in r.strings(top["ignore_words"], "ignore_words"))
    if "boundary" in top:
        ref.boundary = _boundary(r, top["boundary"], need_step, cycles)
    if "reason" in top:
        ref.reason = _reason(r, top["reason"])
    if "cache_function" in top:
        ref.cache_function = _cache_function(r, top["cache_function"], need_step)
    if "beliefs" in top:
        ref.beliefs = _beliefs(r, top["beliefs"], need_step)
    if "explanations" in top:
        node = top["explanations"]
        if not isinstance(node, yaml.MappingNode):
            r.fail(node, "explanations must map a key to a file, e.g. `boundary: explanations/boundary.md`")
        for key_node, value_node in node.value:
            key = r.ident(key_node, "an explanations key")
            if key in ref.explanations:
                r.fail(key_node, f"duplicate key {key!r} in explanations; keep one of them")
            ref.explanations[key] = _read_relative(r, value_node, base, f"explanations.{key}")
    if "reference_diagram" in top:
        ref.reference_diagram = _read_relative(r, top["reference_diagram"], base, "reference_diagram")
    return ref


def _read_relative(r: _Reader, node, base: str, where: str) -> str:
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


def _cycles(r: _Reader, node) -> dict[str, Cycle]:
    if not isinstance(node, yaml.MappingNode) or not node.value:
        r.fail(node, "cycles must map each cycle id to `name:` and `words:`, e.g. `first: {name: first phase, words: [first phase]}`")
    out: dict[str, Cycle] = {}
    for key_node, value_node in node.value:
        cid = r.ident(key_node, "a cycle id")
        if cid in out:
            r.fail(key_node, f"duplicate cycle {cid!r}; keep one of them")
        m = r.mapping(value_node, f"cycles.{cid}", ("name", "words"), ("role",))
        out[cid] = Cycle(
            id=cid, name=r.string(m["name"], f"cycles.{cid}.name"), words=r.strings(m["words"], f"cycles.{cid}.words"),
            role=r.choice(m["role"], f"cycles.{cid}.role", CYCLE_ROLES) if "role" in m else "main",
            line=key_node.start_mark.line + 1,
        )
    return out


def _branches(r: _Reader, node) -> dict[str, BranchKind]:
    if not isinstance(node, yaml.MappingNode):
        r.fail(node, "branches must map each branch id to `name:` and `words:`")
    out: dict[str, BranchKind] = {}
    for key_node, value_node in node.value:
        bid = r.ident(key_node, "a branch id")
        if bid in out:
            r.fail(key_node, f"duplicate branch {bid!r}; keep one of them")
        m = r.mapping(value_node, f"branches.{bid}", ("name", "words"), ())
        out[bid] = BranchKind(bid, r.string(m["name"], f"branches.{bid}.name"), r.strings(m["words"], f"branches.{bid}.words"))
    return out


def _steps(r: _Reader, node, cycles, branches):
    items = r.seq(node, "steps")
    if not items:
        r.fail(node, "steps must list at least one step")
    steps: list[Step] = []
    maps = []
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
        seen[sid] = m["id"].start_mark.line + 1
        cycle = r.choice(m["cycle"], f"{where}: cycle", tuple(cycles))
        tier = r.choice(m["tier"], f"{where}: tier", TIERS)
        required = r.boolean(m["required"], f"{where}: required") if "required" in m else tier in ("A", "B")
        legacy = []
        if "legacy" in m:
            for ln in r.seq(m["legacy"], f"{where}: legacy"):
                lm = r.mapping(ln, f"a legacy name of {sid}", ("name", "message"), ("versions", "whole", "also"))
                legacy.append(LegacyName(
                    r.string(lm["name"], "legacy.name"), r.string(lm["message"], "legacy.message"),
                    r.string(lm["versions"], "legacy.versions") if "versions" in lm else None,
                    r.boolean(lm["whole"], "legacy.whole") if "whole" in lm else False,
                    r.strings(lm["also"], "legacy.also") if "also" in lm else (),
                ))
        branch = None
        if "branch" in m:
            branch = r.choice(m["branch"], f"{where}: branch", tuple(branches) or ("(declare `branches:` first)",))
        also_in = ()
        if "also_in" in m:
            also_in = tuple(r.choice(n, f"{where}: also_in", tuple(cycles)) for n in r.seq(m["also_in"], f"{where}: also_in"))
        steps.append(Step(
            id=sid, name=r.string(m["name"], f"{where}: name") if "name" in m else sid, cycle=cycle, tier=tier,
            required=required, index=i, teach=r.string(m["teach"], f"{where}: teach") if "teach" in m else "",
            synonyms=r.strings(m["synonyms"], f"{where}: synonyms") if "synonyms" in m else (),
            legacy=tuple(legacy), branch=branch,
            after=r.strings(m["after"], f"{where}: after") if "after" in m else (),
            before=r.strings(m["before"], f"{where}: before") if "before" in m else (),
            also_in=also_in,
            wrong_cycle=r.note(m["wrong_cycle"], f"{where}: wrong_cycle") if "wrong_cycle" in m else None,
            main_path=r.note(m["main_path"], f"{where}: main_path") if "main_path" in m else None,
            line=item.start_mark.line + 1,
        ))
        maps.append(m)
    return steps, maps


def _names_unique(r: _Reader, top, steps: list[Step], cycles: dict[str, Cycle]) -> None:
    """A name may mean one step only; say which two steps claim it."""
    owner: dict[str, str] = {}
    for step, item in zip(steps, r.seq(top["steps"], "steps")):
        m = {k.value: v for k, v in item.value}
        nodes = [(step.id, m["id"])]
        if "name" in m:
            nodes.append((step.name, m["name"]))
        for key in ("synonyms",):
            if key in m:
                nodes += [(n.value, n) for n in m[key].value]
        if "legacy" in m:
            for ln, legacy in zip(m["legacy"].value, step.legacy):
                lm = {k.value: v for k, v in ln.value}
                # whole-line names are their own namespace: a word alone on a line vs inside other text
                nodes.append((("whole:" if legacy.whole else "") + lm["name"].value, lm["name"]))
        local: set[str] = set()
        for name, node in nodes:
            key = ("whole:" if name.startswith("whole:") else "") + compact(name.removeprefix("whole:"))
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


def _not_steps(r: _Reader, node, need_step) -> list[NotStep]:
    out = []
    seen = set()
    for item in r.seq(node, "not_steps"):
        m = r.mapping(item, "a not_steps entry", ("name", "hint"), ("means", "whole"))
        name = r.string(m["name"], "not_steps.name")
        if compact(name) in seen:
            r.fail(m["name"], f"duplicate not_steps name {name!r}; list it once")
        seen.add(compact(name))
        out.append(NotStep(name, r.string(m["hint"], "not_steps.hint"),
                           need_step(m["means"], "not_steps.means") if "means" in m else None,
                           r.boolean(m["whole"], "not_steps.whole") if "whole" in m else False,
                           item.start_mark.line + 1))
    return out


def _boundary(r: _Reader, node, need_step, cycles) -> BoundarySpec:
    m = r.mapping(node, "boundary", ("after", "cycles", "markers", "missing", "early", "late"), ("older", "starts"))
    cyc = r.seq(m["cycles"], "boundary.cycles")
    if len(cyc) != 2:
        r.fail(m["cycles"], "boundary.cycles must list exactly two cycle ids: [the cycle before, the cycle after]")
    pair = tuple(r.choice(n, "boundary.cycles", tuple(cycles)) for n in cyc)
    older = []
    if "older" in m:
        for item in r.seq(m["older"], "boundary.older"):
            om = r.mapping(item, "a boundary.older entry", ("early", "message", "versions"), ())
            early = tuple(need_step(n, "boundary.older.early") for n in r.seq(om["early"], "boundary.older.early"))
            older.append(OlderBoundary(early, Note(r.string(om["message"], "message"), r.string(om["versions"], "versions"))))
    return BoundarySpec(
        after=need_step(m["after"], "boundary.after"), cycles=pair,
        markers=r.strings(m["markers"], "boundary.markers"), missing=r.string(m["missing"], "boundary.missing"),
        early=r.string(m["early"], "boundary.early"), late=r.string(m["late"], "boundary.late"), older=tuple(older),
        starts=r.strings(m["starts"], "boundary.starts") if "starts" in m else (),
    )


def _reason(r: _Reader, node) -> ReasonSpec:
    m = r.mapping(node, "reason", ("prefixes", "groups", "missing", "wrong"), ("min_groups",))
    groups = []
    for item in r.seq(m["groups"], "reason.groups"):
        gm = r.mapping(item, "a reason group", ("name", "words"), ("hint_if_absent",))
        groups.append(ReasonGroup(r.string(gm["name"], "name"), r.strings(gm["words"], "words"),
                                  r.string(gm["hint_if_absent"], "hint_if_absent") if "hint_if_absent" in gm else None))
    if not groups:
        r.fail(m["groups"], "reason.groups needs at least one group of words")
    min_groups = 1
    if "min_groups" in m:
        node_ = m["min_groups"]
        if not (isinstance(node_, yaml.ScalarNode) and node_.tag == "tag:yaml.org,2002:int"
                and 1 <= int(node_.value) <= len(groups)):
            r.fail(node_, f"reason.min_groups must be a whole number from 1 to {len(groups)} (the number of groups)")
        min_groups = int(node_.value)
    return ReasonSpec(r.strings(m["prefixes"], "reason.prefixes"), tuple(groups),
                      r.string(m["missing"], "reason.missing"), r.string(m["wrong"], "reason.wrong"), min_groups)


def _cache_function(r: _Reader, node, need_step) -> CacheFunctionSpec:
    m = r.mapping(node, "cache_function", ("step", "prefixes", "before", "missing", "misplaced", "same_line"),
                  ("participant_words", "wrong"))
    wrong = []
    if "wrong" in m:
        for item in r.seq(m["wrong"], "cache_function.wrong"):
            wm = r.mapping(item, "a cache_function.wrong entry", ("names", "message"), ())
            wrong.append(WrongFunction(r.strings(wm["names"], "names"), r.string(wm["message"], "message")))
    return CacheFunctionSpec(
        step=need_step(m["step"], "cache_function.step"), prefixes=r.strings(m["prefixes"], "cache_function.prefixes"),
        participant_words=r.strings(m["participant_words"], "participant_words") if "participant_words" in m else (),
        before=tuple(need_step(n, "cache_function.before") for n in r.seq(m["before"], "cache_function.before")),
        missing=r.string(m["missing"], "cache_function.missing"),
        misplaced=r.note(m["misplaced"], "cache_function.misplaced"),
        same_line=r.note(m["same_line"], "cache_function.same_line"), wrong=tuple(wrong),
    )


def _beliefs(r: _Reader, node, need_step) -> list[Belief]:
    out = []
    for item in r.seq(node, "beliefs"):
        m = r.mapping(item, "a beliefs entry", ("words", "kind", "message"), ("severity", "versions", "point", "with"))
        out.append(Belief(
            words=r.strings(m["words"], "beliefs.words"),
            kind=r.choice(m["kind"], "beliefs.kind", FINDING_KINDS_FOR_BELIEFS),
            severity=r.choice(m["severity"], "beliefs.severity", SEVERITIES) if "severity" in m else "hint",
            message=r.string(m["message"], "beliefs.message"),
            versions=r.string(m["versions"], "beliefs.versions") if "versions" in m else None,
            point=need_step(m["point"], "beliefs.point") if "point" in m else None,
            with_words=r.strings(m["with"], "beliefs.with") if "with" in m else (),
        ))
    return out
