"""reference: an exercise's reference data (YAML) -> a validated `Reference`."""

from drawcheck.reference.load import compact, load_reference, parse_reference  # noqa: F401
from drawcheck.reference.model import (  # noqa: F401
    Belief, BoundarySpec, BranchKind, CacheFunctionSpec, Cycle, LegacyName, Note, NotStep, ReasonSpec, Reference,
    ReferenceError, Step,
)
