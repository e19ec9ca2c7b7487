"""Approximate randomization test between two systems (as in the i2b2 challenges).

Null hypothesis: the two systems are interchangeable. Each shuffle swaps the
two systems' predictions for each note independently with probability 0.5
and recomputes the differences in micro precision, recall and F1. Each
p-value is `(c + 1) / (n + 1)`, where `c` counts shuffles whose absolute
difference is at least the observed one (Noreen 1989; Yeh 2000). As in the
i2b2 challenges, precision, recall and F1 are tested separately (the same
shuffles serve all three). Shuffles are vectorised over per-note TP/FP/FN
counts, so 9,999 shuffles take well under a second.
"""

from typing import Any, Callable, Dict, Iterable, List

import numpy

from ..core.types import Note
from .metrics import Counts
from .scoring import check_pairing, measure_counts, pair_notes

_CHUNK = 1000
STATISTICS = ("precision", "recall", "f1")


def _as_array(counts: List[Counts]) -> numpy.ndarray:
    return numpy.array([[c.tp, c.fp, c.fn] for c in counts], dtype="float64").reshape(
        -1, 3
    )


def _ratio(num: numpy.ndarray, den: numpy.ndarray) -> numpy.ndarray:
    num, den = numpy.asarray(num, dtype="float64"), numpy.asarray(den, "float64")
    return numpy.divide(num, den, out=numpy.zeros_like(num), where=den > 0)


def _precision(totals: numpy.ndarray) -> numpy.ndarray:
    return _ratio(totals[..., 0], totals[..., 0] + totals[..., 1])


def _recall(totals: numpy.ndarray) -> numpy.ndarray:
    return _ratio(totals[..., 0], totals[..., 0] + totals[..., 2])


def _f1(totals: numpy.ndarray) -> numpy.ndarray:
    tp, fp, fn = totals[..., 0], totals[..., 1], totals[..., 2]
    return _ratio(2 * tp, 2 * tp + fp + fn)


_STATISTIC: Dict[str, Callable[[numpy.ndarray], numpy.ndarray]] = {
    "precision": _precision,
    "recall": _recall,
    "f1": _f1,
}


def approximate_randomization(
    gold: Iterable[Note],
    pred_a: Iterable[Note],
    pred_b: Iterable[Note],
    n: int = 9999,
    seed: int = 0,
    measure: str = "strict",
    labels: str = "subcategory",
) -> Dict[str, Any]:
    """Test whether systems A and B differ in micro precision, recall and F1.

    gold (Iterable[Note]): Gold notes.
    pred_a (Iterable[Note]): System A's predictions.
    pred_b (Iterable[Note]): System B's predictions.
    n (int): Number of shuffles.
    seed (int): Random seed.
    measure (str): "strict", "relaxed", "token" or "binary_token".
    labels (str): "subcategory" or "category".
    RETURNS (Dict[str, Any]): `precision`, `recall` and `f1`, each
        `{"a", "b", "diff" (A - B), "p_value"}`; `shuffles`, `seed`,
        `measure`; and, for F1 as before, `f1_a`, `f1_b`, `diff`, `p_value`.
    """
    gold = list(gold)
    pairs_a, ids_a = pair_notes(gold, pred_a)
    pairs_b, ids_b = pair_notes(gold, pred_b)
    check_pairing(pairs_a, ids_a)
    check_pairing(pairs_b, ids_b)
    a = _as_array(measure_counts(pairs_a, measure, labels))
    b = _as_array(measure_counts(pairs_b, measure, labels))
    sum_a, sum_b = a.sum(0), b.sum(0)
    values = {
        name: (float(fn(sum_a)), float(fn(sum_b))) for name, fn in _STATISTIC.items()
    }
    observed = {name: abs(va - vb) for name, (va, vb) in values.items()}
    hits = dict.fromkeys(STATISTICS, 0)
    rng = numpy.random.default_rng(seed)
    delta = b - a
    done = 0
    while done < n:
        size = min(_CHUNK, n - done)
        swap = rng.random((size, len(a))) < 0.5
        tot_a = sum_a + swap @ delta
        tot_b = sum_b - swap @ delta
        for name, fn in _STATISTIC.items():
            diffs = numpy.abs(fn(tot_a) - fn(tot_b))
            hits[name] += int(numpy.sum(diffs >= observed[name] - 1e-12))
        done += size
    result: Dict[str, Any] = {"measure": measure, "shuffles": n, "seed": seed}
    for name, (va, vb) in values.items():
        result[name] = {
            "a": va,
            "b": vb,
            "diff": va - vb,
            "p_value": (hits[name] + 1) / (n + 1),
        }
    f1 = result["f1"]
    result.update(f1_a=f1["a"], f1_b=f1["b"], diff=f1["diff"], p_value=f1["p_value"])
    return result
