import warnings

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_deid.corpus import (
    MisalignedSpanWarning,
    Note,
    OverlappingSpanWarning,
    PhiSpan,
    convert,
    notes_to_docbin,
    read_docbin,
    read_jsonl,
    write_jsonl,
)
from spacy_deid.corpus.docbin import note_to_doc

# "MRN:12345" is one token for spaCy's English tokenizer; the gold span is inside.
TEXT = "Seen by Kim Lee, MRN:12345 today."
MISALIGNED = Note(
    "m1",
    TEXT,
    [PhiSpan(8, 15, "DOCTOR"), PhiSpan(21, 26, "MEDICALRECORD")],
    patient="p1",
)


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


@pytest.mark.parametrize(
    "policy,ents,counts",
    [
        (
            "expand",
            [("Kim Lee", "DOCTOR"), ("MRN:12345", "MEDICALRECORD")],
            {"expanded": 1},
        ),
        ("contract", [("Kim Lee", "DOCTOR")], {"missing": 1}),
        ("drop", [("Kim Lee", "DOCTOR")], {"dropped": 1}),
        ("missing", [("Kim Lee", "DOCTOR")], {"missing": 1}),
    ],
)
def test_misaligned_policies(nlp, policy, ents, counts):
    with pytest.warns(MisalignedSpanWarning) as record:
        docbin, stats = notes_to_docbin([MISALIGNED], nlp, misaligned=policy)
    message = str(record[0].message)
    assert "m1" in message and "12345" not in message and "Kim" not in message
    assert (stats.spans, stats.aligned, stats.misaligned) == (2, 1, 1)
    assert stats.per_label["MEDICALRECORD"] == {
        "spans": 1,
        "misaligned": 1,
        "overlapping": 0,
    }
    for key in ("expanded", "contracted", "dropped", "missing"):
        assert getattr(stats, key) == counts.get(key, 0)
    doc = list(docbin.get_docs(nlp.vocab))[0]
    assert [(e.text, e.label_) for e in doc.ents] == ents
    mrn = [t for t in doc if t.text == "MRN:12345"][0]
    expected_iob = {"expand": "B", "contract": "", "drop": "O", "missing": ""}
    assert mrn.ent_iob_ == expected_iob[policy]


def test_contract_keeps_inner_tokens(nlp):
    note = Note("c1", "Call Kim Lee now", [PhiSpan(6, 12, "PATIENT")])
    with pytest.warns(MisalignedSpanWarning):
        _, stats = notes_to_docbin([note], nlp, misaligned="contract")
    assert stats.contracted == 1
    doc = note_to_doc(note, nlp, "contract")
    assert [e.text for e in doc.ents] == ["Lee"]


def test_overlapping_gold_keeps_longest(nlp):
    note = Note(
        "o1",
        "Kim Lee Park",
        [PhiSpan(0, 7, "PATIENT"), PhiSpan(4, 12, "DOCTOR"), PhiSpan(0, 12, "PATIENT")],
    )
    with pytest.warns(OverlappingSpanWarning, match="o1"):
        docbin, stats = notes_to_docbin([note], nlp)
    assert stats.overlapping == 2 and stats.misaligned == 0
    doc = list(docbin.get_docs(nlp.vocab))[0]
    assert [(e.start_char, e.end_char) for e in doc.ents] == [(0, 12)]


def test_patient_and_id_survive_docbin(nlp, tmp_path):
    note = Note("n9", "Kim Lee", [PhiSpan(0, 7, "PATIENT")], patient="p42")
    docbin, _ = notes_to_docbin([note], nlp)
    docbin.to_disk(tmp_path / "x.spacy")
    doc = list(DocBin().from_disk(tmp_path / "x.spacy").get_docs(nlp.vocab))[0]
    assert doc._.patient == "p42" and doc.user_data["note_id"] == "n9"
    back = list(read_docbin(tmp_path / "x.spacy"))
    assert back[0].id == "n9" and back[0].patient == "p42"
    assert back[0].spans == note.spans


def test_no_warning_when_aligned(nlp):
    note = Note("a", "Kim Lee", [PhiSpan(0, 3, "PATIENT")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, stats = notes_to_docbin([note], nlp)
    assert stats.misaligned == 0 and stats.aligned == 1


def test_convert_api_jsonl_to_spacy_and_back(tmp_path, notes):
    write_jsonl(notes, tmp_path / "in.jsonl")
    result = convert(tmp_path / "in.jsonl", tmp_path / "out.spacy", lang="en")
    assert result["notes"] == 3 and result["spans"] == 10
    assert result["alignment"]["spans"] == 10
    back = convert(tmp_path / "out.spacy", tmp_path / "back.jsonl")
    assert back["notes"] == 3
    texts = {n.id: n.text for n in read_jsonl(tmp_path / "back.jsonl")}
    assert texts == {n.id: n.text for n in notes}
    mapped = convert(
        tmp_path / "in.jsonl", tmp_path / "cat.jsonl", label_map="category"
    )
    assert mapped["spans"] == 10
    labels = {s.label for n in read_jsonl(tmp_path / "cat.jsonl") for s in n.spans}
    assert labels == {"NAME", "DATE", "LOCATION", "ID", "AGE", "CONTACT"}
