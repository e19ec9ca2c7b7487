"""phi_consistency in pipelines: registration, serialization, pickling, the
shipped rules pipeline, nlp.pipe(n_process=2) and the fail-closed runner."""

import pickle

import pytest
import spacy
from spacy.language import Language
from spacy.util import make_tempdir

import spacy_deid
from spacy_deid.consistency import SOURCE, PhiConsistency
from spacy_deid.io.records import Record
from spacy_deid.run.runner import Result, deidentify_items

from .conftest import added, annotate, make_nlp

KEY = b"consistency-test-key-0123456789"
CONFIG = {
    "scope": "doc",
    "max_run_docs": 7,
    "min_chars": 2,
    "min_digits": 3,
    "labels": ["PATIENT", "IDNUM"],
    "exclude_labels": [],
    "min_score": 0.25,
    "extra_common_words": ["quillon"],
}
# Patients p1 (4 notes), p2 and p3 (2 each): with batch_size 4 no patient run
# straddles a batch, so n_process=2 sees the same runs as one process.
NOTES = [
    ("p1", "Seen by Dr. Xavier Quillon today. MRN: 4455667."),
    ("p1", "Xavier Quillon reviewed labs. Record 4455667 updated."),
    ("p1", "Delphine Arbogast called about Xavier Quillon."),
    ("p1", "Patient name: Delphine Arbogast\nDelphine Arbogast is doing well."),
    ("p2", "Patient name: Marisol Fenwick\nMRN: 7788990."),
    ("p2", "Marisol Fenwick seen. Xavier Quillon not involved."),
    ("p3", "Delphine Arbogast phoned."),
    ("p3", "Contact 617-555-0199 for questions."),
]


@pytest.fixture(scope="module")
def nlp_cons():
    """The shipped rules pipeline with phi_consistency before phi_surrogates."""
    nlp = spacy_deid.load("en_rules")
    nlp.add_pipe("phi_consistency", before="phi_surrogates")
    nlp.get_pipe("phi_surrogates").set_key(KEY)
    return nlp


def results(stream):
    return [
        (
            doc._.deidentified,
            [(e.start_char, e.end_char, e.label_, e._.phi_source) for e in doc.ents],
            context,
        )
        for doc, context in stream
    ]


def test_factory_is_registered():
    assert "phi_consistency" in Language.factories
    nlp = spacy.blank("en")
    component = nlp.add_pipe("phi_consistency")
    assert isinstance(component, PhiConsistency)
    assert component.cfg["scope"] == "patient"
    assert component.cfg["max_run_docs"] == 500
    assert component.cfg["exclude_labels"] == ["AGE"]
    meta = nlp.get_pipe_meta("phi_consistency")
    assert meta.assigns == [
        "doc.ents",
        "token.ent_iob",
        "token.ent_type",
        "span._.phi_source",
        "span._.phi_score",
        "span._.phi_flags",
    ]
    assert "doc.ents" in meta.requires and "span._.phi_score" in meta.requires


def test_cfg_round_trips_through_disk():
    nlp = make_nlp(**CONFIG)
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)
    component = loaded.get_pipe("phi_consistency")
    assert component.cfg == nlp.get_pipe("phi_consistency").cfg
    text = "Al Quillon seen, ID 123. Al and 123 again. Quillon too."
    ents = [("Al", "PATIENT", 0.3), ("Quillon", "PATIENT"), ("123", "IDNUM")]
    doc = component(annotate(loaded, text, ents))
    assert added(doc) == [("Al", "PATIENT"), ("123", "IDNUM")]


def test_cfg_round_trips_through_bytes_and_from_disk():
    source = make_nlp(**CONFIG).get_pipe("phi_consistency")
    target = make_nlp().get_pipe("phi_consistency")
    target.from_bytes(source.to_bytes())
    assert target.cfg == source.cfg
    assert target.guard.min_chars == 2 and target.guard.min_score == 0.25
    other = make_nlp().get_pipe("phi_consistency")
    with make_tempdir() as path:
        source.to_disk(path)
        other.from_disk(path)
    assert other.cfg == source.cfg
    assert not other.guard.allows_text("quillon")


def test_pickle_round_trip():
    component = make_nlp(**CONFIG).get_pipe("phi_consistency")
    copy = pickle.loads(pickle.dumps(component))
    assert copy.cfg == component.cfg
    nlp = make_nlp()
    text = "Al Quillon seen. Al again."
    doc = copy(annotate(nlp, text, [("Al", "PATIENT")]))
    assert added(doc) == [("Al", "PATIENT")]


def test_shipped_rules_pipeline_marks_across_notes(nlp_cons):
    data = [(text, {"patient": patient}) for patient, text in NOTES]
    docs = [doc for doc, _ in nlp_cons.pipe(data, as_tuples=True)]
    assert [len(added(doc)) for doc in docs] == [0, 2, 2, 1, 0, 1, 0, 0]
    assert added(docs[2]) == [
        ("Delphine Arbogast", "PATIENT"),
        ("Xavier Quillon", "DOCTOR"),
    ]
    for doc in docs[:4]:
        for name in ("Quillon", "Arbogast", "4455667"):
            assert name not in doc._.deidentified
    # No leakage: p2 and p3 never detected these names themselves.
    assert "Xavier Quillon" in docs[5]._.deidentified
    assert "Delphine Arbogast" in docs[6]._.deidentified


def test_n_process_2_equals_n_process_1(nlp_cons):
    data = [
        (text, {"patient": patient, "i": i}) for i, (patient, text) in enumerate(NOTES)
    ]
    single = results(nlp_cons.pipe(data, as_tuples=True, batch_size=4))
    multi = results(nlp_cons.pipe(data, as_tuples=True, batch_size=4, n_process=2))
    assert multi == single
    assert sum(source == SOURCE for _, ents, _ in multi for *_, source in ents) == 6


def test_runner_checks_the_added_entities(nlp_cons):
    records = [
        Record(index=i, id=f"n{i}", text=text, patient=patient)
        for i, (patient, text) in enumerate(NOTES)
    ]
    outputs = list(deidentify_items(nlp_cons, records, batch_size=8))
    assert all(isinstance(output, Result) for output in outputs)
    assert [output.index for output in outputs] == list(range(len(NOTES)))
    for output in outputs[:4]:
        assert "Quillon" not in output.text and "Arbogast" not in output.text
