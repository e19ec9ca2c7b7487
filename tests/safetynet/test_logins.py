"""`phi_safety_net`'s login class: a word made from the name of a person
the doc names is that person's login."""

import pytest

from .test_component import make_nlp, net_with_ents
from .test_places import NAMES_OFF

LOGINS = {**NAMES_OFF, "clinician": "DOCTOR", "login": "USERNAME"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=LOGINS)


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
    doc = net_with_ents(nlp, text, [(name, "DOCTOR")])
    assert [e.text for e in doc.ents if e.label_ == "USERNAME"] == expected


def test_logins_are_off_by_default():
    nlp = make_nlp(labels={**NAMES_OFF, "clinician": "DOCTOR"})
    doc = net_with_ents(
        nlp, "Quillon Vantreese.\nqvantreese: called", [("Quillon Vantreese", "DOCTOR")]
    )
    assert [e.text for e in doc.ents] == ["Quillon Vantreese"]
