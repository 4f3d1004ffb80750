"""Checks by concept: one module per concept, a registry keyed by the YAML section that configures it.

The registry's order is the order checks run in (it decides which of two findings on one line is listed
first, and which replaces which). docs/grading.md describes each section.
"""

from __future__ import annotations

from drawcheck.grade.checks.base import Check, Core, Drawing, Mark, Outcome, Scored
from drawcheck.grade.checks.beliefs import BeliefsCheck
from drawcheck.grade.checks.boundary import BoundaryCheck
from drawcheck.grade.checks.branches import BranchesCheck
from drawcheck.grade.checks.directions import DirectionsCheck
from drawcheck.grade.checks.extras import ExtrasCheck
from drawcheck.grade.checks.failure_paths import FailurePathsCheck
from drawcheck.grade.checks.misconceptions import MisconceptionsCheck
from drawcheck.grade.checks.missing import MissingCheck
from drawcheck.grade.checks.named_function import NamedFunctionCheck
from drawcheck.grade.checks.names import NamesCheck
from drawcheck.grade.checks.order import OrderCheck
from drawcheck.grade.checks.own_calls import OwnCallsCheck
from drawcheck.grade.checks.phases import PhasesCheck
from drawcheck.grade.checks.reason import ReasonCheck

REGISTRY: dict[str, type[Check]] = {cls.section: cls for cls in (
    NamesCheck, ExtrasCheck, MissingCheck, BranchesCheck, OrderCheck,
    FailurePathsCheck,  # after order: it replaces its finding on its step and line
    BoundaryCheck, PhasesCheck,
    ReasonCheck, NamedFunctionCheck, BeliefsCheck, DirectionsCheck, OwnCallsCheck,
    MisconceptionsCheck,  # after directions and order: it replaces their finding on its step and line
)}

__all__ = ["REGISTRY", "Check", "Core", "Drawing", "Mark", "Outcome", "Scored"]
