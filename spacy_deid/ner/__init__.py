"""Character-aware BiLSTM-CRF named entity recognition for PHI (`phi_ner`)."""

from .component import PhiEntityRecognizer, make_phi_ner
from ..tagging.crf import CRFParams, biluo_tag_names, crf_loss, crf_marginals, viterbi
from .models import (
    build_char_bilstm_crf,
    build_char_bilstm_embed,
    build_char_cnn_embed,
    build_token_features,
)

__all__ = [
    "PhiEntityRecognizer",
    "make_phi_ner",
    "CRFParams",
    "biluo_tag_names",
    "crf_loss",
    "crf_marginals",
    "viterbi",
    "build_char_bilstm_crf",
    "build_char_bilstm_embed",
    "build_char_cnn_embed",
    "build_token_features",
]
