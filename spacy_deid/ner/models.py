"""Registered architectures of the character-aware BiLSTM-CRF tagger.

    spacy_deid.CharBiLSTMCRF.v1    docs -> BILUO emission scores (+ CRF layer)
    spacy_deid.CharBiLSTMEmbed.v1  per-token character BiLSTM, max-pooled
    spacy_deid.CharCNNEmbed.v1     per-token character CNN, max-pooled
    spacy_deid.TokenFeatures.v1    hashed NORM/PREFIX/SUFFIX/SHAPE (+ vectors)
    spacy_deid.TokenFeatures.v2    v1 + knowledge rows (name, place, word frequency)
    spacy_deid.EmptyDocWidth.v1    a features layer whose empty docs keep its width

Also registered through the `spacy_architectures` entry point, so configs work
without importing spacy_deid. The LSTMs are `_bilstm.bilstm`, not thinc's
`LSTM`, whose CPU gradients are wrong in thinc 8.3 (see `_bilstm.py`).
"""

from typing import List, Optional, Union

from spacy.ml.models.tok2vec import MultiHashEmbed
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Dropout, Linear, Model, chain, concatenate, with_array
from thinc.types import Floats2d

from ._bilstm import bilstm
from ._char_cnn import char_cnn
from ._char_encoder import char_encoder
from ._crf_layer import linear_chain_crf
from ._distinct_rows import predict_distinct_rows
from ._empty_width import with_empty_width
from ._knowledge import knowledge_features
from ._skip_empty import skip_empty
from ._word_cache import cache_words, is_per_word
from ..tagging.packing import with_packed

DocsToArrays = Model[List[Doc], List[Floats2d]]
DEFAULT_ATTRS = ("NORM", "PREFIX", "SUFFIX", "SHAPE")


@registry.architectures("spacy_deid.CharBiLSTMEmbed.v1")
def build_char_bilstm_embed(
    width: int = 25, hidden_width: int = 25, max_chars: int = 25
) -> DocsToArrays:
    """Character BiLSTM token embedding (Lample et al. 2016, NeuroNER).

    width (int): Width of the byte embeddings.
    hidden_width (int): LSTM width per direction; the output is twice that.
    max_chars (int): Bytes per token (longer tokens keep both ends).
    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token.
    """
    lstm = bilstm(nO=2 * hidden_width, nI=width)
    return char_encoder(lstm, nM=width, nC=max_chars)


@registry.architectures("spacy_deid.CharCNNEmbed.v1")
def build_char_cnn_embed(
    width: int = 25, filters: int = 50, window: int = 1, max_chars: int = 25
) -> DocsToArrays:
    """Character CNN token embedding (faster than the BiLSTM).

    width (int): Width of the byte embeddings.
    filters (int): Number of filters, the output width.
    window (int): Bytes on each side of the kernel's centre.
    max_chars (int): Bytes per token (longer tokens keep both ends).
    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token.
    """
    cnn = char_cnn(nO=filters, nI=width, window=window)
    return char_encoder(cnn, nM=width, nC=max_chars)


@registry.architectures("spacy_deid.TokenFeatures.v1")
def build_token_features(
    width: int = 100,
    attrs: Optional[List[Union[str, int]]] = None,
    rows: Optional[List[int]] = None,
    include_static_vectors: bool = False,
) -> DocsToArrays:
    """Hashed embeddings of lexical attributes, mixed by a Maxout layer (spaCy's
    MultiHashEmbed).

    width (int): Output width.
    attrs (Optional[List[Union[str, int]]]): Token attributes to embed;
        default NORM, PREFIX, SUFFIX, SHAPE.
    rows (Optional[List[int]]): Hash table rows per attribute; default 5000
        for the first, 2500 for the others.
    include_static_vectors (bool): Also use the pipeline's static vectors.
    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token. Without
        static vectors, prediction runs once per distinct feature row
        (`_distinct_rows`).
    """
    attrs = list(DEFAULT_ATTRS) if attrs is None else attrs
    rows = [5000] + [2500] * (len(attrs) - 1) if rows is None else rows
    model = MultiHashEmbed(width, attrs, rows, include_static_vectors)
    return model if include_static_vectors else predict_distinct_rows(model)


@registry.architectures("spacy_deid.TokenFeatures.v2")
def build_token_features_v2(
    width: int = 100,
    attrs: Optional[List[Union[str, int]]] = None,
    rows: Optional[List[int]] = None,
    include_static_vectors: bool = False,
    knowledge: bool = True,
) -> DocsToArrays:
    """`TokenFeatures.v1` beside each token's knowledge row (`_knowledge.py`):
    frequency buckets of its use as a surname, a given name, a place and an
    ordinary word, and whether it names a country, a state or a drug. The
    tables know rare names and small towns that no training note has.

    width (int): Output width of the hashed part (the knowledge row adds
        `_knowledge.WIDTH` columns).
    attrs, rows, include_static_vectors: As for `TokenFeatures.v1`.
    knowledge (bool): Add the knowledge rows (False gives v1).
    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token.
    """
    hashed = build_token_features(width, attrs, rows, include_static_vectors)
    return concatenate(hashed, knowledge_features()) if knowledge else hashed


@registry.architectures("spacy_deid.EmptyDocWidth.v1")
def build_empty_doc_width(layer: DocsToArrays) -> DocsToArrays:
    """Wrap a features layer so that an empty doc's output has the layer's
    width: spacy-transformers' listener gives (0, 0), which a concatenation
    with the character embedding refuses.

    layer (Model): The features, e.g. spacy-transformers.TransformerListener.v1.
    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token.
    """
    return with_empty_width(layer)


@registry.architectures("spacy_deid.CharBiLSTMCRF.v1")
def build_char_bilstm_crf(
    features: DocsToArrays,
    char_embed: Optional[DocsToArrays] = None,
    hidden_width: int = 100,
    depth: int = 1,
    dropout: float = 0.5,
    nO: Optional[int] = None,
) -> DocsToArrays:
    """Token features (+ character embedding) -> dropout -> BiLSTM over the
    tokens of each doc -> dropout -> linear BILUO emission scores, followed by
    a linear-chain CRF layer (refs "output" and "crf").

    features (Model): Token features, e.g. spacy_deid.TokenFeatures.v1.
    char_embed (Optional[Model]): Character embedding, e.g.
        spacy_deid.CharBiLSTMEmbed.v1; None to leave it out.
    hidden_width (int): Token BiLSTM width per direction.
    depth (int): Number of BiLSTM layers; 0 for none (the features, e.g. a
        transformer listener, feed the linear layer directly).
    dropout (float): Dropout before and after the BiLSTM (`spacy train` sets
        it to `training.dropout`).
    nO (Optional[int]): Number of BILUO tags; set by the component.
    RETURNS (Model[List[Doc], List[Floats2d]]): Emission scores per doc.
    """
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    embed = features if char_embed is None else concatenate(char_embed, features)
    if is_per_word(embed):
        cache_words(embed)
    output = Linear(nO=nO)
    if depth == 0:
        tagger = chain(embed, Dropout(dropout), with_array(output))
    else:
        lstms = [bilstm(nO=2 * hidden_width) for _ in range(depth)]
        tagger = chain(
            embed,
            Dropout(dropout),
            with_packed(chain(*lstms) if depth > 1 else lstms[0]),
            Dropout(dropout),
            with_array(output),
        )
    crf = linear_chain_crf(nO=nO)
    model = chain(skip_empty(tagger, output), crf)
    model.set_ref("output", output)
    model.set_ref("crf", crf)
    model.set_ref("embed", embed)
    return model
