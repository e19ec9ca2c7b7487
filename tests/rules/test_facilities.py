"""HOSPITAL patterns: facility names with a head word, cued abbreviations."""

import pytest

from spacy_deid.rules.patterns import family_patterns

# (pattern id, text, expected span, label)
POSITIVES = [
    (
        "hospital.name",
        "Transferred to Mercy General Hospital for cath.",
        "Mercy General Hospital",
        "HOSPITAL",
    ),
    (
        "hospital.name",
        "seen at St. Mary's Medical Center",
        "St. Mary's Medical Center",
        "HOSPITAL",
    ),
    ("hospital.name", "followed at Mayo Clinic", "Mayo Clinic", "HOSPITAL"),
    (
        "hospital.name",
        "Brigham and Women's Hospital",
        "Brigham and Women's Hospital",
        "HOSPITAL",
    ),
    (
        "hospital.name",
        "born at Children's Hospital of Philadelphia",
        "Children's Hospital of Philadelphia",
        "HOSPITAL",
    ),
    (
        "hospital.name",
        "Hospital of the University of Pennsylvania",
        "Hospital of the University of Pennsylvania",
        "HOSPITAL",
    ),
    (
        "hospital.name",
        "University of Colorado Hospital",
        "University of Colorado Hospital",
        "HOSPITAL",
    ),
    (
        "hospital.name",
        "Dana-Farber Cancer Institute",
        "Dana-Farber Cancer Institute",
        "HOSPITAL",
    ),
    ("hospital.name", "MERCY GENERAL HOSPITAL", "MERCY GENERAL HOSPITAL", "HOSPITAL"),
    (
        "hospital.name",
        "Springfield Nursing Home",
        "Springfield Nursing Home",
        "HOSPITAL",
    ),
    ("hospital.name", "UCSF Medical Center", "UCSF Medical Center", "HOSPITAL"),
    ("hospital.name", "Referred by Dr. Mack of Mayo Clinic", "Mayo Clinic", "HOSPITAL"),
    ("hospital.name_cued", "seen at Atrium Health", "Atrium Health", "HOSPITAL"),
    (
        "hospital.name_cued",
        "transferred from Springfield Memorial",
        "Springfield Memorial",
        "HOSPITAL",
    ),
    ("hospital.abbr_cued", "transferred from BWH yesterday", "BWH", "HOSPITAL"),
    ("hospital.abbr_cued", "admitted to MGH", "MGH", "HOSPITAL"),
    ("hospital.abbr_cued", "Destination: BIDMC\n", "BIDMC", "HOSPITAL"),
    ("hospital.abbr_unit", "MGH ED visit", "MGH", "HOSPITAL"),
    ("hospital.abbr_unit", "UCSF records reviewed", "UCSF", "HOSPITAL"),
    ("hospital.acronym_cued", "transferred from BRMC on day 2", "BRMC", "HOSPITAL"),
    ("hospital.acronym_cued", "Destination: SDHC\n", "SDHC", "HOSPITAL"),
    (
        "hospital.lower_cued",
        "dispo to kessler manor in am",
        "kessler manor",
        "HOSPITAL",
    ),
    (
        "hospital.lower_cued",
        "pt came from oakhollow nursing home yesterday",
        "oakhollow nursing home",
        "HOSPITAL",
    ),
    ("hospital.lower_cued", "hx DTs (icu at brennerton).", "brennerton", "HOSPITAL"),
    (
        "hospital.lower_cued",
        "transferred from deer park nursing home",  # a place, of common words
        "deer park nursing home",
        "HOSPITAL",
    ),
]

NEGATIVES = [
    "the hospital",
    "admitted to the hospital",
    "Emergency Department",
    "presented to the Emergency Department",
    "this clinic",
    "follow up in Cardiology Clinic",
    "Anticoagulation Clinic on Monday",
    "ENT Clinic",
    "Heart Failure Clinic",
    "May Clinic hours change",
    "General Hospital",
    "Outside Hospital records",
    "Mental Health",
    "referred to Behavioral Health",
    "in Good Health",
    "BRIEF HOSPITAL COURSE:",
    "Hospital Course: uneventful",
    "Hospital-acquired pneumonia",
    "Memorial Day weekend",
    "MGH",  # an abbreviation without a cue
    "NYU",
    "discharged to SNF",
    "transferred from OSH",
    "seen at VAMC",
    "Parkinson's Clinic",
    "Referred to Pain Management Clinic and Comprehensive Cancer Center.",
    "Seen in Infectious Disease Clinic and Wound Care Clinic.",
    # Lower-case shorthand: common, generic or clinical words are no facility.
    "transferred from micu to floor",
    "was at grandma house over weekend",
    "d/c to home with services",
    "back to baseline per family",
    "icu at bedside",
    "transferred from general surgery",
    "dispo to the rehab",
    "was at lovely quiet nursing home",  # all common words
    "was at a lovely quiet nursing home",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_facilities_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_facilities_negative(find, text):
    assert [e for e in find(text) if e[1] == "HOSPITAL"] == []


def test_department_is_not_hospital(find):
    text = "Seen in the Emergency Department of Mercy Hospital."
    assert find(text) == [("Mercy Hospital", "HOSPITAL")]


def test_hospital_beats_employer(find):
    assert find("She works at Mercy Hospital.") == [("Mercy Hospital", "HOSPITAL")]


def test_every_facility_pattern_tested():
    ids = {p["id"] for p in family_patterns("facilities")}
    assert ids == {p[0] for p in POSITIVES}



def test_a_facility_name_does_not_cross_a_column_gap(find):
    # A table's cells: a name, then a kind of facility in the next column.
    assert find("Quilla Arden        Hospice      11") == []
    assert find("Seen at Mercy  General Hospital today") == [
        ("Mercy  General Hospital", "HOSPITAL")
    ]
