"""The `char_encoder` layer: embed each token's UTF-8 bytes, run a sequence
encoder over them and max-pool, giving one vector per token.

All tokens of a batch form one `Padded` batch of byte sequences (time = byte
position, at most `nC` bytes, sorted by length as `Padded` requires), so the
encoder (`bilstm` or `char_cnn`) runs once per batch. At prediction time it
runs once per distinct token text of the batch (a token's vector depends on
its text only; a batch of notes has about 10x fewer distinct texts than
tokens), and the vectors are copied back to every token. Tokens
longer than `nC` bytes keep their first `nC // 2` and last `nC - nC // 2`
bytes (the ends of emails and URLs matter). Case is kept.
"""

from typing import Callable, List, Tuple

import numpy as np
from spacy.tokens import Doc
from thinc.api import Model, uniform_init
from thinc.types import Floats2d, Padded

InT = List[Doc]
OutT = List[Floats2d]


def char_encoder(encoder: Model[Padded, Padded], nM: int, nC: int) -> Model[InT, OutT]:
    """Build the layer.

    encoder (Model[Padded, Padded]): Encodes the embedded bytes; its nO is
        the output width.
    nM (int): Width of the byte embeddings.
    nC (int): Maximum number of bytes per token.
    RETURNS (Model[List[Doc], List[Floats2d]]): One (n_tokens, nO) array per doc.
    """
    return Model(
        "char_encoder",
        forward,
        init=init,
        dims={"nM": nM, "nC": nC, "nV": 256, "nO": encoder.maybe_get_dim("nO")},
        params={"E": None},
        layers=[encoder],
    )


def init(model: Model[InT, OutT], X=None, Y=None) -> None:
    """Initialize the byte table and the encoder (nI = nM)."""
    shape = (model.get_dim("nV"), model.get_dim("nM"))
    model.set_param("E", uniform_init(model.ops, shape, lo=-0.1, hi=0.1))
    encoder = model.layers[0]
    if encoder.has_dim("nI") is None:
        encoder.set_dim("nI", model.get_dim("nM"))
    encoder.initialize()
    model.set_dim("nO", encoder.get_dim("nO"))


def token_texts(docs: InT) -> List[str]:
    """The texts of all tokens of the docs, in order (read through the ORTH
    ids, without making Token objects)."""
    strings = docs[0].vocab.strings if docs else None
    return [strings[int(orth)] for doc in docs for orth in doc.to_array("ORTH")]


def distinct_texts(docs: InT) -> Tuple[List[str], np.ndarray]:
    """The distinct token texts of the docs and, for every token, the index
    of its text.

    RETURNS (Tuple[List[str], ndarray]): Texts, and indices (n_tokens,).
    """
    if not docs:
        return [], np.zeros((0,), dtype="i8")
    orths = np.concatenate([doc.to_array("ORTH") for doc in docs])
    distinct, inverse = np.unique(orths, return_inverse=True)
    strings = docs[0].vocab.strings
    return [strings[int(orth)] for orth in distinct], inverse.reshape(-1)


def token_bytes(words: List[str], nC: int) -> Tuple[np.ndarray, np.ndarray]:
    """Return the bytes of the words, concatenated, and their lengths.

    words (List[str]): Token texts.
    nC (int): Maximum bytes per token.
    RETURNS (Tuple[ndarray, ndarray]): uint8 ids (n_bytes,), lengths (n_words,).
    """
    head = nC // 2
    tail = nC - head
    encoded = []
    for word in (text.encode("utf8") for text in words):
        encoded.append(word if len(word) <= nC else word[:head] + word[-tail:])
    lengths = np.fromiter(map(len, encoded), dtype="i8", count=len(encoded))
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), lengths


def forward(
    model: Model[InT, OutT], docs: InT, is_train: bool
) -> Tuple[OutT, Callable]:
    encoder = model.layers[0]
    nO = model.get_dim("nO")
    # Prediction encodes each distinct text once; training every token, so
    # that each token's gradient reaches its own byte embeddings.
    if is_train:
        words, inverse = token_texts(docs), None
    else:
        words, inverse = distinct_texts(docs)
    ids, lengths = token_bytes(words, model.get_dim("nC"))
    doc_lengths = [len(doc) for doc in docs]
    if len(lengths) == 0:
        return [model.ops.alloc2f(0, nO) for _ in docs], lambda dYs: []
    Xp, where = _to_padded(model, ids, lengths)
    Yp, backprop_encoder = encoder(Xp, is_train)
    pooled, argmax = _masked_max(Yp)
    rank = np.empty_like(Xp.indices)
    rank[Xp.indices] = np.arange(len(rank))
    per_word = pooled[rank]
    Ys = model.ops.unflatten(
        per_word if inverse is None else per_word[inverse], doc_lengths
    )
    if not is_train:
        return Ys, _no_backprop

    def backprop(dYs: OutT) -> List:
        d_sorted = model.ops.flatten(dYs)[Xp.indices]
        dY = np.zeros_like(Yp.data)
        np.put_along_axis(dY, argmax[None], d_sorted[None], axis=0)
        dXp = backprop_encoder(Padded(dY, Yp.size_at_t, Yp.lengths, Yp.indices))
        d_bytes = model.ops.as_contig(dXp.data[where])
        dE = model.ops.alloc2f(*model.get_param("E").shape)
        model.ops.scatter_add(dE, ids.astype("i4"), d_bytes)
        model.inc_grad("E", dE)
        return []

    return Ys, backprop


def _no_backprop(dYs: OutT) -> List:
    raise ValueError(
        "char_encoder: no backprop after a forward pass with is_train=False"
    )


def _to_padded(
    model: Model, ids: np.ndarray, lengths: np.ndarray
) -> Tuple[Padded, Tuple[np.ndarray, np.ndarray]]:
    """Embed the bytes into a (time, tokens, nM) Padded batch sorted by length.

    RETURNS (Tuple[Padded, Tuple[ndarray, ndarray]]): The batch and the
        (time, column) position of every byte.
    """
    order = np.argsort(-lengths, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    starts = np.cumsum(lengths) - lengths
    column = np.repeat(rank, lengths)
    time = np.arange(len(ids)) - np.repeat(starts, lengths)
    sorted_lengths = lengths[order]
    n_steps = int(sorted_lengths[0])
    data = model.ops.alloc3f(n_steps, len(lengths), model.get_dim("nM"))
    data[time, column] = model.get_param("E")[ids]
    size_at_t = (sorted_lengths[None, :] > np.arange(n_steps)[:, None]).sum(axis=1)
    Xp = Padded(
        data,
        size_at_t.astype("i4"),
        sorted_lengths.astype("i4"),
        order.astype("i4"),
    )
    return Xp, (time, column)


def _masked_max(Yp: Padded) -> Tuple[np.ndarray, np.ndarray]:
    """Max over each sequence's real time steps (the running sequences at
    step t are the first `size_at_t[t]`).

    RETURNS (Tuple[ndarray, ndarray]): (n_seqs, nO) maxima and the time index
        of each maximum.
    """
    pooled = Yp.data[0].copy()
    argmax = np.zeros(pooled.shape, dtype="i8")
    for t in range(1, Yp.data.shape[0]):
        n = Yp.size_at_t[t]
        better = Yp.data[t, :n] > pooled[:n]
        np.copyto(pooled[:n], Yp.data[t, :n], where=better)
        argmax[:n][better] = t
    return pooled, argmax
