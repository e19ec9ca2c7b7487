"""The layers: shapes, token-less batches and gradients."""

import numpy as np
import pytest
import spacy
from spacy.training import Example
from thinc.api import Model, fix_random_seed

from spacy_deid.ner import _char_encoder
from spacy_deid.ner._char_encoder import token_bytes, token_texts
from spacy_deid.ner.models import (
    build_char_bilstm_crf,
    build_char_bilstm_embed,
    build_char_cnn_embed,
    build_token_features,
)


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def _loss_and_grad(model: Model, docs, weights):
    Ys, backprop = model.begin_update(docs)
    loss = sum(float((Y * W).sum()) for Y, W in zip(Ys, weights, strict=True))
    backprop([model.ops.asarray2f(W) for W in weights])
    return loss


@pytest.mark.parametrize(
    "build",
    [lambda: build_char_bilstm_embed(4, 3, 6), lambda: build_char_cnn_embed(4, 5)],
)
def test_char_embed_gradient(nlp, build):
    fix_random_seed(0)
    model = build()
    docs = [nlp("Dr Ñoño x"), nlp("verylongtokenhere ab")]
    model.initialize(X=docs)
    Ys = model.predict(docs)
    nO = model.get_dim("nO")
    assert [Y.shape for Y in Ys] == [(3, nO), (2, nO)]
    rng = np.random.default_rng(0)
    weights = [rng.normal(size=Y.shape).astype("f4") for Y in Ys]
    _loss_and_grad(model, docs, weights)
    grad = model.get_grad("E").copy()
    E = model.get_param("E")
    checked = 0
    for byte in {ord("D"), ord("x"), ord("a")}:
        for col in range(E.shape[1]):
            old = E[byte, col]
            E[byte, col] = old + 1e-3
            plus = sum(
                float((Y * W).sum())
                for Y, W in zip(model.predict(docs), weights, strict=True)
            )
            E[byte, col] = old - 1e-3
            minus = sum(
                float((Y * W).sum())
                for Y, W in zip(model.predict(docs), weights, strict=True)
            )
            E[byte, col] = old
            assert (plus - minus) / 2e-3 == pytest.approx(grad[byte, col], abs=2e-2)
            checked += 1
    assert checked and np.abs(grad).sum() > 0


def test_token_bytes_keeps_both_ends(nlp):
    ids, lengths = token_bytes(token_texts([nlp("abcdefghij Añ")]), nC=6)
    assert lengths.tolist() == [6, 3]
    assert bytes(ids[:6]) == b"abchij" and bytes(ids[6:]).decode("utf8") == "Añ"


@pytest.mark.parametrize(
    "build",
    [lambda: build_char_bilstm_embed(4, 3, 6), lambda: build_char_cnn_embed(4, 5)],
)
def test_char_embed_prediction_encodes_each_text_once(nlp, build):
    """Prediction encodes the distinct texts only; every token gets the
    vector that encoding all tokens (the training forward pass) gives."""
    fix_random_seed(1)
    model = build()
    docs = [nlp("Dr Smith saw Dr Lee"), nlp(""), nlp("Lee saw  Smith Ñoño dr")]
    model.initialize(X=docs)
    texts, inverse = _char_encoder.distinct_texts(docs)
    assert sorted(texts) == sorted(set(token_texts(docs)))
    assert [texts[i] for i in inverse] == token_texts(docs)
    predicted = model.predict(docs)
    trained, _ = model.begin_update(docs)
    assert [Y.shape for Y in predicted] == [Y.shape for Y in trained]
    for Y_pred, Y_train in zip(predicted, trained, strict=True):
        np.testing.assert_allclose(Y_pred, Y_train, rtol=1e-5, atol=1e-6)
    flat = np.concatenate(predicted)
    words = token_texts(docs)
    first = {}
    for i, word in enumerate(words):
        assert np.array_equal(flat[i], flat[first.setdefault(word, i)])
    assert len(first) < len(words)
    with pytest.raises(ValueError):
        model._func(model, docs, False)[1](predicted)


