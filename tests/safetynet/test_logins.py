"""`phi_safety_net`'s login class: a word made from the name of a person
the doc names is that person's login."""

import pytest

from .test_component import make_nlp
from .test_places import NAMES_OFF

LOGINS = {**NAMES_OFF, "clinician": "DOCTOR", "login": "USERNAME"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=LOGINS)


def with_name(nlp, text, name):
    """The doc after the net, with `name` set as a DOCTOR entity."""
    doc = nlp.make_doc(text)
    start = text.index(name)
    doc.ents = [doc.char_span(start, start + len(name), label="DOCTOR")]
    return nlp.get_pipe("phi_safety_net")(doc)


@pytest.mark.parametrize(
    "text,name,expected",
    [
        ("Reviewed by Quillon Vantreese.\n1/9 qvantreese: called", "Quillon Vantreese",
         ["qvantreese"]),
        ("Vantreese, Quillon signed.\nqvantr22 viewed chart", "Vantreese, Quillon",
         ["qvantr22"]),
        ("Quillon Vantreese RN.\nlogin quillonv at 0800", "Quillon Vantreese",
         ["quillonv"]),
        # Too short, no name of two words, or capitalised.
        ("Quillon Vantreese RN.\nqvan at 0800", "Quillon Vantreese", []),
        ("Vantreese RN.\nqvantreese viewed", "Vantreese", []),
        ("Quillon Vantreese RN.\nQvantreese viewed", "Quillon Vantreese", []),
    ],
)
def test_logins_made_from_names(nlp, text, name, expected):
    doc = with_name(nlp, text, name)
    assert [e.text for e in doc.ents if e.label_ == "USERNAME"] == expected


def test_logins_are_off_by_default():
    nlp = make_nlp(labels={**NAMES_OFF, "clinician": "DOCTOR"})
    doc = with_name(nlp, "Quillon Vantreese.\nqvantreese: called", "Quillon Vantreese")
    assert [e.text for e in doc.ents] == ["Quillon Vantreese"]
