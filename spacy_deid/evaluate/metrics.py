"""Counts and precision/recall/F1, micro and macro (as the i2b2 2014 script).

As in the i2b2 2014 script (Stubbs, Kotfila & Uzuner 2015), a ratio with a
zero denominator is 0.0, macro precision and recall are the means of the
per-note values, and macro F1 is the F1 of macro precision and macro recall.
"""

from dataclasses import dataclass
from typing import Dict, Iterable, List


@dataclass
class Counts:
    """True positives, false positives and false negatives."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __iadd__(self, other: "Counts") -> "Counts":
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        return self

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)

    def to_dict(self) -> Dict[str, float]:
        """RETURNS (dict): precision, recall, f1, tp, fp, fn, support (= tp + fn)."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "support": self.tp + self.fn,
        }


def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


def f1(precision: float, recall: float) -> float:
    """Harmonic mean, 0.0 when both are 0."""
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


def total(counts: Iterable[Counts]) -> Counts:
    """Sum of counts."""
    result = Counts()
    for c in counts:
        result += c
    return result


def micro(per_note: List[Counts]) -> Dict[str, float]:
    """Pooled precision/recall/F1 over notes."""
    return total(per_note).to_dict()


def macro(per_note: List[Counts]) -> Dict[str, float]:
    """Per-note precision and recall averaged over notes; F1 of the averages."""
    if not per_note:
        return {"precision": 0.0, "recall": 0.0, "f1": 0.0, "notes": 0}
    p = sum(c.precision for c in per_note) / len(per_note)
    r = sum(c.recall for c in per_note) / len(per_note)
    return {"precision": p, "recall": r, "f1": f1(p, r), "notes": len(per_note)}