def test_token_features_predict_once_per_distinct_row(nlp):
    """TokenFeatures.v1 predicts from the distinct feature rows; the vectors
    equal those of spaCy's own MultiHashEmbed forward pass, token by token."""
    from thinc.layers.chain import forward as chain_forward

    fix_random_seed(2)
    model = build_token_features(width=8, rows=[50, 50, 50, 50])
    docs = [nlp("the cat saw the Cat"), nlp(""), nlp("cat cat the x")]
    model.initialize(X=docs)
    predicted = model.predict(docs)
    expected, _ = chain_forward(model, docs, False)
    assert len(predicted) == len(expected) == 3
    for Y, Y_expected in zip(predicted, expected, strict=True):
        assert np.array_equal(Y, Y_expected)
    Ys, backprop = model.begin_update(docs)  # training: spaCy's forward
    backprop([model.ops.alloc2f(*Y.shape) for Y in Ys])
    assert model.predict([nlp("")])[0].shape == (0, 8)
    with_vectors = build_token_features(width=8, include_static_vectors=True)
    assert with_vectors._func is not model._func


def test_tokenless_batches(nlp):
    model = build_char_bilstm_crf(
        build_token_features(width=8, rows=[50, 50, 50, 50]),
        build_char_bilstm_embed(4, 3, 6),
        hidden_width=4,
        nO=5,
    )
    model.initialize(X=[nlp("a b"), nlp("")])
    Ys = model.predict([nlp(""), nlp("")])
    assert [Y.shape for Y in Ys] == [(0, 5), (0, 5)]
    Ys, backprop = model.begin_update([nlp(""), nlp("Dr Smith")])
    assert [Y.shape for Y in Ys] == [(0, 5), (2, 5)]
    backprop([np.zeros_like(Y) for Y in Ys])
    assert model.predict([]) == []
    embed = build_char_bilstm_embed(4, 3, 6)
    embed.initialize()
    assert [Y.shape for Y in embed.predict([nlp("")])] == [(0, 6)]


def _numeric_padded_grads(model, X, size_at_t, lengths, weights, eps=1e-2):
    """Analytic and numeric d(sum(Y * weights))/dX for a Padded layer."""
    from thinc.types import Padded

    def run(data):
        Xp = Padded(data.astype("f4"), size_at_t, lengths, np.arange(len(lengths)))
        return model(Xp, True)

    Yp, backprop = run(X)
    dYp = Padded(weights, size_at_t, lengths, np.arange(len(lengths)))
    analytic = backprop(dYp).data
    numeric = np.zeros(X.shape)
    for idx in np.ndindex(X.shape):
        if idx[1] >= size_at_t[idx[0]]:
            continue
        plus, minus = X.astype("f8"), X.astype("f8")
        plus[idx] += eps
        minus[idx] -= eps
        diff = (run(plus)[0].data * weights).sum() - (
            run(minus)[0].data * weights
        ).sum()
        numeric[idx] = diff / (2 * eps)
    return analytic, numeric


def _padded_case(width_out):
    rng = np.random.default_rng(0)
    size_at_t = np.array([3, 2, 1, 1], dtype="i4")
    lengths = np.array([4, 2, 1], dtype="i4")
    X = rng.uniform(size=(4, 3, 3)).astype("f4")
    weights = rng.uniform(size=(4, 3, width_out)).astype("f4")
    for t, n in enumerate(size_at_t):
        X[t, n:] = 0.0
        weights[t, n:] = 0.0
    return X, size_at_t, lengths, weights


def test_bilstm_gradients():
    from spacy_deid.ner._bilstm import bilstm

    fix_random_seed(0)
    model = bilstm(nO=4, nI=3)
    model.initialize()
    X, size_at_t, lengths, weights = _padded_case(4)
    analytic, numeric = _numeric_padded_grads(model, X, size_at_t, lengths, weights)
    assert np.abs(analytic - numeric).max() < 1e-3
    for name in ("Wx", "Wh", "b"):
        param = model.get_param(name)
        grad = model.get_grad(name).copy()
        for idx in list(np.ndindex(param.shape))[::3]:
            old = param[idx]
            losses = []
            for delta in (1e-2, -1e-2):
                param[idx] = old + delta
                Xp = _padded(X, size_at_t, lengths)
                losses.append(float((model.predict(Xp).data * weights).sum()))
            param[idx] = old
            numeric_p = (losses[0] - losses[1]) / 2e-2
            assert numeric_p == pytest.approx(grad[idx], abs=2e-3)


def _padded(X, size_at_t, lengths):
    from thinc.types import Padded

    return Padded(X, size_at_t, lengths, np.arange(len(lengths)))


