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
    ("date.month_day", "on March 14th we", "March 14th"),
    ("date.month_day", "Mar 14 labs", "Mar 14"),
    ("date.month_day", "May 5", "May 5"),
    ("date.day_month", "the 14th of March", "14th of March"),
    ("date.day_month", "on 14 March", "14 March"),
    ("date.month_year", "March 2067", "March 2067"),
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
    ("date.season_year", "Spring 2067", "Spring 2067"),
    ("date.season_year", "fall of '08", "fall of '08"),
    ("date.holiday", "over Christmas", "Christmas"),
    ("date.holiday", "after Thanksgiving", "Thanksgiving"),
]

NEGATIVES = [
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
    "2/31/2067",  # not a calendar date
    "13/14/2067",
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
    "31/02/2067",
    "20671399",
    "12345678",
    "05/10 pain",
    "strength 04/05",
    "Records from April A. Richardson",
    "BP 120/80 HR 80 RR 16 T 98.6",
]


@pytest.mark.parametrize("pattern_id,text,span", POSITIVES)
def test_dates_positive(find, pattern_id, text, span):
    assert (span, "DATE") in find(text)
    assert (span, "DATE") in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_dates_negative(find, text):
    assert [e for e in find(text) if e[1] == "DATE"] == []


def test_date_range(find):
    found = find("from 3/14/2067 to 3/20/2067")
    assert found == [("3/14/2067", "DATE"), ("3/20/2067", "DATE")]


def test_longest_date_wins(find):
    assert find("on March 14, 2067") == [("March 14, 2067", "DATE")]


def test_every_date_pattern_tested():
    ids = {p["id"] for p in family_patterns("dates")}
    assert ids == {p[0] for p in POSITIVES}
