"""`phi_safety_net`'s nickname class: quoted words in brackets right after a
person's name."""

import pytest

from .test_component import ents, net_with_ents
from .test_component import make_nlp
from .test_places import NAMES_OFF

NICKNAMES = {**NAMES_OFF, "nickname": "PATIENT"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=NICKNAMES)


@pytest.mark.parametrize(
    "text,name,expected",
    [
        ('Individual: Quil Vantreese ("Q.V.")  ID 4', "Quil Vantreese", ["Q.V."]),
        ('Patient: Bex Orsolya (aka "Bexie")', "Bex Orsolya", ["Bexie"]),
        ("Seen: Bex Orsolya (\u201cBo\u201d) today", "Bex Orsolya", ["Bo"]),
        # Not after a name, lower case, or a very common word.
        ('Seen with wife ("Bexie") today', "wife", []),
        ('Seen: Bex Orsolya ("the boss") today', "Bex Orsolya", []),
        ('Seen: Bex Orsolya ("Mom") today', "Bex Orsolya", []),
    ],
)
def test_quoted_nicknames_after_a_name(nlp, text, name, expected):
    label = "PATIENT" if name != "wife" else "DATE"
    doc = net_with_ents(nlp, text, [(name, label)])
    assert [e[0] for e in ents(doc) if e[0] != name] == expected


def test_nicknames_are_off_by_default():
    doc = net_with_ents(
        make_nlp(labels=NAMES_OFF),
        'Patient: Bex Orsolya (aka "Bexie")',
        [("Bex Orsolya", "PATIENT")],
    )
    assert ents(doc) == [("Bex Orsolya", "PATIENT")]
