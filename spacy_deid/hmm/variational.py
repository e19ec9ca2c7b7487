"""Mean-field variational inference for the HMM with Dirichlet-process
sub-tags (HMM-DP, Chen, Cullen and Godwin 2015).

The model. Tags s are the BILUO tags of the label set (`tagging.crf` order).
Tag s has K_s latent sub-tags z with stick-breaking weights
β_s ~ GEM(gamma), truncated at K_s (the last stick is 1). Sub-tag z emits
the word w ~ φ_z (Dirichlet(emission) prior over the word vocabulary of
`words.py`), chooses the next tag, or the end, s' ~ ψ_z (Dirichlet(transition)
over the legal BILUO successors), and then the next sub-tag
z' ~ π_{z,s'} ~ DP(alpha, β_s'), i.e. Dirichlet(alpha β_s') over the sub-tags
of s'. The first tag is s ~ ρ (Dirichlet(start) over the legal first tags)
and its sub-tag z ~ β_s. Training is supervised: the tags are observed, the
sub-tags latent.

The variational family is mean-field: Beta(a, b) per stick, Dirichlet
posteriors for φ, ψ, π and ρ, and q(z) per sequence (forward-backward over
the sub-tags of the gold tags, scaled, all sequences of a batch at
once). The Dirichlet normaliser log Γ(alpha) - Σ log Γ(alpha β_k) has no
closed-form expectation under Beta sticks; it is replaced by the lower bound
(K - 1) log alpha + Σ log β_k of Hughes, Kim and Sudderth (AISTATS 2015), so
the ELBO computed here is that surrogate bound, tractable and still a lower
bound on the log evidence. Every update is a coordinate ascent step on it:
q(z) by forward-backward, φ, ψ, ρ and π in closed form, the sticks (not
conjugate, because β centres the transition rows) by gradient ascent with a
step accepted only if it raises the bound. The bound therefore never
decreases from one iteration to the next (the tests check it).
"""

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..tagging.crf import legal_transitions
from ._special import digamma, gammaln, trigamma

# Padded (sequence, token) slots per forward-backward batch.
BATCH_SLOTS = 32768
# Most gathered (K, K) transition blocks held at once in a forward-backward
# step (bounded memory for large K and many short rows).
_GATHER_CELLS = 1 << 22
# How much more an "O" token near an entity leans to its context's sub-tag
# than to the others at the start of EM (`context_posterior`).
CONTEXT_WEIGHT = 4.0


@dataclass(frozen=True)
class Priors:
    """The hyperparameters of the model."""

    alpha: float  # DP concentration of the sub-tag transitions
    gamma: float  # GEM concentration of each tag's sub-tag weights
    emission: float  # symmetric Dirichlet over the word vocabulary
    transition: float  # symmetric Dirichlet over the next tags (and end)
    start: float  # symmetric Dirichlet over the first tags


