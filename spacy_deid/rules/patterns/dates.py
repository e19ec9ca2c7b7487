"""DATE patterns: numeric dates, month names, years, weekdays, seasons, holidays.

Month and weekday names are matched case-sensitively (`March`, `MARCH`, `Mar.`)
so that the verb "march" or the modal "may" never match; ambiguous words
(`May`, bare month names, bare years, `3/14`) need a date cue.

Decisions:
- Ranges. Numeric ranges give one DATE per end, i2b2 style: "9/14/2067-9/16/2067"
  -> "9/14/2067", "9/16/2067"; "9/14-9/16/2067" -> "9/14", "9/16/2067". A day
  range under one month name is one span, so no day is left behind:
  "September 14-16, 2067", "14-16 Sep 2067".
- A weekday before a date is its own span: "Mon 9/14" -> "Mon", "9/14".
- Qualifiers are context: "early March 2067" -> "March 2067", "mid-March" ->
  "March" (as "early spring" -> "spring"). A holiday keeps its year:
  "Christmas 2067" is one span.
- Fail closed: a date with a 4-digit year or a month name whose month or day is
  impossible ("02/30/2067", "13/13/2067", "Sept 31, 2067") is still tagged, with
  `span._.phi_flags == ["INVALID_DATE"]`; short shapes ("2/31", "2/31/67") are
  validated, since they are often fractions or scores.
"""

import re
from typing import FrozenSet, List

from ...knowledge import load
from ...text.datenames import MONTH_ABBRS, MONTHS, WEEKDAY_ABBRS, WEEKDAYS
from ..lexicons.geo import STATE_ABBRS
from ._common import END, PRIO_DATE, alternation, make_pattern, title_and_upper
from ._common import word_trie

_MONTH_NAMES = list(MONTHS)
_MONTH_ABBRS = list(MONTH_ABBRS)
_WEEKDAYS = list(WEEKDAYS)
# "Sat" (O2 sat) and "Sun" (sun exposure) only count before a date.
_WEEKDAY_ABBRS = list(WEEKDAY_ABBRS)
_WORD_DAYS = ("Sat", "Sun")
_STATE_CODE = alternation(STATE_ABBRS)