@pytest.mark.xfail(strict=True, reason="thinc 8.3 CPU LSTM backprop is wrong")
def test_thinc_lstm_gradients_are_still_wrong():
    """If this starts passing, thinc's LSTM was fixed and could replace
    `_bilstm.bilstm`."""
    from thinc.api import LSTM

    fix_random_seed(0)
    model = LSTM(nO=4, nI=3, bi=True)
    model.initialize()
    X, size_at_t, lengths, weights = _padded_case(4)
    analytic, numeric = _numeric_padded_grads(model, X, size_at_t, lengths, weights)
    assert np.abs(analytic - numeric).max() < 1e-3


def _thinc_lstm_params(Wx, Wh, b):
    """Our weights in the flat layout of thinc's CPU LSTM kernel: per
    direction Wx, bx, Wh, bh, with the gate blocks in the order forget,
    input, output, cell (ours: input, forget, output, cell)."""
    nH = Wh.shape[2]
    parts = []
    for d in range(2):
        for W in (Wx[d], b[d], Wh[d]):
            parts.append(np.concatenate([W[nH : 2 * nH], W[:nH], W[2 * nH :]]).ravel())
        parts.append(np.zeros(4 * nH, dtype="f4"))
    return np.concatenate(parts).astype("f4")


@pytest.mark.parametrize("is_train", [False, True])
def test_bilstm_forward_matches_thincs_kernel(is_train):
    """Our recurrence (prediction, and training with its caches) gives the
    outputs of thinc's Cython inference kernel, whose forward pass is right."""
    from spacy_deid.ner._bilstm import bilstm

    fix_random_seed(1)
    model = bilstm(nO=6, nI=3)
    model.initialize()
    b = model.get_param("b")
    b += np.random.default_rng(1).normal(size=b.shape).astype("f4")
    X, size_at_t, lengths, _ = _padded_case(6)
    Xp = _padded(X, size_at_t, lengths)
    ours = model(Xp, is_train)[0].data
    Wx, Wh = model.get_param("Wx"), model.get_param("Wh")
    zeros = np.zeros((1, 2, 3), dtype="f4")
    packed = np.concatenate([X[t, :n] for t, n in enumerate(size_at_t)])
    sizes = np.asarray(size_at_t, dtype="i4")
    flat = _thinc_lstm_params(Wx, Wh, b)
    theirs = model.ops.lstm_forward_inference(flat, zeros, zeros, packed, sizes)
    ours_packed = np.concatenate([ours[t, :n] for t, n in enumerate(size_at_t)])
    assert np.abs(ours_packed - theirs).max() < 1e-5


def test_empty_doc_width_gives_empty_outputs_the_width(nlp):
    """spacy-transformers' listener gives an empty doc a (0, 0) array:
    EmptyDocWidth.v1 makes it (0, nO), and its gradient (0, 0) again."""
    from spacy_deid.ner.models import build_empty_doc_width

    seen = []

    def fake_forward(model, docs, is_train):
        Ys = [
            model.ops.alloc2f(len(d), 3) if len(d) else model.ops.alloc2f(0, 0)
            for d in docs
        ]
        return Ys, lambda dYs: seen.append([dY.shape for dY in dYs]) or []

    fake = Model("fake-listener", fake_forward, dims={"nO": None})
    wrapped = build_empty_doc_width(fake)
    docs = [nlp(""), nlp("a b"), nlp("")]
    Ys, backprop = wrapped.begin_update(docs)  # width from the batch
    assert [Y.shape for Y in Ys] == [(0, 3), (2, 3), (0, 3)]
    backprop([wrapped.ops.alloc2f(*Y.shape) for Y in Ys])
    assert seen == [[(0, 0), (2, 3), (0, 0)]]
    fake.set_dim("nO", 3)
    assert [Y.shape for Y in wrapped.predict([nlp("")])] == [(0, 3)]


def test_update_with_an_empty_note_and_a_listener():
    """A tagger that listens to an upstream tok2vec gets every doc of a
    training batch (the listener refuses another list): an empty note in the
    batch trains."""
    from thinc.api import Adam

    from ..conftest import listening_tagger_pipeline

    nlp = listening_tagger_pipeline()
    examples = []
    for text in ["", "Seen by Whalen on 09/14/2067.", "Dr Lee saw him."]:
        doc = nlp.make_doc(text)
        ref = doc.copy()
        if "Whalen" in text:
            ref.ents = [ref.char_span(8, 14, "DOCTOR")]
        examples.append(Example(doc, ref))
    losses = {}
    nlp.update(examples, sgd=Adam(0.001), losses=losses)
    assert np.isfinite(losses["phi_ner"])
    assert [len(doc) for doc in nlp.pipe(["", "Dr Lee"])] == [0, 2]


