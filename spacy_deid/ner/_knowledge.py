"""Knowledge features: what public data knows about each token, as a fixed row.

The CRF systems of the seed papers used dictionary features; a dictionary that
only says "in a name list" cannot tell "Smith" from "Reading". These rows hold
frequency buckets instead (`spacy_deid.knowledge`): how many people bear the
token as a surname or a given name, the population of a place of that name,
how often English text uses it as an ordinary word, and whether it is a
country, a state, a county or a drug. A token the tagger never saw in training
(a rare surname, a small town) then still looks like a name or a place.

The rows are constant (no weights) and depend on the token's text only, so
each distinct text is looked up once per process and cached.
"""

import math
from typing import Callable, Dict, List, Tuple

import numpy as np
from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d

from ..knowledge import Knowledge, lookup

InT = List[Doc]
OutT = List[Floats2d]

# log10 buckets of a count: (none), <1e3, 1e3, 1e4, 1e5, >=1e6
_COUNT_BUCKETS = 6
# zipf buckets of word use: (unknown), <3, 3, 4, 5, >=6
_ZIPF_BUCKETS = 6
_FLAGS = (
    "common_word", "drug", "country", "country_code", "state", "state_code",
    "county", "name_over_word", "place_over_word", "female_given",
)  # fmt: skip
WIDTH = 3 * _COUNT_BUCKETS + _ZIPF_BUCKETS + len(_FLAGS)
# A cache of texts seen, bounded so a stream of unique ids cannot grow it forever.
_MAX_CACHED = 1 << 18
_CACHE: Dict[str, np.ndarray] = {}
_ZEROS = np.zeros((WIDTH,), dtype="f")


def knowledge_features() -> Model[InT, OutT]:
    """A layer giving each token its knowledge row (`WIDTH` columns, 0/1).

    RETURNS (Model[List[Doc], List[Floats2d]]): One row per token; no weights.
    """
    return Model("knowledge_features", forward, dims={"nO": WIDTH})


def forward(model: Model[InT, OutT], docs: InT, is_train: bool) -> Tuple[OutT, Callable]:
    out = [model.ops.asarray2f(token_rows([t.text for t in doc])) for doc in docs]
    return out, _no_gradient


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


def _row(text: str) -> np.ndarray:
    row = _CACHE.get(text)
    if row is None:
        row = knowledge_row(lookup(text)) if _has_letters(text) else _ZEROS
        if len(_CACHE) >= _MAX_CACHED:
            _CACHE.clear()
        _CACHE[text] = row
    return row


def _has_letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def knowledge_row(k: Knowledge) -> np.ndarray:
    """One token's row from what the tables know about it.

    k (Knowledge): `spacy_deid.knowledge.lookup`'s answer.
    RETURNS (np.ndarray): (WIDTH,) float32 of zeros and ones.
    """
    row = np.zeros((WIDTH,), dtype="f")
    counts = (k.surname_count, k.given_count, k.place_population)
    for i, count in enumerate(counts):
        row[i * _COUNT_BUCKETS + _count_bucket(count)] = 1.0
    row[3 * _COUNT_BUCKETS + _zipf_bucket(k.word_zipf)] = 1.0
    flags = (
        k.is_common_word,
        k.is_drug,
        k.is_country,
        k.is_country_code,
        k.is_state,
        k.is_state_code,
        k.is_county,
        k.name_zipf > k.word_zipf,
        k.place_zipf > k.word_zipf,
        2 * k.given_female > k.given_count > 0,
    )
    start = 3 * _COUNT_BUCKETS + _ZIPF_BUCKETS
    for i, flag in enumerate(flags):
        row[start + i] = float(flag)
    return row


def _count_bucket(count: int) -> int:
    if count <= 0:
        return 0
    return min(max(int(math.log10(count)) - 1, 1), _COUNT_BUCKETS - 1)


def _zipf_bucket(zipf: float) -> int:
    if zipf <= 0:
        return 0
    return min(max(int(zipf) - 1, 1), _ZIPF_BUCKETS - 1)
