"""The `phi_known` component and `mark_known_phi`."""

import pickle

import pytest
import spacy
from spacy.tokens import Span

import spacy_deid.known.component  # noqa: F401  (registers "phi_known")
from spacy_deid.known import KnownPhiError, mark_known_phi

PATIENT = {"text": "Smith, John", "label": "PATIENT"}


@pytest.fixture
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_known")
    return nlp


def ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def span(doc, text, label):
    """The span of the first occurrence of `text` (token-aligned)."""
    start = doc.text.index(text)
    return doc.char_span(start, start + len(text), label=label)


def test_extension_input(nlp):
    doc = nlp.make_doc("John Smith was seen. Smith is better.")
    doc._.known_phi = [PATIENT]
    doc = nlp(doc)
    assert ents(doc) == [("John Smith", "PATIENT"), ("Smith", "PATIENT")]
    assert all(e._.phi_source == "known" and e._.phi_score == 1.0 for e in doc.ents)


def test_context_input_and_extension_priority(nlp):
    text = "John Smith met Mary Jones."
    mary = [{"text": "Mary Jones", "label": "PATIENT"}]
    ((doc, context),) = nlp.pipe([(text, {"known_phi": [PATIENT]})], as_tuples=True)
    assert ents(doc) == [("John Smith", "PATIENT")]
    assert context == {"known_phi": [PATIENT]}
    doc = nlp.make_doc(text)
    doc._.known_phi = mary
    ((doc, _),) = nlp.pipe([(doc, {"known_phi": [PATIENT]})], as_tuples=True)
    assert ents(doc) == [("Mary Jones", "PATIENT")]


def test_no_known_phi_leaves_the_doc_alone(nlp):
    doc = nlp.make_doc("John Smith")
    doc.ents = [Span(doc, 0, 1, label="DOCTOR")]
    assert ents(nlp(doc)) == [("John", "DOCTOR")]
    assert ents(nlp("")) == []
    empty = nlp.make_doc("")
    empty._.known_phi = [PATIENT]
    assert ents(nlp(empty)) == []


def test_token_alignment(nlp):
    doc = nlp.make_doc("Annual visit; ID:12345x ok; Ann.")
    doc._.known_phi = [
        {"text": "Ann Lee", "label": "PATIENT"},
        {"text": "12345", "label": "MEDICALRECORD"},
    ]
    doc = nlp(doc)
    # "Ann" is not found inside "Annual"; a match inside a token is expanded
    # to the whole token.
    assert ents(doc) == [("ID:12345x", "MEDICALRECORD"), ("Ann", "PATIENT")]


def test_known_spans_win_and_merge_with_overlapping_entities():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Dr. Smith saw John Smith today at Boston General.")
    doc.ents = [
        span(doc, "Smith", "DOCTOR"),  # the same tokens as a match
        span(doc, "Smith today", "DATE"),  # extends beyond a match
        span(doc, "Boston General", "HOSPITAL"),  # overlaps no match
    ]
    doc.ents[1]._.phi_flags = ["X_FLAG"]
    doc.ents[2]._.phi_source = "rules:hospital"
    known = [PATIENT, {"text": "today", "label": "DATE"}]
    mark_known_phi(doc, known)
    # "John Smith", "Smith today" and "today" overlap: one span, with the
    # label of the longest known match.
    assert ents(doc) == [
        ("Smith", "PATIENT"),
        ("John Smith today", "PATIENT"),
        ("Boston General", "HOSPITAL"),
    ]
    assert [e._.phi_source for e in doc.ents] == ["known", "known", "rules:hospital"]
    assert doc.ents[1]._.phi_flags == ["X_FLAG"]
    assert doc.ents[1]._.phi_score == 1.0


def test_merge_never_uncovers_a_token():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Patient John Smith Jr. Esq. arrived.")
    doc.ents = [
        span(doc, "Patient John", "DOCTOR"),
        span(doc, "Smith Jr.", "IDNUM"),
        span(doc, "arrived", "DATE"),
    ]
    before = {i for e in doc.ents for i in range(e.start, e.end)}
    mark_known_phi(doc, [{"text": "John Smith", "label": "PATIENT"}])
    after = {i for e in doc.ents for i in range(e.start, e.end)}
    assert before <= after
    # Both entities overlap the known "John Smith": one span, the known label.
    assert ents(doc) == [("Patient John Smith Jr.", "PATIENT"), ("arrived", "DATE")]


