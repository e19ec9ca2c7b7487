"""Date parsing, shifting and format-preserving re-rendering.

A DATE span is scanned for date expressions (numeric dates, month names,
weekdays, seasons, years). Each one is shifted by the patient's offset in
days and written back in the same format: separators, zero padding, 2- or
4-digit years, month-name case and abbreviation, ordinal suffixes. Text
between the expressions (e.g. "of", a comma) is kept. Parts that are missing
from the original (no year, no day) are filled from reference values and
left out again on output. `shift_date_text` returns None when nothing could
be parsed; the caller then falls back to shape replacement.
"""

import datetime
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

REFERENCE_YEAR = 2000  # a leap year, so "2/29" parses
# Extra days tried, in the shift's direction, when a coarse date ("2067",
# "March", "Spring 2067") would come out unchanged.
_BUMPS = (0, 31, 92, 366, 731)

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
]
SEASONS = ["winter", "spring", "summer", "fall"]
# A day inside each season (month, day), used as the reference date.
_SEASON_DAYS = {
    "winter": (1, 31),
    "spring": (4, 30),
    "summer": (7, 31),
    "fall": (10, 31),
}
_SEASON_ALIASES = {"autumn": "fall"}

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
_B = r"(?<![0-9A-Za-z])(?<![0-9][-/.])"
_E = r"(?![0-9A-Za-z])(?![-/.][0-9])"


@dataclass
class _Pattern:
    name: str
    regex: "re.Pattern[str]"


def _compile(name: str, body: str) -> _Pattern:
    return _Pattern(name, re.compile(_B + body + _E, re.IGNORECASE))


