"""Knowledge rows beside the hashed token features (TokenFeatures.v2)."""

import numpy as np
from spacy.lang.en import English
from spacy.util import registry

from spacy_deid.knowledge.codes import UNKNOWN, code_of
from spacy_deid.ner import _knowledge
from spacy_deid.ner._knowledge import (
    WIDTH,
    code_row,
    doc_rows,
    knowledge_features,
    token_rows,
)


def test_rows_tell_names_from_words():
    smith, reading, blank = token_rows(["Smith", "reading", "1234"])
    assert smith.shape == (WIDTH,) and smith.sum() > 0
    assert not np.array_equal(smith, reading)
    assert blank.sum() == 0  # no letters: no knowledge
    assert np.array_equal(token_rows(["SMITH"])[0], smith)
    assert np.array_equal(code_row(code_of("Xqzvbrt")), code_row(UNKNOWN))


def test_layer_gives_one_row_per_token():
    nlp = English()
    docs = [nlp.make_doc("Pt seen by Dr. Smith in Boston"), nlp.make_doc("")]
    model = knowledge_features()
    rows, backprop = model(docs, is_train=True)
    assert [r.shape for r in rows] == [(len(docs[0]), WIDTH), (0, WIDTH)]
    assert backprop(rows) == []


def test_token_features_v2_width():
    nlp = English()
    build = registry.architectures.get("spacy_deid.TokenFeatures.v2")
    docs = [nlp.make_doc("Mrs. Ferraro from Duluth")]
    model = build(width=16, knowledge=True)
    model.initialize(X=docs)
    (out,) = model.predict(docs)
    assert out.shape == (len(docs[0]), 16 + WIDTH)
    plain = build(width=16, knowledge=False)
    plain.initialize(X=docs)
    assert plain.predict(docs)[0].shape == (len(docs[0]), 16)


def test_doc_rows_are_the_rows_of_its_token_texts_and_cache_no_text():
    nlp = English()
    doc = nlp.make_doc("Smith met Smith in Reading; reading 1234 Smith")
    rows = doc_rows(doc)
    assert np.array_equal(rows, token_rows([t.text for t in doc]))
    with nlp.memory_zone():
        zoned = nlp.make_doc("Ximena Halvorsrud-Brenn from Smith")
        assert np.array_equal(doc_rows(zoned), token_rows([t.text for t in zoned]))
    assert all(isinstance(key, int) for key in _knowledge._CACHE)
    assert doc_rows(nlp.make_doc("")).shape == (0, WIDTH)
