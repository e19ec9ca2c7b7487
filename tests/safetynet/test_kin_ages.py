"""`phi_safety_net`'s kin_age class: a number in brackets after a relative's
name, and the numbers after "ages", are ages."""

import pytest

from .test_component import make_nlp, net_with_ents
from .test_places import NAMES_OFF

KIN_AGES = {**NAMES_OFF, "relative": "PATIENT", "kin_age": "AGE"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=KIN_AGES)


@pytest.mark.parametrize(
    "text,names,expected",
    [
        ("children Quillon (6) and Orsolya (3) seen", ["Quillon", "Orsolya"], ["6", "3"]),
        ("1st child, dau Orsolya (now 5), formula fed", ["Orsolya"], ["5"]),
        ("Kids: Quillon Vantreese (12)", ["Quillon Vantreese"], ["12"]),
        ("two children, ages 14 and 9. Born in Lagos", [], ["14", "9"]),
        ("kids ages 4, 7 and 11 at home", [], ["4", "7", "11"]),
        ("Mat. aunt: breast ca dx 49; BRCA neg", [], ["49"]),
    ],
)
def test_finds_relatives_ages(nlp, text, names, expected):
    doc = net_with_ents(nlp, text, [(name, "PATIENT") for name in names])
    assert [e.text for e in doc.ents if e.label_ == "AGE"] == expected


@pytest.mark.parametrize(
    "text,names",
    [
        ("sick list: Quillon (19), Orsolya (7)", ["Quillon", "Orsolya"]),  # beds
        ("son at home. Quillon (19) paged", ["Quillon"]),  # a sentence between
        ("son Quillon (119) called", ["Quillon"]),  # three digits
        ("ages\n14 and 9", []),  # across a line
        ("DM2 dx 10 yrs ago", []),  # a duration
    ],
)
def test_leaves_numbers_outside_a_family_context(nlp, text, names):
    doc = net_with_ents(nlp, text, [(name, "PATIENT") for name in names])
    assert [e.text for e in doc.ents if e.label_ == "AGE"] == []


def test_kin_ages_are_off_by_default():
    nlp = make_nlp(labels={**NAMES_OFF, "relative": "PATIENT"})
    doc = nlp.make_doc("two children, ages 14 and 9")
    assert nlp.get_pipe("phi_safety_net")(doc).ents == ()
