"""Several exercises per site: the typed `exercises:` option, its validation, and which folders each one uses.

One site can grade several "draw the sequence" exercises. Each entry of `exercises:` names an exercise's
reference data; by default its answers are `answers/<id>/<handle>.mmd` and its pages `feedback/<id>/`.
The first entry is the flagship: it also grades the flat `answers/<handle>.mmd` files existing learners
submitted, and keeps their pages at `feedback/<handle>/`. Without `exercises:`, the old `reference:` and
`answers_dir:` options make a one-exercise site, exactly as before.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import yaml
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.base import ValidationError
from mkdocs.exceptions import PluginError

from drawcheck.plugin.options import link_inside, option_line, outside_or_linked

EXERCISE_ID = re.compile(r"[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,62}")
"""An exercise id: lower-case letters, digits and single inner hyphens (it becomes a folder and a URL)."""

EXERCISE_FILE = "exercise.yml"


class ExerciseConfig(base.Config):
    """One entry of `exercises:`."""

    id = c.Type(str)
    """Required. The exercise's short name, e.g. `my-exercise`: its answers folder is `answers/<id>/` and its
    pages `feedback/<id>/` unless set below. Lower-case letters, digits and hyphens."""

    reference = c.Type(str)
    """Required. The exercise's reference data, relative to mkdocs.yml: its folder (which holds `exercise.yml`),
    e.g. `reference/my-exercise`, or the exercise YAML itself."""

    answers_dir = c.Optional(c.Type(str))
    """Folder of this exercise's submissions (`<handle>.mmd`), relative to mkdocs.yml. Default: `answers/<id>`
    (the plugin's `answers_dir` followed by the id). It may be absent until the first learner submits."""

    feedback_dir = c.Optional(c.Type(str))
    """Where this exercise's pages appear in the site (its class overview at `<feedback_dir>/`, one page per
    learner below it). Default: the plugin's `feedback_dir` for the first exercise, `feedback/<id>` for others."""

    title = c.Optional(c.Type(str))
    """Nav title of this exercise's class overview. Default: the plugin's `overview_title` for the first
    exercise when it is the only one, else `<overview_title>: <the exercise's title>`."""


class ExercisesOption(c.ListOfItems):
    """`exercises:` as a list of ExerciseConfig; a wrongly typed sub-option is reported with mkdocs.yml:line."""

    def __init__(self):
        super().__init__(c.SubConfig(ExerciseConfig), default=[])

    def run_validation(self, value):
        if isinstance(value, list):
            for index, entry in enumerate(value):
                if not isinstance(entry, dict):
                    raise ValidationError(f"{self._where(index)}: each exercise is a mapping, e.g. "
                                          "`- {id: my-exercise, reference: reference/my-exercise}`")
                for key in ("id", "reference"):
                    if entry.get(key) is None:
                        raise ValidationError(f"{self._where(index)}: exercise {index + 1}: `{key}:` is missing; "
                                              "e.g. `- {id: my-exercise, reference: reference/my-exercise}`")
                try:
                    self.option_type.run_validation(entry)
                except ValidationError as exc:
                    raise ValidationError(f"{self._where(index)}: exercise {index + 1}: {exc}") from exc
        return super().run_validation(value)

    def _where(self, index: int) -> str:
        config_file = getattr(getattr(self, "_config", None), "config_file_path", None)
        return f"{config_file or 'mkdocs.yml'}:{exercise_line(config_file, index)}"


@dataclass(frozen=True, slots=True)
class Exercise:
    """One exercise of the site, its folders resolved (paths absolute, feedback_dir inside docs)."""

    id: str
    reference: str  # the exercise YAML
    answers_dir: str | None  # its own folder: answers/<id>; None on a one-exercise site
    flat_answers_dir: str | None  # answers/<handle>.mmd: the flagship only
    feedback_dir: str
    nav_title: str | None  # None: from the reference's title once loaded
    option: str  # what an error about the reference points at: "reference" or "exercises"
    index: int | None  # position in `exercises:`, for error lines


def exercise_line(config_file: str | None, index: int | None, key: str | None = None) -> int:
    """Line in mkdocs.yml of `exercises[index]` (of its `key:` when given), else of `exercises:`/`- drawcheck`."""
    node = plugin_options_node(config_file)
    exercises = mapping_get(node, "exercises")
    if exercises is not None and index is not None and isinstance(exercises, yaml.SequenceNode) \
            and index < len(exercises.value):
        entry = exercises.value[index]
        for key_node, _ in getattr(entry, "value", []) if key and isinstance(entry, yaml.MappingNode) else []:
            if key_node.value == key:
                return key_node.start_mark.line + 1
        return entry.start_mark.line + 1
    return option_line(config_file, "exercises")


def plugin_options_node(config_file: str | None):
    """The YAML node under `plugins: - drawcheck:` (composed only: no tag is run)."""
    try:
        with open(config_file or "", encoding="utf-8") as fh:
            root = yaml.compose(fh)
    except (OSError, yaml.YAMLError):
        return None
    plugins = mapping_get(root, "plugins")
    for item in getattr(plugins, "value", []) if isinstance(plugins, yaml.SequenceNode) else []:
        options = mapping_get(item, "drawcheck")
        if options is not None:
            return options
    return mapping_get(plugins, "drawcheck")


def mapping_get(node, key: str):
    if not isinstance(node, yaml.MappingNode):
        return None
    for key_node, value in node.value:
        if getattr(key_node, "value", None) == key:
            return value
    return None


def _fail(config_file: str | None, index: int | None, key: str | None, message: str) -> PluginError:
    where = f"{config_file or 'mkdocs.yml'}:{exercise_line(config_file, index, key)}"
    which = f"exercise {index + 1}" if index is not None else "exercises"
    return PluginError(f"drawcheck: {where}: {which}: {message}")


def _inside_docs(folder: str) -> bool:
    parts = folder.strip("/").split("/")
    return bool(folder.strip("/")) and ".." not in parts and not os.path.isabs(folder)


def resolve_exercises(options, config_dir: str, config_file: str | None) -> list[Exercise]:
    """The site's exercises from the plugin options; the first mistake stops the build with mkdocs.yml:line."""
    flat = os.path.join(config_dir, options.answers_dir)
    if not options.exercises:
        return [Exercise(id="", reference=os.path.join(config_dir, options.reference), answers_dir=None,
                         flat_answers_dir=flat, feedback_dir=options.feedback_dir.strip("/"),
                         nav_title=options.overview_title, option="reference", index=None)]
    if mapping_get(plugin_options_node(config_file), "reference") is not None:
        raise PluginError(f"drawcheck: {config_file or 'mkdocs.yml'}:{option_line(config_file, 'reference')}: "
                          "option `reference` and `exercises` are both set; list every exercise under "
                          "`exercises:` and remove `reference:`")
    out: list[Exercise] = []
    for index, entry in enumerate(options.exercises):
        out.append(_resolve_one(entry, index, options, config_dir, config_file, flat))
    _check_distinct(out, config_file)
    return out


def _resolve_one(entry, index: int, options, config_dir: str, config_file: str | None, flat: str) -> Exercise:
    ident = entry.id
    if not ident:
        raise _fail(config_file, index, None, "`id:` is missing; give each exercise a short name, "
                                              "e.g. `- {id: my-exercise, reference: reference/my-exercise}`")
    if not EXERCISE_ID.fullmatch(ident):
        raise _fail(config_file, index, "id", f"id {ident!r} must be lower-case letters, digits and hyphens, "
                                              "e.g. `my-exercise` (it becomes a folder and a web address)")
    if not entry.reference:
        raise _fail(config_file, index, None, f"`reference:` is missing; e.g. `reference: reference/{ident}`")
    for option, rel in (("reference", entry.reference), ("answers_dir", entry.answers_dir)):
        problem = rel and outside_or_linked(config_dir, rel)
        if problem:
            raise _fail(config_file, index, option, problem)
    reference = os.path.join(config_dir, entry.reference)
    problem = link_inside(config_dir, reference if os.path.isdir(reference) else os.path.dirname(reference))
    if problem:
        raise _fail(config_file, index, "reference", problem)
    if os.path.isdir(reference):
        reference = os.path.join(reference, EXERCISE_FILE)
    if not os.path.isfile(reference):
        raise _fail(config_file, index, "reference",
                    f"reference {entry.reference} does not exist; give the exercise's folder (holding "
                    f"{EXERCISE_FILE}) or its YAML, e.g. `reference: reference/{ident}`")
    answers = entry.answers_dir or f"{options.answers_dir.rstrip('/')}/{ident}"
    answers_path = os.path.join(config_dir, answers)
    if entry.answers_dir and not os.path.isdir(answers_path):
        raise _fail(config_file, index, "answers_dir",
                    f"folder {entry.answers_dir} does not exist; create it, or leave `answers_dir` out "
                    f"to use answers/{ident}")
    first = index == 0
    default_feedback = options.feedback_dir.strip("/") + ("" if first else f"/{ident}")
    feedback = (entry.feedback_dir or default_feedback).strip("/")
    if not _inside_docs(feedback):
        raise _fail(config_file, index, "feedback_dir",
                    f"{entry.feedback_dir!r} must be a folder inside docs, e.g. `feedback_dir: feedback/{ident}`")
    return Exercise(id=ident, reference=reference, answers_dir=answers_path,
                    flat_answers_dir=flat if first else None, feedback_dir=feedback,
                    nav_title=entry.title, option="exercises", index=index)


def _check_distinct(exercises: list[Exercise], config_file: str | None) -> None:
    seen_ids: dict[str, int] = {}
    seen_feedback: dict[str, int] = {}
    seen_answers: dict[str, int] = {}
    for e in exercises:
        if e.id in seen_ids:
            raise _fail(config_file, e.index, "id", f"id {e.id!r} is already exercise {seen_ids[e.id] + 1}; "
                                                    "each exercise needs its own id")
        if e.feedback_dir in seen_feedback:
            raise _fail(config_file, e.index, "feedback_dir",
                        f"feedback folder {e.feedback_dir} is already exercise {seen_feedback[e.feedback_dir] + 1}'s")
        answers = os.path.normpath(e.answers_dir or "")
        if answers in seen_answers:
            raise _fail(config_file, e.index, "answers_dir",
                        f"answers folder {answers} is already exercise {seen_answers[answers] + 1}'s")
        seen_ids[e.id], seen_feedback[e.feedback_dir], seen_answers[answers] = e.index, e.index, e.index


def reserved_page_names(exercise: Exercise, exercises: list[Exercise]) -> set[str]:
    """Handles whose page would take another page's address in `exercise.feedback_dir` (lower-cased)."""
    names = {"index"}
    prefix = exercise.feedback_dir + "/"
    for other in exercises:
        if other is not exercise and other.feedback_dir.startswith(prefix):
            names.add(other.feedback_dir[len(prefix):].split("/")[0].lower())
    return names
