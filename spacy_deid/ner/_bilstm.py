"""The `bilstm` layer: a one-layer bidirectional LSTM over a `Packed` batch
(see `_with_packed`) or a `Padded` one, in numpy, with correct gradients.

thinc 8.3's CPU `LSTM` (NumpyOps.backprop_lstm) returns wrong gradients: the
weight gradient starts from a copy of the weights instead of zeros, and the
first time step of each direction gets no gate gradient (so a one-step
sequence gets no input gradient at all). This layer replaces it for training
and inference; `tests/ner/test_layers.py` checks its gradients numerically.

It computes in the packed layout (the rows still running at step t, which
are the first `size_at_t[t]` as `Padded` sorts by length), so padding costs
nothing; a `Padded` batch is packed and unpacked around it. The input
projection of all steps is one matrix product per direction; the time loop
only does the recurrent (n, h) @ (h, 4h) product. Prediction keeps no gates
or cells for backprop, projects only the distinct input rows (a token's
row depends on its text alone) and runs both directions in the same array
operations (the backward one over the sequences reversed). The recurrent
product, at about 20 rows per step in a runner batch, is most of the time.
(thinc's Cython `lstm_forward_inference`, whose forward pass is
right, took 3x as long on the shapes of the shipped `en` model;
`tests/ner/test_layers.py` checks that both give the same outputs.)
"""

from typing import Callable, Optional, Tuple, Union

import numpy as np
from thinc.api import Model, glorot_uniform_init
from thinc.types import Padded

from ._unique import distinct_rows
from ..tagging.packing import Packed, step_offsets

Cache = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
InT = Union[Padded, Packed]


def bilstm(nO: Optional[int] = None, nI: Optional[int] = None) -> Model[InT, InT]:
    """Build the layer.

    nO (Optional[int]): Output width, both directions together (even).
    nI (Optional[int]): Input width.
    RETURNS (Model[Padded, Padded]): The layer.
    """
    return Model(
        "bilstm",
        forward,
        init=init,
        dims={"nO": nO, "nI": nI},
        params={"Wx": None, "Wh": None, "b": None},
    )


def init(model: Model[InT, InT], X: Optional[InT] = None, Y=None) -> None:
    """Glorot-initialize the weights; forget-gate biases start at 1."""
    if X is not None:
        model.set_dim("nI", X.data.shape[-1])
    nH = model.get_dim("nO") // 2
    nI = model.get_dim("nI")
    Wx = np.stack([glorot_uniform_init(model.ops, (4 * nH, nI)) for _ in range(2)])
    Wh = np.stack([glorot_uniform_init(model.ops, (4 * nH, nH)) for _ in range(2)])
    b = np.zeros((2, 4 * nH), dtype="f4")
    b[:, nH : 2 * nH] = 1.0  # gate order: input, forget, output, cell
    model.set_param("Wx", model.ops.asarray3f(Wx))
    model.set_param("Wh", model.ops.asarray3f(Wh))
    model.set_param("b", model.ops.asarray2f(b))


def _halved_gates(W: np.ndarray) -> np.ndarray:
    """W (4h, ...) with the rows of the input, forget and output gates
    halved. Then sigmoid(x) = 0.5 * (1 + tanh(0.5 * x)) needs one `tanh` over
    all four gates; halving is exact in binary floating point, so the
    results are the same bits as computing 0.5 * x."""
    nH = W.shape[0] // 4
    out = W.copy()
    out[: 3 * nH] *= 0.5
    return out


def _steps(T: int, reverse: bool) -> range:
    return range(T - 1, -1, -1) if reverse else range(T)


