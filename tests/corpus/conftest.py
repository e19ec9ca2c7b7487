"""Small fictional notes for the corpus tests (no real clinical text)."""

import pytest

from spacy_deid.core.types import Note, PhiSpan


def make_note(note_id: str, text: str, spans, patient=None) -> Note:
    """Build a note from (surface, label) pairs found in order in the text."""
    result, pos = [], 0
    for surface, label in spans:
        start = text.index(surface, pos)
        result.append(PhiSpan(start, start + len(surface), label))
        pos = start + len(surface)
    return Note(note_id, text, result, patient)


@pytest.fixture
def notes():
    crlf = "Patient: Zorba Quill\r\nSeen 2067-05-03 at Bluefin Clinic.\r\nMRN 4412-77"
    uni = "Ms. Ñandú Ölçer (👵 age 93) lives in Zürich; pager 555-0199 <ok> & ]]> end"
    plain = "Dr. Ivo Pell called from Room 12."
    return [
        make_note(
            "110-01",
            crlf,
            [
                ("Zorba Quill", "PATIENT"),
                ("2067-05-03", "DATE"),
                ("Bluefin Clinic", "HOSPITAL"),
                ("4412-77", "MEDICALRECORD"),
            ],
        ),
        make_note(
            "note-b",
            uni,
            [
                ("Ñandú Ölçer", "PATIENT"),
                ("93", "AGE"),
                ("Zürich", "CITY"),
                ("555-0199", "PHONE"),
            ],
            patient="p7",
        ),
        make_note("note-c", plain, [("Ivo Pell", "DOCTOR"), ("12", "ROOM")]),
    ]
