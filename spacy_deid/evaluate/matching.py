"""Per-note counts for the strict, relaxed, text-token and binary
text-token measures (the i2b2 2014 token measures are in `tokens.py`).

- strict: a prediction is correct when start, end and label equal a gold
  span's (spans are sets, as in the i2b2 script: duplicates count once);
- relaxed: same label and start, end within `window` (default 2) characters
  of the gold end, one-to-one (the closest end wins);
- text token: tokens of the whole gold text (see `tokens.py`), TP when gold
  and predicted token labels are equal;
- binary text token: PHI vs not PHI per text token, labels ignored.

Counts are kept per label: a TP counts for its label, an FP for the predicted
label, an FN for the gold label.
"""

from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Tuple

from ..core.types import PhiSpan
from .metrics import Counts
from .tokens import token_labels, tokenize

LabelCounts = Dict[str, Counts]
RELAXED_WINDOW = 2


def _new() -> LabelCounts:
    return defaultdict(Counts)


def strict_counts(gold: Iterable[PhiSpan], pred: Iterable[PhiSpan]) -> LabelCounts:
    """Exact start, end and label. RETURNS (LabelCounts): Counts per label."""
    gold_set, pred_set = set(gold), set(pred)
    counts = _new()
    for span in gold_set & pred_set:
        counts[span.label].tp += 1
    for span in pred_set - gold_set:
        counts[span.label].fp += 1
    for span in gold_set - pred_set:
        counts[span.label].fn += 1
    return counts


def relaxed_pairs(
    gold: Iterable[PhiSpan], pred: Iterable[PhiSpan], window: int = RELAXED_WINDOW
) -> List[Tuple[PhiSpan, PhiSpan]]:
    """One-to-one pairs with equal label and start, |end difference| <= window."""
    by_key: Dict[Tuple[str, int], List[PhiSpan]] = defaultdict(list)
    for span in sorted(set(pred)):
        by_key[(span.label, span.start)].append(span)
    pairs = []
    for g in sorted(set(gold)):
        candidates = [
            p
            for p in by_key.get((g.label, g.start), [])
            if abs(p.end - g.end) <= window
        ]
        if candidates:
            best = min(candidates, key=lambda p: (abs(p.end - g.end), p.end))
            by_key[(g.label, g.start)].remove(best)
            pairs.append((g, best))
    return pairs


def relaxed_counts(
    gold: Iterable[PhiSpan], pred: Iterable[PhiSpan], window: int = RELAXED_WINDOW
) -> LabelCounts:
    """Relaxed end boundary (see module docstring). RETURNS (LabelCounts)."""
    gold_set, pred_set = set(gold), set(pred)
    pairs = relaxed_pairs(gold_set, pred_set, window)
    matched_gold = {g for g, _ in pairs}
    matched_pred = {p for _, p in pairs}
    counts = _new()
    for g, _ in pairs:
        counts[g.label].tp += 1
    for span in pred_set - matched_pred:
        counts[span.label].fp += 1
    for span in gold_set - matched_gold:
        counts[span.label].fn += 1
    return counts


def token_label_lists(
    text: str, gold: Iterable[PhiSpan], pred: Iterable[PhiSpan]
) -> Tuple[List[Optional[str]], List[Optional[str]]]:
    """Gold and predicted label per evaluation token of `text`."""
    tokens = tokenize(text)
    return token_labels(tokens, gold), token_labels(tokens, pred)


def token_counts(
    gold_labels: List[Optional[str]], pred_labels: List[Optional[str]]
) -> LabelCounts:
    """Typed token counts from `token_label_lists`. RETURNS (LabelCounts)."""
    counts = _new()
    for g, p in zip(gold_labels, pred_labels, strict=True):
        if g is not None and g == p:
            counts[g].tp += 1
            continue
        if p is not None:
            counts[p].fp += 1
        if g is not None:
            counts[g].fn += 1
    return counts


def binary_token_counts(
    gold_labels: List[Optional[str]], pred_labels: List[Optional[str]]
) -> Counts:
    """PHI vs not PHI per token, labels ignored. RETURNS (Counts)."""
    counts = Counts()
    for g, p in zip(gold_labels, pred_labels, strict=True):
        if g is not None and p is not None:
            counts.tp += 1
        elif p is not None:
            counts.fp += 1
        elif g is not None:
            counts.fn += 1
    return counts
