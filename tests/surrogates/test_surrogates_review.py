"""Regression tests for the surrogate review: intervals for dates without a
year, more date shapes, holidays, phones, addresses, ages, month
abbreviations, initials and the key warning."""

import datetime
import os
import re
import subprocess
import sys
import textwrap
import warnings

import pytest

from spacy_deid.surrogates import EphemeralKeyWarning
from spacy_deid.surrogates.dates import DEFAULT_YEAR, shift_date_text
from spacy_deid.surrogates.places import ZIP_RANGES, zip_state
from spacy_deid.surrogates.replacer import reset_ephemeral_warning

from .conftest import deidentify, make_nlp

D = datetime.date
REVIEW_KEY = b"k" * 32
MONTHS = [datetime.date(2001, m, 1).strftime("%B") for m in range(1, 13)]


@pytest.fixture(scope="module")
def knlp():
    return make_nlp(key=REVIEW_KEY)


def _one(nlp, value, label, patient="P1"):
    return (
        deidentify(nlp, f"x {value} y", [(value, label)], patient).ents[0]._.surrogate
    )


def _month_day(date):
    return f"{MONTHS[date.month - 1]} {date.day}"


# 1. Intervals between a patient's dates ------------------------------------


def test_review_example_keeps_the_interval(knlp):
    assert knlp.get_pipe("phi_surrogates").date_shift("P1") == -134
    text = "Admitted 03/10/2067. Seen again on March 12. Discharged 3/14."
    phi = [("03/10/2067", "DATE"), ("March 12", "DATE"), ("3/14", "DATE")]
    doc = deidentify(knlp, text, phi, "P1")
    assert doc._.deidentified == (
        "Admitted 10/27/2066. Seen again on October 29. Discharged 10/31."
    )


@pytest.mark.parametrize(
    "dated,yearless,true_date",
    [
        # within a year
        ("03/10/2067", "March 12", D(2067, 3, 12)),
        # across February 29 of a leap year
        ("02/27/2068", "March 2", D(2068, 3, 2)),
        ("02/27/2068", "2/29", D(2068, 2, 29)),
        ("03/02/2068", "Feb 27", D(2068, 2, 27)),
        # across February 28 of a common year
        ("02/27/2067", "March 2", D(2067, 3, 2)),
        # across year ends
        ("12/30/2067", "Jan 2", D(2068, 1, 2)),
        ("01/02/2068", "December 30", D(2067, 12, 30)),
    ],
)
@pytest.mark.parametrize("order", ["dated first", "dated after"])
@pytest.mark.parametrize("patient", ["P1", "P2", "P3", "P4", "P5", "P6"])
def test_yearless_dates_use_the_nearest_dated_mention(
    knlp, dated, yearless, true_date, order, patient
):
    shift = knlp.get_pipe("phi_surrogates").date_shift(patient)
    if order == "dated first":
        text = f"Seen {dated} and again {yearless} ."
        phi = [(dated, "DATE"), (yearless, "DATE")]
    else:
        text = f"Seen {yearless} , first visit {dated} ."
        phi = [(yearless, "DATE"), (dated, "DATE")]
    doc = deidentify(knlp, text, phi, patient)
    new = {ent.text: ent._.surrogate for ent in doc.ents}
    expected = true_date + datetime.timedelta(days=shift)
    if "/" in yearless:
        assert new[yearless] == f"{expected.month}/{expected.day}"
    else:
        got = new[yearless]
        month, day = got.split()
        assert (month[:3], int(day)) == (MONTHS[expected.month - 1][:3], expected.day)


@pytest.mark.parametrize("shift", [-364, -300, -134, -59, -1, 1, 40, 58, 200, 362])
def test_intervals_within_one_span_and_reference(shift):
    # the nearest dated expression in the same span wins
    assert shift_date_text("12/30/2067 - Jan 2", shift).split(" - ")[1] == (
        _short(D(2068, 1, 2) + datetime.timedelta(days=shift))
    )
    # a reference from the doc
    out = shift_date_text("March 2", shift, reference=D(2068, 2, 27))
    assert out == _month_day(D(2068, 3, 2) + datetime.timedelta(days=shift))


def test_shifts_are_never_whole_years(knlp):
    component = knlp.get_pipe("phi_surrogates")
    shifts = {abs(component.date_shift(f"q{i}")) for i in range(3000)}
    assert not shifts & {365, 366} and all(s % 7 for s in shifts)
    assert 363 in shifts and 1 in shifts


def _short(date):
    return f"{MONTHS[date.month - 1][:3]} {date.day}"