@pytest.mark.parametrize("depth", [1, 2])
def test_with_packed_equals_with_padded(depth):
    """`with_packed` (the token BiLSTM's wrapper) gives the outputs and input
    gradients of thinc's `with_padded`, for sequences in any order of length
    and an empty one, with one BiLSTM or a chain of two."""
    from thinc.api import chain, with_padded

    from spacy_deid.ner._bilstm import bilstm
    from spacy_deid.tagging.packing import with_packed

    fix_random_seed(0)
    rng = np.random.default_rng(0)
    Xs = [rng.uniform(size=(n, 3)).astype("f4") for n in (2, 5, 0, 1, 5)]
    dYs = [rng.uniform(size=(n, 4)).astype("f4") for n in (2, 5, 0, 1, 5)]
    lstms = [bilstm(nO=4, nI=3)] + [bilstm(nO=4, nI=4) for _ in range(depth - 1)]
    inner = chain(*lstms) if depth > 1 else lstms[0]
    packed = with_packed(inner)
    packed.initialize(X=Xs)
    padded = with_padded(inner)
    for is_train in (False, True):
        ours, backprop_ours = packed(Xs, is_train)
        theirs, backprop_theirs = padded(Xs, is_train)
        for Y, Y_ref in zip(ours, theirs, strict=True):
            assert Y.shape == Y_ref.shape
            assert np.abs(Y - Y_ref).max(initial=0.0) < 1e-6
    for dX, dX_ref in zip(backprop_ours(dYs), backprop_theirs(dYs), strict=True):
        assert dX.shape == dX_ref.shape
        assert np.abs(dX - dX_ref).max(initial=0.0) < 1e-6
    assert packed.predict([]) == []


@pytest.mark.parametrize("dtype", ["f4", "u8"])
def test_distinct_rows_groups_equal_rows_exactly(dtype):
    """Float rows (BiLSTM inputs) and uint64 rows (feature ids, hashes near
    2**64 that float64 cannot hold exactly) are grouped exactly."""
    from spacy_deid.ner._unique import distinct_rows

    rng = np.random.default_rng(0)
    if dtype == "f4":
        rows = rng.uniform(size=(5, 7)).astype("f4")
    else:
        rows = rng.integers(0, 2**63, size=(5, 4), dtype="u8") * np.uint64(2)
        rows[1] = rows[0] + np.uint64(1)  # equal as float64, different rows
    X = rows[[3, 0, 3, 1, 4, 0, 3, 2]]
    distinct, index = distinct_rows(X)
    if index is None:  # the float64 keys could not tell rows 0 and 1 apart
        assert dtype == "u8" and distinct is X
    else:
        assert len(distinct) == 5
        assert np.array_equal(distinct[index], X)
    assert distinct_rows(X[:1])[1] is None
    if dtype == "u8":
        Y = rows[[0, 2, 2, 4, 0]]
        distinct, index = distinct_rows(Y)
        assert len(distinct) == 3 and np.array_equal(distinct[index], Y)


def test_bilstm_prediction_without_distinct_rows(monkeypatch):
    """Prediction gives the same outputs when the distinct-row grouping
    gives up (as on a key collision) and every row is projected."""
    from spacy_deid.ner import _bilstm
    from spacy_deid.tagging.packing import with_packed

    fix_random_seed(2)
    rng = np.random.default_rng(2)
    words = rng.uniform(size=(4, 3)).astype("f4")
    Xs = [words[rng.integers(0, 4, size=n)] for n in (6, 3, 1)]
    model = with_packed(_bilstm.bilstm(nO=4, nI=3))
    model.initialize(X=Xs)
    grouped = model.predict(Xs)
    monkeypatch.setattr(_bilstm, "distinct_rows", lambda X: (X, None))
    for Y, Y_ref in zip(model.predict(Xs), grouped, strict=True):
        assert np.abs(Y - Y_ref).max() < 1e-6
    # Training (every row's gates kept) gives the same outputs too.
    for Y, Y_ref in zip(model.begin_update(Xs)[0], grouped, strict=True):
        assert np.abs(Y - Y_ref).max() < 1e-6
