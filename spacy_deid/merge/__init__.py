"""Hybrid merging of PHI detectors (`phi_merge`).

Several detectors (the `phi_rules` regex ruler, the `phi_ner` BiLSTM-CRF, a
feature CRF, ...) each write their PHI spans to a span group. This folder
holds the `phi_merge` component (`component.py`), which combines those groups
into `doc.ents` with a "priority", "union" or "vote" strategy and records on
each span which sources produced it, and the pure span-list logic behind it
(`strategies.py`), which works on plain tuples and never sees note text.
"""

from .component import PhiMerger, make_phi_merge
from .strategies import (
    STRATEGIES,
    MergedSpan,
    SourceSpan,
    merge_priority,
    merge_sources,
    merge_union,
    merge_vote,
)
from ..tagging.ents import overlap_runs

__all__ = [
    "PhiMerger",
    "make_phi_merge",
    "STRATEGIES",
    "MergedSpan",
    "SourceSpan",
    "merge_priority",
    "merge_sources",
    "merge_union",
    "merge_vote",
    "overlap_runs",
]
