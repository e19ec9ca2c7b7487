"""The HMM-DP architectures: their settings (`spacy_deid.HMMDP.v1`,
`spacy_deid.HMMDP.v2`) and training from gold-tagged sequences to the
decoding HMM.

v1 starts EM from random emissions, decodes with the one tag HMM closest in
KL to the latent model (`decoding.ApproxHMM`, which forgets the sub-tags)
and reads rare words as the v1 word classes. v2 has the same model and
updates, but reads rare words as the v2 classes (digit runs kept to 10,
name and place frequency buckets), starts EM with the "O" sub-tags split by
the entity they are next to (`variational.context_posterior`: a higher bound
than random starts reach) and decodes each doc by its own posterior tag
marginals over the sub-tags (`decoding.SubtagHMM`). MEDDOCAN dev strict
micro F1, one change after the other with 16/4 sub-tags: v1 0.793, marginal
decoding 0.811, v2 classes 0.840, context start 0.880; with the paper's
100/8 sub-tags 0.913 (`configs/hmm_meddocan.cfg`).

Sizes: the paper used K = 100 sub-tags for "O" and 8 per PHI sub-category.
The defaults here are smaller (16 for "O", 4 for each B/I/L/U tag of a
label), because training time grows with K² per token; the MEDDOCAN config
follows the paper.
"""

from dataclasses import asdict, dataclass, replace
from typing import Any, Dict, List, Sequence, Tuple, Union

import numpy as np
from spacy.util import registry

from .decoding import ApproxHMM, SubtagHMM, approximate, posterior_means
from .variational import Layout, Priors, expectations, fit, make_batches
from .words import WORD_CLASSES_V2, WORD_CLASSES_VERSION, WordVocab

MODEL_VERSION = "spacy_deid.HMMDP.v1"
MODEL_VERSION_V2 = "spacy_deid.HMMDP.v2"
# The registered name and the word classes of each settings version.
VERSIONS = {1: MODEL_VERSION, 2: MODEL_VERSION_V2}
WORD_CLASSES = {1: WORD_CLASSES_VERSION, 2: WORD_CLASSES_V2}
INITS = ("context", "random")

# (token texts, tag ids, starts a doc, ends a doc)
TaggedSequence = Tuple[List[str], np.ndarray, bool, bool]


@dataclass(frozen=True)
class HMMDPSettings:
    """The hyperparameters of an HMM-DP tagger (see `build_hmm_dp`)."""

    n_subtags_o: int = 16
    n_subtags_phi: int = 4
    alpha: float = 1.0
    gamma: float = 1.0
    emission_prior: float = 0.01
    transition_prior: float = 1.0
    max_iterations: int = 30
    tol: float = 1e-4
    min_count: int = 2
    seed: int = 0
    version: int = 1
    init: str = "random"

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): The settings, JSON-serializable."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "HMMDPSettings":
        """data (Dict[str, Any]): From `to_dict`.
        RETURNS (HMMDPSettings): The checked settings."""
        data = dict(data)
        version = data.pop("version", 1)
        if version not in VERSIONS:
            raise ValueError(f"unknown HMM-DP settings version {version!r}")
        if version == 2:
            return build_hmm_dp_v2(**data)
        if data.pop("init", "random") != "random":
            raise ValueError("HMM-DP v1 starts EM from random emissions only")
        return build_hmm_dp(**data)

    @property
    def architecture(self) -> str:
        """RETURNS (str): The registered name these settings come from."""
        return VERSIONS[self.version]

    @property
    def word_classes(self) -> str:
        """RETURNS (str): The word-class version of the vocabulary."""
        return WORD_CLASSES[self.version]

    @property
    def priors(self) -> Priors:
        """RETURNS (Priors): The model's hyperparameters."""
        return Priors(
            alpha=self.alpha,
            gamma=self.gamma,
            emission=self.emission_prior,
            transition=self.transition_prior,
            start=self.transition_prior,
        )


