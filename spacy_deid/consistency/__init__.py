"""Cross-mention consistency of PHI (`phi_consistency`): a string detected as
PHI once is marked everywhere else in the doc or the patient's notes, guarded
against common words, small numbers and excluded labels."""

from .component import (
    SOURCE,
    PhiConsistency,
    PhiStrings,
    apply_consistency,
    make_phi_consistency,
)
from .guard import ConsistencyGuard, fold
from .words import common_words

__all__ = [
    "SOURCE",
    "PhiConsistency",
    "PhiStrings",
    "apply_consistency",
    "make_phi_consistency",
    "ConsistencyGuard",
    "fold",
    "common_words",
]
