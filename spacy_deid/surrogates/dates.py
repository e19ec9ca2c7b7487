"""Date parsing, shifting and format-preserving re-rendering.

A DATE span is scanned for date expressions (numeric dates, month names,
weekdays, seasons, years). Each one is shifted by the patient's offset in
days and written back in the same format: separators, zero padding, 2- or
4-digit years, month-name case and abbreviation, ordinal suffixes. Text
between the expressions (e.g. "of", a comma) is kept. Parts that are missing
from the original (no year, no day) are filled from reference values and
left out again on output. `shift_date_text` returns None when nothing could
be parsed; the caller then falls back to `fallback_date_text`.

Dates without a year ("March 12", "3/14") are placed in the year that puts
them nearest to a reference date: the nearest dated expression in the same
span (preceding, else following), else the `reference` passed in (the
component passes the nearest dated mention in the same doc), else
DEFAULT_YEAR, a non-leap year between two non-leap years. So the interval
between two dates of a patient is kept, even across February 29 and year ends.
Holidays ("Christmas", "Memorial Day") become a written date ("March 3").
Ranges ("September 14-16, 2067", "9/14-9/16/2067") shift both ends. Typo
dates ("02/30/2067") are clamped to the nearest valid date, then shifted.

`lang` picks the date language: "en" (the default: month first, "09/14/2067",
"March 14th") or "es" (day first, "14/09/2067", "14 de marzo de 2067",
"marzo del 2067", "diciembre-03"; month and weekday names are written back
in Spanish). Other languages use "en".
"""

import calendar
import datetime
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Dict, List, Optional, Tuple

from ..text.datenames import MONTHS, WEEKDAYS

# Year for dates without one when nothing in the span or doc gives a year:
# not a leap year, nor are the years next to it, so no February 29 lies within
# a year's shift of it. "2/29" without a year uses LEAP_YEAR.
DEFAULT_YEAR = 2002
LEAP_YEAR = 2004
# Extra days tried, in the shift's direction, when a coarse date ("2067",
# "March", "Spring 2067") would come out unchanged.
_BUMPS = (0, 31, 92, 366, 731)

SEASONS = ["winter", "spring", "summer", "fall"]
# A day inside each season (month, day), used as the reference date.
_SEASON_DAYS = {
    "winter": (1, 31),
    "spring": (4, 30),
    "summer": (7, 31),
    "fall": (10, 31),
}
_SEASON_ALIASES = {"autumn": "fall"}
# Day of the month for "early/mid/late March" ("principios/mediados/finales
# de marzo").
_QUALIFIER_DAYS = {
    "early": 5, "mid": 15, "middle": 15, "late": 25, "end": 28,
    "principios": 5, "mediados": 15, "finales": 25, "fines": 25,
}  # fmt: skip
_QUALIFIER_RE = re.compile(
    r"(?i)\b(early|mid|middle|late|end|principios|mediados|finales|fines)"
    r"(?:\s*-\s*|\s+)(?:of\s+|de\s+)?$"
)