_MONTH_NAME = alternation(title_and_upper(_MONTH_NAMES))
_MONTH_ABBR = alternation(title_and_upper(_MONTH_ABBRS))
# A month name or abbreviation (abbreviations may end in "."), group `mon`.
_MON = r"(?P<mon>" + _MONTH_NAME + r"|" + _MONTH_ABBR + r"\.?)"
# The same without an abbreviation's period, where a period after it ends a
# sentence ("started 16-MAR.").
_MON_BARE = r"(?P<mon>" + _MONTH_NAME + r"|" + _MONTH_ABBR + r")"
# Full month names except "May" (the modal verb), for month-alone patterns.
_MON_FULL = alternation(title_and_upper(n for n in _MONTH_NAMES if n != "May"))
# Ordinal suffixes in either case ("31st", "31ST" in an all-caps note).
_ORD = r"(?:st|nd|rd|th|ST|ND|RD|TH)"
_OF = r"(?:of|OF)"
_DAY = r"(?P<d>[0-3]?\d)" + _ORD + "?"
_YEAR4 = r"(?P<y>\d{4})"
# A 4-digit or apostrophe year; 2 bare digits only after a dash ("14-Sep-67")
# or glued to a month name ("12Mar67").
_YEAR = r"(?P<y>\d{4}|['\u2019]\d{2}|(?<=[\-A-Za-z])\d{2}(?!\d))"
# Edges of a numeric date: no adjacent digits or date separators. Letters may
# touch it ("09/14/2067CPT") because the tokenizer may not have split them yet.
_L = r"(?<![\d/.\-])"
_R = r"(?![\d/]|[.\-]\d)"
# A numeric date followed by a unit is a ratio or dose: "1/2000 dilution".
_UNITS = (
    r"^[ \t]*(?i:mg|mcg|g|kg|lbs?|ml|cc|l|units?|u|meq|mmol|mm|cm|m|ft|feet|%"
    r"|hours?|hrs?|h|min|days?|weeks?|wks?|months?|mos?|years?|yrs?|tabs?"
    r"|tablets?|pills?|caps?|capsules?|puffs?|drops?|doses?|of|dilution|cells"
    r"|copies|calories|kcal|strength|power|murmur|pain|times|x|reps|sets|steps"
    r"|beats|bpm|breaths|patients|cases|people|subjects)\b"
)
# Words whose fractions look like dates: "strength 5/5", "grade 3/6".
_FRACTION_BEFORE = (
    r"(?i:\b(?:strength|motor|power|grade|reflexes|dtr|score|scale|pain|murmur"
    r"|ratio|out of|gcs|apgar|vision|acuity|fingers?|extremit(?:y|ies)|edema"
    r"|pulses?)\b)[^\r\n.;]{0,25}" + END
)
# Date cue words before a short or ambiguous date ("on 3/14", "since 2067").
_CUE = (
    r"(?i:\b(?:on|since|from|until|till|dated?|dos|doa|dod|dob|admit(?:ted)?"
    r"|admission|discharged?|seen|visit|surgery|started|starting|stopped|last|next"
    r"|before|after|due|effective|scheduled|during|circa|ca\.|early|mid|late"
    r"|beginning|end)\b[ \t:]*)"
)
# Weak cues also precede quantities ("reduce to 1/2", "in 2/3 of"), so after
# them the common fractions 1/2, 1/3, 1/4, 2/3, 3/4 are not dates.
_WEAK_CUE = r"(?i:\b(?:to|and|by|of|in|thru|through|between|-)\b[ \t:]*)"
# Cues before a month name alone: the date cues plus "in", "of", "by", "this".
# "mid-March", "late-May": the qualifier is context, the month is the span.
_MONTH_CUE = (
    r"(?:"
    + _CUE
    + r"|(?i:\b(?:in|of|by|thru|through|this|until)\b[ \t]*)"
    + r"|(?i:\b(?:early|mid|late)[ \t]*-[ \t]*))"
)
# Month/day "3/14"; the cue is checked with `require_before`.
_MD = r"(?<![\w/.\-])(?P<phi>(?P<m>1[0-2]|0?[1-9])/(?P<d>[0-3]?\d))" + _R
_NOT_FRACTION = r"(?!(?:1/[234]|2/3|3/4)(?!\d))"
# More cues before a month/day, where fractions 1/2, 2/3 ... are left out too:
# a weekday ("Mon 9/14", "Tuesday, 9/15"; the weekday is its own DATE span),
# follow-up and lab words ("f/u 9/14", "Labs 9/14:", "RTC 10/2"), a rule-out
# course or a stay in an intensive care unit ("r/o 9/14-9/16", "micu 9/14").
_MD_CUE = (
    r"(?:\b"
    + alternation(title_and_upper(_WEEKDAYS + _WEEKDAY_ABBRS))
    + r"\.?,?|(?i:\b(?:f/u|fu|follow[ \-]?up|rtc|return(?:ed)?|re-?check|repeat"
    r"|appt|appointment|labs?|as[ \t]+of|ending|r/o|[a-z]{0,2}icu|ccu)\b:?))[ \t]*"
)
# A clock time after a month/day: "9/14 at 0800", "9/14 @ 8:30", "9/14 2pm".
_TIME_AFTER = (
    r"(?=[ \t]+(?:(?i:at|@)[ \t]*)?"
    r"(?:(?:[01]?\d|2[0-3]):?[0-5]\d(?::[0-5]\d)?(?![\d/:]|\.\d)"
    r"|(?:1[0-2]|0?[1-9])(?::[0-5]\d)?[ \t]*(?i:am|pm|a\.m\.|p\.m\.)(?!\w)))"
)
# "2-3 May be needed": "May" is the modal verb there.
_MAY_VERB = r"^[ \t]+(?i:be|have|not|need|require|help|cause|also)\b"
# Month/day and m/d/y without group names: the other end of a range.
_MD_ANON = r"(?:1[0-2]|0?[1-9])/[0-3]?\d"
_MDY_ANON = _MD_ANON + r"/(?:\d{4}|\d{2})"
# A range dash: "9/14-9/16/2067", "September 14 - 16", "14\u201316 Sep".
_DASH = r"[ \t]*[\-\u2013][ \t]*"
_DAY2 = r"(?P<d2>[0-3]?\d)" + _ORD + "?"
# The same, minus the prepositions that precede quantities ("to", "and", "of").
_YEAR_CUE = (
    r"(?i:\b(?:in|since|from|until|till|thru|through|during|circa|ca\.|year"
    r"|before|after|early|mid|late|summer|spring|fall|autumn|winter|quit|born"
    r"|diagnosed|dx|retired|married|widowed|divorced|moved|died|deceased|graduated"
    r"|immigrated|hospitalized|admitted|performed|operated|treated|surgery|placed"
    r"|implanted|repaired|vaccinated|last)\b[ \t:]*"
    r"(?:(?i:the[ \t]+year|the|of)[ \t]+)?)"
)
_SEASON = r"(?i:spring|summer|fall|autumn|winter)"
_SEASON_NOT_FALL = r"(?i:spring|summer|autumn|winter)"
_HOLIDAYS = [
    r"Christmas(?:[ \t]+(?:Eve|Day))?", r"Xmas", r"Thanksgiving(?:[ \t]+Day)?",
    r"Easter(?:[ \t]+Sunday)?", r"Hanukkah", r"Chanukah", r"Kwanzaa",
    r"New[ \t]+Year['\u2019]?s(?:[ \t]+(?:Day|Eve))?", r"Memorial[ \t]+Day",
    r"Labor[ \t]+Day", r"Independence[ \t]+Day", r"(?:Fourth|4th)[ \t]+of[ \t]+July",
    r"Valentine['\u2019]?s[ \t]+Day", r"Halloween", r"Veterans['\u2019]?[ \t]+Day",
    r"Presidents['\u2019]?[ \t]+Day", r"Columbus[ \t]+Day",
    r"Mother['\u2019]?s[ \t]+Day", r"Father['\u2019]?s[ \t]+Day",
    r"Martin[ \t]+Luther[ \t]+King(?:,?[ \t]+Jr\.?)?[ \t]+Day",
    r"MLK[ \t]+Day", r"Rosh[ \t]+Hashanah", r"Yom[ \t]+Kippur", r"Passover",
    r"Good[ \t]+Friday",
]  # fmt: skip
# The holidays of one word, maybe with an optional second word after it
# (a group ending in "?"), in lower case: `phi_relabel` keeps them as dates
# when the tagger finds them written in lower case, which these rules skip.
_ONE_WORD = re.compile(r"([A-Z][a-z]+)(?:\(\?:.*\)\?)?")
HOLIDAY_WORDS: FrozenSet[str] = frozenset(
    match.group(1).lower() for match in map(_ONE_WORD.fullmatch, _HOLIDAYS) if match
)


