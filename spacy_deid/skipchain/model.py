"""The skip-chain model: node potentials, the agreement weight, training.

Score of label y at node i of a clique of n occurrences:

    u[i, y] = sum_f W[f, y]                       (hashed window features)
            + det_phi * score_i * [detector_i == y != "O"]
            + det_o * [detector_i == y == "O"]

and every pair of nodes gains `agreement / (n - 1)` when its labels agree, so
a node's pull towards the others' labels is at most `agreement` however often
the word occurs. W is label-specific (rows hashed from the features, columns
the model's labels, "O" first); the last three weights are shared by all
labels, so an untrained model (W = 0) and labels it never saw still work:
each node prefers the detector's label and the clique prefers agreement.

Training maximises the pseudo-likelihood (Besag): the product over nodes of
p(y_i | gold labels of the other nodes), which for this model is a
multinomial logistic regression whose extra feature for label y is the
fraction of the other nodes labelled y. It is convex; we run full-batch
AdaGrad with L2 on W, deterministic for given data.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .features import hash_features, node_features

OUTSIDE = "O"


@dataclass
class Clique:
    """The occurrences of one word type in a scope.

    feats (ndarray): (n, N_FEATURES) hashed feature rows.
    detector (List[str]): The detector's label per node ("O" if none).
    scores (ndarray): (n,) the detector's score per node (1.0 if none).
    gold (Optional[List[Optional[str]]]): Gold labels (training only; None:
        unknown).
    """

    feats: np.ndarray
    detector: List[str]
    scores: np.ndarray
    gold: Optional[List[Optional[str]]] = None


def make_clique(
    nodes: Sequence[Any], n_rows: int, gold: Optional[List[Optional[str]]] = None
) -> Clique:
    """Build a clique from (texts, position, detector label, score) nodes.

    nodes (Sequence[Any]): One (texts, i, label, score) per occurrence.
    n_rows (int): Rows of the hashed weight table.
    gold (Optional[List[Optional[str]]]): Gold labels, for training.
    RETURNS (Clique): The clique.
    """
    feats = np.stack(
        [hash_features(node_features(t, i, lab), n_rows) for t, i, lab, _ in nodes]
    )
    scores = np.array([1.0 if s is None else float(s) for *_, s in nodes])
    return Clique(feats, [lab for _, _, lab, _ in nodes], scores, gold)


@dataclass
class SkipChainModel:
    """Weights of the skip-chain CRF (see the module docstring)."""

    labels: List[str] = field(default_factory=lambda: [OUTSIDE])
    n_rows: int = 2**16
    det_phi: float = 1.0
    det_o: float = 0.5
    agreement: float = 2.0
    weights: Optional[np.ndarray] = None

    def __post_init__(self) -> None:
        if self.weights is None:
            self.weights = np.zeros((self.n_rows, len(self.labels)), dtype="f4")
        self._index = {label: k for k, label in enumerate(self.labels)}

    def unary(self, clique: Clique, labels: Sequence[str]) -> np.ndarray:
        """Node scores u[i, y] for the clique's candidate labels.

        clique (Clique): The clique.
        labels (Sequence[str]): Its candidate labels ("O" first).
        RETURNS (ndarray): (n, len(labels)) scores.
        """
        assert self.weights is not None
        n = len(clique.detector)
        out = np.zeros((n, len(labels)))
        rows = self.weights[clique.feats]  # (n, F, L)
        for k, label in enumerate(labels):
            col = self._index.get(label)
            if col is not None:
                out[:, k] = rows[:, :, col].sum(axis=1)
            same = np.array([d == label for d in clique.detector])
            if label == OUTSIDE:
                out[:, k] += self.det_o * same
            else:
                out[:, k] += self.det_phi * clique.scores * same
        return out

    def pair_weight(self, n: int) -> float:
        """RETURNS (float): The agreement weight of each pair in a clique of n."""
        return self.agreement / max(1, n - 1)

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): msgpack-able data; only non-zero rows."""
        assert self.weights is not None
        rows = np.flatnonzero(np.abs(self.weights).sum(axis=1) > 0)
        return {
            "labels": list(self.labels),
            "n_rows": self.n_rows,
            "det_phi": self.det_phi,
            "det_o": self.det_o,
            "agreement": self.agreement,
            "rows": rows.astype("i8").tobytes(),
            "values": self.weights[rows].astype("f4").tobytes(),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "SkipChainModel":
        """Rebuild a model from `to_dict`'s data.

        data (Dict[str, Any]): The data.
        RETURNS (SkipChainModel): The model.
        """
        labels = list(data["labels"])
        weights = np.zeros((int(data["n_rows"]), len(labels)), dtype="f4")
        rows = np.frombuffer(data["rows"], dtype="i8")
        values = np.frombuffer(data["values"], dtype="f4").reshape(len(rows), len(labels))
        weights[rows] = values
        return cls(
            labels=labels,
            n_rows=int(data["n_rows"]),
            det_phi=float(data["det_phi"]),
            det_o=float(data["det_o"]),
            agreement=float(data["agreement"]),
            weights=weights,
        )


def train_model(
    cliques: Sequence[Clique],
    labels: Sequence[str],
    *,
    n_rows: int = 2**16,
    n_iter: int = 100,
    learn_rate: float = 0.5,
    l2: float = 1e-4,
) -> SkipChainModel:
    """Fit W, det_phi, det_o and agreement by pseudo-likelihood.

    cliques (Sequence[Clique]): Training cliques with gold labels.
    labels (Sequence[str]): The PHI labels the model knows.
    n_rows (int): Rows of the hashed weight table.
    n_iter (int): Full-batch AdaGrad steps.
    learn_rate (float): AdaGrad's step size.
    l2 (float): L2 penalty on W (per node, averaged).
    RETURNS (SkipChainModel): The trained model.
    """
    all_labels = [OUTSIDE] + [lab for lab in labels if lab != OUTSIDE]
    index = {lab: k for k, lab in enumerate(all_labels)}
    data = _pl_data(cliques, index)
    model = SkipChainModel(labels=all_labels, n_rows=n_rows)
    if data is None:
        return model
    feats, det, frac, gold = data
    n, n_labels = len(gold), len(all_labels)
    w = np.zeros((n_rows, n_labels))
    shared = np.array([model.det_phi, model.det_o, model.agreement])
    g2_w, g2_s = np.full_like(w, 1e-8), np.full(3, 1e-8)
    for _ in range(n_iter):
        scores = w[feats].sum(axis=1) + shared[0] * det[0] + shared[1] * det[1]
        scores += shared[2] * frac
        scores -= scores.max(axis=1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=1, keepdims=True)
        resid = probs
        resid[np.arange(n), gold] -= 1.0
        resid /= n
        grad_w = np.zeros_like(w)
        np.add.at(grad_w, feats, resid[:, None, :])
        grad_w += l2 * w
        grad_s = np.array(
            [(resid * det[0]).sum(), (resid * det[1]).sum(), (resid * frac).sum()]
        )
        g2_w += grad_w**2
        g2_s += grad_s**2
        w -= learn_rate * grad_w / np.sqrt(g2_w)
        shared -= learn_rate * grad_s / np.sqrt(g2_s)
        # The pull towards agreement and the detector must stay attractive.
        shared = np.maximum(shared, 0.0)
    return SkipChainModel(
        labels=all_labels,
        n_rows=n_rows,
        det_phi=float(shared[0]),
        det_o=float(shared[1]),
        agreement=float(shared[2]),
        weights=w.astype("f4"),
    )


def _pl_data(cliques: Sequence[Clique], index: Dict[str, int]) -> Optional[tuple]:
    """Arrays for pseudo-likelihood: features, detector indicators (PHI
    scaled by score; "O"), fraction of other nodes per gold label, gold ids,
    over the nodes whose gold label is known."""
    feats, det_phi, det_o, frac, gold = [], [], [], [], []
    n_labels = len(index)
    for clique in cliques:
        assert clique.gold is not None
        ids = [index.get(g, -1) if g is not None else -1 for g in clique.gold]
        counts = np.bincount([i for i in ids if i >= 0], minlength=n_labels)
        known = sum(1 for i in ids if i >= 0)
        for k, gid in enumerate(ids):
            if gid < 0 or known < 2:
                continue
            others = counts.astype("f8")
            others[gid] -= 1
            frac.append(others / (known - 1))
            feats.append(clique.feats[k])
            row_phi, row_o = np.zeros(n_labels), np.zeros(n_labels)
            d = index.get(clique.detector[k])
            if d == 0:
                row_o[0] = 1.0
            elif d is not None:
                row_phi[d] = clique.scores[k]
            det_phi.append(row_phi)
            det_o.append(row_o)
            gold.append(gid)
    if not gold:
        return None
    return (
        np.stack(feats),
        (np.stack(det_phi), np.stack(det_o)),
        np.stack(frac),
        np.array(gold),
    )
