"""`phi_safety_net`'s month class: a month's full name in title case that
stands free is a date, and so is its abbreviation after a word that sets a
time."""

import pytest
from spacy.tokens import Span

from .test_component import make_nlp
from .test_places import NAMES_OFF, ents

MONTHS = {**NAMES_OFF, "month": "DATE"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=MONTHS)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Quit before the October fishing trip.", ["October"]),
        ("Flu shot due September; labs each November.", ["September", "November"]),
        ("Last colonoscopy: July\nNext: none", ["July"]),
        # An abbreviation after a word that sets a time.
        ("Score 14 today (was 19 in Sept).", ["Sept"]),
        ("Seen last in Nov. Since then well.", ["Nov."]),  # one token
        # "May" after a time word or opening a range of months.
        ("Tried May through September, then stopped.", ["May", "September"]),
        ("Plans to travel in May with family.", ["May"]),
    ],
)
def test_finds_month_names_standing_free(nlp, text, expected):
    assert ents(nlp(text)) == [(m, "DATE", "safety_net:month") for m in expected]


@pytest.mark.parametrize(
    "text",
    [
        # The modal verb, lower case, a first name before a surname or initial.
        "May resume work next week.",
        "Pt May to go home; May through the weekend is fine.",
        "recheck in october.",
        "Visited by July Okonkwo today.",
        "Signed: July B. Vantreese",
        "JUNE CLINIC LIST",
        # An abbreviation without such a word: a name or shorthand.
        "Spoke with Jan about meds.",
        "Dec breath sounds at bases.",
        "in\nNov",
    ],
)
def test_leaves_modals_lower_case_and_first_names(nlp, text):
    assert ents(nlp(text)) == []


def test_a_name_cue_wins_over_the_month():
    nlp = make_nlp(labels={**MONTHS, "relative": "PATIENT"})
    assert ents(nlp("Lives with wife July.")) == [
        ("July", "PATIENT", "safety_net:relative")
    ]


def test_months_are_off_by_default_and_never_cover_entities():
    assert make_nlp(labels=NAMES_OFF)("Quit before the October trip.").ents == ()
    nlp = make_nlp(labels=MONTHS)
    doc = nlp.make_doc("Seen with July; back in November.")
    doc.ents = [Span(doc, 2, 3, label="PATIENT")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("phi_safety_net")(doc).ents] == [
        ("July", "PATIENT"),
        ("November", "DATE"),
    ]
