"""`phi_safety_net`'s initials class: two or three letters after a dash or a
slash that sign an entry are a clinician's initials."""

import pytest

from .test_component import ents, make_nlp
from .test_places import NAMES_OFF

INITIALS = {**NAMES_OFF, "initials": "DOCTOR"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=INITIALS)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("No concerns. -KD", ["KD"]),
        ("agrees w/ plan. /kn\nnext", ["kn"]),
        ("Encounter closed. -KN 14:19", ["KN"]),
        ("-QV\nVitals stable", ["QV"]),
        # Shorthand, words, logins, mixed case, or not signing.
        ("x10 -ve", []),
        ("will follow up. -me", []),
        ("Discussed with attending.\n-KAA753", []),
        ("No concerns. -Kd", []),
        ("BP 120/80 -KD today", []),
    ],
)
def test_initials_that_sign(nlp, text, expected):
    assert [e[0] for e in ents(nlp(text))] == expected


def test_initials_are_off_by_default():
    assert make_nlp(labels=NAMES_OFF)("No concerns. -KD").ents == ()
