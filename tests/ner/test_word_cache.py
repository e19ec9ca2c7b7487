"""The word cache: the token rows (character encoder, hashed features,
knowledge row) computed once per (ORTH, NORM) across batches give the same
output as computing them every time, and never outlive the weights."""

import pickle

import numpy as np
import pytest
import spacy
from thinc.api import Adam, chain, fix_random_seed
from thinc.layers import Linear, with_array

from spacy_deid.ner._word_cache import (
    _cache_of,
    cache_words,
    clear_word_cache,
    is_per_word,
)
from spacy_deid.ner.models import (
    build_char_bilstm_crf,
    build_char_bilstm_embed,
    build_token_features,
    build_token_features_v2,
)

from .conftest import TINY_MODEL, make_examples, make_nlp, train

TEXTS = [
    "Seen by Dr Odalys Brekkestad on 3/4 , Odalys consents .",
    "odalys brekkestad called ; spoke with odalys .",
    "",
    "Pt Brekkestad , Odalys ( DOB 4/5/2061 ) seen at Marrowby Clinic .",
    "Marrowby clinic called again about Odalys .",
]


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def _model(nlp, max_words=1 << 16):
    fix_random_seed(3)
    model = build_char_bilstm_crf(
        build_token_features_v2(width=8, rows=[50, 50, 50, 50]),
        build_char_bilstm_embed(4, 3, 6),
        hidden_width=6,
        nO=9,
    )
    model.initialize(X=[nlp(text) for text in TEXTS])
    cache = _cache_of(model.get_ref("embed"))
    assert cache is not None
    cache.max_words = max_words
    cache.clear()  # initialization predicted through the layer
    return model, cache


def _embed(model):
    """The cached layer (`Model.copy` keeps no refs)."""
    (embed,) = [node for node in model.walk() if _cache_of(node) is not None]
    return embed


def _plain(model, docs):
    """Embedding rows computed without the cache."""
    embed = _embed(model)
    plain = embed._func.keywords["plain"]
    return plain(embed, docs, False)[0]


def _assert_rows_equal(model, docs):
    embed = _embed(model)
    cached = embed.predict(docs)
    expected = _plain(model, docs)
    for got, want in zip(cached, expected, strict=True):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)


@pytest.mark.parametrize("max_words", [1 << 16, 7])
def test_cached_rows_equal_plain_rows_across_batches(nlp, max_words):
    """Batch after batch (words seen before, new words, an empty doc), and
    with a cache so small that it is emptied between and inside batches."""
    model, cache = _model(nlp, max_words)
    batches = [
        [nlp(TEXTS[0]), nlp(TEXTS[1])],
        [nlp(TEXTS[2]), nlp(TEXTS[3])],
        [nlp(TEXTS[4]), nlp(TEXTS[0])],
    ]
    for docs in batches:
        _assert_rows_equal(model, docs)
        assert len(cache.index) <= max_words
    if max_words > 100:
        assert len(cache.index) == len({t.orth for text in TEXTS for t in nlp(text)})


def test_a_full_cache_is_emptied_inside_a_batch(nlp):
    """A batch of known and new words that does not fit empties the cache
    and recomputes all of its words."""
    model, cache = _model(nlp, max_words=10)
    for text in (TEXTS[0], TEXTS[1], TEXTS[4], TEXTS[0]):
        doc = nlp(text)
        assert len({t.orth for t in doc}) <= 10
        _assert_rows_equal(model, [doc])
        assert len(cache.index) == len({t.orth for t in doc})


def test_tagger_output_equals_uncached_output(nlp):
    model, cache = _model(nlp)
    docs = [nlp(text) for text in TEXTS]
    first = model.predict(docs[:2])
    again = model.predict(docs)
    cache.max_words = 0  # a batch larger than the cache runs uncached
    plain = model.predict(docs)
    for got, want in zip(first + again, plain[:2] + plain, strict=True):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


def test_a_token_norm_of_its_own_is_kept_apart(nlp):
    """A token whose NORM differs from its lexeme's (a tokenizer exception)
    gets the row of that NORM, not that of the other tokens of its text."""
    model, cache = _model(nlp)
    plain_doc, odd_doc = nlp("Odalys saw Odalys"), nlp("Odalys saw Odalys")
    odd_doc[2].norm_ = "brekkestad"
    docs = [plain_doc, odd_doc]
    _assert_rows_equal(model, docs)
    rows = model.get_ref("embed").predict(docs)
    assert not np.allclose(rows[1][2], rows[1][0])
    assert np.array_equal(rows[0][2], rows[0][0])


