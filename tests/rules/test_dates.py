"""DATE patterns and the calendar validators."""

import pytest

from spacy_deid.rules.patterns import family_patterns

# (pattern id, text, expected span)
POSITIVES = [
    ("date.mdy_slash", "DOB 09/14/2067.", "09/14/2067"),
    ("date.mdy_slash", "seen 9/14/67 in clinic", "9/14/67"),
    ("date.mdy_slash", "02/29/2068", "02/29/2068"),  # leap year
    ("date.mdy_slash", "09/14/2067CPT", "09/14/2067CPT"),  # glued token today
    ("date.dmy_slash", "signed 14/05/1996 0800.", "14/05/1996"),
    ("date.dmy_slash", "on 30/09/82", "30/09/82"),
    ("date.dmy_dash", "14-05-1996", "14-05-1996"),
    ("date.ymd_compact", "DOB: 20601109   Age", "20601109"),
    ("date.mm_yy", "LMP: 07/90.", "07/90"),
    ("date.mm_yy", "performed 07/12 at", "07/12"),
    ("date.mdy_dash", "on 9-14-2067", "9-14-2067"),
    ("date.mdy_dash", "09-14-67", "09-14-67"),
    ("date.ymd", "2067-09-14", "2067-09-14"),
    ("date.ymd", "2067/9/4 echo", "2067/9/4"),
    ("date.dotted", "14.09.2067", "14.09.2067"),
    ("date.dotted", "09.14.67", "09.14.67"),
    ("date.md_cued", "admitted on 3/14 with CP", "3/14"),
    ("date.md_cued", "from 3/14 to 3/20", "3/14"),
    ("date.md_weak_cued", "from 3/14 to 3/20", "3/20"),
    ("date.md_weak_cued", "labs 3/14 and 3/16", "3/16"),
    ("date.md_cued", "since 12/1.", "12/1"),
    ("date.md_cued", "Last seen: 11/30", "11/30"),
    ("date.my_slash", "since 09/2067", "09/2067"),
    ("date.month_day_year", "March 14, 2067", "March 14, 2067"),
    ("date.month_day_year", "Mar 14 2067", "Mar 14 2067"),
    ("date.month_day_year", "Sept. 4th, '67", "Sept. 4th, '67"),
    ("date.month_day_year", "MARCH 14, 2067", "MARCH 14, 2067"),
    ("date.day_month_year", "14 March 2067", "14 March 2067"),
    ("date.day_month_year", "14-Mar-2067", "14-Mar-2067"),
    ("date.day_month_year", "14-Sep-67", "14-Sep-67"),
    ("date.day_month_year", "14th of March, 2067", "14th of March, 2067"),
    # All-caps notes: ordinal suffixes and "OF" in capitals.
    ("date.day_month_year", "THE 14TH OF MARCH, 2067 AT", "14TH OF MARCH, 2067"),
    ("date.month_day_year", "ADMITTED: MARCH 22ND, 2067", "MARCH 22ND, 2067"),
    ("date.day_month", "SEEN THE 3RD OF MARCH AT NOON", "3RD OF MARCH"),
    ("date.month_year", "SINCE MARCH OF 2067.", "MARCH OF 2067"),
    ("date.month_day", "on March 14th we", "March 14th"),
    ("date.month_day", "Mar 14 labs", "Mar 14"),
    ("date.month_day", "May 5", "May 5"),
    ("date.day_month", "the 14th of March", "14th of March"),
    ("date.day_month", "on 14 March", "14 March"),
    ("date.day_month_dash", "Blood cx 16-MAR: E. coli", "16-MAR"),
    ("date.day_month_dash", "drain out 4-Jun, afebrile", "4-Jun"),
    ("date.weekday_abbr_lone_lower", "?dc mon if stable on RA", "mon"),
    ("date.weekday_abbr_lone_lower", "ugib, egd fri clean base", "fri"),
    ("date.weekday_abbr_lone_lower", "f/u clinic thurs am", "thurs"),
    ("date.weekday_abbr_lone_lower", "dialysis mon to fri", "fri"),
    ("date.month_year", "March 2067", "March 2067"),
    ("date.month_range_start", "Mar-Apr 2067", "Mar"),
    ("date.month_range_start", "May / June '68", "May"),
    ("date.month_year", "Mar-2067", "Mar-2067"),
    ("date.month_year", "Sep-67", "Sep-67"),
    ("date.month_year", "May '08", "May '08"),
    ("date.month_cued", "was in March.", "March"),
    ("date.month_cued", "last May", "May"),
    ("date.month_cued", "since June", "June"),
    ("date.year_cued", "in 2067", "2067"),
    ("date.year_cued", "since 2067.", "2067"),
    ("date.year_cued", "in the 1990s", "1990s"),
    ("date.year_cued", "quit 2060", "2060"),
    ("date.year_paren", "CABG (2067)", "2067"),
    ("date.year_apostrophe", "MI in '08", "'08"),
    ("date.weekday", "on Monday", "Monday"),
    ("date.weekday", "SATURDAY", "SATURDAY"),
    ("date.weekday_abbr", "Mon 3/14", "Mon"),
    ("date.weekday_abbr", "Sat, March 14", "Sat"),
    ("date.weekday_abbr_lower", "night signout thu 8/2 from", "thu"),
    ("date.weekday_abbr_lower", "planned tues 2/5 PM", "tues"),
    ("date.season_year", "Spring 2067", "Spring 2067"),
    ("date.season_year", "fall of '08", "fall of '08"),
    ("date.season_cued", "asthma this past winter.", "winter"),
    ("date.season_cued", "seen last fall", "fall"),
    ("date.season_cued", "travel planned early spring", "spring"),
    ("date.season_cued", "LAST SUMMER", "SUMMER"),
    ("date.season_cued", "worse over the winter", "winter"),
    ("date.season_cued", "in the summer", "summer"),
    ("date.season_cued", "mid-winter", "winter"),
    ("date.holiday", "over Christmas", "Christmas"),
    ("date.holiday_named", "fasting for Vaisakhi", "Vaisakhi"),
    ("date.holiday_named", "home over Eid al-Fitr.", "Eid al-Fitr"),
    ("date.holiday_named", "AWAY DURING DIWALI", "DIWALI"),
    ("date.holiday_named", "Lunar New Year's Day", "Lunar New Year's Day"),
    ("date.weekday_list_first", "HD M/W/F via AVF", "M"),
    ("date.weekday_list_next", "HD M/W/F via AVF", "W"),
    ("date.weekday_list_last", "HD M/W/F via AVF", "F"),
    ("date.weekday_list_first", "dialysis tues, thurs, sat", "tues"),
    ("date.weekday_list_last", "iHD Tu-Th-Sa", "Sa"),
    ("date.holiday", "after Thanksgiving", "Thanksgiving"),
    ("date.holiday", "over Christmas 2067 with", "Christmas 2067"),
    ("date.holiday", "Memorial Day", "Memorial Day"),
    ("date.holiday", "New Year's Day", "New Year's Day"),
    ("date.holiday", "New Year\u2019s Eve", "New Year\u2019s Eve"),
    ("date.holiday", "Xmas", "Xmas"),
    # Month/day without a classic cue.
    ("date.md_context", "Mon 9/14", "9/14"),
    ("date.md_context", "Tuesday, 9/15 seen", "9/15"),
    ("date.md_context", "f/u 9/14.", "9/14"),
    ("date.md_context", "Labs 9/14:", "9/14"),
    ("date.md_context", "RTC 10/2", "10/2"),
    ("date.md_context", "follow-up 12/1 with PCP", "12/1"),
    ("date.md_cued", "on 9/14", "9/14"),
    ("date.md_cued", "since 9/14", "9/14"),
    ("date.md_time", "9/14 at 0800", "9/14"),
    ("date.md_time", "9/14 @ 8:30 pm", "9/14"),
    ("date.md_time", "9/14 2pm", "9/14"),
    ("date.md_time", "drawn 9/14 at 0800.", "9/14"),
    ("date.md_time", "9/14 08:00:00 event", "9/14"),
    # Ranges: each end of a numeric range is its own DATE.
    ("date.range_start", "Admitted 9/14/2067-9/16/2067 for CHF.", "9/14/2067"),
    ("date.range_end", "Admitted 9/14/2067-9/16/2067 for CHF.", "9/16/2067"),
    ("date.range_start", "9/14-9/16/2067", "9/14"),
    ("date.range_end", "9/14-9/16/2067", "9/16/2067"),
    ("date.range_end", "9/14 \u2013 9/16/67", "9/16/67"),
    ("date.md_range_start", "from 9/14-9/16.", "9/14"),
    ("date.md_range_end", "from 9/14-9/16.", "9/16"),
    ("date.md_range_end", "Mon 9/14 - 9/16 inpatient", "9/16"),
    # A range with one month name is one span.
    ("date.month_day_range", "September 14-16, 2067", "September 14-16, 2067"),
    ("date.month_day_range", "from Sep 14 - 16 inpatient", "Sep 14 - 16"),
    ("date.day_range_month", "14-16 Sep 2067", "14-16 Sep 2067"),
    ("date.day_range_month", "on 14\u201316 March.", "14\u201316 March"),
    # More shapes.
    ("date.day_month_year", "12Mar67", "12Mar67"),
    ("date.day_month_year", "12MAR2067", "12MAR2067"),
    ("date.day_month_year", "12-Mar-2067", "12-Mar-2067"),
    ("date.month_cued", "seen mid-March", "March"),
    ("date.month_year", "early March 2067", "March 2067"),
]

