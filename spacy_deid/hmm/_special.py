"""Vectorised log-gamma, digamma and trigamma for positive float64 arrays.

The variational updates need them and the package depends on numpy alone (no
scipy): the argument is shifted up to at least `_SHIFT` with the recurrences
Γ(x + 1) = x Γ(x), ψ(x + 1) = ψ(x) + 1/x, ψ'(x + 1) = ψ'(x) - 1/x², then the
asymptotic (Stirling) series is used; the error is below 1e-12 there.
"""

import math
from typing import Callable, Tuple

import numpy as np

_SHIFT = 10.0
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _shift_up(
    x: np.ndarray, term: Callable[[np.ndarray], np.ndarray]
) -> Tuple[np.ndarray, np.ndarray]:
    """Step each x below _SHIFT up by 1 until it is not, summing term(y)
    over the values y it passes: the recurrence's correction and the shifted
    argument. Only the values still below _SHIFT are worked on (the
    emission posteriors are millions of small values).

    x (ndarray): Positive values.
    term (Callable[[ndarray], ndarray]): The correction of one step.
    RETURNS (Tuple[ndarray, ndarray]): The sums and the shifted values
        (float64, the shape of x).
    """
    flat = np.array(x, dtype="f8").ravel()
    acc = np.zeros_like(flat)
    pos = np.flatnonzero(flat < _SHIFT)
    y, part = flat[pos], np.zeros(len(pos))
    while len(pos):
        part += term(y)
        y += 1.0
        done = y >= _SHIFT
        if done.any():
            acc[pos[done]], flat[pos[done]] = part[done], y[done]
            keep = ~done
            pos, y, part = pos[keep], y[keep], part[keep]
    shape = np.shape(x)
    return acc.reshape(shape), flat.reshape(shape)


def gammaln(x: np.ndarray) -> np.ndarray:
    """log Γ(x), elementwise.

    x (ndarray): Positive values.
    RETURNS (ndarray): log Γ(x) (float64).
    """
    # log Γ(x) = log Γ(x + n) - log(x (x + 1) ... (x + n - 1))
    acc, y = _shift_up(x, lambda y: -np.log(y))
    inv = 1.0 / y
    inv2 = inv * inv
    series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)))
    return acc + (y - 0.5) * np.log(y) - y + _HALF_LOG_2PI + series


def digamma(x: np.ndarray) -> np.ndarray:
    """ψ(x) = d log Γ(x) / dx, elementwise.

    x (ndarray): Positive values.
    RETURNS (ndarray): ψ(x) (float64).
    """
    acc, y = _shift_up(x, lambda y: -1.0 / y)
    inv2 = 1.0 / (y * y)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 / 240)))
    return acc + np.log(y) - 0.5 / y - series


def trigamma(x: np.ndarray) -> np.ndarray:
    """ψ'(x), elementwise.

    x (ndarray): Positive values.
    RETURNS (ndarray): ψ'(x) (float64).
    """
    acc, y = _shift_up(x, lambda y: 1.0 / (y * y))
    inv = 1.0 / y
    inv2 = inv * inv
    series = inv + inv2 / 2 + inv2 * inv * (1 / 6 - inv2 * (1 / 30 - inv2 / 42))
    return acc + series