def test_new_weights_empty_the_cache(nlp):
    """Loading other weights (new parameter arrays) or a training pass makes
    the next prediction compute with the current weights."""
    model, cache = _model(nlp)
    other, _ = _model(nlp)
    other.get_ref("embed").layers[0].get_param("E")[:] += 0.5  # char embedding
    docs = [nlp(TEXTS[0])]
    model.predict(docs)
    model.from_bytes(other.to_bytes())
    _assert_rows_equal(model, docs)
    np.testing.assert_allclose(
        model.get_ref("embed").predict(docs)[0], _plain(other, docs)[0], atol=1e-6
    )
    model.begin_update(docs)
    assert not cache.index


def test_training_the_component_keeps_predictions_current():
    """`nlp.update` changes the weights in place; the component empties the
    cache after each update, so predictions between updates stay exact."""
    nlp = make_nlp(model=_tiny_v2())
    examples = make_examples(nlp)
    train(nlp, examples, steps=3)
    ner = nlp.get_pipe("phi_ner")
    embed = ner.model.get_ref("embed")
    docs = [eg.predicted for eg in examples]
    optimizer = Adam(0.05)
    for _ in range(3):
        embed.predict(docs)
        assert _cache_of(embed).index
        nlp.update(examples, sgd=optimizer)
        assert not _cache_of(embed).index
        _assert_rows_equal(ner.model, docs)
    ner.model.predict(docs)
    clear_word_cache(ner.model)
    assert not _cache_of(embed).index


def test_a_copy_or_a_pickled_model_computes_on_its_own(nlp):
    model, cache = _model(nlp)
    docs = [nlp(TEXTS[0])]
    model.predict(docs)
    copy = model.copy()
    _embed(copy).layers[0].get_param("E")[:] += 0.5
    _assert_rows_equal(copy, docs)
    _assert_rows_equal(model, docs)
    clone = pickle.loads(pickle.dumps(model))
    assert not _cache_of(_embed(clone)).index
    _assert_rows_equal(clone, docs)


def test_only_per_word_layers_are_cached(nlp):
    assert is_per_word(build_token_features(width=8))
    assert not is_per_word(build_token_features(width=8, include_static_vectors=True))
    assert not is_per_word(chain(build_token_features(width=8), with_array(Linear(4))))
    with pytest.raises(ValueError):
        cache_words(build_token_features(width=8, include_static_vectors=True))
    model = build_char_bilstm_crf(
        build_token_features(width=8, include_static_vectors=True),
        build_char_bilstm_embed(4, 3, 6),
        nO=9,
    )
    assert _cache_of(model.get_ref("embed")) is None


def _tiny_v2():
    model = dict(TINY_MODEL)
    model["features"] = {
        **TINY_MODEL["features"],
        "@architectures": "spacy_deid.TokenFeatures.v2",
    }
    return model


SPANISH = [
    "La paciente acude con su hija Remedios Aldecoa; la atiende el Dr. Celso Urquiza.",
    "Remedios Aldecoa, de 71 años, vive en Alcañiz con su hija.",
    "Remitido por el Dr. Urquiza al Hospital de Alcañiz el 3 de mayo de 2019.",
]


@pytest.mark.parametrize("pipeline", ["nlp_en", "nlp_es"])
def test_shipped_taggers_tag_as_without_the_cache(pipeline, request):
    """The shipped pipelodalys' tags, batch after batch with a warm cache,
    equal those computed with the cache off."""
    from spacy_deid.synth import generate

    nlp = request.getfixturevalue(pipeline)
    if pipeline == "nlp_en":
        texts = [note.text for note in generate(24, seed=11)]
    else:
        texts = SPANISH * 3
    ner = nlp.get_pipe("phi_ner")
    cache = _cache_of(_embed(ner.model))
    docs = [nlp.make_doc(text) for text in texts]
    batches = [docs[i : i + 6] for i in range(0, len(docs), 6)]
    size = cache.max_words
    try:
        cache.clear()
        cached = [ner.predict(batch) for batch in batches]
        cache.max_words = 0
        plain = [ner.predict(batch) for batch in batches]
    finally:
        cache.max_words = size
        cache.clear()
    for got, want in zip(cached, plain, strict=True):
        for a, b in zip(got, want, strict=True):
            assert np.array_equal(a[0], b[0])


def test_empty_docs_pass_through(nlp):
    model, cache = _model(nlp)
    docs = [nlp(""), nlp("")]
    rows = _embed(model).predict(docs)
    assert [row.shape for row in rows] == [row.shape for row in _plain(model, docs)]
    assert [len(row) for row in rows] == [0, 0]
    assert not cache.index
