"""Error taxonomy: where predictions and gold spans disagree, and how.

For each note, every (gold, predicted) pair of overlapping spans is looked at:
- `exact`: same offsets and label (correct);
- `type`: overlapping, different label (also in the confusion matrix, which
  holds every overlapping pair, the diagonal included);
- `short` / `long` / `short_long`: same label, different boundaries; the
  prediction lies inside the gold span (short), covers it (long), or sticks
  out on one side and falls short on the other (short_long).
Then `spurious`: a prediction that overlaps no gold span (by predicted
label), and `missing`: a gold span that no prediction overlaps (by gold
label). Type and extent errors are counted under the gold label.
"""

from collections import defaultdict
from typing import Any, Dict, Iterable, List, Tuple

from ..core.types import PhiSpan

KINDS = ("exact", "type", "short", "long", "short_long", "spurious", "missing")


def extent_kind(gold: PhiSpan, pred: PhiSpan) -> str:
    """Classify overlapping same-label spans: exact, short, long or short_long."""
    if (gold.start, gold.end) == (pred.start, pred.end):
        return "exact"
    if pred.start >= gold.start and pred.end <= gold.end:
        return "short"
    if pred.start <= gold.start and pred.end >= gold.end:
        return "long"
    return "short_long"


def _overlapping(
    gold: List[PhiSpan], pred: List[PhiSpan]
) -> List[Tuple[PhiSpan, PhiSpan]]:
    pairs = []
    for g in gold:
        for p in pred:
            if p.start >= g.end:
                break
            if p.end > g.start:
                pairs.append((g, p))
    return pairs


class Taxonomy:
    """Accumulates error counts over notes."""

    def __init__(self) -> None:
        self.per_label: Dict[str, Dict[str, int]] = defaultdict(
            lambda: dict.fromkeys(KINDS, 0)
        )
        self.confusion: Dict[str, Dict[str, int]] = defaultdict(
            lambda: defaultdict(int)
        )

    def add(self, gold: Iterable[PhiSpan], pred: Iterable[PhiSpan]) -> None:
        """Count the errors of one note (spans are de-duplicated)."""
        gold_list, pred_list = sorted(set(gold)), sorted(set(pred))
        pairs = _overlapping(gold_list, pred_list)
        for g, p in pairs:
            self.confusion[g.label][p.label] += 1
            kind = extent_kind(g, p) if g.label == p.label else "type"
            self.per_label[g.label][kind] += 1
        touched_gold = {g for g, _ in pairs}
        touched_pred = {p for _, p in pairs}
        for g in gold_list:
            if g not in touched_gold:
                self.per_label[g.label]["missing"] += 1
        for p in pred_list:
            if p not in touched_pred:
                self.per_label[p.label]["spurious"] += 1

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (dict): `totals`, `per_label` and `confusion` (gold x pred)."""
        totals = dict.fromkeys(KINDS, 0)
        for counts in self.per_label.values():
            for kind, n in counts.items():
                totals[kind] += n
        return {
            "totals": totals,
            "per_label": {k: dict(v) for k, v in sorted(self.per_label.items())},
            "confusion": {
                g: dict(sorted(row.items()))
                for g, row in sorted(self.confusion.items())
            },
        }


def error_taxonomy(
    pairs: Iterable[Tuple[Iterable[PhiSpan], Iterable[PhiSpan]]],
) -> Dict[str, Any]:
    """Error taxonomy over (gold spans, predicted spans) pairs, one per note.

    RETURNS (dict): See `Taxonomy.to_dict`.
    """
    taxonomy = Taxonomy()
    for gold, pred in pairs:
        taxonomy.add(gold, pred)
    return taxonomy.to_dict()
