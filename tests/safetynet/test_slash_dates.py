"""`phi_safety_net`'s slash_date class: a month/day is a date where a colon,
a word that sets a time, brackets or a clinician's title mark one, and not
where a score word stands near."""

import pytest
from spacy.tokens import Span

from .test_component import make_nlp
from .test_places import NAMES_OFF, ents

SLASH_DATES = {**NAMES_OFF, "slash_date": "DATE"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=SLASH_DATES)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("CT chest 8/3: no nodule.", ["8/3"]),
        ("No ST change vs 8/7. Trop flat.", ["8/7"]),
        ("Fevers since 6/10, no rash.", ["6/10"]),
        ("Wound cx (3/10): MSSA.", ["3/10"]),
        ("On insulin (A1c 9.1% 9/30), neuropathy.", ["9/30"]),
        ("Seen 3/10 Dr. Vantreese: plan surgery.", ["3/10"]),
    ],
)
def test_finds_month_days_where_the_words_mark_a_date(nlp, text, expected):
    assert ents(nlp(text)) == [(d, "DATE", "safety_net:slash_date") for d in expected]


@pytest.mark.parametrize(
    "text",
    [
        # Scores: a score word near, or a fraction of the same scale before.
        "Pain 3/10: worse at night.",
        "Monofilament 2/10 sites (felt 8/10).",
        "Headache 2/10 (was 6/10), no nausea.",
        "Grip strength (4/5) on the right.",
        # No mark at all, or no month/day.
        "Murmur 2/6 at LUSB, strength 5/5 throughout.",
        "Given 1/2 tab at night.",
        "BP 120/80 (sitting).",
        "Visual acuity (20/40) OD.",
    ],
)
def test_leaves_scores_and_unmarked_fractions(nlp, text):
    assert ents(nlp(text)) == []


def test_slash_dates_are_off_by_default_and_never_cover_entities():
    assert make_nlp(labels=NAMES_OFF)("CT chest 8/3: no nodule.").ents == ()
    nlp = make_nlp(labels=SLASH_DATES)
    doc = nlp.make_doc("Scan 8/3: clear; repeat since 9/14 ok.")
    doc.ents = [Span(doc, 1, 2, label="ROOM")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("phi_safety_net")(doc).ents] == [
        ("8/3", "ROOM"),
        ("9/14", "DATE"),
    ]
