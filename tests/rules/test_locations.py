"""ZIP (only with address context), STATE, CITY and STREET patterns."""

import pytest

from spacy_deid.rules.patterns import family_patterns

LOCATION_LABELS = {"ZIP", "STATE", "CITY", "STREET", "ROOM"}

# (pattern id, text, expected span, label)
POSITIVES = [
    ("zip.city_state", "Boston, MA 02114", "02114", "ZIP"),
    ("zip.city_state", "Boston MA 02114-1234", "02114-1234", "ZIP"),
    ("zip.city_state", "New York, NY 10001", "10001", "ZIP"),
    ("zip.state_name", "Massachusetts 02114", "02114", "ZIP"),
    ("zip.cued", "zip 02114", "02114", "ZIP"),
    ("zip.cued", "Zip code: 02114-1234", "02114-1234", "ZIP"),
    ("state.before_zip", "Boston, MA 02114", "MA", "STATE"),
    ("state.before_zip", "Salt Lake City, Utah 84101", "Utah", "STATE"),
    ("city.before_state_zip", "Boston, MA 02114", "Boston", "CITY"),
    ("city.before_state_zip", "lives in New York, NY 10001", "New York", "CITY"),
    ("room.cued", "transferred to Room 412B", "412B", "ROOM"),
    ("room.cued", "Rm. 7-2", "7-2", "ROOM"),
    ("street.number_suffix", "lives at 12 Main Street.", "12 Main Street.", "STREET"),
    (
        "street.number_suffix",
        "1600 N. Beacon St, Boston",
        "1600 N. Beacon St",
        "STREET",
    ),
    (
        "street.number_suffix",
        "45 Elm Ave, Apt 3B",
        "45 Elm Ave, Apt 3B",
        "STREET",
    ),
]

NEGATIVES = [
    "02114",
    "WBC 12000",
    "platelets 150000",
    "CPT 99213",
    "Pt received 12345 units",
    "MA",
    "3 Tylenol tabs",
    "given 2 Main doses",
    "room air",
    "on RA, room temperature 25 C",
    "Rm 3.5",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_locations_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_locations_negative(find, text):
    assert [e for e in find(text) if e[1] in LOCATION_LABELS] == []


def test_full_address(find):
    assert find("12 Main St, Boston, MA 02114") == [
        ("12 Main St", "STREET"),
        ("Boston", "CITY"),
        ("MA", "STATE"),
        ("02114", "ZIP"),
    ]


def test_upper_case_address(find):
    text = "ADDRESS: 42 BROWN HIGHWAY, BALTIMORE MD 21292"
    assert find(text) == [
        ("42 BROWN HIGHWAY", "STREET"),
        ("BALTIMORE", "CITY"),
        ("MD", "STATE"),
        ("21292", "ZIP"),
    ]


def test_street_dr_is_no_doctor(find):
    text = "Address: 435 Roberts Dr Lynn,MA 01938"
    assert ("Lynn", "CITY") in find(text)
    assert [e for e in find(text) if e[1] == "DOCTOR"] == []


def test_every_location_pattern_tested():
    ids = {p["id"] for p in family_patterns("locations")}
    assert ids == {p[0] for p in POSITIVES}