# Holidays: name regex -> (month, day) or (month, weekday, n-th; -1 = last).
_MON, _THU, _SUN = 0, 3, 6
_HOLIDAYS: List[Tuple[str, Tuple[int, ...]]] = [
    (r"christmas\s+eve|xmas\s+eve", (12, 24)),
    (r"christmas(?:\s+day)?|x-?mas(?:\s+day)?", (12, 25)),
    (r"new\s+year(?:['\u2019]?s)?\s+eve", (12, 31)),
    (r"new\s+year(?:['\u2019]?s)?(?:\s+day)?", (1, 1)),
    (r"independence\s+day|fourth\s+of\s+july", (7, 4)),
    (r"halloween", (10, 31)),
    (r"valentine(?:['\u2019]?s)?(?:\s+day)?", (2, 14)),
    (r"veterans(?:['\u2019]|['\u2019]s)?\s+day", (11, 11)),
    (r"(?:st\.?|saint)\s+patrick(?:['\u2019]?s)?(?:\s+day)?", (3, 17)),
    (r"juneteenth", (6, 19)),
    (r"memorial\s+day", (5, _MON, -1)),
    (r"labou?r\s+day", (9, _MON, 1)),
    (r"thanksgiving(?:\s+day)?", (11, _THU, 4)),
    (r"(?:mlk|martin\s+luther\s+king(?:,?\s+jr\.?)?)\s+day", (1, _MON, 3)),
    (r"presidents(?:['\u2019]|['\u2019]s)?\s+day", (2, _MON, 3)),
    (r"columbus\s+day", (10, _MON, 2)),
    (r"mother(?:['\u2019]?s)?\s+day", (5, _SUN, 2)),
    (r"father(?:['\u2019]?s)?\s+day", (6, _SUN, 3)),
    (r"easter(?:\s+sunday)?", ()),
]
_HOLIDAY_RES = [(re.compile(regex, re.IGNORECASE), rule) for regex, rule in _HOLIDAYS]
_HOLIDAY_RE = "(?:" + "|".join(regex for regex, _ in _HOLIDAYS) + ")"

_MONTH_RE = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
    r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAY_RE = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|"
    r"fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
)
_SEASON_RE = r"(?:spring|summer|fall|autumn|winter)"
_ORD_RE = r"(?:st|nd|rd|th)"
# Boundaries: no letter or digit, and no "<digit><sep>" / "<sep><digit>", so
# that a part of an invalid date like "02/30/2067" is not taken as a date.
# A numeric range ("9/14-9/16/2067") may join two dates with a bare hyphen.
_B = r"(?<![0-9A-Za-z])(?:(?<![0-9][-/.])|(?<=[0-9]-)(?=\d{1,2}/\d))"
_E = r"(?![0-9A-Za-z])(?:(?![-/.][0-9])|(?=-\d{1,2}/\d))"
_BW = r"(?<![0-9A-Za-z])"


@dataclass
class _Pattern:
    name: str
    regex: "re.Pattern[str]"
    lang: str = "en"


def _compile(name: str, body: str, lang: str = "en") -> _Pattern:
    # Expressions starting with a word ("October 2" in "September 29-October
    # 2") only need a word boundary before them.
    start = _B if body.startswith(("(?P<year>", "(?P<month>", "(?P<day>")) else _BW
    return _Pattern(name, re.compile(start + body + _E, re.IGNORECASE), lang)


