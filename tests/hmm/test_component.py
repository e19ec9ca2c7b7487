"""The phi_hmm component: training, prediction, serialization, pipelines."""

import pickle

import pytest
import spacy
from spacy.training import Example
from spacy.util import make_tempdir

from spacy_deid.hmm import PhiHMM
from spacy_deid.hmm.component import _gold_segments

from .conftest import make_data, make_examples, make_nlp, train_nlp


def _ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def test_overfits_a_few_sentences(trained_nlp):
    data = make_data()
    for text, ents in data:
        assert _ents(trained_nlp(text)) == ents
    scores = trained_nlp.evaluate(make_examples(trained_nlp, data))
    assert scores["ents_f"] == 1.0


def test_spans_have_source_and_score(trained_nlp):
    doc = trained_nlp("Dr. Smith called back about the results .")
    (span,) = doc.ents
    assert span.text == "Smith" and span.label_ == "DOCTOR"
    assert span._.phi_source == "phi_hmm"
    assert 0.5 < span._.phi_score <= 1.0


def test_labels_and_settings(trained_nlp):
    hmm = trained_nlp.get_pipe("phi_hmm")
    assert hmm.labels == ("DATE", "DOCTOR", "PATIENT")
    assert hmm.cfg["model_version"] == "spacy_deid.HMMDP.v1"
    assert hmm.settings.n_subtags_o == 4
    assert not hmm.is_trainable


def test_empty_docs(trained_nlp):
    assert _ents(trained_nlp("")) == []
    docs = list(trained_nlp.pipe(["", "Dr. Jones called back about the results ."]))
    assert _ents(docs[1]) == [(4, 9, "DOCTOR")]


def test_serialization_round_trip_gives_the_same_predictions(trained_nlp):
    texts = [text for text, _ in make_data(12)] + ["Dr. Unseenname today ."]
    expected = [_ents(doc) for doc in trained_nlp.pipe(texts)]
    scores = [[e._.phi_score for e in doc.ents] for doc in trained_nlp.pipe(texts)]
    with make_tempdir() as path:
        trained_nlp.to_disk(path)
        loaded = spacy.load(path)
    assert [_ents(doc) for doc in loaded.pipe(texts)] == expected
    assert [[e._.phi_score for e in d.ents] for d in loaded.pipe(texts)] == scores
    fresh = make_nlp()
    fresh.get_pipe("phi_hmm").from_bytes(trained_nlp.get_pipe("phi_hmm").to_bytes())
    assert [_ents(doc) for doc in fresh.pipe(texts)] == expected
    unpickled = pickle.loads(pickle.dumps(trained_nlp))
    assert [_ents(doc) for doc in unpickled.pipe(texts)] == expected


def test_training_is_deterministic_for_a_seed():
    a = train_nlp({"max_iterations": 4}).get_pipe("phi_hmm")
    b = train_nlp({"max_iterations": 4}).get_pipe("phi_hmm")
    c = train_nlp({"max_iterations": 4, "seed": 5}).get_pipe("phi_hmm")
    assert a.to_bytes() == b.to_bytes()
    assert a.hmm.emit.tobytes() != c.hmm.emit.tobytes()


def test_spans_key_leaves_ents_alone(trained_nlp):
    nlp = make_nlp(spans_key="hmm")
    nlp.get_pipe("phi_hmm").from_bytes(trained_nlp.get_pipe("phi_hmm").to_bytes())
    doc = nlp("Dr. Smith called back about the results .")
    assert doc.ents == ()
    assert [(s.text, s.label_) for s in doc.spans["hmm"]] == [("Smith", "DOCTOR")]


def test_skip_unread_turns_scores_off_and_back(trained_nlp):
    hmm = trained_nlp.get_pipe("phi_hmm")
    undo = hmm.skip_unread({})
    try:
        doc = trained_nlp("Dr. Smith called back about the results .")
        assert doc.ents[0]._.phi_score is None
    finally:
        undo()
    assert hmm.with_scores


def test_untrained_and_unlabelled():
    nlp = make_nlp()
    with pytest.raises(ValueError, match="no trained model"):
        nlp("Dr. Smith today .")
    examples = [Example.from_dict(nlp.make_doc("No PHI here ."), {"entities": []})]
    with pytest.raises(ValueError, match="no labels"):
        nlp.initialize(get_examples=lambda: examples)


def test_missing_gold_tags_are_not_taught_as_o():
    nlp = make_nlp()
    data = make_data()
    examples = make_examples(nlp, data)
    doc = nlp.make_doc("Dr. Brown was seen .")
    partial = Example.from_dict(doc, {"entities": ["O", "-", "O", "O", "O"]})
    segments = _gold_segments(partial, None)
    assert [(texts, tags, start, end) for texts, tags, start, end in segments] == [
        (["Dr."], ["O"], True, False),
        (["was", "seen", "."], ["O", "O", "O"], False, True),
    ]
    examples.append(partial)
    nlp.initialize(get_examples=lambda: examples)
    assert _ents(nlp("Seen by Dr. Brown today .")) == [(12, 17, "DOCTOR")]


def test_update_trains_nothing(trained_nlp):
    before = trained_nlp.get_pipe("phi_hmm").to_bytes()
    losses = trained_nlp.update(make_examples(trained_nlp, make_data(4)))
    assert losses.get("phi_hmm", 0.0) == 0.0
    assert trained_nlp.get_pipe("phi_hmm").to_bytes() == before


def test_pipeline_with_surrogates_deidentifies_a_note(trained_nlp):
    nlp = make_nlp()
    nlp.get_pipe("phi_hmm").from_bytes(trained_nlp.get_pipe("phi_hmm").to_bytes())
    nlp.add_pipe("phi_surrogates").set_key(bytes(range(32)))
    text = "Patient Maria Garcia was admitted overnight ."
    doc = nlp(text)
    assert _ents(doc) == [(8, 20, "PATIENT")]
    out = doc._.deidentified
    assert "Maria" not in out and "Garcia" not in out
    assert out.endswith(" was admitted overnight .")


def test_component_class():
    assert issubclass(PhiHMM, spacy.pipeline.Pipe)