# Date-shaped strings with an impossible month or day: tagged (fail closed)
# and flagged INVALID_DATE when the shape is unambiguous.
INVALID = [
    ("date.mdy_slash", "DOB 02/30/2067.", "02/30/2067"),
    ("date.mdy_slash", "13/13/2067", "13/13/2067"),
    ("date.mdy_slash", "2/31/2067", "2/31/2067"),
    ("date.mdy_slash", "13/14/2067", "13/14/2067"),
    ("date.mdy_slash", "31/02/2067", "31/02/2067"),
    ("date.mdy_dash", "02-30-2067", "02-30-2067"),
    ("date.ymd", "2067-02-30", "2067-02-30"),
    ("date.month_day_year", "Sept 31, 2067", "Sept 31, 2067"),
    ("date.day_month_year", "31 Sept 2067", "31 Sept 2067"),
    ("date.month_day", "on Feb 30 we", "Feb 30"),
    ("date.month_day_range", "Feb 28-30, 2067", "Feb 28-30, 2067"),
]

NEGATIVES = [
    "sat 98% on RA",  # O2 sat
    "newly wed couple",
    "var tues_count = 3",
    "lot 16-MARX",
    "micro lab, Corpus Christi, TX",  # a town
    "Dr. Pongal saw her",  # a name after a title
    "nowruz",  # holidays only as written or in capitals
    "slides from Sacred Heart Health Center",  # part of a facility's name
    "SENT TO SACRED HEART HOSPITAL",
    "sun 88/60 briefly",
    "sun 3-4 hours a day",
    "120/80",
    "BP 120/80",
    "BP 110/70 on arrival",
    "5/5 strength",
    "motor 5/5",
    "strength improved to 4/5",
    "strength 4/5 in all extremities",
    "10 mg",
    "0800",
    "at 0800",
    "14:30",
    "pH 7.35",
    "GCS 15",
    "J45.909",
    "ICD-10 E11.9",
    "HbA1c 7.2%",
    "INR 2.5",
    "Na 140",
    "1/2 tab",
    "take 1/2 tablet",
    "increase to 1/2 tab",
    "2/3 of",
    "reduced to 2/3 of the dose",
    "grade 3/6 murmur",
    "0/10 pain",
    "pain 3/10",
    "T 98.6",
    "O2 sat 97%",
    "O2 Sat 97%",
    "pack-year 30",
    "30 pack-years",
    "EF 55%",
    "x3",
    "q6h",
    "CPT 99213",
    "12345",
    "2067",  # a bare year without cue
    "in 2000 mL",
    "in 1500 cases",
    "you may take",
    "May be discharged",
    "She will march",
    "Will",
    "13/45",
    "2/31/67",  # not a calendar date, and a short shape: validated
    "2/31",
    "since 2/31",
    "45/60/2067",
    "13/45/2067",
    "02/30/1700",
    "1/2000 dilution",
    "C5-6",
    "L4-5",
    "1.2.10",
    "the sun",
    "Sun exposure",
    "3-4 times",
    "2-3 days",
    "reduce to 1/2",
    "decrease to 1/2 dose",
    "in 2/3 of patients",
    "10-12-15 reps",
    "in 1950 patients",
    "31/02/67",
    "March 45, 2067",
    # Fractions and scores without a date cue.
    "f/u 1/2 tab",
    "repeat 5/5 strength",
    "Labs: BUN/Cr 12/1",
    "Labs 2/3 of normal",
    "pain 3/10 at 0800",
    "1/2 at 0800",
    "grade 3/6 at 0800",
    "strength 5/5 at 0800",
    "BP 110/70 at 0800",
    "BP 120/80-130/90",
    "1/2-3/4 tab",
    "from 1/2-3/4 tab",
    "on 5/5-5/7 strength",
    "reduced to 1/2-2/3 of dose",
    "strength 4/5-5/5",
    "2-3 May be",
    "3 May be needed",
    "20671399",
    "12345678",
    "05/10 pain",
    "strength 04/05",
    "Records from April A. Richardson",
    "BP 120/80 HR 80 RR 16 T 98.6",
    # "fall" the noun, after cues that make other seasons dates.
    "injured in the fall",
    "this fall was mechanical",
    "since her last fall",
    "the last fall was at home",
    "fall risk, fall precautions",
    "winter coat",
]


