"""Vectorised log-gamma, digamma and trigamma for positive float64 arrays.

The variational updates need them and the package depends on numpy alone (no
scipy): the argument is shifted up to at least `_SHIFT` with the recurrences
Γ(x + 1) = x Γ(x), ψ(x + 1) = ψ(x) + 1/x, ψ'(x + 1) = ψ'(x) - 1/x², then the
asymptotic (Stirling) series is used; the error is below 1e-12 there.
"""

import math

import numpy as np

_SHIFT = 10.0
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _shifted(x: np.ndarray) -> np.ndarray:
    """RETURNS (ndarray): How many unit steps take each x to >= _SHIFT."""
    return np.maximum(np.ceil(_SHIFT - x), 0.0)


def gammaln(x: np.ndarray) -> np.ndarray:
    """log Γ(x), elementwise.

    x (ndarray): Positive values.
    RETURNS (ndarray): log Γ(x) (float64).
    """
    x = np.asarray(x, dtype="f8")
    n = _shifted(x)
    # log Γ(x) = log Γ(x + n) - log(x (x + 1) ... (x + n - 1))
    acc = np.zeros_like(x)
    y = x.copy()
    for _ in range(int(n.max(initial=0.0))):
        small = y < _SHIFT
        acc -= np.where(small, np.log(np.where(small, y, 1.0)), 0.0)
        y = np.where(small, y + 1.0, y)
    inv = 1.0 / y
    inv2 = inv * inv
    series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)))
    return acc + (y - 0.5) * np.log(y) - y + _HALF_LOG_2PI + series


def digamma(x: np.ndarray) -> np.ndarray:
    """ψ(x) = d log Γ(x) / dx, elementwise.

    x (ndarray): Positive values.
    RETURNS (ndarray): ψ(x) (float64).
    """
    x = np.asarray(x, dtype="f8")
    acc = np.zeros_like(x)
    y = x.copy()
    for _ in range(int(_shifted(x).max(initial=0.0))):
        small = y < _SHIFT
        acc -= np.where(small, 1.0 / np.where(small, y, 1.0), 0.0)
        y = np.where(small, y + 1.0, y)
    inv2 = 1.0 / (y * y)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 / 240)))
    return acc + np.log(y) - 0.5 / y - series


def trigamma(x: np.ndarray) -> np.ndarray:
    """ψ'(x), elementwise.

    x (ndarray): Positive values.
    RETURNS (ndarray): ψ'(x) (float64).
    """
    x = np.asarray(x, dtype="f8")
    acc = np.zeros_like(x)
    y = x.copy()
    for _ in range(int(_shifted(x).max(initial=0.0))):
        small = y < _SHIFT
        acc += np.where(small, 1.0 / np.where(small, y * y, 1.0), 0.0)
        y = np.where(small, y + 1.0, y)
    inv = 1.0 / y
    inv2 = inv * inv
    series = inv + inv2 / 2 + inv2 * inv * (1 / 6 - inv2 * (1 / 30 - inv2 / 42))
    return acc + series