# Tried in order at each position; the first that parses to a valid date wins.
_PATTERNS: List[_Pattern] = [
    # Christmas, Memorial Day 2067, New Year's Day, '08
    _compile(
        "holiday",
        r"(?P<holiday>" + _HOLIDAY_RE + r")"
        r"(?:(?P<s1>\s*,\s*|\s+of\s+|\s+)(?P<year>\d{4}|'\d{2}))?",
    ),
    # 2067-09-14, 2067/9/14
    _compile(
        "ymd", r"(?P<year>\d{4})(?P<s1>[-/.])(?P<month>\d{1,2})(?P=s1)(?P<day>\d{1,2})"
    ),
    # 09/14/2067, 9-14-67 (month first), then 14/09/2067 if that is invalid
    _compile(
        "mdy",
        r"(?P<month>\d{1,2})(?P<s1>[-/])(?P<day>\d{1,2})(?P=s1)(?P<year>\d{4}|\d{2})",
    ),
    _compile(
        "dmy",
        r"(?P<day>\d{1,2})(?P<s1>[-/.])(?P<month>\d{1,2})(?P=s1)(?P<year>\d{4}|\d{2})",
    ),
    _compile(
        "mdy",
        r"(?P<month>\d{1,2})(?P<s1>[.])(?P<day>\d{1,2})(?P=s1)(?P<year>\d{4}|\d{2})",
    ),
    # 20670914
    _compile("ymd8", r"(?P<year>(?:19|20|21)\d{2})(?P<month>[01]\d)(?P<day>[0-3]\d)"),
    # September 14-16, 2067 / Sept. 14th to 16th
    _compile(
        "mdy_name_range",
        r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)(?P<s1>\s+)"
        r"(?P<day>\d{1,2})(?P<ord>" + _ORD_RE + r")?(?P<rs>\s*[-\u2013]\s*|\s+to\s+)"
        r"(?P<day2>\d{1,2})(?P<ord2>" + _ORD_RE + r")?"
        r"(?:(?P<s2>\s*,\s*|\s+)(?P<year>\d{4}|'\d{2}))?",
    ),
    # Monday, March 14th, 2067 / Mar. 14 2067 / March 14th / Mar-14-2067
    _compile(
        "mdy_name",
        r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)(?P<s1>\s*-\s*|\s+)"
        r"(?P<day>\d{1,2})(?P<ord>" + _ORD_RE + r")?"
        r"(?:(?P<s2>\s*,\s*|\s+|\s*-\s*)(?P<year>\d{4}|'\d{2}))?",
    ),
    # 14 March 2067 / 14th of March / 14-Mar-67 / 14 MAR / 12MAR2067 / 12Mar67
    _compile(
        "dmy_name",
        r"(?P<day>\d{1,2})(?P<ord>" + _ORD_RE + r")?(?P<s1>\s+of\s+|\s*-\s*|\s+|)"
        r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)"
        r"(?:(?P<s2>\s*,\s*|\s+|\s*-\s*|)(?P<year>\d{4}|'?\d{2}))?",
    ),
    # March 2067 / March of 2067 / Mar-67 / March '08
    _compile(
        "my_name",
        r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)(?P<s1>\s*,\s*|\s+of\s+|\s+|\s*-\s*)"
        r"(?P<year>\d{4}|'\d{2})",
    ),
    _compile("m_name", r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)"),
    # 9/2067, 09/67
    _compile("my", r"(?P<month>\d{1,2})(?P<s1>/)(?P<year>\d{4})"),
    # 3/14 (no year), then 3/67
    _compile("md", r"(?P<month>\d{1,2})(?P<s1>[/-])(?P<day>\d{1,2})"),
    _compile("my", r"(?P<month>\d{1,2})(?P<s1>/)(?P<year>\d{2})"),
    # Spring 2067, fall of '08, winter
    _compile(
        "season",
        r"(?P<season>" + _SEASON_RE + r")"
        r"(?:(?P<s1>\s*,\s*|\s+of\s+|\s+)(?P<year>\d{4}|'\d{2}))?",
    ),
    _compile("weekday", r"(?P<wday>" + _WEEKDAY_RE + r")\.?"),
    # 2067, '08
    _compile("y", r"(?P<year>(?:1[89]|2[0-9])\d{2}|'\d{2})"),
]

ES_MONTHS: Tuple[str, ...] = (
    "Enero", "Febrero", "Marzo", "Abril", "Mayo", "Junio", "Julio", "Agosto",
    "Septiembre", "Octubre", "Noviembre", "Diciembre",
)  # fmt: skip
ES_WEEKDAYS: Tuple[str, ...] = (
    "Lunes", "Martes", "Miércoles", "Jueves", "Viernes", "Sábado", "Domingo",
)  # fmt: skip
_ES_MONTH_RE = (
    r"(?:ene(?:ro)?|feb(?:rero)?|mar(?:zo)?|abr(?:il)?|may(?:o)?|jun(?:io)?|"
    r"jul(?:io)?|ago(?:sto)?|sep(?:t(?:iembre)?)?|set(?:iembre)?|oct(?:ubre)?|"
    r"nov(?:iembre)?|dic(?:iembre)?)"
)
_ES_WEEKDAY_RE = r"(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)"
_ES_SEASON_RE = r"(?:primavera|verano|oto[ñn]o|invierno)"
_ES_ORD_RE = r"(?:º|°|ª)"