@pytest.mark.parametrize("pattern_id,text,span", POSITIVES)
def test_dates_positive(find, pattern_id, text, span):
    assert (span, "DATE") in find(text)
    assert (span, "DATE") in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_dates_negative(find, text):
    assert [e for e in find(text) if e[1] == "DATE"] == []


def test_a_lone_lower_case_weekday_is_a_date_but_no_value_after_it(find):
    assert find("insulin mon 14-16 units") == [("mon", "DATE")]


def test_a_day_and_month_by_a_dash_is_no_range_end(find):
    text = "in the CCU July 20-July 22"
    assert find(text, pattern_id="date.day_month_dash") == []
    assert ("July 20", "DATE") in find(text)


def test_date_range(find):
    found = find("from 3/14/2067 to 3/20/2067")
    assert found == [("3/14/2067", "DATE"), ("3/20/2067", "DATE")]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Admitted 9/14/2067-9/16/2067 for CHF.", ["9/14/2067", "9/16/2067"]),
        ("9/14-9/16/2067", ["9/14", "9/16/2067"]),
        ("9/14/2067 - 9/16/2067", ["9/14/2067", "9/16/2067"]),
        ("September 14-16, 2067", ["September 14-16, 2067"]),
        ("14-16 Sep 2067", ["14-16 Sep 2067"]),
        ("from 9/14-9/16.", ["9/14", "9/16"]),
        ("NEC r/o 5/10-5/12: KUB neg", ["5/10", "5/12"]),
        ("micu 5/14-5/19 then floor", ["5/14", "5/19"]),
        ("SICU 5/14 - 5/19", ["5/14", "5/19"]),
        ("Chemo Oct-Dec 2067, then rest.", ["Oct", "Dec 2067"]),
        ("XRT Sept \u2013 Nov 2067", ["Sept", "Nov 2067"]),
        ("Abroad June/July 2068.", ["June", "July 2068"]),
        ("SEP-NOV 2067 in rehab", ["SEP", "NOV 2067"]),
    ],
)
def test_date_range_leaves_nothing_behind(find, text, expected):
    assert find(text) == [(span, "DATE") for span in expected]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("HD M/W/F via R AVF.", ["M", "W", "F"]),
        ("Dialysis MON / WED / FRI.", ["MON", "WED", "FRI"]),
        ("PT Mon, Tue, Thu, Fri.", ["Mon", "Tue", "Thu", "Fri"]),
        ("HD M/W only", []),  # two days: maybe no schedule
        ("Sex: M/F/X", []),
        ("w/r/t the plan", []),  # single letters only in capitals
    ],
)
def test_a_weekday_schedule_is_a_span_per_day(find, text, expected):
    assert find(text) == [(day, "DATE") for day in expected]


