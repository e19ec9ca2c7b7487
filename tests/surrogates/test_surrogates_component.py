import pickle

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_deid.surrogates import PhiSurrogates

from .conftest import KEY, deidentify, make_doc, make_nlp

TEXT = (
    "Patient John Smith (MRN 0012345) seen 09/14/2067 at MGH, Boston MA by "
    "Dr. Mary Jones. Mr. Smith, age 94, phone 617-555-1234, email "
    "jsmith@gmail.com. Lives at 12 Main St, 02114. Works as a plumber."
)
PHI = [
    ("John Smith", "PATIENT"),
    ("0012345", "MEDICALRECORD"),
    ("09/14/2067", "DATE"),
    ("MGH", "HOSPITAL"),
    ("Boston", "CITY"),
    ("MA", "STATE"),
    ("Mary Jones", "DOCTOR"),
    ("Smith", "PATIENT"),
    ("94", "AGE"),
    ("617-555-1234", "PHONE"),
    ("jsmith@gmail.com", "EMAIL"),
    ("12 Main St", "STREET"),
    ("02114", "ZIP"),
    ("plumber", "PROFESSION"),
]


def _assert_no_phi(doc):
    out = doc._.deidentified
    for value, _ in PHI:
        if value == "MA":  # too short to search for
            continue
        assert value not in out, value


@pytest.mark.parametrize("mode", ["surrogate", "redact", "tag"])
def test_no_original_phi_in_output(mode):
    nlp = make_nlp(mode=mode)
    doc = deidentify(nlp, TEXT, PHI)
    _assert_no_phi(doc)
    for ent in doc.ents:
        assert ent._.surrogate is not None and ent._.surrogate != ent.text
    assert doc.text == TEXT  # the doc itself is unchanged


def test_redact_mode():
    doc = deidentify(make_nlp(mode="redact"), TEXT, PHI)
    assert {ent._.surrogate for ent in doc.ents} == {"[**]"}
    assert doc._.deidentified.startswith("Patient [**] (MRN [**]) seen [**] at")


def test_redact_fixed_and_label_mask():
    doc = deidentify(make_nlp(mode="redact", redact_mask="XXXXX"), TEXT, PHI)
    assert doc._.deidentified.startswith("Patient XXXXX (MRN XXXXX)")
    doc = deidentify(make_nlp(mode="redact", redact_mask="[**{label}**]"), TEXT, PHI)
    assert doc._.deidentified.startswith(
        "Patient [**PATIENT**] (MRN [**MEDICALRECORD**])"
    )


def test_tag_mode():
    doc = deidentify(make_nlp(mode="tag"), TEXT, PHI)
    assert doc._.deidentified.startswith(
        "Patient [PATIENT] (MRN [MEDICALRECORD]) seen [DATE]"
    )
    doc = deidentify(make_nlp(mode="tag", tag_format="<{label}>"), TEXT, PHI)
    assert "seen <DATE> at <HOSPITAL>" in doc._.deidentified


def test_surrogate_mode_keeps_young_ages_and_structure(nlp):
    doc = deidentify(nlp, "He is 45 years old.", [("45", "AGE")])
    assert doc._.deidentified == "He is 45 years old."
    doc = deidentify(nlp, TEXT, PHI)
    assert "age 90+," in doc._.deidentified
    assert doc._.deidentified.startswith("Patient ")


def test_invalid_mode():
    with pytest.raises(ValueError):
        make_nlp(mode="scramble")


@pytest.mark.parametrize("text", ["", " ", "\n\n", "No PHI here."])
def test_empty_and_no_ents(nlp, text):
    doc = nlp(text)
    assert doc._.deidentified == text
    assert doc._.offset_map == []


def test_spans_key_and_overlaps():
    nlp = make_nlp(spans_key="phi")
    doc = nlp.make_doc("Call John Smith Jr at 617-555-1234 today")
    doc.spans["phi"] = [
        doc.char_span(5, 15, "PATIENT"),
        doc.char_span(10, 18, "PATIENT"),
        doc.char_span(22, 34, "PHONE"),
    ]
    doc = nlp(doc)
    out = doc._.deidentified
    assert "John" not in out and "Smith" not in out and "555" not in out
    assert len(doc._.offset_map) == 2
    assert doc._.offset_map[0][:2] == [5, 18]
    phone = doc.spans["phi"][2]
    assert out[doc._.offset_map[1][2] : doc._.offset_map[1][3]] == phone._.surrogate
    # a missing span group is fine
    assert nlp(nlp.make_doc("x"))._.deidentified == "x"