# Spanish: day first; "14 de marzo de 2067", "marzo del 2067", "diciembre-03".
_ES_PATTERNS: List[_Pattern] = [
    _compile(
        "ymd",
        r"(?P<year>\d{4})(?P<s1>[-/.])(?P<month>\d{1,2})(?P=s1)(?P<day>\d{1,2})",
        "es",
    ),
    # 14/09/2067, 14.9.67, then 09/14/2067 if that is invalid
    _compile(
        "dmy",
        r"(?P<day>\d{1,2})(?P<s1>[-/.])(?P<month>\d{1,2})(?P=s1)(?P<year>\d{4}|\d{2})",
        "es",
    ),
    _compile(
        "mdy",
        r"(?P<month>\d{1,2})(?P<s1>[-/])(?P<day>\d{1,2})(?P=s1)(?P<year>\d{4}|\d{2})",
        "es",
    ),
    _compile(
        "ymd8", r"(?P<year>(?:19|20|21)\d{2})(?P<month>[01]\d)(?P<day>[0-3]\d)", "es"
    ),
    # 14 de marzo de 2067 / 1º de marzo / 23-febrero-1931 / 14 MAR 2067
    _compile(
        "dmy_name",
        r"(?P<day>\d{1,2})(?P<ord>" + _ES_ORD_RE + r")?(?P<s1>\s+de\s+|\s*-\s*|\s+|)"
        r"(?P<mname>" + _ES_MONTH_RE + r")(?P<dot>\.?)"
        r"(?:(?P<s2>\s+del?\s+|\s*,\s*|\s+|\s*-\s*|)(?P<year>\d{4}|'?\d{2}))?",
        "es",
    ),
    # marzo de 2067 / marzo del 2067 / marzo 2067 / diciembre-03
    _compile(
        "my_name",
        r"(?P<mname>" + _ES_MONTH_RE + r")(?P<dot>\.?)"
        r"(?P<s1>\s+del?\s+|\s*,\s*|\s+|\s*-\s*)"
        r"(?P<year>\d{4}|'\d{2}|(?<=-)\d{2})",
        "es",
    ),
    _compile("m_name", r"(?P<mname>" + _ES_MONTH_RE + r")(?P<dot>\.?)", "es"),
    _compile("my", r"(?P<month>\d{1,2})(?P<s1>/)(?P<year>\d{4})", "es"),
    # 14/3 (no year), then 3/67
    _compile("dm", r"(?P<day>\d{1,2})(?P<s1>[/-])(?P<month>\d{1,2})", "es"),
    _compile("my", r"(?P<month>\d{1,2})(?P<s1>/)(?P<year>\d{2})", "es"),
    _compile(
        "season",
        r"(?P<season>" + _ES_SEASON_RE + r")"
        r"(?:(?P<s1>\s+del?\s+|\s*,\s*|\s+)(?P<year>\d{4}|'\d{2}))?",
        "es",
    ),
    _compile("weekday", r"(?P<wday>" + _ES_WEEKDAY_RE + r")", "es"),
    _compile("y", r"(?P<year>(?:1[89]|2[0-9])\d{2}|'\d{2})", "es"),
]
_PATTERNS_BY_LANG: Dict[str, List[_Pattern]] = {"en": _PATTERNS, "es": _ES_PATTERNS}
DATE_LANGUAGES: Tuple[str, ...] = tuple(_PATTERNS_BY_LANG)


@dataclass(frozen=True)
class _Names:
    """Month, weekday and season names of a date language."""

    months: Tuple[str, ...]
    weekdays: Tuple[str, ...]
    seasons: Dict[str, str]  # "winter", "spring", "summer", "fall" -> name


_NAMES: Dict[str, _Names] = {
    "en": _Names(
        MONTHS,
        WEEKDAYS,
        {season: season.capitalize() for season in SEASONS},
    ),
    "es": _Names(
        ES_MONTHS,
        ES_WEEKDAYS,
        {
            "winter": "Invierno",
            "spring": "Primavera",
            "summer": "Verano",
            "fall": "Otoño",
        },
    ),
}


