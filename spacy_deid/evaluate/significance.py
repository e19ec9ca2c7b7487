"""Approximate randomization test between two systems (as in the i2b2 challenges).

Null hypothesis: the two systems are interchangeable. Each shuffle swaps the
two systems' predictions for each note independently with probability 0.5
and recomputes the difference in micro F1. The p-value is
`(c + 1) / (n + 1)`, where `c` counts shuffles whose absolute difference is
at least the observed one (Noreen 1989; Yeh 2000). Shuffles are vectorised
over per-note TP/FP/FN counts, so 9,999 shuffles take well under a second.
"""

from typing import Any, Dict, Iterable, List

import numpy

from ..corpus.types import Note
from .metrics import Counts
from .scoring import measure_counts, pair_notes

_CHUNK = 1000


def _as_array(counts: List[Counts]) -> numpy.ndarray:
    return numpy.array([[c.tp, c.fp, c.fn] for c in counts], dtype="float64").reshape(
        -1, 3
    )


def _f1(totals: numpy.ndarray) -> numpy.ndarray:
    tp, fp, fn = totals[..., 0], totals[..., 1], totals[..., 2]
    den = 2 * tp + fp + fn
    return numpy.divide(2 * tp, den, out=numpy.zeros_like(tp), where=den > 0)


def approximate_randomization(
    gold: Iterable[Note],
    pred_a: Iterable[Note],
    pred_b: Iterable[Note],
    n: int = 9999,
    seed: int = 0,
    measure: str = "strict",
    labels: str = "subcategory",
) -> Dict[str, Any]:
    """Test whether systems A and B differ in micro F1 on the same gold notes.

    gold (Iterable[Note]): Gold notes.
    pred_a (Iterable[Note]): System A's predictions.
    pred_b (Iterable[Note]): System B's predictions.
    n (int): Number of shuffles.
    seed (int): Random seed.
    measure (str): "strict", "relaxed", "token" or "binary_token".
    labels (str): "subcategory" or "category".
    RETURNS (Dict[str, Any]): f1_a, f1_b, diff (A - B), p_value, shuffles,
        seed, measure.
    """
    gold = list(gold)
    pairs_a, _ = pair_notes(gold, pred_a)
    pairs_b, _ = pair_notes(gold, pred_b)
    a = _as_array(measure_counts(pairs_a, measure, labels))
    b = _as_array(measure_counts(pairs_b, measure, labels))
    f1_a, f1_b = float(_f1(a.sum(0))), float(_f1(b.sum(0)))
    observed = abs(f1_a - f1_b)
    rng = numpy.random.default_rng(seed)
    delta = b - a
    hits = 0
    done = 0
    while done < n:
        size = min(_CHUNK, n - done)
        swap = rng.random((size, len(a))) < 0.5
        tot_a = a.sum(0) + swap @ delta
        tot_b = b.sum(0) - swap @ delta
        diffs = numpy.abs(_f1(tot_a) - _f1(tot_b))
        hits += int(numpy.sum(diffs >= observed - 1e-12))
        done += size
    return {
        "measure": measure,
        "f1_a": f1_a,
        "f1_b": f1_b,
        "diff": f1_a - f1_b,
        "p_value": (hits + 1) / (n + 1),
        "shuffles": n,
        "seed": seed,
    }
