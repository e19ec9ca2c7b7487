import calendar
import datetime
import re

import pytest

from spacy_deid.surrogates.dates import shift_date_text
from spacy_deid.surrogates.generators import SurrogateGenerator

from .conftest import deidentify, make_nlp

D = datetime.date
# Weekday names in the calendar module's order (the cases name days by index).
DAY = list(calendar.day_name)


@pytest.mark.parametrize(
    "text,shift,expected",
    [
        ("09/14/2067", 10, "09/24/2067"),
        ("9/14/67", 20, "10/4/67"),
        ("9-14-2067", -14, "8-31-2067"),
        ("2067-09-14", 120, "2068-01-12"),
        ("14.09.2067", 3, "17.09.2067"),
        ("3/14", 3, "3/17"),
        ("03/14", 30, "04/13"),
        ("March 14, 2067", 3, "March 17, 2067"),
        ("Mar 14 2067", 20, "Apr 3 2067"),
        ("Mar. 14, 2067", 20, "Apr. 3, 2067"),
        ("14 March 2067", 3, "17 March 2067"),
        ("14-MAR-67", 3, "17-MAR-67"),
        ("March 14th", 8, "March 22nd"),
        ("March 14TH", 7 + 1, "March 22ND"),
        ("14th of March", 9, "23rd of March"),
        ("MARCH 14, 2067", 20, "APRIL 3, 2067"),
        ("march 14", 20, "april 3"),
        ("Sept 3", 30, "Oct 3"),
        ("March 2067", 30, "April 2067"),
        ("2067", 200, "2068"),
        ("2067", -200, "2066"),
        ("'08", 200, "'09"),
        ("Monday", 3, "Thursday"),
        ("Monday", -1, "Sunday"),
        ("Mon", 10, "Thu"),
        ("MONDAY", 3, "THURSDAY"),
        ("Spring 2067", 92, "Summer 2067"),
        ("fall of '08", 92, "winter of '09"),
        ("20670914", 1, "20670915"),
        ("9/2067", 31, "10/2067"),
        ("Monday, March 14, 2067", 3, "Thursday, March 17, 2067"),
        ("2067-09-14 10:30", 1, "2067-09-15 10:30"),
        ("Oct-Dec 2067", 40, "Nov-Jan 2068"),
        ("Feb/Mar 2068", 31, "Mar/Apr 2068"),
    ],
)
def test_shift_keeps_format(text, shift, expected):
    assert shift_date_text(text, shift) == expected


@pytest.mark.parametrize("text", ["2067", "March", "Spring 2067", "'08", "winter"])
@pytest.mark.parametrize("shift", [1, -1, 30, -100])
def test_coarse_dates_always_change(text, shift):
    new = shift_date_text(text, shift)
    assert new is not None and new != text


@pytest.mark.parametrize("text", ["q4", "the 3rd", "Yom Kippur", "45/67/89"])
def test_unparseable_returns_none(text):
    assert shift_date_text(text, 10) is None


@pytest.mark.parametrize("text", ["the 3rd", "wk 33", "45/67/89"])
def test_unparseable_with_digits_falls_back_to_shape(text, nlp):
    doc = deidentify(nlp, f"Seen {text} .", [(text, "DATE")])
    new = doc.ents[0]._.surrogate
    assert new != text and len(new) == len(text)
    assert text not in doc._.deidentified


@pytest.mark.parametrize(
    "text,kept",
    [
        ("okoro/75", []),  # a bed list's name and age, tagged as a date
        ("RXN20110731", []),  # an ID tagged as a date
        ("wk 33 of the month", ["wk", "of", "the", "month"]),
    ],
)
def test_unread_dates_keep_only_their_date_words(text, kept):
    new = SurrogateGenerator(key=b"k" * 32).date(text, "p1", 40)
    assert len(new) == len(text)
    for word in re.findall(r"[^\W\d_]+", text):
        assert (word in new.split()) is (word in kept), word


def test_the_rest_of_a_read_date_span_keeps_only_date_words():
    gen = SurrogateGenerator(key=b"k" * 32)
    new = gen.date("okoro 3/4/2070 x2", "p1", 40)
    assert new.endswith(shift_date_text("3/4/2070", 40) + new[-3:])
    assert "okoro" not in new and not new.endswith("x2")
    assert gen.date("the 3rd week of Sept 2070", "p1", 40).startswith("the ")
    es = SurrogateGenerator(key=b"k" * 32, date_lang="es")
    new = es.date("cama 4, finales de marzo de 2070", "p1", 40)
    assert "cama" not in new
    assert "finales de " in new and "marzo" not in new and new.endswith(" de 2070")


def _parse_mdy(text):
    month, day, year = (int(part) for part in text.split("/"))
    return D(year, month, day)


def test_date_intervals_kept_across_docs_of_same_patient(nlp):
    doc1 = deidentify(nlp, "Admitted 01/05/2067 .", [("01/05/2067", "DATE")], "p1")
    doc2 = deidentify(nlp, "Seen on 03/20/2068 .", [("03/20/2068", "DATE")], "p1")
    old = _parse_mdy("03/20/2068") - _parse_mdy("01/05/2067")
    new1 = _parse_mdy(doc1.ents[0]._.surrogate)
    new2 = _parse_mdy(doc2.ents[0]._.surrogate)
    assert new2 - new1 == old
    shift = (new1 - D(2067, 1, 5)).days
    assert 1 <= abs(shift) <= 365
    assert shift == nlp.get_pipe("phi_surrogates").date_shift("p1")