def date_language(lang: str) -> str:
    """The date language used for a language code ("es"; others: "en").

    lang (str): A language code such as "en", "es" or "es_ES".
    RETURNS (str): A code from DATE_LANGUAGES.
    """
    code = (lang or "en").split("_")[0].split("-")[0].lower()
    return code if code in _PATTERNS_BY_LANG else "en"


@dataclass
class _Parsed:
    date: datetime.date
    fields: Dict[str, Tuple[int, int, str]]  # group -> (start, end, text)
    has_year: bool = False
    end: Optional[datetime.date] = None  # the last day of a range


@dataclass
class _Found:
    pattern: _Pattern
    match: "re.Match[str]"
    parsed: _Parsed
    lenient: bool


def shift_date_text(
    text: str,
    shift_days: int,
    reference: Optional[datetime.date] = None,
    lang: str = "en",
) -> Optional[str]:
    """Shift every date expression in a DATE span and keep its format.

    text (str): The span text, e.g. "09/14/2067" or "Monday, March 14th".
    shift_days (int): The patient's date shift (non-zero).
    reference (Optional[datetime.date]): A date near this one (e.g. the
        nearest dated mention in the doc), used to pick the year of dates
        written without one.
    lang (str): The date language ("en", "es"; see `date_language`).
    RETURNS (Optional[str]): The shifted text, or None if no date expression
        was found (or a parsed one could not be shifted).
    """
    found = _scan(text, date_language(lang))
    if not found:
        return None
    anchors = [(i, f.parsed.date) for i, f in enumerate(found) if f.parsed.has_year]
    pieces: List[str] = []
    last = 0
    for i, item in enumerate(found):
        parsed = item.parsed
        if not parsed.has_year and item.pattern.name != "weekday":
            before = [date for j, date in anchors if j < i]
            after = [date for j, date in anchors if j > i]
            ref = before[-1] if before else (after[0] if after else reference)
            reparsed = _parse(item.pattern, item.match, ref, item.lenient)
            if reparsed is None:
                return None
            parsed = reparsed
        new = _render_shifted(item.pattern, item.match, parsed, shift_days)
        if new is None:
            return None
        pieces.append(text[last : item.match.start()])
        pieces.append(new)
        last = item.match.end()
    pieces.append(text[last:])
    return "".join(pieces)


def find_anchor(text: str, lang: str = "en") -> Optional[datetime.date]:
    """The first date with an explicit year in a DATE span, if any.

    text (str): The span text.
    lang (str): The date language ("en", "es").
    RETURNS (Optional[datetime.date]): The (unshifted) date.
    """
    for item in _scan(text, date_language(lang)):
        if item.parsed.has_year:
            return item.parsed.date
    return None


def _scan(text: str, lang: str = "en") -> List[_Found]:
    found: List[_Found] = []
    pos = 0
    while pos < len(text):
        item = _match_at(text, pos, False, lang) or _match_at(text, pos, True, lang)
        if item is None:
            pos += 1
            continue
        found.append(item)
        pos = max(item.match.end(), pos + 1)
    return found


def _match_at(text: str, pos: int, lenient: bool, lang: str = "en") -> Optional[_Found]:
    for pattern in _PATTERNS_BY_LANG[lang]:
        if lenient and pattern.name not in _NUMERIC:
            continue
        match = pattern.regex.match(text, pos)
        if match is None:
            continue
        parsed = _parse(pattern, match, None, lenient)
        if parsed is not None:
            return _Found(pattern, match, parsed, lenient)
    return None


_NUMERIC = {"ymd", "mdy", "dmy"}