# A weekday in a schedule: an abbreviation or one or two letters (in lower
# case only the abbreviations: "w/r/t" is no schedule), ending at a word
# boundary; and what joins two days ("/", "-", ", ").
_LIST_ABBRS = _WEEKDAY_ABBRS + ["Weds"]
_LIST_LETTERS = ["M", "T", "W", "R", "F", "Tu", "Th", "Sa", "Su"]
_LIST_DAY = (
    r"(?:"
    + alternation(
        title_and_upper(_LIST_ABBRS + _LIST_LETTERS) + [d.lower() for d in _LIST_ABBRS]
    )
    + r")(?![\w'])"
)
_LIST_SEP = r"(?:[ \t]*[/\-][ \t]*|,[ \t]*)"


# The holidays and observances of every country, by their English names in
# python-holidays (the knowledge table `holidays`, about 1,300 names: "Eid al-Fitr",
# "Diwali", "Lunar New Year's Day"), as written or in capitals.
_NAMED_HOLIDAYS = word_trie(title_and_upper(load("holidays").values()))


def _date(id: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_DATE)
    kwargs.setdefault("validator", "calendar_date")
    return make_pattern(id, "DATE", regex, **kwargs)


def _list_day_after(id: str, days_before: int, **kwargs) -> dict:
    """A day of a weekday schedule after `days_before` or more other days."""
    return _date(
        id,
        r"(?<=[/,\-\t ])(?P<phi>" + _LIST_DAY + r")",
        require_before=r"(?<![\w/\-])" + _LIST_DAY + r"(?:" + _LIST_SEP + _LIST_DAY
        + r"){" + str(days_before - 1) + r",5}" + _LIST_SEP + END,
        validator=None,
        score=0.8,
        **kwargs,
    )


