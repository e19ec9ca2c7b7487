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
latent model, for checks against brute force.
"""

from dataclasses import dataclass
from typing import Any, Dict

import numpy as np

from ..tagging.crf import CRFParams
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
