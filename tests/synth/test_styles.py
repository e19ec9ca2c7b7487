"""The informal and outside-the-ward kinds: spans align, traps stay plain."""

import re
from collections import Counter

import pytest

from spacy_deid.synth import generate
from spacy_deid.synth.kinds import KINDS

NEW_KINDS = (
    "nursing_handoff",
    "signout",
    "family_meeting",
    "portal_message",
    "chart_access",
    "outside_record",
    "field_record",
)
TRAPS = ("Foley", "Babinski", "Parkinson", "Hodgkin", "Humira", "Lipitor",
         "Eliquis", "Hospital Day", "POD", "Grade", "port", "ago")  # fmt: skip


@pytest.fixture(scope="module")
def notes():
    return [
        n
        for split in ("train", "dev", "test")
        for n in generate(150, seed=13, split=split)
        if n.meta["kind"] in NEW_KINDS
    ]


def test_new_kinds_registered_and_trainable():
    for kind in NEW_KINDS:
        assert kind in KINDS and not KINDS[kind].dev


def test_new_kinds_occur(notes):
    kinds = Counter(n.meta["kind"] for n in notes)
    assert set(kinds) == set(NEW_KINDS), kinds


def test_spans_align(notes):
    for note in notes:
        for s in note.spans:
            text = note.text[s.start : s.end]
            assert text and text == text.strip(), (note.id, text)
            assert not text.endswith((",", ";", ":")), (note.id, text)


def test_traps_never_gold(notes):
    found = set()
    for note in notes:
        for word in TRAPS:
            for m in re.finditer(r"\b" + re.escape(word) + r"\b", note.text):
                for s in note.spans:
                    assert not (s.start < m.end() and m.start() < s.end), (
                        note.id,
                        word,
                        note.text[s.start : s.end],
                    )
                found.add(word)
    assert len(found) >= 6, found


def test_lowercase_names_and_bare_surnames(notes):
    lower = {"PATIENT": 0, "DOCTOR": 0}
    for note in notes:
        for s in note.spans:
            if s.label in lower and note.text[s.start : s.end].islower():
                lower[s.label] += 1
    assert lower["PATIENT"] > 0 and lower["DOCTOR"] > 0, lower
