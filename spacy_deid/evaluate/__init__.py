"""Evaluation of PHI predictions, following the i2b2 2014 evaluation script.

Public API: `evaluate_notes`, `format_table`, `render_html`,
`approximate_randomization`, `leak_rate`, `error_taxonomy`.
"""

from .deid import split_deid_output
from .html import render_html
from .leak import leak_rate
from .metrics import Counts
from .report import format_table
from .scoring import MEASURES, evaluate_notes, pair_notes, score_note
from .significance import approximate_randomization
from .taxonomy import error_taxonomy

__all__ = [
    "Counts", "MEASURES", "approximate_randomization", "error_taxonomy",
    "evaluate_notes", "format_table", "leak_rate", "pair_notes", "render_html",
    "score_note", "split_deid_output",
]  # fmt: skip
