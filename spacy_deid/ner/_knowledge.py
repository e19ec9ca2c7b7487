"""Knowledge features: what public data knows about each token, as a fixed row.

The CRF systems of the seed papers used dictionary features; a dictionary that
only says "in a name list" cannot tell "Smith" from "Reading". These rows hold
frequency buckets instead (`spacy_deid.knowledge`): how many people bear the
token as a surname or a given name, the population of a place of that name,
how often English text uses it as an ordinary word, and whether it is a
country, a state, a county or a drug. A token the tagger never saw in training
(a rare surname, a small town) then still looks like a name or a place.

The rows are constant (no weights) and depend on the token's text only: each
distinct text's code is read once per process from the precomputed code file
(`knowledge.codes`, milliseconds to load) and cached by the text's hash (its
`ORTH` id), so the cache holds no note text. A doc's rows are read from its
`ORTH` array, once per distinct text, without making a `Token` per token: about
0.7 us per token instead of 1.3.
"""

from typing import Callable, Dict, List, Tuple

import numpy as np
from spacy.attrs import ORTH
from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d

from ..knowledge.codes import BUCKETS, COUNTS, FLAGS, code_of, unpack

InT = List[Doc]
OutT = List[Floats2d]

WIDTH = len(COUNTS) * BUCKETS + len(FLAGS)
# Rows of the texts seen, by ORTH id; bounded so a stream of unique ids cannot
# grow it forever.
_MAX_CACHED = 1 << 18
_CACHE: Dict[int, np.ndarray] = {}
_ZEROS = np.zeros((WIDTH,), dtype="f")


def knowledge_features() -> Model[InT, OutT]:
    """A layer giving each token its knowledge row (`WIDTH` columns, 0/1).

    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token; no weights.
    """
    return Model("knowledge_features", forward, dims={"nO": WIDTH})


def forward(
    model: Model[InT, OutT], docs: InT, is_train: bool
) -> Tuple[OutT, Callable]:
    out = [model.ops.asarray2f(doc_rows(doc)) for doc in docs]
    return out, _no_gradient


def doc_rows(doc: Doc) -> np.ndarray:
    """The knowledge rows of a doc's tokens.

    doc (Doc): The doc.
    RETURNS (np.ndarray): (len(doc), WIDTH) float32.
    """
    if not len(doc):
        return np.zeros((0, WIDTH), dtype="f")
    orths, index = np.unique(doc.to_array(ORTH), return_inverse=True)
    strings = doc.vocab.strings
    rows = np.stack([_cached_row(int(orth), strings) for orth in orths])
    return rows[index.reshape(-1)]


def _no_gradient(dY: OutT) -> List:
    return []


def token_rows(texts: List[str]) -> np.ndarray:
    """The knowledge rows of some token texts.

    texts (List[str]): Token texts.
    RETURNS (np.ndarray): (len(texts), WIDTH) float32.
    """
    if not texts:
        return np.zeros((0, WIDTH), dtype="f")
    return np.stack([_row(text) for text in texts])


def _cached_row(orth: int, strings) -> np.ndarray:
    row = _CACHE.get(orth)
    if row is None:
        row = _row(strings[orth])
        if len(_CACHE) >= _MAX_CACHED:
            _CACHE.clear()
        _CACHE[orth] = row
    return row


def _row(text: str) -> np.ndarray:
    return code_row(code_of(text)) if _has_letters(text) else _ZEROS


def _has_letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def code_row(code: int) -> np.ndarray:
    """One token's row from its knowledge code: a one-hot bucket per count
    (surname, given name, place, word use), then one column per flag.

    code (int): `knowledge.codes.code_of`'s answer.
    RETURNS (np.ndarray): (WIDTH,) float32 of zeros and ones.
    """
    buckets, flags = unpack(code)
    row = np.zeros((WIDTH,), dtype="f")
    for i, bucket in enumerate(buckets):
        row[i * BUCKETS + bucket] = 1.0
    row[len(COUNTS) * BUCKETS :] = flags
    return row