def test_weekday_and_date_are_two_spans(find):
    assert find("Mon 9/14") == [("Mon", "DATE"), ("9/14", "DATE")]


def test_holiday_keeps_its_year(find):
    assert find("Christmas 2067") == [("Christmas 2067", "DATE")]


@pytest.mark.parametrize("pattern_id,text,span", INVALID)
def test_invalid_date_fails_closed(find_doc, pattern_id, text, span):
    doc = find_doc(text, pattern_id=pattern_id)
    assert [(e.text, e._.phi_flags) for e in doc.ents] == [(span, ["INVALID_DATE"])]
    ents = [e for e in find_doc(text).ents if e.label_ == "DATE"]
    assert [(e.text, e._.phi_flags) for e in ents] == [(span, ["INVALID_DATE"])]


@pytest.mark.parametrize("text", ["14/05/1996", "09/14/2067", "March 14, 2067"])
def test_valid_date_is_not_flagged(find_doc, text):
    assert [e._.phi_flags for e in find_doc(text).ents] == [None]


def test_longest_date_wins(find):
    assert find("on March 14, 2067") == [("March 14, 2067", "DATE")]


def test_every_date_pattern_tested():
    ids = {p["id"] for p in family_patterns("dates")}
    assert ids == {p[0] for p in POSITIVES}