PATTERNS: List[dict] = [
    # 09/14/2067, 9/14/67
    _date(
        "date.mdy_slash",
        _L + r"(?P<phi>(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4}|\d{2}))" + _R,
        exclude_after=_UNITS,
        score=0.95,
        validator="calendar_date_fail_closed",
    ),
    # 14/09/2067: day first, only when it is no month-first date (d > 12).
    _date(
        "date.dmy_slash",
        _L + r"(?P<phi>(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4}|\d{2}))" + _R,
        exclude_after=_UNITS,
        score=0.9,
    ),
    # 9-14-2067, 09-14-67
    _date(
        "date.mdy_dash",
        _L + r"(?P<phi>(?P<m>\d{1,2})-(?P<d>\d{1,2})-(?P<y>\d{4}|\d{2}))" + _R,
        exclude_after=_UNITS,
        score=0.9,
        validator="calendar_date_fail_closed",
    ),
    # 14-09-2067 (day first, d > 12)
    _date(
        "date.dmy_dash",
        _L + r"(?P<phi>(?P<d>\d{1,2})-(?P<m>\d{1,2})-(?P<y>\d{4}|\d{2}))" + _R,
        exclude_after=_UNITS,
        score=0.85,
    ),
    # 20670914 (yyyymmdd, 18xx-21xx); loses to any cued ID on the same digits.
    _date(
        "date.ymd_compact",
        r"(?<![\w/.\-])(?P<phi>(?P<y>(?:18|19|20|21)\d{2})(?P<m>0[1-9]|1[0-2])"
        r"(?P<d>[0-3]\d))(?![\w/]|[.\-]\d)",
        priority=PRIO_DATE - 5,
        score=0.75,
    ),
    # 07/90 or 07/12: a leading-zero month before 2 digits (month/year or
    # month/day; fractions and scores have no leading zero).
    _date(
        "date.mm_yy",
        _L + r"(?P<phi>(?P<m>0[1-9])/(?P<y>\d{2}))" + _R,
        exclude_before=_FRACTION_BEFORE,
        exclude_after=_UNITS,
        score=0.75,
    ),
    # 2067-09-14, 2067/09/14, 2067.09.14 (same separator twice)
    _date(
        "date.ymd",
        _L + r"(?P<phi>" + _YEAR4 + r"(?P<sep>[\-/.])(?P<m>\d{1,2})(?P=sep)"
        r"(?P<d>\d{1,2}))" + _R,
        score=0.95,
        validator="calendar_date_fail_closed",
    ),
    # 14.09.2067 or 09.14.2067: valid as day-month or month-day.
    _date(
        "date.dotted",
        _L + r"(?P<phi>(?P<a>\d{1,2})\.(?P<b>\d{1,2})\.(?P<y>\d{4}|"
        # a 2-digit year only in dd.dd.yy, not in version-like 1.2.10
        r"(?<=\d\d\.\d\d\.)\d{2}))" + _R,
        validator="calendar_date_either",
        score=0.85,
    ),
    # 3/14 after a date cue, unless it reads as a fraction or a score.
    _date(
        "date.md_cued",
        _MD,
        require_before=_CUE + END,
        exclude_before=_FRACTION_BEFORE,
        exclude_after=_UNITS,
        context_window=40,
        score=0.8,
    ),
    # 3/20 after "to", "and", "through" ("from 3/14 to 3/20"), but not 1/2 etc.
    _date(
        "date.md_weak_cued",
        _NOT_FRACTION + _MD,
        require_before=_WEAK_CUE + END,
        exclude_before=_FRACTION_BEFORE,
        exclude_after=_UNITS,
        context_window=40,
        score=0.7,
    ),
    # 9/14 after a weekday, a follow-up or a lab cue: "Mon 9/14", "f/u 9/14".
    _date(
        "date.md_context",
        _NOT_FRACTION + _MD,
        require_before=_MD_CUE + END,
        exclude_before=_FRACTION_BEFORE,
        exclude_after=_UNITS,
        context_window=40,
        score=0.75,
    ),
    # 9/14 before a clock time: "9/14 at 0800", "9/14 @ 8:30 pm".
    _date(
        "date.md_time",
        _NOT_FRACTION + _MD + _TIME_AFTER,
        exclude_before=_FRACTION_BEFORE,
        context_window=40,
        score=0.75,
    ),
    # Ranges (i2b2 style, each end is its own DATE): "9/14/2067-9/16/2067" and
    # "9/14-9/16/2067"; the first end is "9/14" or "9/14/2067" ...
    _date(
        "date.range_start",
        _L
        + r"(?P<phi>(?P<m>1[0-2]|0?[1-9])/(?P<d>[0-3]?\d)(?:/(?P<y>\d{4}|\d{2}))?)"
        + r"(?="
        + _DASH
        + _MDY_ANON
        + _R
        + r")",
        validator="calendar_date_fail_closed",
        score=0.9,
    ),
    # ... and the second end, which carries the year.
    _date(
        "date.range_end",
        _L
        + r"(?:"
        + _MD_ANON
        + r"(?:/(?:\d{4}|\d{2}))?)"
        + _DASH
        + r"(?P<phi>(?P<m>1[0-2]|0?[1-9])/(?P<d>[0-3]?\d)/(?P<y>\d{4}|\d{2}))"
        + _R,
        exclude_after=_UNITS,
        validator="calendar_date_fail_closed",
        score=0.9,
    ),
    # A cued range without year: "from 9/14-9/16", "Mon 9/14-9/16".
    _date(
        "date.md_range_start",
        _NOT_FRACTION
        + _MD.replace(_R, "")
        + r"(?="
        + _DASH
        + _NOT_FRACTION
        + _MD_ANON
        + _R
        + r")",
        require_before=r"(?:" + _CUE + r"|" + _MD_CUE + r")" + END,
        exclude_before=_FRACTION_BEFORE,
        # "5/5-5/7 strength": the unit after the range's end rejects both ends.
        exclude_after=r"^" + _DASH + _MD_ANON + _UNITS[1:],
        context_window=40,
        score=0.75,
    ),
    _date(
        "date.md_range_end",
        r"(?<![\w/.\-])(?:"
        + _MD_ANON
        + r")"
        + _DASH
        + _NOT_FRACTION
        + r"(?P<phi>(?P<m>1[0-2]|0?[1-9])/(?P<d>[0-3]?\d))"
        + _R,
        require_before=r"(?:"
        + _CUE
        + r"|"
        + _MD_CUE
        + r")"
        + _NOT_FRACTION
        + _MD_ANON
        + _DASH
        + END,
        exclude_before=_FRACTION_BEFORE,
        exclude_after=_UNITS,
        context_window=40,
        score=0.75,
    ),
    # 09/2067 (month/4-digit year)
    _date(
        "date.my_slash",
        _L + r"(?P<phi>(?P<m>1[0-2]|0?[1-9])[/\-]" + _YEAR4 + r")" + _R,
        exclude_after=_UNITS,
        exclude_before=_FRACTION_BEFORE,
        score=0.85,
    ),
    # March 14, 2067 / Mar 14 2067 / Mar. 14th, '67
    _date(
        "date.month_day_year",
        r"\b(?P<phi>" + _MON + r"[ \t]+" + _DAY + r",?[ \t]+" + _YEAR + r")(?!\w)",
        score=0.98,
        validator="calendar_date_fail_closed",
    ),
    # "September 14-16, 2067" / "Sep 14 - 16": one span for the whole range, so
    # that no day of it is left behind.
    _date(
        "date.month_day_range",
        r"\b(?P<phi>"
        + _MON
        + r"[ \t]+"
        + _DAY
        + _DASH
        + _DAY2
        + r"(?:,?[ \t]+"
        + _YEAR
        + r")?)(?![\w:]|[.,/]\d)",
        exclude_after=_UNITS,
        validator="calendar_date_range",
        score=0.9,
    ),
    # "14-16 Sep 2067" / "14\u201316 March": one span for the whole range.
    _date(
        "date.day_range_month",
        r"(?<![\w/.\-])(?P<phi>"
        + _DAY
        + _DASH
        + _DAY2
        + r"(?:[ \t]+(?:"
        + _OF
        + r"[ \t]+)?|-)?"
        + _MON
        + r"(?:(?:,?[ \t]+|-)?"
        + _YEAR
        + r")?)(?!\w)",
        exclude_after=_MAY_VERB,
        validator="calendar_date_range",
        score=0.9,
    ),
    # 14 March 2067 / 14th of March, 2067 / 14-Mar-2067 / 14Mar2067
    _date(
        "date.day_month_year",
        r"(?<![\w/.\-])(?P<phi>"
        + _DAY
        + r"(?:[ \t]+(?:(?:of|OF)[ \t]+)?|-)?"
        + _MON
        + r"(?:,?[ \t]+|-)?"
        + _YEAR
        + r")(?!\w)",
        score=0.95,
        validator="calendar_date_fail_closed",
    ),
    # March 14 / Mar 14th (not followed by a time "14:30" or a year)
    _date(
        "date.month_day",
        r"\b(?P<phi>" + _MON + r"[ \t]+" + _DAY + r")(?![\w:]|[.,/]\d)",
        exclude_after=_UNITS,
        score=0.9,
        validator="calendar_date_fail_closed",
    ),
    # 14 March / 14th of March / the 14th of March (span excludes "the")
    _date(
        "date.day_month",
        r"(?<![\w/.\-])(?P<phi>"
        + _DAY
        + r"(?:[ \t]+"
        + _OF
        + r")?[ \t]+"
        + _MON
        + r")(?!\w)",
        exclude_after=_MAY_VERB,
        score=0.9,
        validator="calendar_date_fail_closed",
    ),
    # 16-MAR / 4-Jun without a year (a lab's or a flowsheet's short date);
    # not the end day of a range of dates ("July 20-July 22").
    _date(
        "date.day_month_dash",
        r"(?<![\w/.\-])(?P<phi>" + _DAY + r"-" + _MON_BARE + r")(?![\w\-])",
        exclude_before=r"(?:" + _MONTH_NAME + r"|" + _MONTH_ABBR + r")\.?[ \t]+"
        + END,
        score=0.9,
        validator="calendar_date_fail_closed",
    ),
    # The first month of a range before a year, a date of its own as the two
    # ends of a numeric range are: "Mar" in "Mar-Apr 2067" ("Apr 2067" is
    # `date.month_year`). Without it "Mar" stayed in the output.
    _date(
        "date.month_range_start",
        r"\b(?P<phi>"
        + _MON
        + r")(?=[ \t]*[\-\u2013/][ \t]*"
        + _MON.replace("(?P<mon>", "(?:")
        + r"(?:,?[ \t]+|-)(?:\d{4}|['\u2019]\d{2})(?!\w))",
        score=0.9,
    ),
    # March 2067 / Mar-2067 / March '08 / March of 2067
    _date(
        "date.month_year",
        r"\b(?P<phi>"
        + _MON
        + r"(?:,?[ \t]+(?:(?:of|OF)[ \t]+)?|[\-/])"
        + _YEAR
        + r")(?!\w)",
        score=0.95,
    ),
    # A month name alone after a cue: "in March", "last May", "since June".
    _date(
        "date.month_cued",
        r"\b(?P<phi>(?P<mon>" + _MON_FULL + r"|May))\b(?![ \t]+(?i:be|have)\b)",
        require_before=_MONTH_CUE + END,
        # "from April A. Richardson": a first name before an initial and surname.
        exclude_after=r"^[ \t]+[A-Z]\.?[ \t]+[A-Z][a-z]",
        score=0.8,
    ),
    # A year after a date cue: "in 2067", "since 1998", "fall of 2067".
    _date(
        "date.year_cued",
        r"(?<![\w/.\-'])(?P<phi>" + _YEAR4 + r"s?)(?![\w/]|[.,\-]\d)",
        require_before=_YEAR_CUE + END,
        validator="bare_year",
        exclude_after=_UNITS,
        score=0.8,
    ),
    # A year in parentheses: "(2067)".
    _date(
        "date.year_paren",
        r"\((?P<phi>" + _YEAR4 + r")\)",
        validator="bare_year",
        score=0.75,
    ),
    # An apostrophe year after a date cue: "in '08", "since '98".
    _date(
        "date.year_apostrophe",
        r"(?<![\w'])(?P<phi>['\u2019]\d{2})(?![\w'])",
        require_before=_YEAR_CUE + END,
        validator=None,
        score=0.8,
    ),
    # Weekdays: full names always, abbreviations only before a date.
    _date(
        "date.weekday",
        r"\b(?P<phi>" + alternation(title_and_upper(_WEEKDAYS)) + r")\b",
        validator=None,
        score=0.9,
    ),
    _date(
        "date.weekday_abbr",
        r"\b(?P<phi>" + alternation(title_and_upper(_WEEKDAY_ABBRS)) + r")\b\.?,?"
        r"(?=[ \t]+(?:\d{1,2}[/\-]\d|" + _MON.replace("(?P<mon>", "(?:") + r"))",
        validator=None,
        score=0.85,
    ),
    # Lower case, as telegraphic sign-outs write it ("signout thu 8/2"): only
    # before a month/day that is a valid date, never a value ("mon 14-16 units").
    _date(
        "date.weekday_abbr_lower",
        r"\b(?P<phi>" + alternation([a.lower() for a in _WEEKDAY_ABBRS]) + r")\b\.?,?"
        r"(?=[ \t]+(?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9])(?![\d%/.]|-\d))",
        validator=None,
        score=0.8,
    ),
    # Alone, the lower-case abbreviations that are no English word ("dc mon
    # if stable", "egd fri"): every one of train's is a gold date; "sat" (O2
    # sat) and "sun" (sun exposure) only before a date, above.
    _date(
        "date.weekday_abbr_lone_lower",
        r"(?<![\w/\-])(?P<phi>"
        + alternation([a.lower() for a in _WEEKDAY_ABBRS if a not in _WORD_DAYS])
        + r")(?![\w/\-])",
        exclude_before=r"\b(?i:newly|they|we)[ \t]+" + END,
        validator=None,
        score=0.8,
    ),
    # A schedule of three or more weekdays ("HD M/W/F", "Tu-Th-Sa", "mon, wed,
    # fri"), as train's dialysis lines write it: each day its own span, the
    # first before two more days, the others after one or two.
    _date(
        "date.weekday_list_first",
        r"(?<![\w/\-])(?P<phi>" + _LIST_DAY + r")(?=(?:" + _LIST_SEP + _LIST_DAY
        + r"){2})",
        validator=None,
        score=0.8,
    ),
    # A middle day: one or more before it, one more after it.
    _list_day_after(
        "date.weekday_list_next", 1, exclude_after=r"^(?!" + _LIST_SEP + _LIST_DAY + r")"
    ),
    _list_day_after("date.weekday_list_last", 2),
    # Seasons with a year: "Spring 2067", "fall of '08".
    _date(
        "date.season_year",
        r"\b(?P<phi>" + _SEASON + r"[ \t]+(?:(?:of|OF)[ \t]+)?" + _YEAR + r")(?!\w)",
        score=0.9,
    ),
    # A season after a time cue: "last winter", "this past summer", "early fall"
    # ("winter", the cue is context). "fall" is also a noun ("in the fall",
    # "this fall was mechanical", "her last fall"), so it takes only the cues
    # that make it a season, and no article or possessive before them.
    _date(
        "date.season_cued",
        r"\b(?:(?i:this|in[ \t]+the|during[ \t]+the|through[ \t]+the|since|past)"
        r"[ \t\-]+(?=" + _SEASON_NOT_FALL + r"\b)"
        r"|(?i:last|this[ \t]+past|early|late|mid|next|over[ \t]+the)[ \t\-]+)"
        r"(?P<phi>" + _SEASON + r")(?!\w)",
        exclude_before=r"(?i:\b(?:her|his|their|its|my|your|a|an|the|pt'?s"
        r"|patient'?s|one|another|recent|prior)[ \t]+(?:last|next)[ \t\-]+)" + END,
        validator=None,
        score=0.8,
    ),
    # A holiday of any country by its name ("Eid al-Fitr", "Diwali").
    _date(
        "date.holiday_named",
        r"(?<![\w'\u2019\-])(?P<phi>" + _NAMED_HOLIDAYS
        + r"(?:['\u2019]s[ \t]+(?:Day|Eve|DAY|EVE))?)(?![\w'\u2019\-])",
        # A title makes it a name, as the name rules find it.
        exclude_before=r"\b(?:Dr|DR|Mr|MR|Mrs|MRS|Ms|MS|Miss|Mx)\.?[ \t]*" + END,
        # A capitalised word or a facility's word after it makes it part of a
        # longer name ("Sacred Heart Health Center"); a state's code, a
        # town's ("Corpus Christi, TX").
        exclude_after=r"^(?:[ \t]+(?:[A-Z][a-z]|(?i:health|hospital|medical|center"
        r"|centre|clinic|nursing|school|church|academy|college|university|parish"
        r"|cathedral|home|care|rehab)\b)|,[ \t]*" + _STATE_CODE + r"\b)",
        validator=None,
        score=0.8,
    ),
    # Holidays, with their year: "Christmas 2067", "Thanksgiving of '08".
    _date(
        "date.holiday",
        r"\b(?P<phi>"
        + alternation(_HOLIDAYS)
        + r"(?:,?[ \t]+(?:(?:of|OF)[ \t]+)?(?:\d{4}|['\u2019]\d{2})(?![\w'\u2019]))?"
        + r")(?!\w)",
        validator=None,
        score=0.85,
    ),
]
