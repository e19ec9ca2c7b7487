"""Prediction of `TokenFeatures.v1` once per distinct feature row.

spaCy's `MultiHashEmbed` (without static vectors) extracts an integer row per
token (its NORM, PREFIX, SUFFIX, SHAPE ids) and then only runs row-wise
layers: hash embeddings, a Maxout layer, layer normalization. So two tokens
with the same row get the same vector, and a batch of notes has a few times
fewer distinct rows than tokens. `distinct_rows_forward` replaces the chain's
forward: training is unchanged; prediction runs the row-wise layers on the
distinct rows and copies the vectors back to every token. The model's layers,
parameters and serialization are those of `MultiHashEmbed`.
"""

from typing import Callable, List, Tuple

import numpy as np
from spacy.tokens import Doc
from thinc.api import Model
from thinc.layers.chain import forward as chain_forward
from thinc.types import Floats2d

from ._unique import distinct_rows

InT = List[Doc]
OutT = List[Floats2d]


def predict_distinct_rows(model: Model[InT, OutT]) -> Model[InT, OutT]:
    """Make a `MultiHashEmbed` chain (feature extractor first, row-wise layers
    after it) predict once per distinct feature row.

    model (Model): The chain, changed in place.
    RETURNS (Model): The same model.
    """
    model.replace_callbacks(distinct_rows_forward, init=model.init)
    return model


def distinct_rows_forward(
    model: Model[InT, OutT], docs: InT, is_train: bool
) -> Tuple[OutT, Callable]:
    if is_train or not docs:
        return chain_forward(model, docs, is_train)
    extract, *row_wise = model.layers
    rows = extract.predict(docs)
    lengths = [len(doc_rows) for doc_rows in rows]
    flat = model.ops.xp.concatenate(rows)
    distinct, inverse = distinct_rows(flat)
    if inverse is None:
        distinct, inverse = np.unique(flat, axis=0, return_inverse=True)
    X = [model.ops.asarray(distinct, dtype=flat.dtype)]
    for layer in row_wise:
        X = layer.predict(X)
    (vectors,) = X
    return model.ops.unflatten(vectors[inverse.reshape(-1)], lengths), _no_backprop


def _no_backprop(dYs: OutT) -> List:
    raise ValueError(
        "TokenFeatures: no backprop after a forward pass with is_train=False"
    )
