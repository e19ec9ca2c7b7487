"""`phi_safety_net`'s weekday class: a day's name right before a date, or in
brackets right after one, is a date of its own."""

import pytest

from .test_component import make_nlp, net_with_ents
from .test_places import NAMES_OFF

WEEKDAYS = {**NAMES_OFF, "weekday": "DATE"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=WEEKDAYS)


@pytest.mark.parametrize(
    "text,date,expected",
    [
        ("Date: Fri 13-Jan-2090   Pt: x", "13-Jan-2090", ["Fri"]),
        ("RTC Tue, 3/4 at 0900", "3/4", ["Tue"]),
        ("Arrival: 2088-02-19 (Saturday)", "2088-02-19", ["Saturday"]),
        ("SEEN MON 3/4", "3/4", ["MON"]),
        # An initial or a title before it: a surname.
        ("Cosigned by dr. A Sun 2077-10-02", "2077-10-02", []),
        # Not next to the date, or across a line.
        ("Fri clinic; labs 3/4", "3/4", []),
        ("seen Fri\n3/4 labs", "3/4", []),
    ],
)
def test_weekdays_next_to_a_date(nlp, text, date, expected):
    doc = net_with_ents(nlp, text, [(date, "DATE")])
    assert [e.text for e in doc.ents if e.text != date] == expected


def test_weekdays_are_off_by_default():
    nlp = make_nlp(labels=NAMES_OFF)
    doc = net_with_ents(nlp, "Date: Fri 13-Jan-2090", [("13-Jan-2090", "DATE")])
    assert [e.text for e in doc.ents] == ["13-Jan-2090"]
