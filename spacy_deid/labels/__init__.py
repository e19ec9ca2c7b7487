"""The PHI label scheme (`scheme`) and the maps between schemes (`maps`)."""

from .maps import LABEL_MAP_NAMES, LabelMap, apply, get_label_map, inverse, map_note
from .scheme import (
    CATEGORIES,
    HIPAA_LABELS,
    LABEL_NAMES,
    LABELS,
    NOT_PHI_KEY,
    PHI_COLORS,
    PhiLabel,
    category_of,
    is_hipaa,
    labels_in_category,
    normalize_label,
)

__all__ = [
    "CATEGORIES", "HIPAA_LABELS", "LABEL_NAMES", "LABELS", "NOT_PHI_KEY",
    "PHI_COLORS", "PhiLabel", "category_of", "is_hipaa", "labels_in_category",
    "normalize_label", "LABEL_MAP_NAMES", "LabelMap", "apply", "get_label_map",
    "inverse", "map_note",
]  # fmt: skip