def test_ents_ignored_with_spans_key():
    nlp = make_nlp(spans_key="phi")
    doc = nlp(make_doc(nlp, "John Smith", [("John Smith", "PATIENT")]))
    assert doc._.deidentified == "John Smith"  # only doc.spans["phi"] is used


def test_pipe_equals_call(nlp):
    docs = [make_doc(nlp, TEXT, PHI, patient=f"p{i}") for i in range(3)]
    texts = [
        nlp(make_doc(nlp, TEXT, PHI, patient=f"p{i}"))._.deidentified for i in range(3)
    ]
    assert [doc._.deidentified for doc in nlp.pipe(docs)] == texts
    assert texts[0] != texts[1]


def test_patient_from_pipe_context(nlp):
    doc = make_doc(nlp, TEXT, PHI)
    ((out, ctx),) = nlp.pipe([(doc, {"patient": "p7"})], as_tuples=True)
    expected = nlp(make_doc(nlp, TEXT, PHI, patient="p7"))._.deidentified
    assert ctx == {"patient": "p7"} and out._.deidentified == expected


def test_extension_values_survive_doc_serialization(nlp):
    doc = deidentify(nlp, TEXT, PHI)
    restored = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert restored._.deidentified == doc._.deidentified
    assert restored._.offset_map == doc._.offset_map
    assert [e._.surrogate for e in restored.ents] == [e._.surrogate for e in doc.ents]
    docbin = DocBin(store_user_data=True, docs=[doc])
    (again,) = DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab)
    # DocBin's msgpack gives tuples back
    assert [list(entry) for entry in again._.offset_map] == doc._.offset_map


def test_component_serialization_excludes_key(tmp_path):
    nlp = make_nlp(redact_mask="XXXXX", date_shift_max=30)
    component = nlp.get_pipe("phi_surrogates")
    data = component.to_bytes()
    assert KEY not in data and KEY.hex().encode() not in data
    nlp.to_disk(tmp_path / "model")
    for path in (tmp_path / "model").rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            assert KEY not in content and KEY.hex().encode() not in content
    # config survives to_bytes / from_bytes and to_disk / load
    fresh = PhiSurrogates(spacy.blank("en"))
    fresh.set_key(KEY)
    fresh.from_bytes(data)
    assert fresh.cfg == component.cfg
    with pytest.warns(UserWarning):  # no key after load: a random one
        loaded = spacy.load(tmp_path / "model")
        loaded("x")
    loaded_component = loaded.get_pipe("phi_surrogates")
    assert loaded_component.cfg == component.cfg
    assert loaded_component.key_source == "ephemeral"
    assert loaded_component._key != KEY


def test_key_survives_pickle(nlp):
    restored = pickle.loads(pickle.dumps(nlp))
    assert restored.get_pipe("phi_surrogates").key_source == "set_key"
    a = deidentify(nlp, TEXT, PHI, "p1")._.deidentified
    b = deidentify(restored, TEXT, PHI, "p1")._.deidentified
    assert a == b


def test_ephemeral_key_survives_pickle():
    nlp = make_nlp(key=None)
    restored = pickle.loads(pickle.dumps(nlp))
    with pytest.warns(UserWarning):
        a = deidentify(nlp, TEXT, PHI, "p1")._.deidentified
        b = deidentify(restored, TEXT, PHI, "p1")._.deidentified
    assert a == b


def test_many_notes_are_fast(nlp):
    docs = [make_doc(nlp, TEXT, PHI, patient=f"p{i % 7}") for i in range(200)]
    outs = [doc._.deidentified for doc in nlp.pipe(docs)]
    assert len(set(outs)) == 7


def test_overlapping_spans_keep_age_flag():
    nlp = make_nlp(spans_key="phi")
    doc = nlp.make_doc("She is in her late eighties now")
    doc.spans["phi"] = [doc.char_span(14, 27, "AGE"), doc.char_span(19, 27, "AGE")]
    doc.spans["phi"][1]._.phi_flags = ["AGE_OVER_89"]
    doc = nlp(doc)
    assert doc._.deidentified == "She is in her 90+ now"
