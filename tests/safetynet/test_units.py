"""`phi_safety_net`'s unit class: a department that a header names after its
hospital and a separator."""

import pytest

from .test_component import make_nlp
from .test_places import NAMES_OFF

UNITS = {**NAMES_OFF, "unit": "DEPARTMENT"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=UNITS)


def found(nlp, text, hospital):
    """The entities the net adds after `hospital`, tagged as a HOSPITAL."""
    doc = nlp.make_doc(text)
    start = text.index(hospital)
    doc.ents = [doc.char_span(start, start + len(hospital), label="HOSPITAL")]
    doc = nlp.get_pipe("phi_safety_net")(doc)
    return [(e.text, e.label_, e._.phi_source) for e in doc.ents if e.label_ != "HOSPITAL"]


@pytest.mark.parametrize(
    "text,unit",
    [
        ("Quillon Hospital  \u00b7  Neurodiagnostic Laboratory\nEEG", "Neurodiagnostic Laboratory"),
        ("Quillon Hospital - Adult Acute Unit 3B\nGROUP NOTE", "Adult Acute Unit 3B"),
        ("Quillon Hospital | Health Information Management | Log", "Health Information Management"),
        ("Quillon Hospital \u2014 Sedation & Procedure Unit, bed 4", "Sedation & Procedure Unit"),
    ],
)
def test_finds_a_unit_after_its_hospital(nlp, text, unit):
    assert found(nlp, text, "Quillon Hospital") == [(unit, "DEPARTMENT", "safety_net:unit")]


@pytest.mark.parametrize(
    "text",
    [
        # A specialty alone, a place, one word, an address, lower case, no
        # separator or the next line.
        "Quillon Hospital - Cardiology",
        "Quillon Hospital - Internal Medicine",
        "Quillon Hospital | New York, NY",
        "Quillon Hospital | Fresno",
        "Quillon Hospital - 1200 Main Street",
        "Quillon Hospital - night shift notes",
        "Quillon Hospital - Emergency Department Triage Record",
        "QUILLON HOSPITAL - CORE LABORATORY",
        "Quillon Hospital Neurodiagnostic Laboratory",
        "Quillon Hospital -\nNeurodiagnostic Laboratory",
    ],
)
def test_no_unit(nlp, text):
    hospital = "QUILLON HOSPITAL" if text.isupper() else "Quillon Hospital"
    assert found(nlp, text, hospital) == []


def test_off_by_default():
    nlp = make_nlp(labels=NAMES_OFF)
    text = "Quillon Hospital - Adult Acute Unit 3B"
    assert found(nlp, text, "Quillon Hospital") == []
