"""Rule-based PHI detection: the `phi_rules` component and its patterns."""

from .patterns import default_patterns, family_patterns
from .ruler import PhiRuler, make_phi_rules

__all__ = ["PhiRuler", "make_phi_rules", "default_patterns", "family_patterns"]