def test_overlapping_known_items_become_one_span():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("She lives near Ann Lee Road now.")
    known = [
        {"text": "Ann Lee", "label": "PATIENT"},
        {"text": "Lee Road", "label": "STREET"},
    ]
    mark_known_phi(doc, known, spans_key="known")
    # One span with the label of the longest match ("Lee Road").
    assert ents(doc) == [("Ann Lee Road", "STREET")]
    raw = {(s.text, s.label_) for s in doc.spans["known"]}
    assert {("Ann Lee", "PATIENT"), ("Lee Road", "STREET")} <= raw


def test_invalid_items_raise_without_text(nlp):
    secret = "Zebulon Quartermaine"
    bad = [
        [{"text": 12345, "label": "MEDICALRECORD"}],
        [{"text": secret}],
        [{"text": secret, "label": ""}],
        [{"text": secret, "label": 7}],
        {"text": secret, "label": "PATIENT"},
        secret,
        [secret],
        [{"text": "-", "label": "PATIENT"}],
        [{"text": secret * 40, "label": "PATIENT"}],
    ]
    for known in bad:
        doc = nlp.make_doc(f"{secret} was seen.")
        doc._.known_phi = known
        with pytest.raises(ValueError) as info:
            nlp(doc)
        assert isinstance(info.value, KnownPhiError)
        assert "Zebulon" not in str(info.value)
        assert "Quartermaine" not in str(info.value)


def test_swapped_fields_do_not_leak_through_the_label_check():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_known", config={"labels": ["PATIENT", "DATE"]})
    doc = nlp.make_doc("Zebulon was seen.")
    doc._.known_phi = [{"text": "PATIENT", "label": "Zebulon"}]
    with pytest.raises(KnownPhiError) as info:
        nlp(doc)
    assert "ZEBULON" not in str(info.value).upper()
    doc = nlp.make_doc("Zebulon was seen.")
    doc._.known_phi = [{"text": "Zebulon", "label": "patient"}]
    assert ents(nlp(doc)) == [("Zebulon", "PATIENT")]


def test_failures_go_to_the_error_handler(nlp):
    failed = []
    nlp.set_error_handler(lambda name, proc, docs, err: failed.append(name))
    doc = nlp.make_doc("text")
    doc._.known_phi = "not a list"
    assert nlp(doc) is not None
    assert failed == ["phi_known"]


def test_label_map():
    nlp = spacy.blank("es")
    nlp.add_pipe("phi_known", config={"label_map": "i2b22meddocan"})
    doc = nlp.make_doc("Paciente Lucía Ferrer, nacida el 7 de marzo de 1950.")
    doc._.known_phi = [
        {"text": "Lucía Ferrer Soler", "label": "PATIENT"},
        {"text": "07/03/1950", "label": "DATE"},
        {"text": "Rareza", "label": "UNMAPPED_LABEL"},
    ]
    assert ents(nlp(doc)) == [
        ("Lucía Ferrer", "NOMBRE_SUJETO_ASISTENCIA"),
        ("7 de marzo de 1950", "FECHAS"),
    ]


def test_config_validation():
    nlp = spacy.blank("en")
    for config in [
        {"min_part_length": -1},
        {"labels": "PATIENT"},
        {"label_map": "no_such_map"},
        {"spans_key": ""},
    ]:
        with pytest.raises(ValueError):
            nlp.add_pipe("phi_known", name=f"k{len(nlp.pipe_names)}", config=config)


def test_serialization_round_trips(tmp_path):
    nlp = spacy.blank("en")
    config = {"labels": ["PATIENT"], "min_part_length": 4, "spans_key": "known"}
    nlp.add_pipe("phi_known", config=config)
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    expected = {**config, "label_map": None}
    assert loaded.get_pipe("phi_known").cfg == expected
    other = spacy.blank("en").add_pipe("phi_known")
    other.from_bytes(nlp.get_pipe("phi_known").to_bytes())
    assert other.cfg == expected
    copy = pickle.loads(pickle.dumps(loaded))
    doc = copy.make_doc("Ann Smith and Ann")
    doc._.known_phi = [{"text": "Ann Smith", "label": "PATIENT"}]
    # min_part_length = 4: "Ann" alone is not searched.
    assert ents(copy(doc)) == [("Ann Smith", "PATIENT")]


def test_component_cfg_change_takes_effect(nlp):
    doc = nlp.make_doc("Ann Smith and Ann")
    doc._.known_phi = [{"text": "Ann Smith", "label": "PATIENT"}]
    nlp.get_pipe("phi_known").cfg["min_part_length"] = 0
    assert ents(nlp(doc)) == [("Ann Smith", "PATIENT")]