@pytest.mark.parametrize("patient", ["P1", "P2", "P3", "P4"])
@pytest.mark.parametrize(
    "first,second,days",
    [("Feb 28", "March 1", 1), ("December 30", "Dec 31", 1), ("March 12", "3/14", 2)],
)
def test_yearless_intervals_across_docs(knlp, patient, first, second, days):
    """Without any year, dates use a non-leap year (and its neighbours are not
    leap years either), so intervals between docs hold."""
    shift = knlp.get_pipe("phi_surrogates").date_shift(patient)
    a = _one(knlp, first, "DATE", patient)
    b = _one(knlp, second, "DATE", patient)
    for text, new in ((first, a), (second, b)):
        assert new == shift_date_text(text, shift)
    parsed = [_parse_any(x, DEFAULT_YEAR) for x in (a, b)]
    assert (parsed[1] - parsed[0]).days % 365 == days


def _parse_any(text, year):
    for fmt in ("%B %d", "%b %d", "%m/%d"):
        try:
            parsed = datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
        return parsed.replace(year=year)
    raise AssertionError(text)


def test_dated_and_yearless_across_docs_keep_interval(knlp):
    a = _one(knlp, "03/10/2067", "DATE")
    b = _one(knlp, "March 12", "DATE")
    assert (a, b) == ("10/27/2066", "October 29")


# 2. Date shapes -------------------------------------------------------------


@pytest.mark.parametrize(
    "text,shift,expected",
    [
        ("12MAR2067", -134, "29OCT2066"),
        ("12Mar67", -134, "29Oct66"),
        ("12-Mar-2067", -134, "29-Oct-2066"),
        ("14-Sep-2067", -134, "3-May-2067"),
        ("14-Sep-2067", 40, "24-Oct-2067"),
        ("Christmas", -134, "August 13"),
        ("christmas", 40, "february 3"),
        ("CHRISTMAS", 40, "FEBRUARY 3"),
        ("Christmas 2067", -134, "August 13, 2067"),
        ("Christmas, 2067", 40, "February 3, 2068"),
        ("New Year's Day", -134, "August 20"),
        ("mid-March", -134, "mid-November"),
        ("early March 2067", -134, "early October 2066"),
        ("late Sept.", 40, "late Nov."),
        ("September 14-16, 2067", -134, "May 3-5, 2067"),
        ("September 14-16, 2067", 40, "October 24-26, 2067"),
        ("Sept 29-30", 2, "Oct 1-2"),
        ("September 29-October 2", 1, "September 30-October 3"),
        ("January 30-31, 2067", 1, "January 31-February 1, 2067"),
        ("9/14-9/16/2067", -134, "5/3-5/5/2067"),
        ("9/14/2067-9/16/2067", 40, "10/24/2067-10/26/2067"),
        ("02/30/2067", -134, "10/17/2066"),
        ("04/31/2067", 1, "05/01/2067"),
        ("2067-13-01", 1, "2067-12-02"),
        ("December 31-January 2", 1, "January 1-January 3"),
    ],
)
def test_more_date_shapes(text, shift, expected):
    assert shift_date_text(text, shift) == expected


@pytest.mark.parametrize("shift", [-134, 40])
def test_memorial_day_is_a_real_shifted_date(shift):
    may31 = D(2067, 5, 31)
    memorial = may31 - datetime.timedelta(days=may31.weekday())  # last Monday
    expected = memorial + datetime.timedelta(days=shift)
    assert shift_date_text("Memorial Day 2067", shift) == (
        f"{_month_day(expected)}, {expected.year}"
    )
    assert shift_date_text("Thanksgiving", shift) is not None


@pytest.mark.parametrize(
    "text", ["Christmas", "New Year's Day", "Memorial Day", "Yom Kippur", "Diwali"]
)
def test_word_only_dates_never_become_random_letters(knlp, text):
    new = _one(knlp, text, "DATE")
    assert new == "that day" or re.fullmatch(r"[A-Z][a-z]+ \d{1,2}", new), new


def test_invalid_date_flag_shifts_nearest_valid_date(knlp):
    doc = knlp.make_doc("Seen 02/30/2067 .")
    doc.ents = [doc.char_span(5, 15, "DATE")]
    doc.ents[0]._.phi_flags = ["INVALID_DATE"]
    doc._.patient = "P1"
    doc = knlp(doc)
    assert doc.ents[0]._.surrogate == "10/17/2066"  # 02/28/2067 - 134 days


# 6. Month abbreviations with a period ---------------------------------------


