"""Exact grouping of a 2D array's equal rows, faster than
`np.unique(X, axis=0)`, which sorts the rows as byte strings.

A batch of notes has several times fewer distinct token rows than tokens
(feature ids, or the BiLSTM's input vectors, which depend on a token's text
alone), so prediction computes per distinct row. The rows are grouped by one
random float64 projection each (a sort of N floats), and the grouping is then
checked exactly against the rows themselves.
"""

from typing import Optional, Tuple

import numpy as np


def distinct_rows(X: np.ndarray) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """The distinct rows of X and each row's index among them, such that
    `distinct[index]` equals X; or X and None where the projection merged
    different rows (vanishingly unlikely) or X has fewer than two rows.

    X (ndarray): (N, F) numbers.
    RETURNS (Tuple[ndarray, Optional[ndarray]]): The distinct rows (in no
        particular order) and the (N,) index, or X and None.
    """
    if len(X) < 2:
        return X, None
    direction = np.random.default_rng(X.shape[1]).standard_normal(X.shape[1])
    keys = X.astype("f8") @ direction
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    distinct = X[first]
    if not np.array_equal(distinct[index], X):
        return X, None
    return distinct, index.reshape(-1)
