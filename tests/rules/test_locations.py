"""ZIP (only with address context), STATE, CITY, STREET and COUNTRY patterns."""

import pytest

from spacy_deid.rules.lexicons.geo import COUNTRIES, STATE_ABBRS
from spacy_deid.rules.patterns import family_patterns

LOCATION_LABELS = {"ZIP", "STATE", "CITY", "STREET", "ROOM", "COUNTRY"}

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
    ("room.operating", "Called to Dr. Ames in OR 6 at 10:42", "6", "ROOM"),
    ("room.operating", "brought to OR 26Q by", "26Q", "ROOM"),
    ("room.operating", "Children's Hospital (OR 8-787)", "8-787", "ROOM"),
    ("room.cued", "moved to Rm 217-K", "217-K", "ROOM"),
    ("room.bed_bay", "moved to bed 296-J overnight", "296-J", "ROOM"),
    ("room.bed_bay", "Recovery bay 38, ext 4410", "38", "ROOM"),
    ("room.bed_bay", "Held in hallway 6O awaiting", "6O", "ROOM"),
    ("room.bed_bay", "ED pod F bay 2 -", "2", "ROOM"),
    ("room.bed_bay", "now in Bed B-7.", "B-7", "ROOM"),
    ("street.number_suffix", "lives at 12 Main Street.", "12 Main Street.", "STREET"),
    (
        "street.number_suffix",
        "at 8029 Kline Ridge Suite 268",
        "8029 Kline Ridge Suite 268",
        "STREET",
    ),
    (
        "street.number_suffix",
        "Scene: 4309 Oak Crossing, Concord",
        "4309 Oak Crossing",
        "STREET",
    ),
    ("street.number_suffix", "12 Pine Hill Rd", "12 Pine Hill Rd", "STREET"),
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
    ("city.cued_state", "He lives in Reading, PA with his wife.", "Reading", "CITY"),
    ("city.cued_state", "moved to Tulsa, Oklahoma in 2060", "Tulsa", "CITY"),
    ("city.cued_state", "grew up in St. Louis, Missouri.", "St. Louis", "CITY"),
    ("city.cued_state", "Transferred from Springfield, MA.", "Springfield", "CITY"),
    ("city.cued_state", "Address: 12 Main St, Reading, PA\n", "Reading", "CITY"),
    ("city.cued_state", "from Mercy Hospital, Albany, NY.", "Albany", "CITY"),
    ("city.cued_state", "was in Boston, MA.", "Boston", "CITY"),
    ("state.cued_city", "He lives in Reading, PA with his wife.", "PA", "STATE"),
    ("state.cued_city", "born in Bethesda, MD.", "MD", "STATE"),
    ("state.cued_city", "moved to Tulsa, Oklahoma in 2060", "Oklahoma", "STATE"),
    ("city.after_facility", "slides from Lahey Clinic, Trenton\n", "Trenton", "CITY"),
    ("state.cued_name", "moved to Florida last year", "Florida", "STATE"),
    ("state.cued_name", "grew up in New Jersey.", "New Jersey", "STATE"),
    ("country.cued", "She was born in Peru.", "Peru", "COUNTRY"),
    ("country.cued", "immigrated from the Philippines", "Philippines", "COUNTRY"),
    ("country.cued", "returned from India 2 weeks ago", "India", "COUNTRY"),
    ("country.cued", "Travels often to Somalia.", "Somalia", "COUNTRY"),
    ("country.cued", "citizen of Canada", "Canada", "COUNTRY"),
    ("country.cued", "EMIGRATED FROM CHINA IN 2066", "CHINA", "COUNTRY"),
    ("country.cued", "born in Jordan", "Jordan", "COUNTRY"),
]

NEGATIVES = [
    "on bed rest for 2 days",
    "arrive 08:15, OR 09:30 with",
    "target OR 4/17 ~1600",
    "odds ratio (OR 2.4)",
    "bay 10:30 handover",
    "bed 2/5 full",
    "bedside 12 lead ECG",
    "rated 10 on a 10 Point scale",
    "report to the 4 West Nursing Station",
    "completed the 6 Minute Walk",
    "ran a 2 Mile Run",
    "20 Power Port in place",
    "3 Recent Falls",
    "2 Tylenol Extra Strength",
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
    "PA",
    "lives in fear",
    "from home",
    "note from Smith, PA",
    "message from Jones, MD today",
    "in Smith, MD's clinic",
    "Seen in Triage, CT head negative",
    "message from Chad",
    "from Virginia",
    "Mexican food",
    "Chinese medicine",
    "he is Korean",
    "ultrasound from US",
    "Transferred from Mercy Hospital, Cardiology\n",
    "lives alone",
    "in Jordan's room",
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


@pytest.mark.parametrize(
    "city", ["Salt Lake City", "Beverly Hills", "Colorado Springs", "Park City"]
)
def test_city_names_with_street_suffix_words(find, city):
    """The added street suffixes ("Lake", "Hills") do not cut a city name."""
    found = find(f"Address: 02877 Matthew River, {city}, UT 84197")
    assert (city, "CITY") in found and ("84197", "ZIP") in found


def test_street_dr_is_no_doctor(find):
    text = "Address: 435 Roberts Dr Lynn,MA 01938"
    assert ("Lynn", "CITY") in find(text)
    assert [e for e in find(text) if e[1] == "DOCTOR"] == []


def test_demonyms_are_not_countries():
    demonyms = {"American", "Mexican", "Chinese", "Indian", "Korean", "Haitian"}
    assert not demonyms & set(COUNTRIES)
    assert "US" not in COUNTRIES and len(set(STATE_ABBRS)) == len(STATE_ABBRS)


def test_every_location_pattern_tested():
    ids = {p["id"] for p in family_patterns("locations")}
    assert ids == {p[0] for p in POSITIVES}
