"""Decoding an HMM-DP: the standard HMM over tags that approximates it.

The most probable tag sequence needs a sum over sub-tags inside a max over
tags, which is intractable in general. As in the paper (after Matsuzaki,
Miyao and Tsujii 2005), prediction uses the HMM p^(s, w) over tags alone
that minimises KL(p || p^): its parameters are the expected counts of the
latent model, i.e. the sub-tag parameters averaged with the sub-tags'
expected occupancy in the training data,

    p^(w | s)  = Σ_{z ∈ s} occ(z | s) φ_z(w)
    p^(s' | s) = Σ_{z ∈ s} occ(z | s) ψ_z(s')     (s' may be the end)

with the posterior means of φ and ψ. p^ is built once, after training, so
prediction is an ordinary first-order HMM: the shared constrained BILUO
Viterbi and the marginals behind `phi_score` run on its log-probabilities
(an HMM is a CRF with those scores). The approximation forgets which
sub-tag a tag was in; `joint_log_prob` gives the exact p(s, w) of the
latent model, for checks against brute force. That is v1 (`ApproxHMM`);
v2 (`SubtagHMM`) fits the approximation to each doc's own posterior instead,
as Matsuzaki et al. do per sentence, and so keeps what the sub-tags know.
"""

from dataclasses import dataclass
from typing import Any, Dict, List, Sequence

import numpy as np

from ..tagging.crf import CRFParams, constraint_params
from .variational import Counts, Layout, Posterior

# Probabilities are floored here before the log, so that an unseen
# transition is very unlikely but not -inf (the CRF code wants finite
# scores; illegal BILUO transitions get IMPOSSIBLE on top).
_FLOOR = 1e-30


@dataclass
class Means:
    """Posterior means of the latent model's parameters."""

    beta: np.ndarray  # (Z,) sub-tag weights of each tag
    emit: np.ndarray  # (Z, V)
    tag: np.ndarray  # (Z, S + 1), the last column the end
    sub: np.ndarray  # (Z, Z), each (z, tag) block summing to 1
    start: np.ndarray  # (S,)


def posterior_means(post: Posterior, mean_beta: np.ndarray, layout: Layout) -> Means:
    """The posterior means of the Dirichlet factors.

    post (Posterior): The variational posterior.
    mean_beta (ndarray): E[β] (from `variational.expectations`).
    layout (Layout): The sub-tag layout.
    RETURNS (Means): The means.
    """
    blocks = (post.sub @ layout.onehot) @ layout.onehot.T
    sub = np.where(layout.sub_legal, post.sub / np.where(blocks > 0, blocks, 1.0), 0.0)
    return Means(
        beta=mean_beta,
        emit=post.emit / post.emit.sum(axis=1, keepdims=True),
        tag=post.tag / post.tag.sum(axis=1, keepdims=True),
        sub=sub,
        start=post.start / post.start.sum(),
    )


