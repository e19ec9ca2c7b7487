"""Skip-chain alignment of repeated PHI words (`phi_skipchain`): the
occurrences of a word type that a detector marked at least once are
re-labelled jointly by a fully connected pairwise CRF."""

from .component import SOURCE, PhiSkipChain, make_phi_skipchain
from .decoding import brute_force, decode_clique
from .model import SkipChainModel, train_model

__all__ = [
    "SOURCE",
    "PhiSkipChain",
    "make_phi_skipchain",
    "brute_force",
    "decode_clique",
    "SkipChainModel",
    "train_model",
]
