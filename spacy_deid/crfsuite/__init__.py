"""Feature-based linear-chain CRF baseline for PHI (`phi_crf`).

The classic de-identification baseline: a CRFsuite tagger (python-crfsuite,
the optional extra `spacy-deid[crf]`) over hand-written token features
(`features.py`). CRFsuite trains the model; decoding uses the weights with our
own BILUO-constrained Viterbi and marginals (`spacy_deid.tagging.crf`), so its
output is always a legal span set and compares one to one with `phi_ner`.
"""

from .component import PhiCRF, make_phi_crf, require_crfsuite
from .features import FEATURES_VERSION, Lexicon, LexiconMatcher, default_lexicons
from .features import doc_features

__all__ = [
    "PhiCRF",
    "make_phi_crf",
    "require_crfsuite",
    "FEATURES_VERSION",
    "Lexicon",
    "LexiconMatcher",
    "default_lexicons",
    "doc_features",
]