@dataclass
class ApproxHMM:
    """The tag-level HMM p^ that decoding runs on (log-probabilities)."""

    emit: np.ndarray  # (V, S) log p^(w | s), float32
    transitions: np.ndarray  # (S, S) log p^(s' | s)
    start: np.ndarray  # (S,) log p^(s at the start)
    end: np.ndarray  # (S,) log p^(end | s)

    def params(self) -> CRFParams:
        """RETURNS (CRFParams): The transition scores, BILUO-constrained."""
        return CRFParams.constrained(self.transitions, self.start, self.end)

    def emissions(self, word_ids: np.ndarray) -> np.ndarray:
        """RETURNS (ndarray): (n_tokens, S) emission scores of word ids."""
        return self.emit[word_ids]

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): Lists, for msgpack."""
        return {
            "emit": self.emit.astype("f4").tobytes(),
            "shape": list(self.emit.shape),
            "transitions": self.transitions.tolist(),
            "start": self.start.tolist(),
            "end": self.end.tolist(),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "ApproxHMM":
        """data (Dict[str, Any]): From `to_dict`.
        RETURNS (ApproxHMM): The HMM."""
        emit = np.frombuffer(data["emit"], dtype="f4").reshape(data["shape"]).copy()
        return cls(
            emit,
            np.asarray(data["transitions"], dtype="f8"),
            np.asarray(data["start"], dtype="f8"),
            np.asarray(data["end"], dtype="f8"),
        )


def occupancy_weights(counts: Counts, means: Means, layout: Layout) -> np.ndarray:
    """occ(z | s): each sub-tag's share of its tag's expected training
    tokens, plus its prior weight E[β] as one pseudo-token (so a tag never
    seen in training still has weights).

    RETURNS (ndarray): (S, Z), rows summing to 1 over the tag's sub-tags.
    """
    occ = counts.occupancy + means.beta
    weights = layout.onehot.T * occ[None, :]
    return weights / weights.sum(axis=1, keepdims=True)


def approximate(counts: Counts, means: Means, layout: Layout) -> ApproxHMM:
    """Build p^, the tag HMM closest in KL to the latent model.

    counts (Counts): Expected counts of the final E-step (occupancies).
    means (Means): Posterior means of the parameters.
    layout (Layout): The sub-tag layout.
    RETURNS (ApproxHMM): The HMM to decode with.
    """
    weights = occupancy_weights(counts, means, layout)
    emit = weights @ means.emit
    trans = weights @ means.tag
    return ApproxHMM(
        emit=np.log(np.maximum(emit.T, _FLOOR)).astype("f4"),
        transitions=np.log(np.maximum(trans[:, : layout.n_tags], _FLOOR)),
        start=np.log(np.maximum(means.start, _FLOOR)),
        end=np.log(np.maximum(trans[:, layout.n_tags], _FLOOR)),
    )


def joint_log_prob(
    means: Means, layout: Layout, word_ids: np.ndarray, tags: np.ndarray
) -> float:
    """The exact log p(s, w) of the latent model (posterior means), summing
    over sub-tags: for checking the approximate decoder by brute force.

    means (Means): The parameters.
    layout (Layout): The sub-tag layout.
    word_ids (ndarray): (T,) emission ids.
    tags (ndarray): (T,) tags.
    RETURNS (float): log p(tags, words); -inf for an impossible sequence.
    """
    with np.errstate(divide="ignore"):
        log_emit, log_tag = np.log(means.emit), np.log(means.tag)
        log_sub, log_beta = np.log(means.sub), np.log(means.beta)
        idx = layout.offsets[tags[0]] + np.arange(layout.sizes[tags[0]])
        alpha = (
            np.log(means.start[tags[0]]) + log_beta[idx] + log_emit[idx, word_ids[0]]
        )
        for t in range(1, len(tags)):
            nxt = layout.offsets[tags[t]] + np.arange(layout.sizes[tags[t]])
            step = alpha + log_tag[idx, tags[t]]
            scores = step[:, None] + log_sub[idx[:, None], nxt[None, :]]
            alpha = np.logaddexp.reduce(scores, axis=0) + log_emit[nxt, word_ids[t]]
            idx = nxt
        return float(np.logaddexp.reduce(alpha + log_tag[idx, layout.n_tags]))


# Padded (doc, token, sub-tag) cells per forward-backward group at
# prediction: bounds memory (two float32 arrays of this size) whatever the
# batch.
PREDICT_CELLS = 1 << 23


@dataclass
class SubtagHMM:
    """The latent model itself at its posterior means, for decoding by the
    posterior of each doc (`spacy_deid.HMMDP.v2`).

    Matsuzaki et al. approximate the posterior p(s | w) of one sentence by
    the simpler model closest to it in KL, computed from that sentence's
    forward-backward over the latent states. The model used here is the
    product of per-token tag distributions, whose closest fit is the tag
    marginals μ_t(s) = Σ_{z ∈ s} p(z_t = z | w); the constrained BILUO
    Viterbi then picks the legal sequence that maximises Π_t μ_t(s_t).
    Unlike the one global tag HMM of v1 (`ApproxHMM`), this keeps what the
    sub-tags know about the context: which "O" sub-tag a header word leaves
    decides which label may follow. (The first-order chain fit of the pair
    marginals decoded MEDDOCAN dev within 0.002 F1 of this, at 15 times
    the cost.)
    """

    emit: np.ndarray  # (V, Z) p(w | z), float32
    transitions: np.ndarray  # (Z, Z) p(z' | z) = ψ_z(s') π_{z,s'}(z'), float32
    start: np.ndarray  # (Z,) p(first sub-tag)
    end: np.ndarray  # (Z,) p(end | z)
    tag_of: np.ndarray  # (Z,) the tag of each sub-tag

    @classmethod
    def from_means(cls, means: Means, layout: Layout) -> "SubtagHMM":
        """means (Means): Posterior means of the parameters.
        layout (Layout): The sub-tag layout.
        RETURNS (SubtagHMM): The latent HMM over sub-tags."""
        n_tags = layout.n_tags
        trans = means.tag[:, layout.tag_of] * means.sub
        return cls(
            emit=np.ascontiguousarray(means.emit.T, dtype="f4"),
            transitions=trans.astype("f4"),
            start=(means.start[layout.tag_of] * means.beta).astype("f4"),
            end=means.tag[:, n_tags].astype("f4"),
            tag_of=layout.tag_of.astype("i8"),
        )

    @property
    def n_tags(self) -> int:
        """RETURNS (int): The number of tags."""
        return int(self.tag_of.max()) + 1

    def params(self) -> CRFParams:
        """RETURNS (CRFParams): The BILUO constraints alone: the marginals
        carry all the scores."""
        return constraint_params(self.n_tags)

    def emissions(self, word_ids: np.ndarray) -> np.ndarray:
        """RETURNS (ndarray): (n_tokens, S) log tag marginals of one doc."""
        return self.log_marginals([word_ids])[0]

    def log_marginals(self, seqs: Sequence[np.ndarray]) -> List[np.ndarray]:
        """log μ_t(s), the posterior tag marginals of each doc, by scaled
        forward-backward over the sub-tags, docs of similar length together.

        seqs (Sequence[ndarray]): (n_tokens,) emission ids per doc.
        RETURNS (List[ndarray]): (n_tokens, S) log marginals (float32).
        """
        out: List[np.ndarray] = [np.zeros((0, self.n_tags), "f4") for _ in seqs]
        order = sorted(
            (i for i in range(len(seqs)) if len(seqs[i])), key=lambda i: -len(seqs[i])
        )
        n_sub = len(self.tag_of)
        while order:
            width = len(seqs[order[0]])
            rows = max(1, PREDICT_CELLS // (width * n_sub))
            group, order = order[:rows], order[rows:]
            margs = self._group_marginals([seqs[i] for i in group])
            for i, marg in zip(group, margs, strict=True):
                out[i] = marg
        return out

    def _group_marginals(self, seqs: Sequence[np.ndarray]) -> List[np.ndarray]:
        """Forward-backward on docs padded to the first (longest) one."""
        lengths = np.array([len(s) for s in seqs])
        width = int(lengths[0])
        ids = np.zeros((len(seqs), width), dtype="i8")
        for row, seq in enumerate(seqs):
            ids[row, : len(seq)] = seq
        emit = self.emit[ids]  # (B, T, Z)
        fwd = np.empty_like(emit)
        fwd[:, 0] = _normalised(self.start[None, :] * emit[:, 0])
        for t in range(1, width):
            fwd[:, t] = _normalised((fwd[:, t - 1] @ self.transitions) * emit[:, t])
        bwd = np.empty_like(emit)
        at_end = (lengths - 1)[:, None]
        bwd[:, width - 1] = self.end
        trans_t = np.ascontiguousarray(self.transitions.T)
        for t in range(width - 2, -1, -1):
            ahead = (emit[:, t + 1] * bwd[:, t + 1]) @ trans_t
            bwd[:, t] = _normalised(np.where(at_end == t, self.end[None, :], ahead))
        # Sub-tags are numbered tag by tag: sum each tag's run.
        firsts = np.flatnonzero(np.diff(self.tag_of, prepend=-1))
        tags = np.add.reduceat(fwd * bwd, firsts, axis=2)
        tags /= np.maximum(tags.sum(axis=2, keepdims=True), np.float32(_FLOOR))
        logs = np.log(np.maximum(tags, np.float32(_FLOOR)))
        return [logs[row, :n] for row, n in enumerate(lengths)]

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): Bytes and lists, for msgpack."""
        return {
            "emit": self.emit.astype("f4").tobytes(),
            "shape": list(self.emit.shape),
            "transitions": self.transitions.astype("f4").tobytes(),
            "start": self.start.tolist(),
            "end": self.end.tolist(),
            "tag_of": self.tag_of.tolist(),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "SubtagHMM":
        """data (Dict[str, Any]): From `to_dict`.
        RETURNS (SubtagHMM): The HMM."""
        n_words, n_sub = data["shape"]
        emit = np.frombuffer(data["emit"], dtype="f4").reshape(n_words, n_sub)
        trans = np.frombuffer(data["transitions"], dtype="f4").reshape(n_sub, n_sub)
        return cls(
            emit.copy(),
            trans.copy(),
            np.asarray(data["start"], dtype="f4"),
            np.asarray(data["end"], dtype="f4"),
            np.asarray(data["tag_of"], dtype="i8"),
        )


def _normalised(x: np.ndarray) -> np.ndarray:
    """Rows scaled to sum to 1 (scaling keeps forward-backward in range)."""
    total = x.sum(axis=-1, keepdims=True)
    return x / np.where(total > 0, total, 1.0)
