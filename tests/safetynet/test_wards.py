"""`phi_safety_net`'s ward class: a floor number and a compass direction."""

import pytest
from spacy.tokens import Span

from .test_component import make_nlp
from .test_places import NAMES_OFF, ents

WARDS = {**NAMES_OFF, "ward": "DEPARTMENT"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=WARDS)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Moved overnight to 7 East, bed 2.", ["7 East"]),
        ("Transfer to 11 NORTH when a bed opens", ["11 NORTH"]),
        ("Unit: 4 West\nAttending: on call", ["4 West"]),
    ],
)
def test_finds_floor_and_direction(nlp, text, expected):
    assert ents(nlp(text)) == [(w, "DEPARTMENT", "safety_net:ward") for w in expected]


@pytest.mark.parametrize(
    "text",
    [
        # An address: an address word before, a street name after, 3 digits.
        "Lives at Apt 4 North in the old mill.",
        "Lives at 40 South Harbor Road.",
        "Lives at 120 West near the park.",
        # Lower case, or split by a line break.
        "walked 2 west down the hall",
        "Bed 4\nWest wing closed",
    ],
)
def test_leaves_addresses_and_other_numbers(nlp, text):
    assert ents(nlp(text)) == []


def test_wards_are_off_by_default_and_never_cover_entities():
    assert make_nlp(labels=NAMES_OFF)("Moved to 7 East.").ents == ()
    nlp = make_nlp(labels=WARDS)
    doc = nlp.make_doc("Moved to 7 East, then 9 West.")
    doc.ents = [Span(doc, 2, 4, label="DATE")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("phi_safety_net")(doc).ents] == [
        ("7 East", "DATE"),
        ("9 West", "DEPARTMENT"),
    ]
