"""Prediction of the token embedding once per word form, across batches.

The rows the token BiLSTM reads (character encoder, hashed lexical features,
knowledge row) depend on a token's ORTH and NORM alone: the character encoder
reads its bytes, the hashed features its lexeme's NORM, PREFIX, SUFFIX and
SHAPE, the knowledge row its ORTH. Notes repeat their words, so after the
first batches most tokens' rows are already known. `cache_words` makes the
layer that concatenates them keep each (ORTH, NORM) pair's row and compute
only the pairs it has not seen, in one doc of those words.

- Training is unchanged, and a training pass empties the cache: the weights
  are about to change. So do new parameter arrays (loading, `use_params`)
  and `clear_word_cache` (the component calls it after each update).
- The cache holds at most `MAX_WORDS` rows and is emptied when full. It is
  keyed by hash ids and holds vectors, never text, and lives in the process
  only (it is not pickled).
- A copy of the model (`Model.copy`) shares the function but not the cache:
  the first model to use a cache owns it, and any other computes uncached.
"""

from functools import partial
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
from spacy.attrs import NORM, ORTH
from spacy.tokens import Doc
from spacy.vocab import Vocab
from thinc.api import Model
from thinc.layers.concatenate import forward as concatenate_forward
from thinc.types import Floats2d

from ._distinct_rows import distinct_rows_forward

InT = List[Doc]
OutT = List[Floats2d]

# About 48 MB of float32 rows at the shipped width (184).
MAX_WORDS = 1 << 16


class WordCache:
    """Rows by (ORTH, NORM), in one growing array."""

    def __init__(self, max_words: int = MAX_WORDS) -> None:
        self.max_words = max_words
        self.owner: Optional[int] = None
        self.params: Tuple[int, ...] = ()
        self.clear()

    def clear(self) -> None:
        """Forget every row."""
        self.index: Dict[Tuple[int, int], int] = {}
        self.rows: Optional[np.ndarray] = None

    def add(self, keys: List[Tuple[int, int]], rows: np.ndarray) -> np.ndarray:
        """Store rows for new keys (that fit: `has_room`) and return their
        positions in `self.rows`."""
        start = len(self.index)
        if self.rows is None:
            self.rows = np.empty((max(len(keys), 1024), rows.shape[1]), rows.dtype)
        elif start + len(keys) > len(self.rows):
            size = min(max(2 * len(self.rows), start + len(keys)), self.max_words)
            grown = np.empty((size, rows.shape[1]), rows.dtype)
            grown[:start] = self.rows[:start]
            self.rows = grown
        self.rows[start : start + len(keys)] = rows
        for i, key in enumerate(keys):
            self.index[key] = start + i
        return np.arange(start, start + len(keys))

    def has_room(self, n: int) -> bool:
        """Whether n more rows fit."""
        return len(self.index) + n <= self.max_words

    def __getstate__(self) -> dict:
        # A pickled model (a worker process) starts with an empty cache.
        return {"max_words": self.max_words}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["max_words"])  # type: ignore[misc]


def is_per_word(model: Model) -> bool:
    """Whether each row of a docs -> rows layer depends on its token's ORTH
    and NORM only: the character encoder, the knowledge row, `MultiHashEmbed`
    without static vectors (as `_distinct_rows` predicts it), and
    concatenations of these."""
    if model.name in ("char_encoder", "knowledge_features"):
        return True
    if model._func is distinct_rows_forward:
        return True
    if model._func is concatenate_forward:
        return all(is_per_word(layer) for layer in model.layers)
    return False


def cache_words(
    model: Model[InT, OutT], max_words: int = MAX_WORDS
) -> Model[InT, OutT]:
    """Make a per-word layer (`is_per_word`) predict once per distinct
    (ORTH, NORM) across calls.

    model (Model): The layer, changed in place.
    max_words (int): Rows kept before the cache is emptied.
    RETURNS (Model): The same model.
    """
    if not is_per_word(model):
        raise ValueError(f"cache_words: layer '{model.name}' is not per-word")
    forward = partial(cached_forward, plain=model._func, cache=WordCache(max_words))
    model.replace_callbacks(forward, init=model.init)
    return model