@pytest.mark.parametrize(
    "text,shift,expected",
    [
        ("Sept. 14th", -134, "May 3rd"),
        ("Sept. 14th", 40, "Oct. 24th"),
        ("Mar. 14", 190, "Sept. 20"),
        ("Mar. 14, 2067", -134, "Oct. 31, 2066"),
        ("Sept 14", 40, "Oct 24"),
        ("Sep 14", 1, "Sep 15"),
        ("Apr. 14", 30, "May 14"),
        ("May 14", -30, "April 14"),
    ],
)
def test_month_abbreviation_style(text, shift, expected):
    assert shift_date_text(text, shift) == expected


# 3. Phones ------------------------------------------------------------------

_NANP = r"[2-9](?!11)\d\d"


@pytest.mark.parametrize(
    "value,pattern",
    [
        ("(617) 555-1234", rf"\(({_NANP})\) ({_NANP})-\d{{4}}"),
        ("617-555-1234", rf"({_NANP})-({_NANP})-\d{{4}}"),
        ("+1 617 555 1234", rf"\+1 ({_NANP}) ({_NANP}) \d{{4}}"),
        ("+1-617-555-1234", rf"\+1-({_NANP})-({_NANP})-\d{{4}}"),
        ("1-617-555-1234", rf"1-({_NANP})-({_NANP})-\d{{4}}"),
        ("1 (617) 555-1234", rf"1 \(({_NANP})\) ({_NANP})-\d{{4}}"),
        ("555-1234", rf"({_NANP})-\d{{4}}"),
        ("617-555-1234 x402", rf"({_NANP})-({_NANP})-\d{{4}} x\d{{3}}"),
        ("617-555-1234 ext. 12", rf"({_NANP})-({_NANP})-\d{{4}} ext\. \d{{2}}"),
    ],
)
@pytest.mark.parametrize("patient", [f"p{i}" for i in range(15)])
def test_phones_are_valid_nanp_numbers(knlp, value, pattern, patient):
    new = _one(knlp, value, "PHONE", patient)
    match = re.fullmatch(pattern, new)
    assert match, new
    assert "555" not in match.groups()


def test_phone_formats_share_digits(knlp):
    values = ["(617) 555-1234", "+1 617 555 1234", "1-617-555-1234", "6175551234"]
    digits = {re.sub(r"\D", "", _one(knlp, v, "FAX"))[-10:] for v in values}
    assert len(digits) == 1


# 4. Addresses ---------------------------------------------------------------


@pytest.mark.parametrize(
    "value,pattern",
    [
        ("PO Box 12", r"PO Box [1-9]\d"),
        ("P.O. Box 4411", r"P\.O\. Box [1-9]\d{3}"),
        ("PO BOX 7", r"PO BOX [1-9]"),
        ("12 Main St", r"[1-9]\d [A-Z][a-z]+ St"),
        ("1200 Beacon Street, Apt 4B", r"[1-9]\d{3} [A-Z][a-z]+ Street, Apt \dB"),
        ("45A Elm Ave.", r"[1-9]\d[A-Z] [A-Z][a-z]+ Ave\."),
        ("9 Oak Rd Suite 210", r"[1-9] [A-Z][a-z]+ Rd Suite \d{3}"),
    ],
)
def test_street_shapes(knlp, value, pattern):
    new = _one(knlp, value, "STREET")
    assert re.fullmatch(pattern, new), new
    assert new != value


@pytest.mark.parametrize(
    "value", ["833 Linden Dr Tewksbury", "14 ELM ST, HAVERHILL", "9 Oak Rd Suite 2 Ware"]
)
def test_a_town_joined_to_a_street_is_replaced(knlp, value):
    """The tagger sometimes joins the town to the street span; the town must
    not survive in the surrogate."""
    new = _one(knlp, value, "STREET")
    town = value.rsplit(" ", 1)[1]
    assert town.lower() not in new.lower().split(), new
    assert new.split()[2].rstrip(",") in ("Dr", "ST", "Rd")


@pytest.mark.parametrize("patient", [f"p{i}" for i in range(10)])
def test_zip_lies_in_the_surrogate_state(knlp, patient):
    text = "Lives in Boston, MA 02114-3301; born in Massachusetts."
    phi = [
        ("Boston", "CITY"),
        ("MA", "STATE"),
        ("02114-3301", "ZIP"),
        ("Massachusetts", "STATE"),
    ]
    doc = deidentify(knlp, text, phi, patient)
    _, state, zip_code, state_name = (ent._.surrogate for ent in doc.ents)
    assert re.fullmatch(r"[A-Z]{2}", state) and state != "MA"
    assert re.fullmatch(r"\d{5}-\d{4}", zip_code)
    assert zip_state(zip_code[:5]) == state
    low, high = ZIP_RANGES[state]
    assert low <= int(zip_code[:5]) <= high
    assert len(state_name) > 2 and state_name != "Massachusetts"
    assert _one(knlp, "massachusetts", "STATE", patient) == state_name.lower()


