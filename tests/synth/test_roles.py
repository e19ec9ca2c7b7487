"""Staff roles and interpreters as plain text; the home country as a country."""

import re

from spacy_deid.synth.families import REGISTRY
from spacy_deid.synth.pools import split_of
from spacy_deid.synth.world import home_country_forms

ROLES = re.compile(
    r"\b(?:interpreter|case manager|school nurse|charge nurse|visiting nurse)\b", re.I
)
_LONGEST_FIRST = sorted(home_country_forms("train"), key=len, reverse=True)
_FORMS = "|".join(re.escape(form) for form in _LONGEST_FIRST)
HOME = re.compile(
    rf"\b(?:Moved|Came|Immigrated) to the ({_FORMS})(?!\w)"
    rf"|\bArrived in the ({_FORMS})(?!\w)"
)


def _inside(note, start, end):
    return [s for s in note.spans if s.start < end and start < s.end]


def test_role_families_are_train_families():
    for fid in ("common.sh.language", "common.fu.team"):
        assert REGISTRY[fid].train


def test_staff_roles_are_not_phi(notes_train):
    plain = set()
    for note in notes_train:
        for m in ROLES.finditer(note.text):
            if not _inside(note, m.start(), m.end()):
                plain.add(m.group(0).lower())
    # A patient may still work as an interpreter (a PROFESSION span), but the
    # roles met at the bedside are plain text.
    assert {"interpreter", "case manager"} <= plain, plain


def test_home_country_is_a_country_span(notes_train):
    found = 0
    for note in notes_train:
        for m in HOME.finditer(note.text):
            start, end = m.span(m.lastindex)
            spans = _inside(note, start, end)
            assert [(s.start, s.end, s.label) for s in spans] == [
                (start, end, "COUNTRY")
            ], note.id
            found += 1
    assert found >= 3, found


def test_home_country_forms_stay_in_their_pool(notes_dev, notes_test):
    train = home_country_forms("train")
    assert "US" in train
    for split in ("train", "dev", "test"):
        assert all(split_of(form) == split for form in home_country_forms(split))
    for note in notes_dev + notes_test:
        for s in note.spans:
            assert note.text[s.start : s.end] not in train, note.id
