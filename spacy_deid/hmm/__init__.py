"""HMM with Dirichlet-process sub-tags for PHI (`phi_hmm`, HMM-DP).

Chen, Cullen and Godwin's generative tagger: latent sub-tags per BILUO tag
with stick-breaking priors, learnt by mean-field variational EM
(`variational.py`), decoded through the closest tag HMM (`decoding.py`) with
the shared constrained BILUO Viterbi. numpy only.
"""

from .component import PhiHMM, make_phi_hmm
from .decoding import ApproxHMM, approximate, joint_log_prob, posterior_means
from .model import MODEL_VERSION, HMMDPSettings, build_hmm_dp, train_hmm
from .words import WORD_CLASSES_VERSION, WordVocab, word_class

__all__ = [
    "PhiHMM",
    "make_phi_hmm",
    "ApproxHMM",
    "approximate",
    "joint_log_prob",
    "posterior_means",
    "MODEL_VERSION",
    "HMMDPSettings",
    "build_hmm_dp",
    "train_hmm",
    "WORD_CLASSES_VERSION",
    "WordVocab",
    "word_class",
]