# 5. Ages --------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["in her 90s", "90s", "90's", "nineties", "nonagenarian"]
)
def test_age_decades_over_89_stay(knlp, value):
    assert _one(knlp, value, "AGE") == value
    doc = deidentify(knlp, f"age {value} .", [(value, "AGE")])
    doc2 = knlp.make_doc(f"age {value} .")
    doc2.ents = [doc2.char_span(4, 4 + len(value), "AGE")]
    doc2.ents[0]._.phi_flags = ["AGE_OVER_89"]
    assert knlp(doc2)._.deidentified == doc._.deidentified == f"age {value} ."


@pytest.mark.parametrize(
    "value,expected", [("94", "90+"), ("102", "90+"), ("90", "90+"), ("89", "89")]
)
def test_only_numbers_over_89_become_90_plus(knlp, value, expected):
    assert _one(knlp, value, "AGE") == expected


def test_age_decades_when_ages_are_not_kept():
    nlp = make_nlp(key=REVIEW_KEY, keep_ages_under_90=False)
    assert _one(nlp, "in her 90s", "AGE") == "in her 90s"
    assert re.fullmatch(r"in his [1-8]0s", _one(nlp, "in his 40s", "AGE"))


# 7. Initials ----------------------------------------------------------------


@pytest.mark.parametrize("value", ["JS", "J", "JRS", "AB"])
@pytest.mark.parametrize("patient", ["P1", "P2", "P3"])
def test_initials_stay_initials(knlp, value, patient):
    new = _one(knlp, value, "PATIENT", patient)
    assert re.fullmatch(r"[A-Z]{%d}" % len(value), new) and new != value


def test_initial_with_surname_keeps_its_form(knlp):
    assert re.fullmatch(r"[A-Z]\. [A-Z][a-z]+", _one(knlp, "L. Whalen", "DOCTOR"))


@pytest.mark.parametrize("patient", ["P1", "P2", "P3", "P4"])
def test_initials_match_the_surrogate_full_name(knlp, patient):
    text = "John Smith seen. JS agreed. Dr. Laura Whalen; L. Whalen signed."
    phi = [
        ("John Smith", "PATIENT"),
        ("JS", "PATIENT"),
        ("Laura Whalen", "DOCTOR"),
        ("L. Whalen", "DOCTOR"),
    ]
    doc = deidentify(knlp, text, phi, patient)
    full, initials, doctor, short = (ent._.surrogate for ent in doc.ents)
    first, last = full.split()
    expected = (first[0] + last[0]).upper()
    assert initials == expected if expected != "JS" else initials != "JS"
    d_first, d_last = doctor.split()
    assert short.endswith(" " + d_last)
    if d_first[0] != "L":
        assert short == f"{d_first[0]}. {d_last}"


def test_known_short_names_are_not_initials(knlp):
    new = _one(knlp, "LEE", "PATIENT")
    assert new.isupper() and len(new) > 1 and new != "LEE"


# 8. Key warning -------------------------------------------------------------


def test_key_warning_text_once_per_process():
    reset_ephemeral_warning()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            nlp = make_nlp(key=None)
            deidentify(nlp, "John", [("John", "PATIENT")])
            list(nlp.pipe([nlp.make_doc("x")]))
    ours = [w for w in caught if issubclass(w.category, EphemeralKeyWarning)]
    assert len(ours) == 1
    message = str(ours[0].message)
    assert message.startswith("spacy-deid: ")
    assert "/" not in message and "\\" not in message and "John" not in message
    # it points at the caller, not at spaCy or spacy-deid internals
    assert ours[0].filename.startswith(os.path.dirname(__file__))


def test_key_warning_is_one_line_without_source_from_a_script(tmp_path):
    script = textwrap.dedent(
        """
        import spacy
        nlp = spacy.blank("en")
        nlp.add_pipe("phi_surrogates")
        nlp("x")
        list(nlp.pipe(["y", "z"]))
        nlp2 = spacy.blank("en")
        nlp2.add_pipe("phi_surrogates")
        nlp2("x")
        """
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": ":".join(p for p in sys.path if p),
    }
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "EphemeralKeyWarning: spacy-deid: " in lines[0]
    assert "spacy_deid" not in lines[0] and "site-packages" not in lines[0]