def _parse(
    pattern: _Pattern,
    match: "re.Match[str]",
    reference: Optional[datetime.date],
    lenient: bool = False,
) -> Optional[_Parsed]:
    groups = {
        name: (match.start(name), match.end(name), value)
        for name, value in match.groupdict().items()
        if value is not None
    }
    if pattern.name == "weekday":
        # A weekday alone has no date; any date with that weekday will do.
        index = _weekday_index(groups["wday"][2], pattern.lang)
        return _Parsed(datetime.date(2001, 1, 1 + index), groups)
    has_year = "year" in groups
    year = _parse_year(groups["year"][2]) if has_year else None
    if pattern.name == "holiday":
        rule = _holiday_rule(groups["holiday"][2])
        if year is None:
            year = _infer_year(reference, lambda y: _holiday_date(rule, y))
        try:
            date = _holiday_date(rule, year)
        except ValueError:
            return None
        return _Parsed(date, groups, has_year)
    month, day = 7, 2
    if "month" in groups:
        month = int(groups["month"][2])
    elif "mname" in groups:
        month = _month_index(groups["mname"][2], pattern.lang) + 1
    elif "season" in groups:
        month, day = _SEASON_DAYS[_season_name(groups["season"][2], pattern.lang)]
    if "day" in groups:
        day = int(groups["day"][2])
    elif "month" in groups or "mname" in groups:
        day = _qualifier_day(match)
    if lenient:
        month, day = _clamp(month, day, year)
        if month is None:
            return None
    if year is None:
        if not _valid(LEAP_YEAR, month, day):
            return None
        year = _infer_year(reference, lambda y: datetime.date(y, month, day))
    try:
        date = datetime.date(year, month, day)
        end = None
        if "day2" in groups:
            end = datetime.date(year, month, int(groups["day2"][2]))
            if end < date:
                return None
    except ValueError:
        return None
    return _Parsed(date, groups, has_year and "year" in groups, end)


