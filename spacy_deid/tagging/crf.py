"""Linear-chain CRF over BILUO tags in numpy: loss, gradients and decoding.

Tag layout (fixed, so the legal-transition mask follows from the number of
labels alone): index 0 is "O", then "B-X", "I-X", "L-X", "U-X" for each label
X in order, so K = 1 + 4 * n_labels.

Scores: emissions E (B, T, K) padded, `lengths` (B,), transitions T (K, K),
start and end vectors s, e (K,). The score of a path is
`sum_i E[i, y_i] + sum_i T[y_i, y_i+1] + s[y_0] + e[y_n-1]`. Illegal BILUO
transitions (and illegal first and last tags) get `IMPOSSIBLE` added.

The forward-backward passes run in exp space with per-step scaling (Rabiner),
so each step is one (n, K) @ (K, K) product and illegal entries are exact
zeros; the summed pairwise marginals are one more matrix product. The start and
end vectors and masks are folded into the first and last emission of each
sequence. Rows are sorted by length so that step t only touches the rows that
are still running. The partial CRF (missing gold tags allow any tag) is
`loss = logZ - logZ_gold`, where `logZ_gold` sums only over paths that agree
with the known tags; with all tags known it is the usual negative
log-likelihood.

`softmax_loss` and `constraint_params` serve the "no CRF" ablation: per-token
cross-entropy for training, and Viterbi over log-softmax emissions with the
BILUO constraints alone for decoding.
"""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .packing import Packing, pack, packing, unpack

IMPOSSIBLE = -1e4
"""Score added to illegal transitions (finite, so no inf - inf = NaN)."""
_MIN_LOG = -500.0
"""Shifted emission scores are clipped here before `exp`, so a row never
underflows to all zeros unless its constraints leave no path."""
_MIN_LOG_F4 = -80.0
"""`_MIN_LOG` in float32, whose exp stays a normal number."""
PREFIXES = ("B", "I", "L", "U")


def biluo_tag_names(labels: Sequence[str]) -> List[str]:
    """Return the tag names in CRF order: "O", then B/I/L/U per label.

    labels (Sequence[str]): The entity labels.
    RETURNS (List[str]): 1 + 4 * len(labels) tag names.
    """
    return ["O"] + [f"{p}-{label}" for label in labels for p in PREFIXES]


class BiluoLabels:
    """The label properties of a BILUO tagging component whose labels are
    `cfg["labels"]` (`phi_ner`, `phi_crf`)."""

    cfg: Dict[str, Any]

    @property
    def labels(self) -> Tuple[str, ...]:
        """RETURNS (Tuple[str, ...]): The entity labels."""
        return tuple(self.cfg["labels"])

    @property
    def label_data(self) -> List[str]:
        """RETURNS (List[str]): The labels, for `spacy init labels`."""
        return list(self.labels)

    @property
    def tag_names(self) -> List[str]:
        """RETURNS (List[str]): The BILUO tags in model order ("O" first)."""
        return biluo_tag_names(self.labels)


def n_labels_for(n_tags: int) -> int:
    """Return the number of labels for a number of BILUO tags.

    n_tags (int): K, the number of tags.
    RETURNS (int): (K - 1) / 4.
    """
    if n_tags < 1 or (n_tags - 1) % 4:
        raise ValueError(f"{n_tags} is not a BILUO tag count (1 + 4 * n_labels)")
    return (n_tags - 1) // 4


def _tag_kinds(n_tags: int) -> Tuple[np.ndarray, np.ndarray]:
    """Return each tag's prefix ("O", "B", ...) and label index (-1 for O)."""
    n = n_labels_for(n_tags)
    prefix = np.array(["O"] + list(PREFIXES) * n)
    label = np.array([-1] + [i for i in range(n) for _ in PREFIXES])
    return prefix, label