@registry.architectures("spacy_deid.HMMDP.v1")
def build_hmm_dp(
    n_subtags_o: int = 16,
    n_subtags_phi: int = 4,
    alpha: float = 1.0,
    gamma: float = 1.0,
    emission_prior: float = 0.01,
    transition_prior: float = 1.0,
    max_iterations: int = 30,
    tol: float = 1e-4,
    min_count: int = 2,
    seed: int = 0,
) -> HMMDPSettings:
    """The HMM with Dirichlet-process sub-tags (Chen et al. 2015).

    n_subtags_o (int): Truncation K of the "O" tag's sub-tags (paper: 100).
    n_subtags_phi (int): K of each B/I/L/U tag of a label (paper: 8).
    alpha (float): DP concentration of the sub-tag transitions.
    gamma (float): GEM concentration of each tag's sub-tag weights.
    emission_prior (float): Symmetric Dirichlet prior of the emissions.
    transition_prior (float): Symmetric Dirichlet prior of the next tag
        (and of the first tag).
    max_iterations (int): Most variational EM iterations.
    tol (float): Stop when the ELBO gains less than this per token.
    min_count (int): Fewest occurrences of a word (or word class) kept in
        the emission vocabulary; rarer words become their class.
    seed (int): Seed of the initial posterior.
    RETURNS (HMMDPSettings): The settings.
    """
    for key, value in (
        ("n_subtags_o", n_subtags_o),
        ("n_subtags_phi", n_subtags_phi),
        ("max_iterations", max_iterations),
        ("min_count", min_count),
    ):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise ValueError(f"{key} must be an integer >= 1")
    for key, value in (
        ("alpha", alpha),
        ("gamma", gamma),
        ("emission_prior", emission_prior),
        ("transition_prior", transition_prior),
    ):
        if not float(value) > 0 or not np.isfinite(value):
            raise ValueError(f"{key} must be a positive number")
    if not float(tol) >= 0:
        raise ValueError("tol must be >= 0")
    return HMMDPSettings(
        int(n_subtags_o), int(n_subtags_phi), float(alpha), float(gamma),
        float(emission_prior), float(transition_prior), int(max_iterations),
        float(tol), int(min_count), int(seed),
    )  # fmt: skip


@registry.architectures("spacy_deid.HMMDP.v2")
def build_hmm_dp_v2(
    n_subtags_o: int = 16,
    n_subtags_phi: int = 4,
    alpha: float = 1.0,
    gamma: float = 1.0,
    emission_prior: float = 0.01,
    transition_prior: float = 1.0,
    max_iterations: int = 30,
    tol: float = 1e-4,
    min_count: int = 2,
    seed: int = 0,
    init: str = "context",
) -> HMMDPSettings:
    """HMM-DP as v1 (the same model and updates), with the v2 word classes,
    EM started from "O" sub-tags split by the entities they are next to,
    and decoded by each doc's posterior tag marginals over the sub-tags (see
    the module docstring; the other settings as in `build_hmm_dp`).

    init (str): "context" (`variational.context_posterior`) or "random"
        (v1's start).
    RETURNS (HMMDPSettings): The settings.
    """
    if init not in INITS:
        raise ValueError(f"init must be one of {', '.join(INITS)}")
    settings = build_hmm_dp(
        n_subtags_o, n_subtags_phi, alpha, gamma, emission_prior,
        transition_prior, max_iterations, tol, min_count, seed,
    )  # fmt: skip
    return replace(settings, version=2, init=init)


@dataclass
class TrainedHMM:
    """What training leaves: the vocabulary, the decoding HMM, the ELBO per
    iteration and the number of training tokens."""

    vocab: WordVocab
    hmm: Union[ApproxHMM, SubtagHMM]
    history: List[float]
    n_tokens: int


def train_hmm(
    seqs: Sequence[TaggedSequence], n_labels: int, settings: HMMDPSettings
) -> TrainedHMM:
    """Fit the latent model by variational EM and build the decoding HMM.

    seqs (Sequence[TaggedSequence]): The gold-tagged training sequences.
    n_labels (int): The number of labels (tags are 1 + 4 n_labels).
    settings (HMMDPSettings): The hyperparameters.
    RETURNS (TrainedHMM): The trained model.
    """
    vocab = WordVocab.build(
        (text for seq in seqs for text in seq[0]),
        settings.min_count,
        settings.word_classes,
    )
    data = [(vocab.ids(texts), tags, start, end) for texts, tags, start, end in seqs]
    layout = Layout.for_labels(n_labels, settings.n_subtags_o, settings.n_subtags_phi)
    post, counts, history = fit(
        make_batches(data),
        layout,
        settings.priors,
        len(vocab),
        max_iterations=settings.max_iterations,
        tol=settings.tol,
        seed=settings.seed,
        init=settings.init,
    )
    means = posterior_means(post, expectations(post, layout).mean_beta, layout)
    n_tokens = int(sum(len(seq[1]) for seq in seqs))
    if settings.version == 1:
        hmm: Union[ApproxHMM, SubtagHMM] = approximate(counts, means, layout)
    else:
        hmm = SubtagHMM.from_means(means, layout)
    return TrainedHMM(vocab, hmm, history, n_tokens)
