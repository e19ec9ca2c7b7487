"""Long docs in pieces, so that prediction needs bounded memory.

A BiLSTM-CRF over one doc needs memory in proportion to the doc's length: a
note of 1,000,000 characters (spaCy's default `max_length`, about 230,000
tokens) took `phi_ner` to a peak RSS of 1.9 GB. `split_docs` cuts each doc
longer than `max_tokens` into pieces of at most that many tokens: after a
whitespace token (a line break) in the second half of the piece where there
is one, else before a sentence start there, else at `max_tokens`. Each piece
is predicted as a doc of its own, and `join_predictions` puts the pieces'
tags back in order; every piece ends on a legal tag, so the whole is a legal
BILUO sequence. A doc of at most `max_tokens` tokens is not copied and is
predicted whole, unchanged. A model that listens to an upstream component
(`listens_upstream`: a transformer or tok2vec listener) reads that
component's output from each doc, which a piece would not have: such docs
are predicted whole.
"""

from typing import List, Optional, Sequence, Tuple

import numpy as np
from spacy.attrs import IS_SPACE, SENT_START
from spacy.tokens import Doc
from thinc.api import Model

# Predictions per doc: decoded tag ids (n_tokens,) and their probabilities
# (None when they were not computed, see `PhiEntityRecognizer.with_scores`).
Prediction = Tuple[np.ndarray, Optional[np.ndarray]]
MAX_DOC_TOKENS = 8192


def listens_upstream(model: Model) -> bool:
    """Whether the model listens to an upstream component (its layers include
    a tok2vec or transformer listener)."""
    return any("listener" in node.name for node in model.walk())


def piece_bounds(doc: Doc, max_tokens: int = MAX_DOC_TOKENS) -> List[Tuple[int, int]]:
    """Token ranges (start, end) of at most `max_tokens` tokens covering the doc.

    doc (Doc): The doc.
    max_tokens (int): The most tokens per piece (at least 2).
    RETURNS (List[Tuple[int, int]]): The ranges, in order.
    """
    n = len(doc)
    if n <= max_tokens:
        return [(0, n)]
    space = doc.to_array(IS_SPACE).astype(bool)
    sent_start = doc.to_array(SENT_START) == 1
    bounds = []
    start = 0
    while n - start > max_tokens:
        end = _cut(space, sent_start, start, max_tokens)
        bounds.append((start, end))
        start = end
    bounds.append((start, n))
    return bounds


def _cut(space: np.ndarray, sent_start: np.ndarray, start: int, max_tokens: int) -> int:
    """Where the piece starting at `start` ends."""
    limit = start + max_tokens
    low = start + max_tokens // 2
    after_space = np.flatnonzero(space[low:limit])
    if len(after_space):
        return low + int(after_space[-1]) + 1
    before_sentence = np.flatnonzero(sent_start[low + 1 : limit + 1])
    if len(before_sentence):
        return low + 1 + int(before_sentence[-1])
    return limit


def split_docs(
    docs: Sequence[Doc], max_tokens: int = MAX_DOC_TOKENS
) -> Tuple[List[Doc], List[int]]:
    """The docs, each doc longer than `max_tokens` replaced by its pieces
    (copies: `Span.as_doc`), and for each piece the index of its doc.

    docs (Sequence[Doc]): The docs.
    max_tokens (int): The most tokens per piece.
    RETURNS (Tuple[List[Doc], List[int]]): Pieces, and their docs' indices.
    """
    pieces: List[Doc] = []
    owners: List[int] = []
    for i, doc in enumerate(docs):
        bounds = piece_bounds(doc, max_tokens)
        if len(bounds) == 1:
            pieces.append(doc)
            owners.append(i)
            continue
        for start, end in bounds:
            pieces.append(doc[start:end].as_doc())
            owners.append(i)
    return pieces, owners


def join_predictions(
    preds: List[Prediction], owners: List[int], n_docs: int
) -> List[Prediction]:
    """Put the pieces' (tag ids, probabilities) together per doc, in order.

    preds (List[Prediction]): One per piece, from `split_docs`' pieces.
    owners (List[int]): The doc index of each piece.
    n_docs (int): The number of docs.
    RETURNS (List[Prediction]): One per doc.
    """
    parts: List[List[Prediction]] = [[] for _ in range(n_docs)]
    for pred, owner in zip(preds, owners, strict=True):
        parts[owner].append(pred)
    joined = []
    for doc_parts in parts:
        if len(doc_parts) == 1:
            joined.append(doc_parts[0])
        else:
            tags = np.concatenate([tags for tags, _ in doc_parts])
            probs = [probs for _, probs in doc_parts]
            unscored = any(part is None for part in probs)
            joined.append((tags, None if unscored else np.concatenate(probs)))
    return joined