def legal_transitions(n_tags: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the legal BILUO transitions, first tags and last tags.

    After "B-X" or "I-X" only "I-X" or "L-X" may follow; after "O", "L-*",
    "U-*" (and at the start) only "O", "B-*", "U-*"; a sequence may end only
    in "O", "L-*" or "U-*".

    n_tags (int): K, the number of tags.
    RETURNS (Tuple[ndarray, ndarray, ndarray]): Booleans (K, K), (K,), (K,).
    """
    prefix, label = _tag_kinds(n_tags)
    opens = np.isin(prefix, ("B", "I"))
    inside = np.isin(prefix, ("I", "L"))
    same = label[:, None] == label[None, :]
    trans = np.where(opens[:, None], inside[None, :] & same, ~inside[None, :])
    return trans, ~inside, ~opens


@dataclass
class CRFParams:
    """Transition scores and the constraint masks (IMPOSSIBLE or 0) added
    to them."""

    transitions: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @classmethod
    def constrained(
        cls, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
    ) -> "CRFParams":
        """Add the BILUO constraint masks to learned scores.

        transitions (ndarray): Learned (K, K) scores.
        start (ndarray): Learned (K,) start scores.
        end (ndarray): Learned (K,) end scores.
        RETURNS (CRFParams): The constrained scores (float64).
        """
        legal, first, last = legal_transitions(transitions.shape[0])
        return cls(
            np.where(legal, transitions, transitions + IMPOSSIBLE).astype("f8"),
            np.where(first, start, start + IMPOSSIBLE).astype("f8"),
            np.where(last, end, end + IMPOSSIBLE).astype("f8"),
        )


@dataclass
class CRFGrads:
    """Loss per sequence and gradients of the summed loss."""

    loss: np.ndarray
    d_emissions: np.ndarray
    d_transitions: np.ndarray
    d_start: np.ndarray
    d_end: np.ndarray
    feasible: np.ndarray


class _Batch:
    """Emissions with the start/end scores folded in, rows sorted by length."""

    def __init__(self, emissions: np.ndarray, lengths: np.ndarray, params: CRFParams):
        lengths = np.asarray(lengths, dtype="i8")
        self.order = np.argsort(-lengths, kind="stable")
        self.lengths = lengths[self.order]
        B, T, K = emissions.shape
        self.width = T
        self.T = int(self.lengths.max()) if B else 0
        self.E = np.zeros((self.T, B, K), dtype="f8")
        for row, src in enumerate(self.order):
            self.E[: self.lengths[row], row] = emissions[src, : self.lengths[row]]
        # n_at[t]: number of (sorted) rows still running at step t; the rows
        # n_at[t + 1]:n_at[t] end at step t.
        steps = np.arange(self.T + 1)
        self.n_at = (self.lengths[None, :] > steps[:, None]).sum(axis=1)
        self.last = (self.lengths - 1, np.arange(B))
        _, self.first_ok, self.last_ok = legal_transitions(K)
        if B:
            self.E[0] += params.start
            self.E[self.last] += params.end

    def unsort(self, X: np.ndarray) -> np.ndarray:
        """(T, B, ...) in sorted order -> (B, width, ...) in input order."""
        out = np.zeros((X.shape[1], self.width) + X.shape[2:], dtype=X.dtype)
        out[self.order, : X.shape[0]] = X.swapaxes(0, 1)
        return out

    def sort(self, X: np.ndarray, pad: int = 0) -> np.ndarray:
        """(B, T', ...) in input order -> (T, B, ...) in sorted order."""
        X = X[self.order, : self.T].swapaxes(0, 1)
        if X.shape[0] < self.T:
            widths = [(0, self.T - X.shape[0])] + [(0, 0)] * (X.ndim - 1)
            X = np.pad(X, widths, constant_values=pad)
        return X

    def potentials(
        self, allowed: Optional[np.ndarray]
    ) -> Tuple[np.ndarray, np.ndarray]:
        """exp(E - shift) at every step of the running rows, zero where a tag
        is not allowed (by `allowed` or as a first or last tag) and on
        padding, and the shifts (zero on padding).

        allowed (Optional[ndarray]): Boolean (T, B, K) or None.
        RETURNS (Tuple[ndarray, ndarray]): (T, B, K) potentials and (T, B)
            shifts.
        """
        T, B, K = self.E.shape
        running = np.arange(T)[:, None] < self.lengths[None, :]
        ok = np.broadcast_to(running[:, :, None], (T, B, K)).copy()
        if allowed is not None:
            ok &= allowed
        if T:
            ok[0] &= self.first_ok
            ok[self.last] &= self.last_ok
        phi = np.where(ok, self.E, -np.inf)
        shift = phi.max(axis=2)
        shift[~np.isfinite(shift)] = 0.0
        # In place: exp(max(E - shift, _MIN_LOG)), zero where not ok.
        phi -= shift[:, :, None]
        np.maximum(phi, _MIN_LOG, out=phi)
        np.exp(phi, out=phi)
        phi *= ok
        return phi, shift


@dataclass
class _Pass:
    """Scaled forward-backward results for one set of allowed tags."""

    log_z: np.ndarray
    marginals: np.ndarray
    pair_sums: np.ndarray
    feasible: np.ndarray


def _forward_backward(
    batch: _Batch,
    exp_trans: np.ndarray,
    allowed: Optional[np.ndarray],
) -> _Pass:
    """Run the scaled forward-backward pass.

    batch (_Batch): The sorted batch.
    exp_trans (ndarray): exp of the constrained transitions (K, K).
    allowed (Optional[ndarray]): Boolean (T, B, K) of allowed tags, or None.
    RETURNS (_Pass): logZ per sorted row, unary marginals (T, B, K), summed
        pairwise marginals (K, K) and which rows have any allowed path.
    """
    shape = batch.E.shape
    phi, shift = batch.potentials(allowed)
    n_at = batch.n_at
    alpha = np.zeros(shape)
    # Raw sums per step; the scale divides by them, or by tiny where a row
    # has no allowed path (its alpha is all zeros then, so the result is the
    # same as dividing by 1).
    sums = np.zeros(shape[:2])
    safe = np.empty(shape[1])
    tiny = np.finfo(float).tiny
    # Each step writes into preallocated views: the per-step numpy calls, not
    # the arithmetic, are most of the cost on short batches.
    for t in range(batch.T):
        n = n_at[t]
        a_t = alpha[t, :n]
        if t == 0:
            a_t[...] = phi[0, :n]
        else:
            np.matmul(alpha[t - 1, :n], exp_trans, out=a_t)
            a_t *= phi[t, :n]
        np.add.reduce(a_t, axis=1, out=sums[t, :n])
        np.maximum(sums[t, :n], tiny, out=safe[:n])
        a_t /= safe[:n, None]
    running = np.arange(shape[0])[:, None] < batch.lengths[None, :]
    dead = ((sums <= 0) & running).any(axis=0)
    scale = np.where(sums > 0, sums, 1.0)
    # phi / scale is all the backward pass reads of phi.
    phi /= scale[:, :, None]
    beta = np.ones(shape)
    weights = np.zeros(shape)
    trans_t = np.ascontiguousarray(exp_trans.T)
    for t in range(batch.T - 1, 0, -1):
        n = n_at[t]
        w_t = weights[t, :n]
        np.multiply(phi[t, :n], beta[t, :n], out=w_t)
        np.matmul(w_t, trans_t, out=beta[t - 1, :n])
    K = shape[2]
    products = alpha[:-1].reshape(-1, K).T @ weights[1:].reshape(-1, K)
    pair_sums = exp_trans * products
    log_z = (np.log(scale) + shift).sum(axis=0)
    alpha *= beta
    return _Pass(log_z, alpha, pair_sums, ~dead)


def crf_loss(
    emissions: np.ndarray,
    lengths: np.ndarray,
    gold: np.ndarray,
    params: CRFParams,
) -> CRFGrads:
    """Partial-CRF loss and gradients for a padded batch.

    emissions (ndarray): Scores (B, T, K).
    lengths (ndarray): Sequence lengths (B,), each >= 1.
    gold (ndarray): Gold tag ids (B, T); -1 marks a missing tag (any tag).
    params (CRFParams): The constrained CRF scores.
    RETURNS (CRFGrads): Loss per sequence (0 where the gold tags allow no legal
        path; those rows also get no gradient) and gradients of the sum.
    """
    batch = _Batch(emissions, lengths, params)
    K = emissions.shape[2]
    exp_trans = np.exp(params.transitions)
    gold_s = batch.sort(np.asarray(gold), pad=-1)
    allowed = (gold_s[:, :, None] < 0) | (gold_s[:, :, None] == np.arange(K))
    free = _forward_backward(batch, exp_trans, None)
    constrained = _forward_backward(batch, exp_trans, allowed)
    feasible = constrained.feasible
    if not feasible.all():
        # Drop infeasible rows from the pairwise sums by re-running without
        # them; rare (only inconsistent gold tags), so keep the fast path.
        return _crf_loss_subset(emissions, lengths, gold, params, batch, feasible)
    d_E = free.marginals - constrained.marginals
    d_trans = free.pair_sums - constrained.pair_sums
    return _grads(batch, free.log_z - constrained.log_z, d_E, d_trans, feasible)


def _crf_loss_subset(
    emissions: np.ndarray,
    lengths: np.ndarray,
    gold: np.ndarray,
    params: CRFParams,
    batch: _Batch,
    feasible: np.ndarray,
) -> CRFGrads:
    """`crf_loss` on the feasible rows only; the others get zeros."""
    keep = np.zeros(len(lengths), dtype=bool)
    keep[batch.order[feasible]] = True
    B, T, K = emissions.shape
    out = CRFGrads(
        np.zeros(B),
        np.zeros(emissions.shape),
        np.zeros((K, K)),
        np.zeros(K),
        np.zeros(K),
        keep,
    )
    if keep.any():
        sub = crf_loss(emissions[keep], lengths[keep], gold[keep], params)
        out.loss[keep] = sub.loss
        out.d_emissions[keep] = sub.d_emissions
        out.d_transitions = sub.d_transitions
        out.d_start, out.d_end = sub.d_start, sub.d_end
    return out


def _grads(
    batch: _Batch,
    loss: np.ndarray,
    d_E: np.ndarray,
    d_trans: np.ndarray,
    feasible: np.ndarray,
) -> CRFGrads:
    """Fold the start/end gradients out of d_E and restore the input order."""
    d_start = d_E[0].sum(axis=0)
    d_end = d_E[batch.last].sum(axis=0)
    loss_in = np.zeros_like(loss)
    loss_in[batch.order] = loss
    feas_in = np.zeros_like(feasible)
    feas_in[batch.order] = feasible
    return CRFGrads(loss_in, batch.unsort(d_E), d_trans, d_start, d_end, feas_in)


def crf_marginals(
    emissions: np.ndarray, lengths: np.ndarray, params: CRFParams
) -> np.ndarray:
    """Per-token tag marginals P(y_i = k) for a padded batch: the padded form
    of `crf_marginals_seqs` (float64).

    emissions (ndarray): Scores (B, T, K).
    lengths (ndarray): Sequence lengths (B,).
    params (CRFParams): The constrained CRF scores.
    RETURNS (ndarray): Marginals (B, T, K), zero on padding.
    """
    out = np.zeros(emissions.shape)
    seqs = [emissions[i, :n] for i, n in enumerate(np.asarray(lengths))]
    for i, marginals in enumerate(crf_marginals_seqs(seqs, params)):
        out[i, : len(marginals)] = marginals
    return out


def crf_marginals_seqs(
    seqs: Sequence[np.ndarray], params: CRFParams, dtype: str = "f8"
) -> List[np.ndarray]:
    """Per-token tag marginals of each score array, computed packed (as
    `viterbi_seqs`): memory grows with the number of tokens, and each step
    runs on every sequence still running, so a whole batch is one group. In
    float64 the same values as `crf_marginals` up to float rounding; float32
    is about twice as fast, within about 1e-6.

    seqs (Sequence[ndarray]): Scores (n_i, K) per sequence.
    params (CRFParams): The constrained CRF scores.
    dtype (str): "f8" or "f4", the precision to compute in.
    RETURNS (List[ndarray]): Marginals (n_i, K) per sequence.
    """
    K = params.transitions.shape[0]
    seqs = [np.asarray(seq).reshape(-1, K) for seq in seqs]
    lengths = [len(seq) for seq in seqs]
    layout = packing(seqs)
    phi = pack(seqs, layout, dtype=dtype).data
    if not len(phi):
        return [np.zeros((0, K), dtype=dtype) for _ in seqs]
    _packed_potentials(phi, params, layout, lengths)
    # Shifted so that the largest is 1: a constant factor per step, which
    # the scaling removes.
    trans = params.transitions
    exp_trans = np.exp(trans - trans.max()).astype(dtype)
    # Extreme scores can leave float32's range: checked below.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        alpha, scale = _packed_forward(phi, exp_trans, layout)
        phi /= scale[:, None]
        alpha *= _packed_backward(phi, exp_trans, layout)
    if dtype != "f8" and not np.allclose(alpha.sum(axis=1), 1.0, atol=1e-3):
        # Overflow (inf, NaN) or underflow (a row left with no path).
        return crf_marginals_seqs(seqs, params, "f8")
    return unpack(alpha, lengths, layout)


def _packed_potentials(
    E: np.ndarray, params: CRFParams, layout: Packing, lengths: List[int]
) -> None:
    """Turn packed emissions (N, K) into exp(E - row max) in place, with the
    start and end scores folded in and illegal first and last tags at exact
    zero (as `_Batch.potentials`)."""
    size_at_t, offsets = layout.size_at_t, layout.offsets
    B = int(size_at_t[0])
    _, first_ok, last_ok = legal_transitions(E.shape[1])
    last_rows = offsets[np.asarray(lengths)[layout.order[:B]] - 1] + np.arange(B)
    first_bad = np.flatnonzero(~first_ok)
    last_bad = (last_rows[:, None], np.flatnonzero(~last_ok)[None, :])
    E[:B] += params.start
    E[last_rows] += params.end
    E[:B, first_bad] = -np.inf
    E[last_bad] = -np.inf
    # Every row has a legal tag, so the max is finite.
    E -= E.max(axis=1, keepdims=True)
    np.maximum(E, _MIN_LOG if E.dtype == np.float64 else _MIN_LOG_F4, out=E)
    np.exp(E, out=E)
    E[:B, first_bad] = 0.0
    E[last_bad] = 0.0


def _packed_forward(
    phi: np.ndarray, exp_trans: np.ndarray, layout: Packing
) -> Tuple[np.ndarray, np.ndarray]:
    """Scaled forward variables (N, K) and each row's scale (N,): the sum
    before scaling, or 1 where no allowed path is left."""
    size_at_t, offsets = layout.size_at_t, layout.offsets
    alpha = np.empty_like(phi)
    sums = np.empty(len(phi), dtype=phi.dtype)
    safe = np.empty(int(size_at_t[0]), dtype=phi.dtype)
    tiny = np.finfo(phi.dtype).tiny
    # Each step writes into preallocated views: the per-step numpy calls,
    # not the arithmetic, are most of the cost.
    for t in range(len(size_at_t)):
        n, start = size_at_t[t], offsets[t]
        a_t = alpha[start : start + n]
        if t == 0:
            a_t[...] = phi[:n]
        else:
            np.matmul(alpha[offsets[t - 1] : offsets[t - 1] + n], exp_trans, out=a_t)
            a_t *= phi[start : start + n]
        np.add.reduce(a_t, axis=1, out=sums[start : start + n])
        # A zero sum means a zero row: dividing by tiny keeps it zero.
        np.maximum(sums[start : start + n], tiny, out=safe[:n])
        a_t /= safe[:n, None]
    return alpha, np.where(sums > 0, sums, 1.0)


def _packed_backward(
    scaled_phi: np.ndarray, exp_trans: np.ndarray, layout: Packing
) -> np.ndarray:
    """Scaled backward variables (N, K), from the potentials divided by
    their step's scale."""
    size_at_t, offsets = layout.size_at_t, layout.offsets
    beta = np.ones_like(scaled_phi)
    trans_t = np.ascontiguousarray(exp_trans.T)
    work = np.empty((int(size_at_t[0]), scaled_phi.shape[1]), dtype=scaled_phi.dtype)
    for t in range(len(size_at_t) - 1, 0, -1):
        n, start, prev = size_at_t[t], offsets[t], offsets[t - 1]
        rows = slice(start, start + n)
        np.multiply(scaled_phi[rows], beta[rows], out=work[:n])
        np.matmul(work[:n], trans_t, out=beta[prev : prev + n])
    return beta


class _LegalBlocks:
    """Constrained transition scores cut to the legal transitions, which
    form two blocks: "outside" tags (O, L-*, U-*) go to "opening" tags (O,
    B-*, U-*), any to any; "B-X" and "I-X" go to "I-X" and "L-X" of their own
    label only. Every other transition is illegal, so a Viterbi step needs
    only these scores.

    The "outside" block is also pruned, exactly: a source tag whose score is
    more than the block's range of transition scores (`reach`) below the
    row's best source cannot be the best predecessor of any tag, since the
    best source reaches every tag with a strictly higher score. A trained
    model leaves one or two sources per row, so a step scores a few columns
    of the block rather than all of them."""

    def __init__(self, transitions: np.ndarray):
        prefix, _ = _tag_kinds(transitions.shape[0])
        self.sources = np.flatnonzero(np.isin(prefix, ("O", "L", "U")))
        self.targets = np.flatnonzero(np.isin(prefix, ("O", "B", "U")))
        begins, insides = np.flatnonzero(prefix == "B"), np.flatnonzero(prefix == "I")
        # Each label's "I-X" then "L-X", from its "B-X" or its "I-X".
        self.inner = np.concatenate([insides, insides + 1])
        self.from_b = np.concatenate([begins, begins])
        self.from_i = np.concatenate([insides, insides])
        # (target, source), so that the max runs over the last axis.
        self.outer = transitions[np.ix_(self.sources, self.targets)].T
        # The margin (1.0) dwarfs any rounding of the sums compared.
        self.reach = float(self.outer.max() - self.outer.min()) + 1.0
        self.b_inner = transitions[self.from_b, self.inner]
        self.i_inner = transitions[self.from_i, self.inner]

    def step(self, delta: np.ndarray, back: np.ndarray) -> None:
        """Replace the best path scores `delta` (n, K) of the previous step
        by the best score of each tag after one more step, before its
        emission, and write each tag's best previous tag to `back` (n, K).
        Ties go to the lower tag id, as an argmax over all K previous tags
        would give.
        """
        from_src = delta[:, self.sources]
        floor = from_src.max(axis=1, keepdims=True) - self.reach
        live = np.flatnonzero((from_src >= floor).any(axis=0))
        via_b = delta[:, self.from_b] + self.b_inner
        via_i = delta[:, self.from_i] + self.i_inner
        delta[:, self.inner] = np.maximum(via_i, via_b)
        back[:, self.inner] = np.where(via_i > via_b, self.from_i, self.from_b)
        if len(live) == 1:
            # Mostly so in a trained model: one source is the best for all.
            (source,) = live
            delta[:, self.targets] = from_src[:, source, None] + self.outer[:, source]
            back[:, self.targets] = self.sources[source]
            return
        # (live source, row, target): reducing over the first axis is fast.
        cand = from_src[:, live].T[:, :, None] + self.outer[:, live].T[:, None, :]
        delta[:, self.targets] = cand.max(axis=0)
        back[:, self.targets] = self.sources[live][cand.argmax(axis=0)]


def viterbi(
    emissions: np.ndarray, lengths: np.ndarray, params: CRFParams
) -> Tuple[np.ndarray, np.ndarray]:
    """Best legal tag sequence per row under the constrained scores.

    emissions (ndarray): Scores (B, T, K).
    lengths (ndarray): Sequence lengths (B,).
    params (CRFParams): The constrained CRF scores.
    RETURNS (Tuple[ndarray, ndarray]): Tag ids (B, T), -1 on padding, and the
        best path score per row.
    """
    seqs = [emissions[i, :n] for i, n in enumerate(np.asarray(lengths))]
    paths, scores = viterbi_seqs(seqs, params)
    out = np.full(emissions.shape[:2], -1, dtype="i8")
    for i, path in enumerate(paths):
        out[i, : len(path)] = path
    return out, scores


def viterbi_seqs(
    seqs: Sequence[np.ndarray], params: CRFParams
) -> Tuple[List[np.ndarray], np.ndarray]:
    """Best legal tag sequence of each score array, computed packed (see
    `_with_packed`): memory grows with the number of tokens, not with
    n_seqs * longest, and each step runs on every sequence still running.

    seqs (Sequence[ndarray]): Scores (n_i, K) per sequence.
    params (CRFParams): The constrained CRF scores.
    RETURNS (Tuple[List[ndarray], ndarray]): Tag ids (n_i,) per sequence and
        the best path score per sequence (0 for an empty one).
    """
    K = params.transitions.shape[0]
    seqs = [np.asarray(seq).reshape(-1, K) for seq in seqs]
    lengths = np.asarray([len(seq) for seq in seqs], dtype="i8")
    layout = packing(seqs)
    E = pack(seqs, layout, dtype="f8").data
    size_at_t, offsets = layout.size_at_t, layout.offsets
    scores = np.zeros(len(seqs))
    if not len(E):
        return [np.zeros(0, dtype="i8") for _ in seqs], scores
    B = int(size_at_t[0])
    E[:B] += params.start
    E[offsets[lengths[layout.order[:B]] - 1] + np.arange(B)] += params.end
    legal = _LegalBlocks(params.transitions)
    delta = E[:B].copy()
    back = np.zeros(E.shape, dtype=np.min_scalar_type(K - 1))
    for t in range(1, len(size_at_t)):
        n, start = size_at_t[t], offsets[t]
        legal.step(delta[:n], back[start : start + n])
        delta[:n] += E[start : start + n]
    cur = delta.argmax(axis=1)
    scores[layout.order[:B]] = delta[np.arange(B), cur]
    path = np.empty(len(E), dtype="i8")
    for t in range(len(size_at_t) - 1, -1, -1):
        n, start = size_at_t[t], offsets[t]
        path[start : start + n] = cur[:n]
        if t:
            cur[:n] = back[start + np.arange(n), cur[:n]]
    return unpack(path, list(lengths), layout), scores


def constraint_params(n_tags: int) -> CRFParams:
    """The BILUO constraints alone: 0 for legal transitions, first and last
    tags, -inf for illegal ones. For `viterbi` over log-probabilities, where
    no finite penalty is large enough to be safe.

    n_tags (int): K, the number of tags.
    RETURNS (CRFParams): The constraint-only scores (float64).
    """
    legal, first, last = legal_transitions(n_tags)
    return CRFParams(
        np.where(legal, 0.0, -np.inf),
        np.where(first, 0.0, -np.inf),
        np.where(last, 0.0, -np.inf),
    )


def log_softmax(emissions: np.ndarray) -> np.ndarray:
    """Log-softmax over the last axis.

    emissions (ndarray): Scores (..., K).
    RETURNS (ndarray): Log-probabilities (float64), same shape.
    """
    shifted = np.asarray(emissions, dtype="f8")
    shifted = shifted - shifted.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def softmax_loss(
    emissions: np.ndarray, lengths: np.ndarray, gold: np.ndarray
) -> CRFGrads:
    """Per-token softmax cross-entropy for a padded batch (no CRF). Missing
    gold tags (-1) and padding contribute nothing; the transition, start and
    end gradients are zero.

    emissions (ndarray): Scores (B, T, K).
    lengths (ndarray): Sequence lengths (B,).
    gold (ndarray): Gold tag ids (B, T); -1 marks a missing tag.
    RETURNS (CRFGrads): Summed loss per sequence and gradients of the sum.
    """
    B, T, K = emissions.shape
    gold = np.asarray(gold, dtype="i8")
    lengths = np.asarray(lengths, dtype="i8")
    known = (np.arange(T)[None, :] < lengths[:, None]) & (gold >= 0)
    target = np.where(known, gold, 0)[:, :, None]
    log_p = log_softmax(emissions)
    picked = np.take_along_axis(log_p, target, axis=2)[:, :, 0]
    d_E = np.exp(log_p)
    np.put_along_axis(d_E, target, np.take_along_axis(d_E, target, 2) - 1.0, 2)
    d_E *= known[:, :, None]
    loss = -(picked * known).sum(axis=1)
    zeros = np.zeros(K)
    feasible = np.ones(B, dtype=bool)
    return CRFGrads(loss, d_E, np.zeros((K, K)), zeros, zeros.copy(), feasible)


def is_valid_biluo(tags: Sequence[int], n_tags: int) -> bool:
    """Whether a tag id sequence is legal BILUO.

    tags (Sequence[int]): Tag ids.
    n_tags (int): K, the number of tags.
    RETURNS (bool): True if every transition, the first and the last tag are
        legal (an empty sequence is legal).
    """
    if len(tags) == 0:
        return True
    legal, first, last = legal_transitions(n_tags)
    ids = np.asarray(tags, dtype="i8")
    pairs = legal[ids[:-1], ids[1:]]
    return bool(first[tags[0]] and last[tags[-1]] and pairs.all())


def pad_batch(seqs: List[np.ndarray], n_tags: int) -> Tuple[np.ndarray, np.ndarray]:
    """Pad per-sequence (n_i, K) arrays into (B, T, K) and lengths.

    seqs (List[ndarray]): Non-empty (n_i, K) arrays.
    n_tags (int): K.
    RETURNS (Tuple[ndarray, ndarray]): Padded float64 array and lengths.
    """
    lengths = np.array([len(s) for s in seqs], dtype="i8")
    T = int(lengths.max()) if len(seqs) else 0
    out = np.zeros((len(seqs), T, n_tags), dtype="f8")
    for i, seq in enumerate(seqs):
        out[i, : len(seq)] = seq
    return out, lengths


def length_groups(
    lengths: List[int], max_slots: int, packed: bool = False
) -> List[List[int]]:
    """Group the indices of non-zero lengths by decreasing length so that
    each group's padded size, `len(group) * longest`, or with `packed` its
    number of items, `sum(lengths)`, stays within max_slots (a longer item
    is alone).

    lengths (List[int]): Sequence lengths.
    max_slots (int): Size limit per group.
    packed (bool): Count items, not padded slots.
    RETURNS (List[List[int]]): Index groups.
    """
    groups: List[List[int]] = []
    order = sorted((i for i, n in enumerate(lengths) if n), key=lambda i: -lengths[i])
    total = 0
    for i in order:
        if groups:
            group = groups[-1]
            size = (
                total + lengths[i] if packed else (len(group) + 1) * lengths[group[0]]
            )
            if size <= max_slots:
                group.append(i)
                total += lengths[i]
                continue
        groups.append([i])
        total = lengths[i]
    return groups
