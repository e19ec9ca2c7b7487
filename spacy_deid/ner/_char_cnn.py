"""The `char_cnn` layer: a ReLU convolution over the time axis of a `Padded`
batch (zero padding at both ends, "same" length). An alternative to the
character BiLSTM in `char_encoder`.
"""

from typing import Callable, Optional, Tuple

import numpy as np
from thinc.api import Model, glorot_uniform_init
from thinc.types import Padded


def char_cnn(
    nO: Optional[int] = None, nI: Optional[int] = None, window: int = 1
) -> Model[Padded, Padded]:
    """Build the layer.

    nO (Optional[int]): Number of filters.
    nI (Optional[int]): Input width.
    window (int): Steps on each side (the kernel spans 2 * window + 1).
    RETURNS (Model[Padded, Padded]): The layer.
    """
    return Model(
        "char_cnn",
        forward,
        init=init,
        dims={"nO": nO, "nI": nI},
        attrs={"window": window},
        params={"W": None, "b": None},
    )


def init(model: Model[Padded, Padded], X=None, Y=None) -> None:
    """Glorot-initialize the filters (nI from X if given)."""
    if X is not None:
        model.set_dim("nI", X.data.shape[2])
    span = 2 * model.attrs["window"] + 1
    shape = (model.get_dim("nO"), model.get_dim("nI") * span)
    model.set_param("W", glorot_uniform_init(model.ops, shape))
    model.set_param("b", model.ops.alloc1f(model.get_dim("nO")))


def _windows(X: np.ndarray, window: int) -> np.ndarray:
    """Concatenate each step with its neighbours: (T, B, nI) -> (T, B, k * nI)."""
    T = X.shape[0]
    padded = np.pad(X, ((window, window), (0, 0), (0, 0)))
    return np.concatenate([padded[i : i + T] for i in range(2 * window + 1)], axis=2)


def forward(
    model: Model[Padded, Padded], Xp: Padded, is_train: bool
) -> Tuple[Padded, Callable]:
    window = model.attrs["window"]
    W = model.get_param("W")
    T, B, nI = Xp.data.shape
    cols = _windows(Xp.data, window).reshape(T * B, -1)
    Y = model.ops.gemm(cols, W, trans2=True) + model.get_param("b")
    Y = np.maximum(Y, 0.0)

    def backprop(dYp: Padded) -> Padded:
        dY = dYp.data.reshape(T * B, -1) * (Y > 0)
        model.inc_grad("W", model.ops.gemm(dY, cols, trans1=True))
        model.inc_grad("b", dY.sum(axis=0))
        d_cols = model.ops.gemm(dY, W).reshape(T, B, -1, nI)
        dX = np.zeros((T + 2 * window, B, nI), dtype=d_cols.dtype)
        for i in range(2 * window + 1):
            dX[i : i + T] += d_cols[:, :, i]
        return Padded(dX[window : window + T], Xp.size_at_t, Xp.lengths, Xp.indices)

    out = Padded(Y.reshape(T, B, -1), Xp.size_at_t, Xp.lengths, Xp.indices)
    return out, backprop
