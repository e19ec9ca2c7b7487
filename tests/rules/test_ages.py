"""AGE patterns: the span is the number only; ages over 89 are flagged."""

import pytest

from spacy_deid.rules.patterns import family_patterns

# (pattern id, text, expected span, flagged over 89)
POSITIVES = [
    ("age.year_old", "68 year old man", "68", False),
    ("age.year_old", "a 68-year-old woman", "68", False),
    ("age.year_old", "68 years old", "68", False),
    ("age.year_old", "68 yr old", "68", False),
    ("age.year_old", "He is 68 years of age.", "68", False),
    ("age.year_old", "a 92-year-old", "92", True),
    ("age.yo", "68 yo M", "68", False),
    ("age.yo", "68yo", "68yo", False),  # one token with the default tokenizer
    ("age.yo", "68 y/o female", "68", False),
    ("age.yo", "68 y.o. male", "68", False),
    ("age.yo", "91yoF with CHF", "91yoF", True),
    ("age.cued", "aged 68", "68", False),
    ("age.cued", "Age: 68", "68", False),
    ("age.cued", "Age 68.", "68", False),
    ("age.cued", "at the age of 95", "95", True),
    ("age.cued", "he turned 91 in December", "91", True),
    ("age.sex_header", "68M with CHF", "68", False),
    ("age.sex_header", "Lorraine Barnett / 8 F / DOB 6/1/52", "8", False),
    ("age.sex_header", "HENRY | MRN 95-726-677 | 87 F | Room 6106", "87", False),
    ("age.sex_header", "HISTORY: 87 F  w/ Tetralogy", "87", False),
    ("age.paren", "DOB: 6/16/1980 (31 yrs)", "31", False),
    ("age.paren", "(94 years)", "94", True),
    ("age.y_person", "in this 56y woman", "56y", False),  # one token today
    ("age.y_person", "706  quillon 81yM  gi bleed", "81yM", False),
    ("age.y_person", "bed 4: tove 39yf - uti", "39yf", False),
    ("age.died_at", "his father died at 84.", "84", False),
    ("age.died_at", "mother passed away at age 91", "91", True),
    ("age.sex_header", "Pt is a 68 F with", "68", False),
    ("age.sex_header", "HPI: 72 M presents", "72", False),
    ("age.decade", "in her 80s", "80s", False),
    ("age.decade", "in his early 90's", "90's", True),
    ("age.over_89_word", "a nonagenarian", "nonagenarian", True),
    # A bound over 89 is still flagged (HIPAA).
    ("age.cued", "age 90-95", "90", True),
    ("age.cued", "Age: 45, single", "45", False),
    ("age.sex_header", "Hx:\r68M with CHF", "68", False),
    ("age.sex_header", "Hx:\r\n68M with CHF", "68", False),
]

NEGATIVES = [
    "10 mg",
    "smoked for 20 years",
    "20 pack-years",
    "pack-year 30",
    "T 100 F",
    "Temp: 101 F",
    "gestational age 38 weeks",
    "bone age 12",
    "2 M KCl",
    "age-appropriate",
    "in the 80s",  # blood pressure in the 80s
    "BP in the 90s",
    "130 year old",  # implausible
    "turned 90 degrees",
    "turned 2 times",
    "died at 3 am",
    "died at 0400",
    # Age ranges and bounds under 90 describe a population, not the patient.
    "age 45-65 screening",
    "colonoscopy for age 45 - 75",
    "age 50 to 75",
    "age 65 and older",
    "age 65 years and over",
    "age 50+",
    "BP 120/80 M",
    "(3 x 4 cm)",
    "(5 days)",
    "x3",
    "GCS 15",
    "EF 55%",
    "5yMo",
    "3 years",
]


@pytest.mark.parametrize("pattern_id,text,span,over_89", POSITIVES)
def test_ages_positive(find, find_doc, pattern_id, text, span, over_89):
    assert (span, "AGE") in find(text)
    assert (span, "AGE") in find(text, pattern_id=pattern_id)
    doc = find_doc(text)
    ent = [e for e in doc.ents if e.label_ == "AGE"][0]
    assert (ent._.phi_flags == ["AGE_OVER_89"]) is over_89
    assert ent._.phi_source.startswith("rules:age.")


@pytest.mark.parametrize("text", NEGATIVES)
def test_ages_negative(find, text):
    assert [e for e in find(text) if e[1] == "AGE"] == []


def test_every_age_pattern_tested():
    ids = {p["id"] for p in family_patterns("ages")}
    assert ids == {p[0] for p in POSITIVES}
