"""Writing a shifted date back in the format of the original expression:
separators, zero padding, 2- or 4-digit years, month-name case and
abbreviation, ordinal suffixes, weekdays and seasons."""

import datetime
import re
from typing import Callable, Dict, Optional, Tuple

from ..text.datenames import MONTHS, WEEKDAYS
from .date_patterns import DATE_NAMES, ParsedDate, fold, folded


def render_holiday(
    match: "re.Match[str]", parsed: ParsedDate, new_date: datetime.date
) -> str:
    """A holiday becomes a written date: "Christmas 2067" -> "August 13, 2067"."""
    name = parsed.fields["holiday"][2]
    out = _case_like(name, f"{MONTHS[new_date.month - 1]} {new_date.day}")
    if "year" in parsed.fields:
        sep = parsed.fields["s1"][2]
        sep = sep if "," in sep else ", "
        out += sep + _render_year(parsed.fields["year"][2], new_date)
    return out


def render_date(
    match: "re.Match[str]",
    parsed: ParsedDate,
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
        months = DATE_NAMES[lang].months
        full = months[date.month - 1]
        if fold(value) in folded(months):
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
    weekdays = DATE_NAMES[lang].weekdays
    full = weekdays[date.weekday()]
    is_full = fold(value) in folded(weekdays)
    new = full if is_full else full[: min(3, len(value))]
    return _case_like(value, new)


def _render_season(value: str, date: datetime.date, lang: str = "en") -> str:
    season = _season_of(date)
    if lang != "en":
        return _case_like(value, DATE_NAMES[lang].seasons[season])
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


def _season_of(date: datetime.date) -> str:
    month = date.month
    if month in (12, 1, 2):
        return "winter"
    if month in (3, 4, 5):
        return "spring"
    if month in (6, 7, 8):
        return "summer"
    return "fall"