def word_caches(model: Model) -> List[WordCache]:
    """The word caches of a model's layers (a benchmark turns one off with
    `max_words = 0`)."""
    caches = (_cache_of(node) for node in model.walk())
    return [cache for cache in caches if cache is not None]


def clear_word_cache(model: Model) -> None:
    """Empty the word caches of a model's layers (after its weights changed)."""
    for cache in word_caches(model):
        cache.clear()


def _cache_of(node: Model) -> Optional[WordCache]:
    func = node._func
    if isinstance(func, partial) and func.func is cached_forward:
        return func.keywords["cache"]
    return None


def cached_forward(
    model: Model[InT, OutT],
    docs: InT,
    is_train: bool,
    *,
    plain: Callable,
    cache: WordCache,
) -> Tuple[OutT, Callable]:
    if is_train:
        cache.clear()
        return plain(model, docs, is_train)
    if cache.owner is None:
        cache.owner = model.id
    if cache.owner != model.id:
        return plain(model, docs, is_train)
    params = _param_ids(model)
    if params != cache.params:
        cache.clear()
        cache.params = params
    lengths = [len(doc) for doc in docs]
    if not sum(lengths):
        return plain(model, docs, is_train)
    pairs = np.concatenate([doc.to_array([ORTH, NORM]) for doc in docs])
    first, inverse = _distinct_pairs(pairs)
    keys = list(zip(pairs[first, 0].tolist(), pairs[first, 1].tolist(), strict=True))
    if len(keys) > cache.max_words:
        return plain(model, docs, is_train)
    positions = np.asarray([cache.index.get(key, -1) for key in keys], dtype="i8")
    missing = np.flatnonzero(positions < 0)
    if not cache.has_room(len(missing)):
        cache.clear()
        missing = np.arange(len(keys))
    if len(missing):
        new = [keys[i] for i in missing]
        rows = _compute(model, plain, docs[0].vocab, new)
        positions[missing] = cache.add(new, rows)
    stored = cache.rows
    assert stored is not None  # every key was found or added
    vectors = stored[positions[inverse]]
    return model.ops.unflatten(vectors, lengths), _no_backprop


def _distinct_pairs(pairs: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The first position of each distinct (ORTH, NORM) row and every row's
    index among them. Grouping by ORTH suffices unless a token's NORM differs
    from its lexeme's (a tokenizer exception)."""
    _, first, inverse = np.unique(pairs[:, 0], return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if np.array_equal(pairs[first[inverse], 1], pairs[:, 1]):
        return first, inverse
    rows = np.ascontiguousarray(pairs).view(np.dtype((np.void, 16))).ravel()
    _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def _compute(
    model: Model[InT, OutT], plain: Callable, vocab: Vocab, keys: List[Tuple[int, int]]
) -> np.ndarray:
    """The rows of the words with these (ORTH, NORM) ids, computed in one doc."""
    words = [vocab.strings[orth] for orth, _ in keys]
    doc = Doc(vocab, words=words)
    norms = doc.to_array(NORM)
    for i, (_, norm) in enumerate(keys):
        if int(norms[i]) != norm:
            doc[i].norm_ = vocab.strings[norm]
    (rows,), _ = plain(model, [doc], False)
    return np.asarray(rows)


def _param_ids(model: Model) -> Tuple[int, ...]:
    """Identities of the parameter arrays below the model: loading weights or
    swapping them (`use_params`) makes new arrays."""
    return tuple(
        id(node.get_param(name))
        for node in model.walk()
        for name in node.param_names
        if node.has_param(name)
    )


def _no_backprop(dYs: OutT) -> List:
    raise ValueError("word cache: no backprop after a forward pass with is_train=False")