def _valid(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def _clamp(month: int, day: int, year: Optional[int]) -> Tuple[Optional[int], int]:
    """The nearest valid (month, day) for a typo date such as 02/30 or 13/01;
    (None, day) if it is too far off to be a typo."""
    if month in (0, 13):
        month = 1 if month == 0 else 12
    if not 1 <= month <= 12 or not 0 <= day <= 31:
        return None, day
    last = calendar.monthrange(year if year is not None else LEAP_YEAR, month)[1]
    return month, min(max(day, 1), last)


def _infer_year(
    reference: Optional[datetime.date],
    make: Callable[[int], datetime.date],
) -> int:
    """The year near the reference date that puts the date nearest to it."""
    if reference is None:
        candidates = [DEFAULT_YEAR, LEAP_YEAR]
    else:
        base = reference.year
        candidates = [base, base - 1, base + 1]
        candidates += [y for y in range(base - 4, base + 5) if calendar.isleap(y)]
    best: Optional[Tuple[int, int]] = None
    for year in candidates:
        try:
            date = make(year)
        except (ValueError, OverflowError):
            continue
        distance = 0 if reference is None else abs((date - reference).days)
        if best is None or distance < best[0]:
            best = (distance, year)
    return best[1] if best is not None else LEAP_YEAR


def _qualifier_day(match: "re.Match[str]") -> int:
    before = match.string[: match.start()]
    qualifier = _QUALIFIER_RE.search(before[-16:])
    if qualifier is None:
        return 15
    return _QUALIFIER_DAYS[qualifier.group(1).lower()]


def _holiday_rule(value: str) -> Tuple[int, ...]:
    for regex, rule in _HOLIDAY_RES:
        if regex.fullmatch(value):
            return rule
    raise ValueError("Unknown holiday.")


def _holiday_date(rule: Tuple[int, ...], year: int) -> datetime.date:
    if not rule:
        return _easter(year)
    if len(rule) == 2:
        return datetime.date(year, rule[0], rule[1])
    month, weekday, nth = rule
    if nth > 0:
        first = datetime.date(year, month, 1)
        offset = (weekday - first.weekday()) % 7
        return first + datetime.timedelta(days=offset + 7 * (nth - 1))
    last = datetime.date(year, month, calendar.monthrange(year, month)[1])
    return last - datetime.timedelta(days=(last.weekday() - weekday) % 7)


def _easter(year: int) -> datetime.date:
    """Gregorian Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    la = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * la) // 451
    month, day = divmod(h + la - 7 * m + 114, 31)
    return datetime.date(year, month, day + 1)


def _render_shifted(
    pattern: _Pattern, match: "re.Match[str]", parsed: _Parsed, shift_days: int
) -> Optional[str]:
    original = match.group()
    sign = 1 if shift_days >= 0 else -1
    for bump in _BUMPS:
        try:
            delta = datetime.timedelta(days=shift_days + sign * bump)
            new_date = parsed.date + delta
            new_end = parsed.end + delta if parsed.end is not None else None
        except OverflowError:
            return None
        if pattern.name == "weekday":
            new_date = parsed.date + datetime.timedelta(days=shift_days % 7 or 1)
        if pattern.name == "holiday":
            return _render_holiday(match, parsed, new_date)
        rendered = _render(match, parsed, new_date, new_end, pattern.lang)
        if rendered.casefold() != original.casefold():
            return rendered
    return None


def _render_holiday(
    match: "re.Match[str]", parsed: _Parsed, new_date: datetime.date
) -> str:
    """A holiday becomes a written date: "Christmas 2067" -> "August 13, 2067"."""
    name = parsed.fields["holiday"][2]
    out = _case_like(name, f"{MONTHS[new_date.month - 1]} {new_date.day}")
    if "year" in parsed.fields:
        sep = parsed.fields["s1"][2]
        sep = sep if "," in sep else ", "
        out += sep + _render_year(parsed.fields["year"][2], new_date)
    return out


def _render(
    match: "re.Match[str]",
    parsed: _Parsed,
    new_date: datetime.date,
    new_end: Optional[datetime.date] = None,
    lang: str = "en",
) -> str:
    original = match.group()
    base = match.start()
    pad = _zero_padding(parsed.fields)
    month_text = parsed.fields.get("mname", (0, 0, ""))[2]
    out = []
    last = 0
    for name, (start, end, value) in sorted(parsed.fields.items(), key=_by_start):
        if name in ("month", "day"):
            number = new_date.month if name == "month" else new_date.day
            new = f"{number:02d}" if pad else str(number)
        elif name == "day2" and new_end is not None:
            new = f"{new_end.day:02d}" if pad else str(new_end.day)
            if new_end.month != new_date.month:
                dot = parsed.fields.get("dot", (0, 0, ""))[2]
                month = _render_month_name(month_text, new_end, dot, lang)
                dot = _render_dot(dot, month_text, new_end, lang)
                new = month + dot + " " + new
        elif name == "ord2" and new_end is not None:
            new = _render_ordinal(value, new_end, lang)
        elif name == "year" and new_end is not None:
            new = _render_year(value, new_end)
        elif name == "dot":
            new = _render_dot(value, month_text, new_date, lang)
        elif name == "mname":
            dot = parsed.fields.get("dot", (0, 0, ""))[2]
            new = _render_month_name(value, new_date, dot, lang)
        elif name in _RENDERERS:
            new = _RENDERERS[name](value, new_date, lang)
        else:
            continue
        out.append(original[last : start - base])
        out.append(new)
        last = end - base
    out.append(original[last:])
    return "".join(out)


def _render_dot(
    dot: str, month_text: str, date: datetime.date, lang: str = "en"
) -> str:
    """Keep an abbreviation's period, but English "May" has no abbreviation."""
    if lang != "en":
        return dot
    if dot and date.month == 5 and month_text.lower() not in _FULL_MONTHS:
        return ""
    return dot


def _zero_padding(fields: Dict[str, Tuple[int, int, str]]) -> bool:
    """Whether day and month numbers are zero-padded: "09/14" yes, "9/14" no,
    "12/14" like other numeric dates, "March 14" no."""
    values = [fields[name][2] for name in ("month", "day") if name in fields]
    if any(len(value) == 1 for value in values):
        return False
    if any(value.startswith("0") for value in values):
        return True
    return "mname" not in fields


def _by_start(item: Tuple[str, Tuple[int, int, str]]) -> int:
    return item[1][0]


def _render_year(value: str, date: datetime.date, lang: str = "en") -> str:
    digits = value.lstrip("'")
    prefix = value[: len(value) - len(digits)]
    if len(digits) == 2:
        return prefix + f"{date.year % 100:02d}"
    return prefix + f"{date.year:04d}"


def _render_ordinal(value: str, date: datetime.date, lang: str = "en") -> str:
    if lang != "en":
        return value if date.day == 1 else ""  # "1º de mayo", "24 de mayo"
    day = date.day
    if 11 <= day % 100 <= 13:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return suffix.upper() if value.isupper() else suffix


def _render_month_name(
    value: str, date: datetime.date, dot: str = "", lang: str = "en"
) -> str:
    if lang != "en":
        months = _NAMES[lang].months
        full = months[date.month - 1]
        if _fold(value) in _folded(months):
            new = full
        elif date.month == 9 and len(value) == 4:
            new = full[:4]
        else:
            new = full[:3]
        return _case_like(value, new)
    full = MONTHS[date.month - 1]
    if value.lower() in _FULL_MONTHS:
        new = full
    elif full == "September" and (len(value) == 4 or dot):
        new = "Sept"
    else:
        new = full[:3]
    return _case_like(value, new)


def _render_weekday(value: str, date: datetime.date, lang: str = "en") -> str:
    weekdays = _NAMES[lang].weekdays
    full = weekdays[date.weekday()]
    is_full = _fold(value) in _folded(weekdays)
    new = full if is_full else full[: min(3, len(value))]
    return _case_like(value, new)


def _render_season(value: str, date: datetime.date, lang: str = "en") -> str:
    season = _season_of(date)
    if lang != "en":
        return _case_like(value, _NAMES[lang].seasons[season])
    if season == "fall" and value.lower() == "autumn":
        season = "autumn"
    return _case_like(value, season.capitalize())


_RENDERERS: Dict[str, Callable[[str, datetime.date, str], str]] = {
    "year": _render_year,
    "ord": _render_ordinal,
    "mname": _render_month_name,
    "wday": _render_weekday,
    "season": _render_season,
}
_FULL_MONTHS = {month.lower() for month in MONTHS}
_FULL_WEEKDAYS = {day.lower() for day in WEEKDAYS}


def _case_like(template: str, value: str) -> str:
    if template.isupper() and len(template) > 1:
        return value.upper()
    if template.islower():
        return value.lower()
    return value


def _parse_year(value: str) -> int:
    digits = value.lstrip("'")
    year = int(digits)
    return 2000 + year if len(digits) == 2 else year


def _month_index(value: str, lang: str = "en") -> int:
    prefix = _fold(value)[:3]
    if lang == "es" and prefix == "set":  # "setiembre"
        return 8
    return [month[:3] for month in _folded(_NAMES[lang].months)].index(prefix)


def _weekday_index(value: str, lang: str = "en") -> int:
    prefix = _fold(value)[:3]
    return [day[:3] for day in _folded(_NAMES[lang].weekdays)].index(prefix)


def _season_name(value: str, lang: str = "en") -> str:
    if lang != "en":
        names = {_fold(name): season for season, name in _NAMES[lang].seasons.items()}
        return names[_fold(value)]
    lower = value.lower()
    return _SEASON_ALIASES.get(lower, lower)


@lru_cache(maxsize=None)
def _folded(names: Tuple[str, ...]) -> Tuple[str, ...]:
    """`_fold` of each of a fixed table of names (months, weekdays), once."""
    return tuple(_fold(name) for name in names)


def _fold(value: str) -> str:
    """Lower case without accents ("Miércoles" -> "miercoles")."""
    decomposed = unicodedata.normalize("NFD", value.lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _season_of(date: datetime.date) -> str:
    month = date.month
    if month in (12, 1, 2):
        return "winter"
    if month in (3, 4, 5):
        return "spring"
    if month in (6, 7, 8):
        return "summer"
    return "fall"
