"""python-crfsuite glue for `phi_crf`: the lazy import, training to model
bytes, and the model's weights as arrays for our own decoding.

CRFsuite's own tagger is never used for prediction: its Viterbi knows nothing
of BILUO and can output an illegal tag sequence. `CRFWeights` reads the
learned state-feature and transition weights (`Tagger.info()`), scores tokens
by summing their features' weight rows and gives BILUO-constrained CRF
parameters for `spacy_deid.tagging.crf.viterbi` and `crf_marginals`.
"""

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Sequence

import numpy as np

from ..tagging.crf import CRFParams, legal_transitions

INSTALL_HINT = 'pip install "spacy-deid[crf]"'
ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")


def require_crfsuite() -> Any:
    """Import python-crfsuite, or explain how to install it.

    RETURNS (module): The `pycrfsuite` module.
    """
    try:
        import pycrfsuite
    except ImportError as err:
        raise ImportError(
            "The phi_crf component needs python-crfsuite, an optional "
            f"dependency of spacy-deid: {INSTALL_HINT}"
        ) from err
    return pycrfsuite


def trainer_params(cfg: Dict[str, Any]) -> Dict[str, Any]:
    """CRFsuite training parameters from the component's cfg. c1 (L1) is
    used by "lbfgs" only, c2 (L2) by "lbfgs" and "l2sgd".

    cfg (Dict[str, Any]): The component cfg.
    RETURNS (Dict[str, Any]): Parameters for `Trainer.set_params`.
    """
    params: Dict[str, Any] = {
        "max_iterations": int(cfg["max_iterations"]),
        "feature.possible_transitions": bool(cfg["all_possible_transitions"]),
        "feature.minfreq": float(cfg["min_freq"]),
    }
    if cfg["algorithm"] == "lbfgs":
        params["c1"] = float(cfg["c1"])
    if cfg["algorithm"] in ("lbfgs", "l2sgd"):
        params["c2"] = float(cfg["c2"])
    return params


def new_trainer(cfg: Dict[str, Any]) -> Any:
    """A silent `pycrfsuite.Trainer` set up from the component's cfg.

    cfg (Dict[str, Any]): The component cfg.
    RETURNS (pycrfsuite.Trainer): The trainer, without data.
    """
    pycrfsuite = require_crfsuite()
    trainer = pycrfsuite.Trainer(algorithm=cfg["algorithm"], verbose=False)
    trainer.set_params(trainer_params(cfg))
    return trainer


def train_to_bytes(trainer: Any) -> bytes:
    """Train on the appended sequences, in a temporary directory that is
    removed afterwards (the model file holds feature strings, i.e. words of
    the training notes).

    trainer (pycrfsuite.Trainer): A trainer with data.
    RETURNS (bytes): The CRFsuite model file.
    """
    with tempfile.TemporaryDirectory(prefix="phi_crf_") as tmp:
        path = os.path.join(tmp, "model.crfsuite")
        trainer.train(path)
        return Path(path).read_bytes()


@dataclass
class CRFWeights:
    """A CRFsuite model's weights in our BILUO tag order.

    rows: feature string -> row of `state` (row 0 is all zeros and stands
    for features the model does not know). state: (n_features + 1, K)
    weights. transitions: (K, K) weights. trained: (K,) whether CRFsuite saw
    the tag in training ("O" always counts as trained).
    """

    rows: Dict[str, int]
    state: np.ndarray
    transitions: np.ndarray
    trained: np.ndarray

    @classmethod
    def from_model(cls, data: bytes, tag_names: Sequence[str]) -> "CRFWeights":
        """Read the weights of a CRFsuite model.

        data (bytes): The model file.
        tag_names (Sequence[str]): Our tag order (`biluo_tag_names`).
        RETURNS (CRFWeights): The weights.
        """
        pycrfsuite = require_crfsuite()
        # CRFsuite reads the model in place: keep `model` alive until closed.
        model = bytes(data)
        tagger = pycrfsuite.Tagger()
        try:
            tagger.open_inmemory(model)
        except ValueError as err:
            raise ValueError("phi_crf: the CRFsuite model data is invalid") from err
        try:
            info = tagger.info()
        finally:
            tagger.close()
        index = {tag: i for i, tag in enumerate(tag_names)}
        unknown = sorted(set(info.labels) - set(index))
        if unknown:
            raise ValueError(
                f"phi_crf: the CRFsuite model has tags {unknown} that its "
                "labels do not define"
            )
        attrs = sorted({attr for attr, _ in info.state_features})
        rows = {attr: i + 1 for i, attr in enumerate(attrs)}
        K = len(tag_names)
        state = np.zeros((len(attrs) + 1, K), dtype="f4")
        for (attr, tag), weight in info.state_features.items():
            state[rows[attr], index[tag]] = weight
        transitions = np.zeros((K, K), dtype="f8")
        for (prev, tag), weight in info.transitions.items():
            transitions[index[prev], index[tag]] = weight
        trained = np.zeros(K, dtype=bool)
        trained[[index[tag] for tag in info.labels]] = True
        trained[0] = True
        return cls(rows, state, transitions, trained)

    @property
    def n_tags(self) -> int:
        """RETURNS (int): K, the number of tags."""
        return self.state.shape[1]

    def emissions(self, features: List[List[str]]) -> np.ndarray:
        """Sum each token's feature rows: the CRFsuite state scores. Features
        the model does not know count zero.

        features (List[List[str]]): Feature strings per token.
        RETURNS (np.ndarray): Scores (n_tokens, K), float64.
        """
        n = len(features)
        scores = np.zeros((n, self.n_tags), dtype="f8")
        get = self.rows.get
        ids = np.fromiter((get(feat, 0) for token in features for feat in token), "i8")
        sizes = np.fromiter((len(token) for token in features), "i8", count=n)
        tokens = np.repeat(np.arange(n), sizes)
        known = ids > 0
        ids, tokens = ids[known], tokens[known]
        if not ids.size:
            return scores
        # Rows are grouped by token in order: one reduceat over the tokens
        # that have known features.
        counts = np.bincount(tokens, minlength=n)
        has = counts > 0
        starts = np.concatenate(([0], np.cumsum(counts[has])[:-1]))
        scores[has] = np.add.reduceat(self.state[ids], starts, axis=0)
        return scores

    def params(self, constrained: bool = True) -> CRFParams:
        """CRF parameters for `viterbi` / `crf_marginals`: the learned
        transitions, no start or end scores (CRFsuite has none), and with
        `constrained` the BILUO constraints and a ban on tags CRFsuite never
        saw, as -inf (exact zeros in the marginals).

        constrained (bool): Add the constraints (False: CRFsuite's own model).
        RETURNS (CRFParams): The parameters (float64).
        """
        K = self.n_tags
        start, end = np.zeros(K), np.zeros(K)
        if not constrained:
            return CRFParams(self.transitions.copy(), start, end)
        legal, first, last = legal_transitions(K)
        legal = legal & self.trained[None, :]
        return CRFParams(
            np.where(legal, self.transitions, -np.inf),
            np.where(first & self.trained, start, -np.inf),
            np.where(last, end, -np.inf),
        )
