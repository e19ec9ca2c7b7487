"""The phi_ner component: overfitting, serialization, policies, edge cases."""

import pickle

import numpy as np
import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example
from spacy.util import make_tempdir

from spacy_deid.ner import PhiEntityRecognizer
from spacy_deid.tagging.crf import is_valid_biluo

from .conftest import TRAIN_DATA, make_examples, make_nlp, train

EXPECTED = [
    [("John Smith", "DOCTOR"), ("12/03/2020", "DATE")],
    [("Mary Jones", "PATIENT")],
    [("Kim", "DOCTOR"), ("01/02/2021", "DATE")],
    [],
]


def _ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def test_overfitting_IO(trained_nlp):
    nlp, losses = trained_nlp
    assert losses["phi_ner"] < 0.5
    texts = [text for text, _ in TRAIN_DATA]
    docs = [nlp(text) for text in texts]
    assert [_ents(doc) for doc in docs] == EXPECTED
    for doc in docs:
        for ent in doc.ents:
            assert ent._.phi_source == "phi_ner"
            assert 0.5 < ent._.phi_score <= 1.0
    # Also after saving and loading.
    with make_tempdir() as tmp:
        nlp.to_disk(tmp)
        nlp2 = spacy.load(tmp)
        assert [_ents(nlp2(t)) for t in texts] == EXPECTED
        scores = [[e._.phi_score for e in nlp2(t).ents] for t in texts]
        assert scores == [[e._.phi_score for e in d.ents] for d in docs]
    # Component bytes into a fresh pipeline.
    nlp3 = make_nlp()
    nlp3.get_pipe("phi_ner").from_bytes(nlp.get_pipe("phi_ner").to_bytes())
    assert nlp3.get_pipe("phi_ner").labels == nlp.get_pipe("phi_ner").labels
    assert [_ents(nlp3(t)) for t in texts] == EXPECTED
    # nlp.pipe gives the same as nlp().
    assert [_ents(doc) for doc in nlp.pipe(texts, batch_size=3)] == EXPECTED
    # And a pickled pipeline.
    nlp4 = pickle.loads(pickle.dumps(nlp))
    assert [_ents(doc) for doc in nlp4.pipe(texts)] == EXPECTED