def _pack(X: np.ndarray, size_at_t: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(T, B, F) padded -> (N, F) packed: step t's running rows, in order."""
    out = np.empty((offsets[-1], X.shape[2]), dtype="f4")
    for t, n in enumerate(size_at_t):
        out[offsets[t] : offsets[t + 1]] = X[t, :n]
    return out


def _unpack(
    X: np.ndarray, size_at_t: np.ndarray, offsets: np.ndarray, B: int
) -> np.ndarray:
    """(N, F) packed -> (T, B, F) padded with zeros."""
    out = np.zeros((len(size_at_t), B, X.shape[1]), dtype="f4")
    for t, n in enumerate(size_at_t):
        out[t, :n] = X[offsets[t] : offsets[t + 1]]
    return out


def _cell(a: np.ndarray, c: np.ndarray, h: np.ndarray) -> None:
    """One LSTM step, in place: from the pre-activations `a` (..., 4h) (the
    sigmoid gates' halved, see `_halved_gates`) to the new cells `c` and
    outputs `h` (..., h), which hold the previous cells on entry; `a` is
    left holding the gate activations (input, forget, output, cell)."""
    nH = c.shape[-1]
    np.tanh(a, out=a)
    sigmoids = a[..., : 3 * nH]
    sigmoids += 1.0
    sigmoids *= 0.5
    input_cell = a[..., :nH] * a[..., 3 * nH :]
    np.multiply(a[..., nH : 2 * nH], c, out=c)
    c += input_cell
    np.tanh(c, out=input_cell)
    np.multiply(a[..., 2 * nH : 3 * nH], input_cell, out=h)


def _run(
    proj: np.ndarray, Wh: np.ndarray, size_at_t: np.ndarray, reverse: bool
) -> Cache:
    """One direction over packed input projections (+ bias), (N, 4h), with
    the sigmoid gates' columns (and `Wh`'s rows) halved by `_halved_gates`,
    keeping what `_backprop` needs.

    RETURNS (Cache): Packed gate activations, cells and outputs, and the
        step sizes.
    """
    nH = proj.shape[1] // 4
    offsets = step_offsets(size_at_t)
    B = int(size_at_t[0]) if len(size_at_t) else 0
    H = np.empty((proj.shape[0], nH), dtype="f4")
    C = np.empty((proj.shape[0], nH), dtype="f4")
    gates = np.empty(proj.shape, dtype="f4")
    h = np.zeros((B, nH), dtype="f4")
    c = np.zeros((B, nH), dtype="f4")
    for t in _steps(len(size_at_t), reverse):
        n = size_at_t[t]
        rows = slice(offsets[t], offsets[t + 1])
        a = gates[rows]
        np.add(proj[rows], h[:n] @ Wh.T, out=a)
        _cell(a, c[:n], h[:n])
        H[rows] = h[:n]
        C[rows] = c[:n]
    return gates, C, H, size_at_t


def _reversed_rows(size_at_t: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each packed row (step t, rank r), the packed row of the same
    sequence at position length - 1 - t: the layout of the sequences
    reversed, which has the same step sizes."""
    steps = np.repeat(np.arange(len(size_at_t)), size_at_t)
    ranks = np.arange(int(offsets[-1])) - offsets[steps]
    # Rank r runs for as many steps as size_at_t (non-increasing) exceeds r.
    lengths = np.searchsorted(-np.asarray(size_at_t), -ranks, side="left")
    return offsets[lengths - 1 - steps] + ranks


def _predict(
    X: np.ndarray, Wx: np.ndarray, Wh: np.ndarray, b: np.ndarray, size_at_t: np.ndarray
) -> np.ndarray:
    """Both directions over packed inputs (N, nI), for prediction: (N, 2h).

    The backward direction runs forward over the sequences reversed, which
    have the same step sizes, so each time step does both directions' work
    in one set of array operations on (2, n, ...) arrays. Only the distinct
    input rows are projected (`_unique.distinct_rows`)."""
    nH = Wh.shape[2]
    offsets = step_offsets(size_at_t)
    N = int(offsets[-1])
    B = int(size_at_t[0]) if len(size_at_t) else 0
    distinct, index = distinct_rows(X)
    if index is None:
        index = np.arange(N)
    reverse = _reversed_rows(size_at_t, offsets)
    proj = np.concatenate(
        [distinct @ _halved_gates(Wx[d]).T + _halved_gates(b[d]) for d in range(2)]
    )
    # Each step's rows of `proj`, per direction.
    proj_rows = np.stack([index, index[reverse] + len(distinct)])
    WhT = np.stack([_halved_gates(Wh[d]).T for d in range(2)])
    H = np.empty((2, N, nH), dtype="f4")
    gates = np.empty((2, B, 4 * nH), dtype="f4")
    h = np.zeros((2, B, nH), dtype="f4")
    c = np.zeros((2, B, nH), dtype="f4")
    for t, n in enumerate(size_at_t):
        rows = slice(offsets[t], offsets[t + 1])
        a = gates[:, :n]
        np.matmul(h[:, :n], WhT, out=a)
        a += proj[proj_rows[:, rows]]
        _cell(a, c[:, :n], h[:, :n])
        H[:, rows] = h[:, :n]
    Y = np.empty((N, 2 * nH), dtype="f4")
    Y[:, :nH] = H[0]
    Y[reverse, nH:] = H[1]
    return Y


def _backprop(
    dH: np.ndarray, Wh: np.ndarray, cache: Cache, reverse: bool
) -> Tuple[np.ndarray, np.ndarray]:
    """One direction: gradients of the packed projections (N, 4h) and of Wh."""
    gates, C, H, size_at_t = cache
    T = len(size_at_t)
    nH = H.shape[1]
    offsets = step_offsets(size_at_t)
    B = int(size_at_t[0]) if T else 0
    d_proj = np.empty(gates.shape, dtype="f4")
    dWh = np.zeros(Wh.shape, dtype="f4")
    dh = np.zeros((B, nH), dtype="f4")
    dc = np.zeros((B, nH), dtype="f4")
    for t in _steps(T, not reverse):
        n = size_at_t[t]
        rows = slice(offsets[t], offsets[t + 1])
        prev = t + 1 if reverse else t - 1
        # Rows with a previous step; the others started from zero states.
        m = min(n, size_at_t[prev]) if 0 <= prev < T else 0
        a = gates[rows]
        i, f, o, g = (a[:, k * nH : (k + 1) * nH] for k in range(4))
        tanh_c = np.tanh(C[rows])
        dh_t = dh[:n] + dH[rows]
        dc_t = dc[:n] + dh_t * o * (1.0 - tanh_c**2)
        c_prev = np.zeros_like(tanh_c)
        if m:
            c_prev[:m] = C[offsets[prev] : offsets[prev] + m]
        da = d_proj[rows]
        da[:, :nH] = dc_t * g * i * (1.0 - i)
        da[:, nH : 2 * nH] = dc_t * c_prev * f * (1.0 - f)
        da[:, 2 * nH : 3 * nH] = dh_t * tanh_c * o * (1.0 - o)
        da[:, 3 * nH :] = dc_t * i * (1.0 - g**2)
        if m:
            dWh += da[:m].T @ H[offsets[prev] : offsets[prev] + m]
        # Rows that start at this step (reverse direction) are never read
        # again, so their carried gradients need no clearing.
        dh[:n] = da @ Wh
        dc[:n] = dc_t * f
    return d_proj, dWh


def forward(model: Model[InT, InT], X: InT, is_train: bool) -> Tuple[InT, Callable]:
    if isinstance(X, Packed):
        return _forward_packed(model, X, is_train)
    size_at_t = np.asarray(X.size_at_t)
    offsets = step_offsets(size_at_t)
    B = X.data.shape[1]
    Y, backprop_packed = _forward_packed(
        model, Packed(_pack(X.data, size_at_t, offsets), size_at_t), is_train
    )

    def backprop(dYp: Padded) -> Padded:
        dX = backprop_packed(Packed(_pack(dYp.data, size_at_t, offsets), size_at_t))
        dXp = _unpack(dX.data, size_at_t, offsets, B)
        return Padded(dXp, X.size_at_t, X.lengths, X.indices)

    Yp = _unpack(Y.data, size_at_t, offsets, B)
    return Padded(Yp, X.size_at_t, X.lengths, X.indices), backprop


def _forward_packed(
    model: Model[InT, InT], Xk: Packed, is_train: bool
) -> Tuple[Packed, Callable]:
    Wx, Wh, b = (model.get_param(name) for name in ("Wx", "Wh", "b"))
    X, size_at_t = Xk.data, np.asarray(Xk.size_at_t)
    if not is_train:
        return Packed(_predict(X, Wx, Wh, b, size_at_t), size_at_t), _no_backprop
    caches = []
    for d in range(2):
        proj = X @ _halved_gates(Wx[d]).T + _halved_gates(b[d])
        caches.append(_run(proj, _halved_gates(Wh[d]), size_at_t, reverse=d == 1))
    Y = Packed(np.hstack([cache[2] for cache in caches]), size_at_t)

    def backprop(dYk: Packed) -> Packed:
        nH = Wh.shape[2]
        dX = np.zeros(X.shape, dtype="f4")
        dWx, dWh, db = np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(b)
        for d in range(2):
            dH = dYk.data[:, d * nH : (d + 1) * nH]
            d_proj, dWh[d] = _backprop(dH, Wh[d], caches[d], reverse=d == 1)
            dWx[d] = d_proj.T @ X
            db[d] = d_proj.sum(axis=0)
            dX += d_proj @ Wx[d]
        model.inc_grad("Wx", dWx)
        model.inc_grad("Wh", dWh)
        model.inc_grad("b", db)
        return Packed(dX, size_at_t)

    return Y, backprop


def _no_backprop(dY: InT) -> InT:
    raise ValueError("bilstm: no backprop after a forward pass with is_train=False")