# Tried in order at each position; the first that parses to a valid date wins.
_PATTERNS: List[_Pattern] = [
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
    # Monday, March 14th, 2067 / Mar. 14 2067 / March 14th / Mar-14-2067
    _compile(
        "mdy_name",
        r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)(?P<s1>\s*-\s*|\s+)"
        r"(?P<day>\d{1,2})(?P<ord>" + _ORD_RE + r")?"
        r"(?:(?P<s2>\s*,\s*|\s+|\s*-\s*)(?P<year>\d{4}|'\d{2}))?",
    ),
    # 14 March 2067 / 14th of March / 14-Mar-67 / 14 MAR
    _compile(
        "dmy_name",
        r"(?P<day>\d{1,2})(?P<ord>" + _ORD_RE + r")?(?P<s1>\s+of\s+|\s*-\s*|\s+)"
        r"(?P<mname>" + _MONTH_RE + r")(?P<dot>\.?)"
        r"(?:(?P<s2>\s*,\s*|\s+|\s*-\s*)(?P<year>\d{4}|'?\d{2}))?",
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


@dataclass
class _Parsed:
    date: datetime.date
    fields: Dict[str, Tuple[int, int, str]]  # group -> (start, end, text)


def shift_date_text(text: str, shift_days: int) -> Optional[str]:
    """Shift every date expression in a DATE span and keep its format.

    text (str): The span text, e.g. "09/14/2067" or "Monday, March 14th".
    shift_days (int): The patient's date shift (non-zero).
    RETURNS (Optional[str]): The shifted text, or None if no date expression
        was found (or a parsed one could not be shifted).
    """
    pieces: List[str] = []
    found = False
    pos = 0
    last = 0
    while pos < len(text):
        match = _match_at(text, pos)
        if match is None:
            pos += 1
            continue
        pattern, regex_match, parsed = match
        new = _render_shifted(pattern, regex_match, parsed, shift_days)
        if new is None:
            return None
        pieces.append(text[last : regex_match.start()])
        pieces.append(new)
        found = True
        pos = last = regex_match.end()
    if not found:
        return None
    pieces.append(text[last:])
    return "".join(pieces)


def _match_at(text: str, pos: int) -> Optional[Tuple[_Pattern, re.Match, _Parsed]]:
    for pattern in _PATTERNS:
        match = pattern.regex.match(text, pos)
        if match is None:
            continue
        parsed = _parse(pattern, match)
        if parsed is not None:
            return pattern, match, parsed
    return None


def _parse(pattern: _Pattern, match: re.Match) -> Optional[_Parsed]:
    groups = {
        name: (match.start(name), match.end(name), value)
        for name, value in match.groupdict().items()
        if value is not None
    }
    if pattern.name == "weekday":
        # A weekday alone has no date; any date with that weekday will do.
        index = _weekday_index(groups["wday"][2])
        return _Parsed(datetime.date(2001, 1, 1 + index), groups)
    year = _parse_year(groups["year"][2]) if "year" in groups else REFERENCE_YEAR
    month, day = 7, 2
    if "month" in groups:
        month = int(groups["month"][2])
    elif "mname" in groups:
        month = _month_index(groups["mname"][2]) + 1
    elif "season" in groups:
        month, day = _SEASON_DAYS[_season_name(groups["season"][2])]
        if "year" not in groups:
            year = REFERENCE_YEAR
    if "day" in groups:
        day = int(groups["day"][2])
    elif "month" in groups or "mname" in groups:
        day = 15
    try:
        return _Parsed(datetime.date(year, month, day), groups)
    except ValueError:
        return None


def _render_shifted(
    pattern: _Pattern, match: re.Match, parsed: _Parsed, shift_days: int
) -> Optional[str]:
    original = match.group()
    sign = 1 if shift_days >= 0 else -1
    for bump in _BUMPS:
        try:
            new_date = parsed.date + datetime.timedelta(days=shift_days + sign * bump)
        except OverflowError:
            return None
        if pattern.name == "weekday":
            new_date = parsed.date + datetime.timedelta(days=shift_days % 7 or 1)
        rendered = _render(match, parsed, new_date)
        if rendered.casefold() != original.casefold():
            return rendered
    return None


def _render(match: re.Match, parsed: _Parsed, new_date: datetime.date) -> str:
    original = match.group()
    base = match.start()
    pad = _zero_padding(parsed.fields)
    out = []
    last = 0
    for name, (start, end, value) in sorted(parsed.fields.items(), key=_by_start):
        if name in ("month", "day"):
            number = new_date.month if name == "month" else new_date.day
            new = f"{number:02d}" if pad else str(number)
        elif name in _RENDERERS:
            new = _RENDERERS[name](value, new_date)
        else:
            continue
        out.append(original[last : start - base])
        out.append(new)
        last = end - base
    out.append(original[last:])
    return "".join(out)


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


def _render_year(value: str, date: datetime.date) -> str:
    digits = value.lstrip("'")
    prefix = value[: len(value) - len(digits)]
    if len(digits) == 2:
        return prefix + f"{date.year % 100:02d}"
    return prefix + f"{date.year:04d}"


def _render_ordinal(value: str, date: datetime.date) -> str:
    day = date.day
    if 11 <= day % 100 <= 13:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return suffix.upper() if value.isupper() else suffix


def _render_month_name(value: str, date: datetime.date) -> str:
    full = MONTHS[date.month - 1]
    if value.lower() in _FULL_MONTHS:
        new = full
    elif len(value) == 4 and full == "September":
        new = "Sept"
    else:
        new = full[:3]
    return _case_like(value, new)


def _render_weekday(value: str, date: datetime.date) -> str:
    full = WEEKDAYS[date.weekday()]
    new = full if value.lower() in _FULL_WEEKDAYS else full[: min(3, len(value))]
    return _case_like(value, new)


def _render_season(value: str, date: datetime.date) -> str:
    season = _season_of(date)
    if season == "fall" and value.lower() == "autumn":
        season = "autumn"
    return _case_like(value, season.capitalize())


_RENDERERS: Dict[str, Callable[[str, datetime.date], str]] = {
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


def _month_index(value: str) -> int:
    prefix = value.lower()[:3]
    return [month.lower()[:3] for month in MONTHS].index(prefix)


def _weekday_index(value: str) -> int:
    prefix = value.lower()[:3]
    return [day.lower()[:3] for day in WEEKDAYS].index(prefix)


def _season_name(value: str) -> str:
    lower = value.lower()
    return _SEASON_ALIASES.get(lower, lower)


def _season_of(date: datetime.date) -> str:
    month = date.month
    if month in (12, 1, 2):
        return "winter"
    if month in (3, 4, 5):
        return "spring"
    if month in (6, 7, 8):
        return "summer"
    return "fall"