def test_labels_and_tags(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    assert isinstance(ner, PhiEntityRecognizer)
    assert ner.labels == ("DATE", "DOCTOR", "PATIENT")
    assert ner.tag_names[:3] == ["O", "B-DATE", "I-DATE"]
    assert len(ner.tag_names) == 13
    with pytest.raises(ValueError):
        ner.add_label("CITY")
    assert ner.add_label("DATE") == 0


def test_predictions_are_valid_biluo(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    docs = [nlp.make_doc(t) for t in ["Dr Dr Dr Smith 12/03/2020 Smith", "x", ""]]
    for doc, (tags, probs) in zip(docs, ner.predict(docs), strict=True):
        assert len(tags) == len(doc) == len(probs)
        assert is_valid_biluo(list(tags), len(ner.tag_names))
        assert np.all((probs >= 0) & (probs <= 1.0 + 1e-6))


def test_empty_docs(trained_nlp):
    nlp, _ = trained_nlp
    assert len(nlp("")) == 0 and nlp("").ents == ()
    docs = list(nlp.pipe(["", "   ", "Dr John Smith", ""]))
    assert [len(d) for d in docs][0] == 0
    assert docs[2].ents
    ner = nlp.get_pipe("phi_ner")
    assert ner.predict([nlp.make_doc("")])[0][0].shape == (0,)


def test_update_with_empty_docs():
    nlp = make_nlp()
    examples = make_examples(nlp)
    train(nlp, examples, steps=1)
    empty = Example.from_dict(nlp.make_doc(""), {"entities": []})
    losses = nlp.update([empty])
    assert losses["phi_ner"] == 0.0
    losses = nlp.update([empty, examples[0]])
    assert losses["phi_ner"] > 0.0
    loss, d_scores = nlp.get_pipe("phi_ner").get_loss(
        [empty, examples[0]],
        nlp.get_pipe("phi_ner").model.predict([empty.predicted, examples[0].predicted]),
    )
    assert loss > 0 and d_scores[0].shape[0] == 0


def test_partial_annotations_train():
    nlp = make_nlp()
    text = "Seen by Dr John Smith on 12/03/2020 ."
    doc = nlp.make_doc(text)
    # Tags for "Seen", "by" and the date are missing ("-"/None).
    tags = ["-", None, "O", "B-DOCTOR", "L-DOCTOR", "O", "-", "O"]
    partial = Example.from_dict(doc, {"entities": tags})
    assert partial.get_aligned_ner()[0] is None
    examples = [partial] + make_examples(nlp)[1:2]
    losses = train(nlp, examples, steps=5)
    assert np.isfinite(losses["phi_ner"])
    # Misaligned gold span (inside a token) is missing, not an error.
    with pytest.warns(UserWarning, match="W030"):
        misaligned = Example.from_dict(
            nlp.make_doc("Call 5551234 now"), {"entities": [(5, 8, "DOCTOR")]}
        )
    assert misaligned.get_aligned_ner()[1] in (None, "-")
    nlp.update([misaligned])


def test_all_missing_gives_zero_loss():
    nlp = make_nlp()
    examples = make_examples(nlp)
    train(nlp, examples, steps=1)
    doc = nlp.make_doc("Seen by Dr John Smith")
    eg = Example.from_dict(doc, {"entities": ["-"] * len(doc)})
    ner = nlp.get_pipe("phi_ner")
    loss, _ = ner.get_loss([eg], ner.model.predict([doc]))
    assert loss == pytest.approx(0.0, abs=1e-6)


def test_no_labels_error():
    nlp = make_nlp()
    examples = make_examples(nlp, [("No PHI here", {"entities": []})])
    with pytest.raises(ValueError, match="no labels"):
        nlp.initialize(get_examples=lambda: examples)


def test_labels_argument():
    nlp = make_nlp()
    examples = make_examples(nlp)
    nlp.get_pipe("phi_ner").initialize(lambda: examples, labels=["ZIP", "DATE"])
    assert nlp.get_pipe("phi_ner").labels == ("ZIP", "DATE")


def test_score_reduce_validation():
    with pytest.raises(ValueError):
        make_nlp(score_reduce="max")


def _preset(nlp, text, start, end, label):
    doc = nlp.make_doc(text)
    ent = Span(doc, start, end, label=label)
    ent._.phi_source = "rules:test"
    doc.set_ents([ent], default="outside")
    return doc


@pytest.mark.parametrize("overwrite", [False, True])
def test_overwrite_ents_policy(trained_nlp, overwrite):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    ner.cfg["overwrite_ents"] = overwrite
    try:
        text = "Seen by Dr John Smith on 12/03/2020 ."
        # An earlier component marked "Smith on" (overlaps the model's name)
        # and nothing else.
        doc = ner(_preset(nlp, text, 4, 6, "CITY"))
        ents = _ents(doc)
        if overwrite:
            # The model's "John Smith" covers only part of "Smith on": the
            # union is kept, so the rule's "on" stays covered.
            assert ents == [("John Smith on", "CITY"), ("12/03/2020", "DATE")]
        else:
            assert ents == [("Smith on", "CITY"), ("12/03/2020", "DATE")]
            assert doc.ents[0]._.phi_source == "rules:test"
        assert doc.ents[-1]._.phi_source == "phi_ner"
        # An earlier entity equal to a model span keeps its own extensions.
        doc = ner(_preset(nlp, text, 3, 5, "DOCTOR"))
        assert _ents(doc) == EXPECTED[0]
        expected_source = "phi_ner" if overwrite else "rules:test"
        assert doc.ents[0]._.phi_source == expected_source
    finally:
        ner.cfg["overwrite_ents"] = False


def test_min_score_reduce(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    text = TRAIN_DATA[0][0]
    mean_scores = [e._.phi_score for e in nlp(text).ents]
    ner.cfg["score_reduce"] = "min"
    try:
        min_scores = [e._.phi_score for e in nlp(text).ents]
    finally:
        ner.cfg["score_reduce"] = "mean"
    assert all(m <= a + 1e-6 for m, a in zip(min_scores, mean_scores, strict=True))


def test_cnn_char_embed_trains():
    model = {
        "@architectures": "spacy_deid.CharBiLSTMCRF.v1",
        "hidden_width": 8,
        "char_embed": {
            "@architectures": "spacy_deid.CharCNNEmbed.v1",
            "width": 8,
            "filters": 8,
        },
        "features": {"@architectures": "spacy_deid.TokenFeatures.v1", "width": 8},
    }
    nlp = make_nlp(model=model)
    losses = train(nlp, make_examples(nlp), steps=3)
    assert np.isfinite(losses["phi_ner"])
    nlp("Dr John Smith")


def test_no_char_embed():
    model = {
        "@architectures": "spacy_deid.CharBiLSTMCRF.v1",
        "hidden_width": 8,
        "char_embed": None,
        "features": {"@architectures": "spacy_deid.TokenFeatures.v1", "width": 8},
    }
    nlp = make_nlp(model=model)
    train(nlp, make_examples(nlp), steps=2)
    nlp("Dr John Smith")


def test_length_groups():
    from spacy_deid.tagging.crf import length_groups

    groups = length_groups([3, 10, 1, 7, 2], max_slots=20)
    assert sorted(i for g in groups for i in g) == [0, 1, 2, 3, 4]
    assert groups[0] == [1, 3] or groups[0] == [1]
    for group in groups:
        longest = max([3, 10, 1, 7, 2][i] for i in group)
        assert len(group) == 1 or len(group) * longest <= 20


def test_length_groups_packed():
    from spacy_deid.tagging.crf import length_groups

    lengths = [3, 10, 0, 1, 7, 2]
    groups = length_groups(lengths, max_slots=12, packed=True)
    assert groups == [[1], [4, 0, 5], [3]]
    assert length_groups(lengths, max_slots=100, packed=True) == [[1, 4, 0, 5, 3]]


def test_predict_tags_in_small_packed_groups(trained_nlp, monkeypatch):
    """Tags alone (as runs decode them) come out the same when the model and
    the Viterbi decoder run on packed groups of a few tokens."""
    from spacy_deid.ner import component
    from spacy_deid.tagging import tagger

    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    texts = [text for text, _ in TRAIN_DATA]
    monkeypatch.setattr(ner, "with_scores", False)
    assert [_ents(doc) for doc in nlp.pipe(texts)] == EXPECTED
    monkeypatch.setattr(tagger, "MAX_CRF_TOKENS", 4)
    monkeypatch.setattr(component, "MAX_PREDICT_TOKENS", 4)
    assert [_ents(doc) for doc in nlp.pipe(texts)] == EXPECTED


def test_decode_in_small_groups(trained_nlp, monkeypatch):
    """Tags and span scores come out the same when decoding and the CRF
    marginals run on groups of a few tokens."""
    from spacy_deid.tagging import tagger

    nlp, _ = trained_nlp
    texts = [text for text, _ in TRAIN_DATA]

    def scored(doc):
        return [(e.start, e.end, e.label_, round(e._.phi_score, 6)) for e in doc.ents]

    whole = [scored(doc) for doc in nlp.pipe(texts)]
    monkeypatch.setattr(tagger, "MAX_CRF_TOKENS", 8)
    assert [_ents(doc) for doc in nlp.pipe(texts)] == EXPECTED
    assert [scored(doc) for doc in nlp.pipe(texts)] == whole
    assert all(s[3] > 0 for doc in whole for s in doc)
