"""A recall safety net (`phi_safety_net`): names in cue positions ("per",
"d/w dr.", "sis", "Thanks,", sign-out arrows) that the detectors missed,
guarded against ordinary words, drugs, eponyms, date words and units."""

from .component import SOURCE, PhiSafetyNet, make_phi_safety_net
from .cues import CUE_CLASSES, Cue, CueIndex, default_cues
from .guard import NameGuard

__all__ = [
    "SOURCE",
    "PhiSafetyNet",
    "make_phi_safety_net",
    "CUE_CLASSES",
    "Cue",
    "CueIndex",
    "default_cues",
    "NameGuard",
]