class Layout:
    """The sub-tags of each tag, numbered 0..Z-1 tag by tag, and the legal
    transitions between them."""

    def __init__(self, sizes: Sequence[int]) -> None:
        """sizes (Sequence[int]): K_s, the number of sub-tags of each tag."""
        self.sizes = np.asarray(sizes, dtype="i8")
        if self.sizes.min(initial=1) < 1:
            raise ValueError("every tag needs at least one sub-tag")
        self.n_tags = len(self.sizes)
        self.n_sub = int(self.sizes.sum())
        self.kmax = int(self.sizes.max())
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)[:-1]])
        self.tag_of = np.repeat(np.arange(self.n_tags), self.sizes)
        self.onehot = np.eye(self.n_tags)[self.tag_of]
        self.legal, self.first, self.last = legal_transitions(self.n_tags)
        # Tag successors of each sub-tag; the last column is the end.
        self.tag_legal = np.concatenate(
            [self.legal[self.tag_of], self.last[self.tag_of, None]], axis=1
        )
        self.sub_legal = self.legal[self.tag_of][:, self.tag_of]
        # The last sub-tag of a tag takes the rest of the stick.
        self.free = np.arange(self.n_sub) < (self.offsets + self.sizes - 1)[self.tag_of]
        # Transition rows (z, s') into each tag s'.
        self.rows_into = self.sizes @ self.legal

    @classmethod
    def for_labels(cls, n_labels: int, k_o: int, k_phi: int) -> "Layout":
        """The layout of 1 + 4 n_labels BILUO tags: k_o sub-tags for "O",
        k_phi for every other tag.

        RETURNS (Layout): The layout.
        """
        return cls([k_o] + [k_phi] * (4 * n_labels))

    def grid(self, tags: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """The sub-tags of each tag of an array of tags.

        tags (ndarray): Tag ids (any shape).
        RETURNS (Tuple[ndarray, ndarray]): Sub-tag ids (..., kmax), repeated
            past a tag's last sub-tag, and whether each is real.
        """
        k = np.arange(self.kmax)
        size = self.sizes[tags][..., None]
        idx = self.offsets[tags][..., None] + np.minimum(k, size - 1)
        return idx, k < size

    def within_tag_cumsum(self, x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Sums over the earlier and the later sub-tags of the same tag.

        x (ndarray): One value per sub-tag (Z,).
        RETURNS (Tuple[ndarray, ndarray]): Σ_{j<k} x_j and Σ_{j>k} x_j.
        """
        cs = np.cumsum(x)
        excl = cs - x
        head = excl - excl[self.offsets][self.tag_of]
        tail = cs[self.offsets + self.sizes - 1][self.tag_of] - cs
        return head, tail


@dataclass
class Batch:
    """Sequences of similar length, padded, longest first."""

    words: np.ndarray  # (B, T) emission ids
    tags: np.ndarray  # (B, T) gold tags
    lengths: np.ndarray  # (B,) descending
    has_start: np.ndarray  # (B,) the sequence starts a doc
    has_end: np.ndarray  # (B,) the sequence ends a doc


@dataclass
class Posterior:
    """The variational parameters (illegal entries are 0)."""

    stick_a: np.ndarray  # (Z,)
    stick_b: np.ndarray  # (Z,)
    emit: np.ndarray  # (Z, V)
    tag: np.ndarray  # (Z, S + 1)
    sub: np.ndarray  # (Z, Z)
    start: np.ndarray  # (S,)


@dataclass
class Expectations:
    """Expected logs (and E[β]) under a Posterior; -inf where illegal."""

    log_beta: np.ndarray
    mean_beta: np.ndarray
    log_emit: np.ndarray
    log_tag: np.ndarray
    log_sub: np.ndarray
    log_start: np.ndarray


@dataclass
class Counts:
    """Expected sufficient statistics of q(z) and the lattice log-normaliser."""

    emit: np.ndarray
    tag: np.ndarray
    sub: np.ndarray
    start_sub: np.ndarray
    start_tag: np.ndarray
    occupancy: np.ndarray
    log_z: float

    @classmethod
    def zeros(cls, layout: "Layout", n_words: int) -> "Counts":
        """layout (Layout): The sub-tag layout.
        n_words (int): V, the emission vocabulary size.
        RETURNS (Counts): All counts zero, to accumulate into."""
        z, s = layout.n_sub, layout.n_tags
        return cls(
            emit=np.zeros((z, n_words)),
            tag=np.zeros((z, s + 1)),
            sub=np.zeros((z, z)),
            start_sub=np.zeros(z),
            start_tag=np.zeros(s),
            occupancy=np.zeros(z),
            log_z=0.0,
        )


def make_batches(
    seqs: Sequence[Tuple[np.ndarray, np.ndarray, bool, bool]],
    slots: int = BATCH_SLOTS,
) -> List[Batch]:
    """Pack (word ids, tags, has_start, has_end) sequences into batches.

    seqs (Sequence[Tuple]): The non-empty training sequences.
    slots (int): Most padded tokens per batch.
    RETURNS (List[Batch]): The batches, in a fixed order.
    """
    order = sorted(range(len(seqs)), key=lambda i: (-len(seqs[i][0]), i))
    batches: List[Batch] = []
    group: List[int] = []
    for i in order + [-1]:
        if group and (i < 0 or len(seqs[group[0]][0]) * (len(group) + 1) > slots):
            width = len(seqs[group[0]][0])
            words = np.zeros((len(group), width), dtype="i8")
            tags = np.zeros((len(group), width), dtype="i8")
            for row, j in enumerate(group):
                words[row, : len(seqs[j][0])] = seqs[j][0]
                tags[row, : len(seqs[j][1])] = seqs[j][1]
            batches.append(
                Batch(
                    words,
                    tags,
                    np.array([len(seqs[j][0]) for j in group], dtype="i8"),
                    np.array([seqs[j][2] for j in group], dtype=bool),
                    np.array([seqs[j][3] for j in group], dtype=bool),
                )
            )
            group = []
        if i >= 0:
            group.append(i)
    return batches


def _dirichlet_log(lam: np.ndarray, mask: np.ndarray, groups: Optional[np.ndarray]):
    """E[log θ] under Dirichlet rows (or row blocks, `groups` one-hot (C, G)
    giving each column's block); -inf where masked out."""
    safe = np.where(mask, lam, 1.0)
    masked = np.where(mask, lam, 0.0)
    if groups is None:
        total = masked.sum(axis=-1, keepdims=True)
    else:
        total = (masked @ groups) @ groups.T
    total = np.where(mask, total, 1.0)
    return np.where(mask, digamma(safe) - digamma(total), -np.inf)


def expectations(post: Posterior, layout: Layout) -> Expectations:
    """The expected logs the lattice and the bound need.

    post (Posterior): The variational parameters.
    layout (Layout): The sub-tag layout.
    RETURNS (Expectations): E[log β], E[β], E[log φ], E[log ψ], E[log π],
        E[log ρ].
    """
    log_v, log_1mv, mean_v = _stick_moments(post.stick_a, post.stick_b, layout)
    head_log, _ = layout.within_tag_cumsum(log_1mv)
    return Expectations(
        log_beta=log_v + head_log,
        mean_beta=_mean_beta(mean_v, layout),
        log_emit=_dirichlet_log(post.emit, np.ones(post.emit.shape, bool), None),
        log_tag=_dirichlet_log(post.tag, layout.tag_legal, None),
        log_sub=_dirichlet_log(post.sub, layout.sub_legal, layout.onehot),
        log_start=_dirichlet_log(post.start, layout.first, None),
    )


def _stick_moments(
    a: np.ndarray, b: np.ndarray, layout: Layout
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """E[log v], E[log(1 - v)] and E[v] per sub-tag (for the last, whose v
    is 1: 0, 0 (unused) and 1)."""
    a = np.where(layout.free, a, 1.0)
    b = np.where(layout.free, b, 1.0)
    dsum = digamma(a + b)
    log_v = np.where(layout.free, digamma(a) - dsum, 0.0)
    log_1mv = np.where(layout.free, digamma(b) - dsum, 0.0)
    mean_v = np.where(layout.free, a / (a + b), 1.0)
    return log_v, log_1mv, mean_v


def _mean_beta(mean_v: np.ndarray, layout: Layout) -> np.ndarray:
    """E[β_k] = E[v_k] Π_{j<k} (1 - E[v_j]) from the stick means."""
    log_rest = np.log1p(-np.where(layout.free, mean_v, 0.0))
    head, _ = layout.within_tag_cumsum(log_rest)
    return np.exp(np.log(mean_v) + head)


def _unary(batch: Batch, exp: Expectations, layout: Layout):
    """The sub-tag grid and its unary log-potentials (B, T, kmax): emission,
    the observed next tag (or the end), and β at a doc's first token."""
    idx, real = layout.grid(batch.tags)
    width = batch.words.shape[1]
    t = np.arange(width)[None, :, None]
    lengths = batch.lengths[:, None, None]
    unary = exp.log_emit[idx, batch.words[:, :, None]]
    next_tags = np.concatenate([batch.tags[:, 1:], batch.tags[:, :1]], axis=1)
    step = exp.log_tag[idx, next_tags[:, :, None]]
    end = exp.log_tag[idx, layout.n_tags]
    unary = unary + np.where(t < lengths - 1, step, 0.0)
    is_end = (t == lengths - 1) & batch.has_end[:, None, None]
    unary = unary + np.where(is_end, end, 0.0)
    first = np.where(batch.has_start[:, None], exp.log_beta[idx[:, 0]], 0.0)
    unary[:, 0] += first
    live = real & (t < lengths)
    return idx, np.where(live, unary, -np.inf)


def _batch_counts(
    batch: Batch, exp: Expectations, layout: Layout, counts: Counts, trans: np.ndarray
):
    """Forward-backward over one batch's sub-tag lattices; adds the expected
    counts and log-normalisers to `counts`.

    Computed in probability space, each token's potentials scaled to a
    maximum of 1 and each forward step normalised (the scales make log Z),
    because exp and log over the (rows, K, K) pair potentials cost more than
    the products: the same quantities as in log space, several times faster.
    `trans` is exp(E[log π]).
    """
    idx, unary = _unary(batch, exp, layout)
    n_rows, width, kmax = unary.shape
    live = np.arange(width)[None, :] < batch.lengths[:, None]
    top = np.where(live, unary.max(axis=2), 0.0)
    pot = np.exp(unary - top[:, :, None])
    fwd = np.zeros(unary.shape)
    scale = np.ones((n_rows, width))
    scale[:, 0] = pot[:, 0].sum(axis=1)
    fwd[:, 0] = pot[:, 0] / scale[:, 0, None]
    for t in range(1, width):
        n = int((batch.lengths > t).sum())
        step = _propagate(fwd[:n, t - 1], batch, idx, t - 1, trans, layout, False)
        step *= pot[:n, t]
        scale[:n, t] = step.sum(axis=1)
        fwd[:n, t] = step / scale[:n, t, None]
    log_z = np.where(live, np.log(scale) + top, 0.0).sum(axis=1)
    bwd = np.ones(unary.shape)
    # ahead[:, t] = the next token's potential times its backward, scaled:
    # what a transition into t + 1 is weighted by.
    ahead = np.zeros(unary.shape)
    for t in range(width - 2, -1, -1):
        n = int((batch.lengths > t + 1).sum())
        ahead[:n, t + 1] = pot[:n, t + 1] * bwd[:n, t + 1] / scale[:n, t + 1, None]
        bwd[:n, t] = _propagate(ahead[:n, t + 1], batch, idx, t, trans, layout, True)
    gamma = fwd * bwd
    _add_counts(batch, idx, gamma, counts, layout)
    _add_pair_counts(batch, fwd, ahead, trans, counts, layout)
    counts.log_z += float(log_z.sum())


def _propagate(
    vec: np.ndarray,
    batch: Batch,
    idx: np.ndarray,
    t: int,
    trans: np.ndarray,
    layout: Layout,
    backward: bool,
) -> np.ndarray:
    """One step of the forward (vec @ π) or backward (π @ vec) recursion
    between the tokens t and t + 1 of the first len(vec) rows.

    Rows whose two gold tags are both the first tag ("O", most of them) share
    one block of π: a plain matrix product. The others gather their
    (K, K) blocks, at most `_GATHER_CELLS` numbers at a time.
    """
    n, kmax = vec.shape
    out = np.zeros((n, kmax))
    k0 = int(layout.sizes[0])
    both = (batch.tags[:n, t] == 0) & (batch.tags[:n, t + 1] == 0)
    same = np.flatnonzero(both)
    if len(same):
        block = trans[:k0, :k0].T if backward else trans[:k0, :k0]
        out[same, :k0] = vec[same, :k0] @ block
    rest = np.flatnonzero(~both)
    size = max(1, _GATHER_CELLS // (kmax * kmax))
    for i in range(0, len(rest), size):
        rows = rest[i : i + size]
        pair = trans[idx[rows, t, :, None], idx[rows, t + 1, None, :]]
        if backward:
            out[rows] = np.matmul(pair, vec[rows, :, None])[:, :, 0]
        else:
            out[rows] = np.matmul(vec[rows, None, :], pair)[:, 0]
    return out


def _add_pair_counts(
    batch: Batch,
    fwd: np.ndarray,
    ahead: np.ndarray,
    trans: np.ndarray,
    counts: Counts,
    layout: Layout,
) -> None:
    """Add the expected sub-tag transition counts: for each gold tag pair
    (s, s'), Σ_t fwd_t(z) π(z, z') ahead_t+1(z') = π ⊙ (fwd^T ahead) over the
    positions t with those tags, one matrix product per tag pair."""
    t = np.arange(batch.words.shape[1] - 1)[None, :]
    has_next = t + 1 < batch.lengths[:, None]
    rows, cols = np.nonzero(has_next)
    pair_ids = batch.tags[rows, cols] * layout.n_tags + batch.tags[rows, cols + 1]
    order = np.argsort(pair_ids, kind="stable")
    bounds = np.flatnonzero(np.diff(pair_ids[order], prepend=-1, append=-1))
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        pick = order[a:b]
        src, dst = divmod(int(pair_ids[pick[0]]), layout.n_tags)
        k1, k2 = layout.sizes[src], layout.sizes[dst]
        o1, o2 = layout.offsets[src], layout.offsets[dst]
        left = fwd[rows[pick], cols[pick], :k1]
        right = ahead[rows[pick], cols[pick] + 1, :k2]
        block = trans[o1 : o1 + k1, o2 : o2 + k2]
        counts.sub[o1 : o1 + k1, o2 : o2 + k2] += block * (left.T @ right)


def _add_counts(batch: Batch, idx, gamma, counts: Counts, layout: Layout) -> None:
    """Add the unary expected counts of one batch."""
    n_sub, n_tags = layout.n_sub, layout.n_tags
    n_words = counts.emit.shape[1]
    keys = idx * n_words + batch.words[:, :, None]
    counts.emit += np.bincount(
        keys.ravel(), weights=gamma.ravel(), minlength=n_sub * n_words
    ).reshape(n_sub, n_words)
    t = np.arange(batch.words.shape[1])[None, :, None]
    lengths = batch.lengths[:, None, None]
    next_tags = np.concatenate([batch.tags[:, 1:], batch.tags[:, :1]], axis=1)
    is_end = (t == lengths - 1) & batch.has_end[:, None, None]
    dest = np.where(t < lengths - 1, next_tags[:, :, None], n_tags)
    weight = np.where((t < lengths - 1) | is_end, gamma, 0.0)
    counts.tag += np.bincount(
        (idx * (n_tags + 1) + dest).ravel(),
        weights=weight.ravel(),
        minlength=n_sub * (n_tags + 1),
    ).reshape(n_sub, n_tags + 1)
    starts = batch.has_start
    counts.start_sub += np.bincount(
        idx[starts, 0].ravel(), weights=gamma[starts, 0].ravel(), minlength=n_sub
    )
    counts.start_tag += np.bincount(batch.tags[starts, 0], minlength=n_tags)
    counts.occupancy += np.bincount(idx.ravel(), weights=gamma.ravel(), minlength=n_sub)


def e_step(
    batches: Sequence[Batch], exp: Expectations, layout: Layout, n_words: int
) -> Counts:
    """The optimal q(z) of every sequence, as expected counts.

    batches (Sequence[Batch]): The training data.
    exp (Expectations): From the current posterior.
    layout (Layout): The sub-tag layout.
    n_words (int): V, the emission vocabulary size.
    RETURNS (Counts): Expected counts and Σ log Z.
    """
    counts = Counts.zeros(layout, n_words)
    trans = np.exp(exp.log_sub)
    for batch in batches:
        _batch_counts(batch, exp, layout, counts, trans)
    return counts


def _dirichlet_kl(
    lam: np.ndarray,
    prior: float,
    mask: np.ndarray,
    elog: Optional[np.ndarray] = None,
) -> float:
    """Σ over rows of KL(Dirichlet(lam) || symmetric Dirichlet(prior)),
    each row over its unmasked entries. `elog` is E[log θ] if already known
    (from `expectations`: the same values, not computed twice)."""
    n = mask.sum(axis=-1)
    keep = n > 0
    safe = np.where(mask, lam, 1.0)
    total = np.where(mask, lam, 0.0).sum(axis=-1)
    if elog is None:
        elog = digamma(safe) - digamma(np.where(keep, total, 1.0))[..., None]
    kl = (
        gammaln(np.where(keep, total, 1.0))
        - np.where(mask, gammaln(safe), 0.0).sum(axis=-1)
        - gammaln(np.where(keep, n * prior, 1.0))
        + n * gammaln(np.array(prior))
        + np.where(mask, (safe - prior) * elog, 0.0).sum(axis=-1)
    )
    return float(np.where(keep, kl, 0.0).sum())


def _beta_kl(a: np.ndarray, b: np.ndarray, gamma: float) -> np.ndarray:
    """KL(Beta(a, b) || Beta(1, gamma)), elementwise."""
    dsum = digamma(a + b)
    return (
        gammaln(a + b)
        - gammaln(a)
        - gammaln(b)
        - np.log(gamma)
        + (a - 1.0) * (digamma(a) - dsum)
        + (b - gamma) * (digamma(b) - dsum)
    )


def _stick_terms(a, b, weights_log, weights_mean, priors: Priors, layout: Layout):
    """The bound's terms in the sticks, per tag, and their gradients.

    weights_log (ndarray): c_k, the coefficient of E[log β_k].
    weights_mean (ndarray): alpha w_k, the coefficient of E[β_k].
    RETURNS (Tuple[ndarray, ndarray, ndarray]): Per-tag value (S,), d/da,
        d/db (Z,).
    """
    free = layout.free
    a = np.where(free, a, 1.0)
    b = np.where(free, b, 1.0)
    log_v, log_1mv, mean_v = _stick_moments(a, b, layout)
    _, tail_c = layout.within_tag_cumsum(weights_log)
    value = weights_log * log_v + tail_c * log_1mv
    term = weights_mean * _mean_beta(mean_v, layout)
    value = value + term - np.where(free, _beta_kl(a, b, priors.gamma), 0.0)
    tg_a, tg_b, tg_ab = trigamma(a), trigamma(b), trigamma(a + b)
    d_a = weights_log * (tg_a - tg_ab) - tail_c * tg_ab
    d_b = -weights_log * tg_ab + tail_c * (tg_b - tg_ab)
    d_a -= (a - 1.0) * tg_a - (a + b - 1.0 - priors.gamma) * tg_ab
    d_b -= (b - priors.gamma) * tg_b - (a + b - 1.0 - priors.gamma) * tg_ab
    _, tail_term = layout.within_tag_cumsum(term)
    d_m = term / mean_v - tail_term / np.where(free, 1.0 - mean_v, 1.0)
    d_a += d_m * b / (a + b) ** 2
    d_b -= d_m * a / (a + b) ** 2
    per_tag = np.bincount(layout.tag_of, weights=value, minlength=layout.n_tags)
    return per_tag, np.where(free, d_a, 0.0), np.where(free, d_b, 0.0)


def _stick_weights(counts: Counts, exp: Expectations, priors: Priors, layout: Layout):
    """c_k (start counts plus one per transition row into the tag) and
    alpha Σ_rows E[log π_row,k]."""
    c = counts.start_sub + layout.rows_into[layout.tag_of]
    w = np.where(layout.sub_legal, exp.log_sub, 0.0).sum(axis=0)
    return c, priors.alpha * w


def update_sticks(
    post: Posterior,
    counts: Counts,
    exp: Expectations,
    priors: Priors,
    layout: Layout,
    n_steps: int = 60,
) -> Tuple[np.ndarray, np.ndarray]:
    """Raise the bound in the sticks by gradient ascent on log a, log b,
    with a step size per tag; a tag's step is taken only if it raises that
    tag's terms, so the bound never decreases.

    RETURNS (Tuple[ndarray, ndarray]): The new a and b.
    """
    c, w = _stick_weights(counts, exp, priors, layout)
    a, b = post.stick_a.copy(), post.stick_b.copy()
    value, d_a, d_b = _stick_terms(a, b, c, w, priors, layout)
    step = np.full(layout.n_tags, 1e-3)
    for _ in range(n_steps):
        rate = step[layout.tag_of]
        new_a = a * np.exp(np.clip(rate * d_a * a, -2.0, 2.0))
        new_b = b * np.exp(np.clip(rate * d_b * b, -2.0, 2.0))
        new_value, new_d_a, new_d_b = _stick_terms(new_a, new_b, c, w, priors, layout)
        better = new_value > value
        take = better[layout.tag_of]
        a, b = np.where(take, new_a, a), np.where(take, new_b, b)
        d_a, d_b = np.where(take, new_d_a, d_a), np.where(take, new_d_b, d_b)
        value = np.where(better, new_value, value)
        step = np.where(better, step * 1.5, step * 0.3)
    return a, b


def m_step(
    counts: Counts, post: Posterior, exp: Expectations, priors: Priors, layout: Layout
) -> Posterior:
    """Update the global factors, one at a time, given q(z): φ, ψ, ρ in
    closed form, the sticks (given the current q(π)), then q(π) given the
    new sticks.

    RETURNS (Posterior): The new posterior.
    """
    a, b = update_sticks(post, counts, exp, priors, layout)
    _, _, mean_v = _stick_moments(a, b, layout)
    mean_beta = _mean_beta(mean_v, layout)
    sub = priors.alpha * mean_beta[None, :] + counts.sub
    return Posterior(
        stick_a=a,
        stick_b=b,
        emit=priors.emission + counts.emit,
        tag=np.where(layout.tag_legal, priors.transition + counts.tag, 0.0),
        sub=np.where(layout.sub_legal, sub, 0.0),
        start=np.where(layout.first, priors.start + counts.start_tag, 0.0),
    )


def elbo(
    counts: Counts, post: Posterior, exp: Expectations, priors: Priors, layout: Layout
) -> float:
    """The (surrogate) evidence lower bound, with q(z) optimal for `post`.

    counts (Counts): From `e_step` with `exp`.
    post (Posterior): The posterior `exp` came from.
    RETURNS (float): The bound (nats).
    """
    bound = counts.log_z
    every = np.ones(post.emit.shape, bool)
    bound -= _dirichlet_kl(post.emit, priors.emission, every, exp.log_emit)
    bound -= _dirichlet_kl(post.tag, priors.transition, layout.tag_legal)
    bound -= _dirichlet_kl(post.start, priors.start, layout.first)
    c = layout.rows_into[layout.tag_of].astype("f8")
    _, w = _stick_weights(counts, exp, priors, layout)
    value, _, _ = _stick_terms(post.stick_a, post.stick_b, c, w, priors, layout)
    bound += float(value.sum())
    # The rest of each transition row's surrogate prior term and entropy:
    # (K' - 1) log alpha, -Σ E[log π] (of (alpha E[β] - 1) E[log π]; the
    # alpha E[β] part is in the stick terms) and the Dirichlet entropy.
    legal = layout.sub_legal
    log_pi = np.where(legal, exp.log_sub, 0.0)
    n_rows = layout.rows_into * (layout.sizes - 1)
    bound += float(n_rows.sum() * np.log(priors.alpha))
    bound -= float((np.where(legal, post.sub, 0.0) * log_pi).sum())
    block = np.where(legal, post.sub, 0.0) @ layout.onehot
    rows = layout.legal[layout.tag_of]
    bound -= float(np.where(rows, gammaln(np.where(rows, block, 1.0)), 0.0).sum())
    bound += float(np.where(legal, gammaln(np.where(legal, post.sub, 1.0)), 0.0).sum())
    return bound


def initial_posterior(
    layout: Layout, priors: Priors, n_words: int, seed: int
) -> Posterior:
    """The prior, with random emission pseudo-counts so that the sub-tags of
    a tag start apart (the only randomness; fixed by `seed`).

    RETURNS (Posterior): The starting posterior.
    """
    rng = np.random.default_rng(seed)
    a = np.ones(layout.n_sub)
    b = np.full(layout.n_sub, priors.gamma)
    _, _, mean_v = _stick_moments(a, b, layout)
    mean_beta = _mean_beta(mean_v, layout)
    return Posterior(
        stick_a=a,
        stick_b=b,
        emit=priors.emission + rng.exponential(1.0, (layout.n_sub, n_words)),
        tag=np.where(layout.tag_legal, priors.transition, 0.0),
        sub=np.where(layout.sub_legal, priors.alpha * mean_beta[None, :], 0.0),
        start=np.where(layout.first, priors.start, 0.0),
    )


def context_keys(batch: Batch, n_tags: int) -> np.ndarray:
    """The context of each first-tag ("O") token that an entity is near, as
    a key >= 1 (0 for none and for other tags): the label of an entity that
    starts at the next token (key 1 + label), or at the one after an "O"
    (1 + n_labels + label), or that ends at the previous token
    (1 + 2 n_labels + label).

    batch (Batch): Sequences of BILUO tags ("O" first, then B, I, L, U per
    label).
    n_tags (int): The number of tags.
    RETURNS (ndarray): Keys (B, T).
    """
    n_labels = (n_tags - 1) // 4
    tags = batch.tags
    width = tags.shape[1]
    live = np.arange(width)[None, :] < batch.lengths[:, None]
    kind = np.where(tags > 0, (tags - 1) % 4, -1)  # 0 B, 1 I, 2 L, 3 U
    label = np.where(tags > 0, (tags - 1) // 4, 0)
    opens = (kind == 0) | (kind == 3)
    closes = (kind == 2) | (kind == 3)
    keys = np.zeros(tags.shape, dtype="i8")
    pad = np.zeros((len(tags), 2), dtype=bool)
    after = np.concatenate([opens[:, 1:] & live[:, 1:], pad[:, :1]], axis=1)
    next_label = np.concatenate([label[:, 1:], pad[:, :1]], axis=1)
    two = np.concatenate([opens[:, 2:] & live[:, 2:], pad], axis=1)
    two &= np.concatenate([tags[:, 1:] == 0, pad[:, :1]], axis=1)
    two_label = np.concatenate([label[:, 2:], pad.astype("i8")], axis=1)
    before = np.concatenate([pad[:, :1], closes[:, :-1]], axis=1)
    prev_label = np.concatenate([pad[:, :1].astype("i8"), label[:, :-1]], axis=1)
    keys = np.where(before, 1 + 2 * n_labels + prev_label, keys)
    keys = np.where(two, 1 + n_labels + two_label, keys)
    keys = np.where(after, 1 + next_label, keys)
    return np.where((tags == 0) & live, keys, 0)


def context_posterior(
    batches: Sequence[Batch], layout: Layout, priors: Priors, n_words: int, seed: int
) -> Posterior:
    """A starting posterior whose "O" sub-tags already differ by what PHI
    they precede or follow: one M-step from responsibilities that are random
    (fixed by `seed`) except that an "O" token near an entity
    (`context_keys`) leans to the sub-tag 1 + (key - 1) mod (K - 1).

    Sub-tags exist to carry such context ("Médico :" before a clinician's
    name, "NHC :" before a record number), but EM from random emissions
    mostly splits "O" by the words themselves, whose likelihood dominates,
    and does not find these splits; this starts it there. The model and the
    updates are unchanged, and the bound never decreases from this start.

    RETURNS (Posterior): The starting posterior.
    """
    rng = np.random.default_rng(seed)
    z, s = layout.n_sub, layout.n_tags
    counts = Counts.zeros(layout, n_words)
    k_o = int(layout.sizes[0])
    ones = np.ones((z, z))
    for batch in batches:
        idx, real = layout.grid(batch.tags)
        live = real & (
            np.arange(idx.shape[1])[None, :, None] < batch.lengths[:, None, None]
        )
        resp = rng.exponential(1.0, idx.shape) * live
        keys = context_keys(batch, s)
        if k_o > 1:
            slot = np.where(keys > 0, 1 + (keys - 1) % (k_o - 1), -1)
            hit = np.arange(idx.shape[2])[None, None, :] == slot[:, :, None]
            resp = resp + CONTEXT_WEIGHT * hit
        resp /= np.maximum(resp.sum(axis=2, keepdims=True), 1e-300)
        _add_counts(batch, idx, resp, counts, layout)
        _add_pair_counts(batch, resp, resp, ones, counts, layout)
    prior = initial_posterior(layout, priors, n_words, seed)
    return m_step(counts, prior, expectations(prior, layout), priors, layout)


def fit(
    batches: Sequence[Batch],
    layout: Layout,
    priors: Priors,
    n_words: int,
    *,
    max_iterations: int,
    tol: float,
    seed: int,
    init: str = "random",
) -> Tuple[Posterior, Counts, List[float]]:
    """Variational EM until the bound gains less than `tol` per token.

    batches (Sequence[Batch]): The training data.
    layout (Layout): The sub-tag layout.
    priors (Priors): The hyperparameters.
    n_words (int): V, the emission vocabulary size.
    max_iterations (int): Most E-steps.
    tol (float): Stop when the bound gains less than this per token.
    seed (int): Seed of the initial posterior.
    init (str): "random" (`initial_posterior`) or "context"
        (`context_posterior`).
    RETURNS (Tuple[Posterior, Counts, List[float]]): The posterior, its
        expected counts (for decoding) and the bound after each E-step.
    """
    n_tokens = max(1, int(sum(batch.lengths.sum() for batch in batches)))
    if init == "context":
        post = context_posterior(batches, layout, priors, n_words, seed)
    elif init == "random":
        post = initial_posterior(layout, priors, n_words, seed)
    else:
        raise ValueError(f"unknown init {init!r}")
    history: List[float] = []
    for _ in range(max_iterations):
        exp = expectations(post, layout)
        counts = e_step(batches, exp, layout, n_words)
        history.append(elbo(counts, post, exp, priors, layout))
        if len(history) > 1 and history[-1] - history[-2] < tol * n_tokens:
            break
        if len(history) == max_iterations:
            break
        post = m_step(counts, post, exp, priors, layout)
    return post, counts, history
