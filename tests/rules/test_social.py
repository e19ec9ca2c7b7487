"""PROFESSION and ORGANIZATION patterns after social history cues."""

import pytest

from spacy_deid.rules.lexicons.professions import PROFESSIONS
from spacy_deid.rules.patterns import family_patterns

SOCIAL_LABELS = {"PROFESSION", "ORGANIZATION"}

# (pattern id, text, expected span, label)
POSITIVES = [
    (
        "profession.works_shift_as",
        "Works nights as a crane operator at the port.",
        "crane operator",
        "PROFESSION",
    ),
    ("profession.works_shift_as", "works weekends as an usher.", "usher", "PROFESSION"),
    (
        "profession.works_shift_as_lexicon",
        "Mom works nights as a CNA at Briarwood.",
        "CNA",
        "PROFESSION",
    ),
    (
        "profession.works_shift_as_lexicon",
        "works weekends as part-time Glazier",
        "Glazier",
        "PROFESSION",
    ),
    ("profession.is_a_at", "Pt is a welder for Harwick Steel.", "welder", "PROFESSION"),
    ("profession.is_a_at", "She is an usher at Grand Theater", "usher", "PROFESSION"),
    ("profession.works_as", "He works as a paramedic.", "paramedic", "PROFESSION"),
    ("profession.works_as", "worked as an electrician", "electrician", "PROFESSION"),
    (
        "profession.works_as",
        "employed as a part-time cashier",
        "cashier",
        "PROFESSION",
    ),
    (
        "profession.works_as",
        "WORKS AS A TRUCK DRIVER",
        "TRUCK DRIVER",
        "PROFESSION",
    ),
    ("profession.header", "Occupation: Electrician\n", "Electrician", "PROFESSION"),
    (
        "profession.header",
        "Occupation: retired teacher",
        "teacher",
        "PROFESSION",
    ),
    ("profession.retired", "a retired schoolteacher", "schoolteacher", "PROFESSION"),
    (
        "profession.retired",
        "former police officer",
        "police officer",
        "PROFESSION",
    ),
    (
        "profession.retired",
        "retired nurse practitioner",
        "nurse practitioner",
        "PROFESSION",
    ),
    ("profession.by_trade", "is a carpenter by trade", "carpenter", "PROFESSION"),
    ("profession.by_trade", "a nurse by training", "nurse", "PROFESSION"),
    ("profession.works_in", "works in construction", "construction", "PROFESSION"),
    ("organization.employer", "works at Home Depot", "Home Depot", "ORGANIZATION"),
    (
        "organization.employer",
        "employed by Acme Corp, since 2060",
        "Acme Corp",
        "ORGANIZATION",
    ),
    (
        "organization.employer",
        "Employer: First National Bank\n",
        "First National Bank",
        "ORGANIZATION",
    ),
    (
        "organization.employer",
        "retired from General Electric",
        "General Electric",
        "ORGANIZATION",
    ),
    (
        "organization.employer",
        "works as a nurse at Walmart",
        "Walmart",
        "ORGANIZATION",
    ),
    (
        "organization.employer",
        "now works at Kirby, Garcia and Sellers.",
        "Kirby, Garcia and Sellers",
        "ORGANIZATION",
    ),
    ("organization.employer", "WORKS AT ANDRADE-RAY.", "ANDRADE-RAY", "ORGANIZATION"),
    (
        "organization.lower_cued",
        "teaches at kelverton elementary school; full time",
        "kelverton elementary school",
        "ORGANIZATION",
    ),
    (
        "organization.lower_cued",
        "car towed by brannock tow",
        "brannock tow",
        "ORGANIZATION",
    ),
    (
        "organization.lower_cued",
        "laid off from ashgrove pharmacy",
        "ashgrove pharmacy",
        "ORGANIZATION",
    ),
]

NEGATIVES = [
    "works nights as a team at the plant",
    "Pt is a smoker at home.",
    "Pt is a poor historian for Dr. Reyes",
    "She is a pleasant woman with Mr. Hale",
    "works as a team",
    "works as a team with nursing",
    "works as directed",
    "former smoker",
    "retired",
    "her former physician Dr. Jones",
    "the retired nurse said",
    "works at night",
    "works at home",
    "works for Dr. Smith",
    "works with children",
    "Employer: Self",
    "Employer: Retired",
    "works hard",
    "works in the ICU",
    "medication works well",
    "works at MGH",
    "works at Mercy Hospital",
    "retired from the bank",
    "She works for the State.",
    "Employer: Unemployed",
    "Occupation: Disabled",
    # Lower-case shorthand: generic or common words make no school.
    "teaches at local high school",
    "kids at same school",
    "attends high school",
    "attends church",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_social_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_social_negative(find, text):
    assert [e for e in find(text) if e[1] in SOCIAL_LABELS] == []


def test_social_history_note(find):
    text = (
        "Social history: lives in Reading, PA with his son (Tom Baker). Works as "
        "a paramedic at Mercy General Hospital; wife is a retired schoolteacher. "
        "Password reset for user jsmith2."
    )
    assert find(text) == [
        ("Reading", "CITY"),
        ("PA", "STATE"),
        ("Tom Baker", "PATIENT"),
        ("paramedic", "PROFESSION"),
        ("Mercy General Hospital", "HOSPITAL"),
        ("schoolteacher", "PROFESSION"),
        ("jsmith2", "USERNAME"),
    ]


def test_profession_lexicon_is_lower_case_and_sized():
    assert all(p == p.lower() and p.strip() == p for p in PROFESSIONS)
    assert len(set(PROFESSIONS)) == len(PROFESSIONS) > 300


def test_every_social_pattern_tested():
    ids = {p["id"] for p in family_patterns("social")}
    assert ids == {p[0] for p in POSITIVES}