def test_patients_get_independent_shifts(nlp):
    component = nlp.get_pipe("phi_surrogates")
    shifts = {component.date_shift(f"patient-{i}") for i in range(50)}
    assert len(shifts) > 30
    assert any(s < 0 for s in shifts) and any(s > 0 for s in shifts)
    assert all(1 <= abs(s) <= 365 and s % 7 for s in shifts)


def test_shift_range_config():
    nlp = make_nlp(date_shift_min=10, date_shift_max=12)
    component = nlp.get_pipe("phi_surrogates")
    assert all(10 <= abs(component.date_shift(str(i))) <= 12 for i in range(30))


def test_invalid_shift_range():
    with pytest.raises(ValueError):
        make_nlp(date_shift_min=0)
    with pytest.raises(ValueError):
        make_nlp(date_shift_min=10, date_shift_max=5)


def test_weekday_shift_matches_date_shift(nlp):
    component = nlp.get_pipe("phi_surrogates")
    shift = component.date_shift("p9")
    doc = deidentify(
        nlp, "Monday, March 14, 2067 .", [("Monday, March 14, 2067", "DATE")], "p9"
    )
    new = datetime.datetime.strptime(doc.ents[0]._.surrogate, "%A, %B %d, %Y").date()
    assert new == D(2067, 3, 14) + datetime.timedelta(days=shift)
    # 2067-03-14 is a Monday, so the shifted weekday is the real weekday
    assert new.strftime("%A") == doc.ents[0]._.surrogate.split(",")[0]


@pytest.mark.parametrize(
    "text,shift,avoid,plain,moved",
    [
        # A year shifted onto another original year: a year further.
        ("2058", -200, {"2057"}, "2057", "2056"),
        # Both ends of a range: neither end may read as an original.
        ("2057\u20132058", -200, {"2057", "2058"}, "2056\u20132057", "2055\u20132056"),
        # A full date shifted onto another original date: a day further.
        ("03/12/2063", 45, {"04/26/2063"}, "04/26/2063", "04/27/2063"),
        # A weekday: the next one that no original names.
        (DAY[6], -2, {DAY[4].lower()}, DAY[4], DAY[3]),
        # Weekday and date move together.
        (f"{DAY[1]} 5/14", 2, {DAY[3].lower()}, f"{DAY[3]} 5/16", f"{DAY[4]} 5/17"),
        # A month named alone elsewhere may not come back inside a full date:
        # a month further.
        ("September 20, 2061", 15, {"october"}, "October 5, 2061", "November 5, 2061"),
        # Nor a year written alone, inside a numeric date: a year further.
        ("3/6/2062", -200, {"2061"}, "8/18/2061", "8/17/2060"),
        # A month alone, shifted onto another month written alone.
        ("Jan", -40, {"dec"}, "Dec", "Nov"),
        # Nor a number that another span of the note is ("bed 14"): a day further.
        ("03/02/2036", 12, {"14"}, "03/14/2036", "03/15/2036"),
    ],
)
def test_a_shifted_date_never_reads_as_an_original(text, shift, avoid, plain, moved):
    assert shift_date_text(text, shift) == plain
    assert shift_date_text(text, shift, avoid=frozenset(avoid)) == moved


def test_date_strings_hold_expressions_range_ends_and_weekdays():
    from spacy_deid.surrogates.dates import date_strings

    found = date_strings(["2057\u20132058", f"{DAY[1]} 5/14", "seen 3/4/2055"])
    assert found == {"2057", "2058", DAY[1].lower(), "5/14", "3/4/2055"}
    assert "seen" not in found


def test_no_other_number_of_the_note_comes_back_in_a_date():
    """A bed number and a date's shifted day: the day moves on."""
    nlp = make_nlp(date_shift_min=12, date_shift_max=12)
    text = "Bed 14. DOB 03/02/2036."
    doc = deidentify(nlp, text, [("14", "ROOM"), ("03/02/2036", "DATE")])
    assert "14" not in re.findall(r"\d+", doc.ents[1]._.surrogate), doc.ents[1]._.surrogate


def test_no_original_year_comes_back_in_the_note():
    """Years a year apart in one note: the patient's shift alone would write
    one of them back; the surrogates are moved on instead."""
    nlp = make_nlp(date_shift_min=200, date_shift_max=200)
    text = "Worked abroad 2057\u20132058; last visit 2057, repeat 2059."
    phi = [("2057\u20132058", "DATE"), ("2057", "DATE"), ("2059", "DATE")]
    doc = deidentify(nlp, text, phi)
    out = doc._.deidentified
    assert not set(re.findall(r"\d{4}", out)) & {"2057", "2058", "2059"}, out


@pytest.mark.parametrize(
    "text,shift,expected",
    [
        # A schedule's letters: the shifted day's first letters, in the case given.
        ("M", 2, "W"),
        ("W", 2, "F"),
        ("F", 1, "S"),
        ("Th", 1, "Fr"),
        ("TU", -1, "MO"),
        ("sa", 1, "su"),
        ("R", 1, "F"),  # "R": the fourth day, as in "MTWRF"
    ],
)
def test_a_weekday_letter_shifts_like_its_day(text, shift, expected):
    assert shift_date_text(text, shift) == expected
