"""Exact MAP decoding of the skip-chain clique: a fully connected Potts model.

The occurrences of one word type form a clique; node i has unary scores
`u[i, y]` over the clique's labels and every pair gains the same weight
`w >= 0` when its two labels agree. The score of a labelling y is

    S(y) = sum_i u[i, y_i] + w * sum_{i<j} [y_i == y_j]
         = sum_i u[i, y_i] + w/2 * sum_y n_y^2 - w*n/2

where n_y counts the nodes labelled y: with every pair connected by the same
weight, the pairwise part depends on the label counts only.

Why enumerating counts is exact: w/2 * n^2 = max_t (w*t*n - w/2 * t^2), so
max_y S(y) = max_t max_y sum_i (u[i, y_i] + w * t_{y_i}) - w/2 * |t|^2 + c,
and for fixed offsets t the inner max is separable (each node takes its own
argmax of u[i, y] + w * t_y). At t* = n(y*) the MAP labelling y* is such a
per-node argmax, and any labelling y' that is a per-node argmax under t*
scores S(y') >= S(y*) (ties included). So the MAP is among the labellings
`y(n) = argmax_y u[i, y] + w * n_y` over all count vectors n summing to the
clique size: C(n + K - 1, K - 1) candidates for K labels (n + 1 for "O" and
one PHI label), each O(n K). Beyond `max_candidates` count vectors the
decoder iterates t <- n(y(t)) from every "all one label" start and from the
unary argmax (block coordinate ascent on the bound above: S never
decreases), which is approximate and marked so.
"""

import itertools
from typing import Iterator, Tuple

import numpy as np


def clique_score(unary: np.ndarray, weight: float, labels: np.ndarray) -> float:
    """S(y) of a labelling of one clique.

    unary (ndarray): (n, K) unary scores.
    weight (float): The agreement weight of each pair.
    labels (ndarray): (n,) label indices.
    RETURNS (float): The score.
    """
    n = len(labels)
    counts = np.bincount(labels, minlength=unary.shape[1])
    pairs = float((counts * (counts - 1)).sum()) / 2.0
    return float(unary[np.arange(n), labels].sum()) + weight * pairs


def count_vectors(n: int, k: int) -> Iterator[Tuple[int, ...]]:
    """Every vector of k non-negative counts summing to n.

    n (int): The clique size.
    k (int): The number of labels.
    YIELDS (Tuple[int, ...]): A count vector.
    """
    for cuts in itertools.combinations(range(n + k - 1), k - 1):
        bounds = (-1,) + cuts + (n + k - 1,)
        yield tuple(b - a - 1 for a, b in zip(bounds, bounds[1:], strict=False))


def n_count_vectors(n: int, k: int) -> int:
    """RETURNS (int): C(n + k - 1, k - 1), the number of count vectors."""
    from math import comb

    return comb(n + k - 1, k - 1)


def decode_clique(
    unary: np.ndarray, weight: float, *, max_candidates: int = 20000
) -> Tuple[np.ndarray, bool]:
    """The MAP labelling of one clique (see the module docstring).

    unary (ndarray): (n, K) unary scores, n >= 1, K >= 1.
    weight (float): The agreement weight of each pair (>= 0).
    max_candidates (int): Most count vectors tried for the exact search.
    RETURNS (Tuple[ndarray, bool]): (n,) label indices and whether the
        result is exact. Ties go to the lower label index.
    """
    n, k = unary.shape
    if k == 1 or n == 1 or weight == 0.0:
        return unary.argmax(axis=1), True
    if n_count_vectors(n, k) <= max_candidates:
        offsets = np.array(list(count_vectors(n, k)), dtype="f8")
        return _best_of(unary, weight, offsets), True
    return _ascent(unary, weight), False


def _best_of(unary: np.ndarray, weight: float, offsets: np.ndarray) -> np.ndarray:
    """The best per-node argmax labelling over rows of count offsets."""
    best, best_score = None, -np.inf
    # Chunks keep the (chunk, n, K) array small.
    for a in range(0, len(offsets), 512):
        t = offsets[a : a + 512]
        labels = (unary[None, :, :] + weight * t[:, None, :]).argmax(axis=2)
        for row in labels:
            score = clique_score(unary, weight, row)
            if score > best_score + 1e-12:
                best, best_score = row, score
    assert best is not None
    return best


def _ascent(unary: np.ndarray, weight: float) -> np.ndarray:
    """Block coordinate ascent t <- n(y(t)) from several starts (approximate)."""
    n, k = unary.shape
    starts = [np.full(n, y) for y in range(k)] + [unary.argmax(axis=1)]
    best, best_score = None, -np.inf
    for labels in starts:
        for _ in range(100):
            counts = np.bincount(labels, minlength=k)
            new = (unary + weight * counts[None, :]).argmax(axis=1)
            if np.array_equal(new, labels):
                break
            labels = new
        score = clique_score(unary, weight, labels)
        if score > best_score + 1e-12:
            best, best_score = labels, score
    assert best is not None
    return best


def brute_force(unary: np.ndarray, weight: float) -> Tuple[np.ndarray, float]:
    """The MAP by trying all K^n labellings (for tests on small cliques).

    unary (ndarray): (n, K) unary scores.
    weight (float): The agreement weight.
    RETURNS (Tuple[ndarray, float]): A best labelling and its score.
    """
    n, k = unary.shape
    best, best_score = None, -np.inf
    for labels in itertools.product(range(k), repeat=n):
        row = np.array(labels)
        score = clique_score(unary, weight, row)
        if score > best_score + 1e-12:
            best, best_score = row, score
    assert best is not None
    return best, best_score
