"""Every pattern is line-ending agnostic: "\\n", "\\r\\n" and a lone "\\r" give the
same spans (offsets shifted by the extra "\\r" characters)."""

from typing import List, Tuple

import pytest

from spacy_deid.rules.patterns import FAMILIES

from . import (
    test_ages,
    test_contact,
    test_dates,
    test_facilities,
    test_ids,
    test_locations,
    test_names,
    test_social,
    test_usernames,
)

_MODULES = [
    test_ages,
    test_contact,
    test_dates,
    test_facilities,
    test_ids,
    test_locations,
    test_names,
    test_social,
    test_usernames,
]
# Texts with a line break in the middle of what the patterns have to read.
MULTILINE = [
    "Patient: Hendrickson, Ora\nMRN: 7194334",
    "Attending: Dr.\nLucas Whalen\nDOB: 01/02/1950",
    "Fax:\n617-555-0199\n",
    "Tel: 617-555-1212\nFax: (617) 555-1213\n",
    "Patient Name: Robert Jones\nDOB: 9/14/2067\n",
    "cc: Dr.\nSmith\n",
    "Pt: Jones, Robert A\nAdmitted 9/14/2067-9/16/2067 for CHF.\n",
    "Name: Lynne R. Roberts\nAge: 68\n68M with CHF\n",
    "admitted on\n3/14 with CP\n",
    "Emergency contact: Mark, Scott\nMother (Breast Cancer)\n",
    "login\njball76 | 192.194.109.80 |\n",
    "slides from Lahey Clinic, Trenton\nno change",
    "Address: 12 Main St, Reading, PA\nmoved to Florida\nlast year",
    "works at Acme Corp.\nLives alone",
    "Transferred from Mercy Hospital\n9/14 at 0800\nFax:\n617-555-0199",
    "Labs 9/14:\nPt: Jones, Robert A\n",
]


def _texts() -> List[str]:
    texts = list(MULTILINE)
    for module in _MODULES:
        for case in module.POSITIVES:
            texts.extend([case[1], case[1] + "\n"])
    return texts


def _ents(find_doc, text: str) -> List[Tuple[int, int, str]]:
    doc = find_doc(text)
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def _shift(text: str, offset: int, newline: str) -> int:
    return offset + text[:offset].count("\n") * (len(newline) - 1)


def test_every_family_is_covered():
    covered = {m.__name__.rsplit(".", 1)[-1].replace("test_", "") for m in _MODULES}
    # NOT_PHI patterns emit no entities (tests/rules/test_negatives.py); the
    # Spanish families' line endings are tested in tests/rules/test_rules_es.py.
    spanish = {family for family in FAMILIES if family.endswith("_es")}
    assert covered == set(FAMILIES) - {"negatives"} - spanish


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
@pytest.mark.parametrize("text", _texts())
def test_same_spans_for_any_line_ending(find_doc, text, newline):
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # "\n" first
    expected = [
        (_shift(text, s, newline), _shift(text, e, newline), label)
        for s, e, label in _ents(find_doc, text)
    ]
    assert _ents(find_doc, text.replace("\n", newline)) == expected


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_header_note_any_line_ending(find, newline):
    text = "\n".join(
        [
            "Patient: Hendrickson, Ora",
            "Attending: Dr.",
            "Lucas Whalen",
            "Fax:",
            "617-555-0199",
            "",
        ]
    ).replace("\n", newline)
    assert find(text) == [
        ("Hendrickson, Ora", "PATIENT"),
        ("Lucas Whalen", "DOCTOR"),
        ("617-555-0199", "FAX"),
    ]
