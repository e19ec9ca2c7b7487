"""The `with_packed` layer: run a sequence layer (`_bilstm.bilstm`) over a
list of sequences in the time-major packed layout it computes in, with no
padded (T, B, F) copy.

thinc's `with_padded` pads the batch to (longest, n_docs, width) before the
layer packs it again, so its memory grows with n_docs * longest: a batch had
to be cut into groups of similar length, and each group paid the LSTM's
per-step cost on few rows. Here the memory grows with the number of tokens,
so a whole batch runs as one group, with as many rows per step as docs are
still running. `Packed` is that layout: sequences sorted by decreasing
length, step t's rows (`size_at_t[t]` of them) stored one after another.
The outputs are the same as through `with_padded`.
"""

from typing import Callable, List, NamedTuple, Tuple

import numpy as np
from thinc.api import Model
from thinc.types import Floats2d

InT = List[Floats2d]


class Packed(NamedTuple):
    """Sequences packed time-major: (N, F) data and the rows per step."""

    data: np.ndarray
    size_at_t: np.ndarray


class Packing(NamedTuple):
    """Where each sequence's rows are in a `Packed` array."""

    order: np.ndarray  # sequence indices by decreasing length
    size_at_t: np.ndarray
    offsets: np.ndarray  # start of each step's rows, plus the total

    def rows(self, rank: int, length: int) -> np.ndarray:
        """Packed rows of the sequence of the given rank in `order`."""
        return self.offsets[:length] + rank


def with_packed(layer: Model[Packed, Packed]) -> Model[InT, InT]:
    """Wrap a layer of `Packed` input and output.

    layer (Model[Packed, Packed]): E.g. `bilstm`.
    RETURNS (Model[List[Floats2d], List[Floats2d]]): The wrapper, with the
        layer's dims (as `with_padded`, so models saved with it load).
    """
    return Model(
        f"with_packed({layer.name})",
        forward,
        init=init,
        layers=[layer],
        dims={name: layer.maybe_get_dim(name) for name in layer.dim_names},
    )


def init(model: Model[InT, InT], X=None, Y=None) -> None:
    model.layers[0].initialize(X=pack(X, packing(X)) if X else None)


def step_offsets(size_at_t: np.ndarray) -> np.ndarray:
    """Start of each time step's rows in a packed array, plus the total."""
    return np.concatenate([[0], np.cumsum(size_at_t)]).astype("i8")


def packing(Xs: InT) -> Packing:
    """The packed layout of sequences of these lengths."""
    lengths = np.asarray([len(X) for X in Xs], dtype="i8")
    order = np.argsort(-lengths, kind="stable")
    T = int(lengths.max()) if len(lengths) else 0
    size_at_t = (lengths[:, None] > np.arange(T)[None, :]).sum(axis=0)
    return Packing(order, size_at_t, step_offsets(size_at_t))


def pack(Xs: InT, layout: Packing, dtype: str = "f4") -> Packed:
    """The sequences in the packed layout."""
    width = Xs[0].shape[1] if Xs else 0
    data = np.empty((int(layout.offsets[-1]), width), dtype=dtype)
    for rank, i in enumerate(layout.order):
        data[layout.rows(rank, len(Xs[i]))] = Xs[i]
    return Packed(data, layout.size_at_t)


def unpack(data: np.ndarray, lengths: List[int], layout: Packing) -> InT:
    """Each sequence's rows of a packed (N, F) array, in input order."""
    out: InT = [data[:0]] * len(lengths)
    for rank, i in enumerate(layout.order):
        out[i] = data[layout.rows(rank, lengths[i])]
    return out


def forward(model: Model[InT, InT], Xs: InT, is_train: bool) -> Tuple[InT, Callable]:
    if not Xs:
        return [], lambda dYs: []
    lengths = [len(X) for X in Xs]
    layout = packing(Xs)
    Y, backprop_layer = model.layers[0](pack(Xs, layout), is_train)

    def backprop(dYs: InT) -> InT:
        dX = backprop_layer(pack(dYs, layout))
        return unpack(dX.data, lengths, layout)

    return unpack(Y.data, lengths, layout), backprop
