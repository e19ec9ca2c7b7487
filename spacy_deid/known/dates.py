"""Variants of a known date (DATE), e.g. a birth date.

The known text is parsed (`parse_date`): ISO "1950-03-07", US "03/07/1950",
European "07.03.1950" (an ambiguous numeric date such as "03/07/1950" is
read both ways), "19500307", "7 March 1950", "March 7th, 1950", "7 de marzo
de 1950", "07-Mar-50", "March 1950", "March 7"; 2-digit years stand for
19yy and 20yy. The date is then matched in every common form:

- numeric: m/d/y, d/m/y and y-m-d with "/", "-" or ".", with or without
  zero padding, 2- or 4-digit years; YYYYMMDD; m/yyyy;
- month names (English and Spanish, full or abbreviated, with or without a
  period): "March 7, 1950", "Mar 7 1950", "Mar-07-50", "7 March 1950",
  "7th of March, 1950", "7 de marzo de 1950", "07-MAR-1950", "07MAR50";
- partial: "March 7" / "7 March" (the day without the year) and
  "March 1950" (month and year).

Text that is not a date is matched exactly.
"""

import datetime
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from ..text.datenames import MONTHS
from ..surrogates.dates import ES_MONTHS
from .common import DIGIT, END_DIGIT, END_WORD, NUMBER, Variant, alternatives, by_prefix
from .common import fold, literal, word_regex


@dataclass(frozen=True)
class DateParts:
    """A parsed date; a missing part is None / empty. `years` holds the
    4-digit years that the written year may stand for."""

    day: Optional[int]
    month: Optional[int]
    years: Tuple[int, ...] = ()


_NUMERIC_DATE = re.compile(r"^(\d{1,4})\s*([-/.])\s*(\d{1,2})\s*\2\s*(\d{1,4})$")
_COMPACT_DATE = re.compile(r"^((?:1[89]|2[01])\d\d)([01]\d)([0-3]\d)$")
_DATE_WORD = re.compile(r"[^\W\d_]+\.?|'?\d+")
_FILLER = frozenset(
    "of de del the on el st nd rd th º ° ª".split()
    + "monday tuesday wednesday thursday friday saturday sunday".split()
    + "mon tue tues wed thu thur thurs fri sat sun".split()
    + "lunes martes miercoles jueves viernes sabado domingo".split()
)
_SEP = r"\s?[-/.]\s?"
_ORDINALS = ["st", "nd", "rd", "th", "º", "°", "ª"]
# A leap year, to accept "February 29" written without a year.
_LEAP_YEAR = 2004


@lru_cache(maxsize=1)
def month_names() -> Dict[str, int]:
    """Folded month name or abbreviation (English and Spanish) -> month."""
    table: Dict[str, int] = {}
    for names in (MONTHS, ES_MONTHS):
        for number, name in enumerate(names, 1):
            key = fold(name)
            table[key] = number
            table[key[:3]] = number
    table.update({"sept": 9, "setiembre": 9, "set": 9})
    return table


def _valid(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def _years(digits: str) -> Tuple[int, ...]:
    """The 4-digit years a written year may stand for ("50": 1950, 2050)."""
    digits = digits.lstrip("'")
    if len(digits) == 4:
        return (int(digits),)
    if len(digits) == 2:
        return (1900 + int(digits), 2000 + int(digits))
    return ()


def _numeric_dates(text: str) -> List[DateParts]:
    """Parse y-m-d, m/d/y and d/m/y (both when ambiguous), YYYYMMDD."""
    compact = _COMPACT_DATE.match(text)
    if compact:
        year, month, day = (int(group) for group in compact.groups())
        return [DateParts(day, month, (year,))] if _valid(year, month, day) else []
    match = _NUMERIC_DATE.match(text)
    if match is None:
        return []
    a, _, b, c = match.groups()
    if len(a) == 4:
        readings = [(int(c), int(b), (int(a),))]
    elif len(a) <= 2 and len(c) in (2, 4):
        readings = [(int(b), int(a), _years(c)), (int(a), int(b), _years(c))]
    else:
        return []
    found = []
    for day, month, years in readings:
        valid = tuple(year for year in years if _valid(year, month, day))
        if valid:
            found.append(DateParts(day, month, valid))
    return list(dict.fromkeys(found))


def _named_date(text: str) -> Optional[DateParts]:
    """Parse a date with a month name ("7 March 1950", "March 7th, 1950",
    "7 de marzo de 1950", "07-Mar-50", "March 1950", "March 7")."""
    month: Optional[int] = None
    numbers: List[str] = []
    for word in _DATE_WORD.findall(text):
        key = fold(word).rstrip(".")
        if key[:1].isdigit() or key.startswith("'"):
            numbers.append(key)
        elif month is None and key in month_names():
            month = month_names()[key]
        elif key not in _FILLER:
            return None
    if month is None or not 1 <= len(numbers) <= 2:
        return None
    return _day_and_year(month, numbers)


def _day_and_year(month: int, numbers: List[str]) -> Optional[DateParts]:
    """Day and year of a named date from its numbers: a 4-digit or "'50"
    number is the year; of two short numbers the first is the day."""
    years = [n for n in numbers if len(n) == 4 or n.startswith("'")]
    days = [n for n in numbers if n not in years]
    if len(numbers) == 2 and not years and len(days[1]) == 2:
        years, days = [days[1]], [days[0]]
    if len(days) > 1 or len(years) > 1 or any(len(day) > 2 for day in days):
        return None
    day = int(days[0]) if days else None
    options = _years(years[0]) if years else ()
    if years and not options:
        return None
    if day is not None:
        if not any(_valid(year, month, day) for year in options or (_LEAP_YEAR,)):
            return None
        options = tuple(year for year in options if _valid(year, month, day))
    return DateParts(day, month, options)


def parse_date(text: str) -> List[DateParts]:
    """Parse a known date written in any common format.

    text (str): E.g. "1950-03-07", "03/07/1950", "7 March 1950",
        "March 7, 1950", "7 de marzo de 1950", "19500307".
    RETURNS (List[DateParts]): The readings (two for an ambiguous numeric
        date such as "03/07/1950"), or [] if it is not a date.
    """
    text = text.strip()
    return _numeric_dates(text) or [d for d in [_named_date(text)] if d is not None]


def _forms(value: int) -> List[str]:
    """A day or month number with and without zero padding."""
    return [f"0{value}", str(value)] if value < 10 else [str(value)]


def _number(value: int) -> str:
    return f"0?{value}" if value < 10 else str(value)


def _year(years: Tuple[int, ...], short: bool) -> str:
    """The year: 4 digits, "'50", and with `short` also "50"."""
    yy = f"{years[0] % 100:02d}"
    centuries = "|".join(dict.fromkeys(str(year // 100) for year in years))
    century = f"(?:{centuries})" + ("?" if short else "")
    return f"(?:{century}{yy}|'{yy})"


def _month_heads(month: int) -> List[str]:
    """Every English and Spanish name and abbreviation of a month."""
    return [name for name, number in month_names().items() if number == month]


def numeric_date_variants(parts: DateParts) -> List[Variant]:
    """m/d/y, d/m/y and y-m-d with any of "/-.", YYYYMMDD, m/yyyy.

    parts (DateParts): The parsed date.
    RETURNS (List[Variant]): The variants.
    """
    if parts.month is None or not parts.years:
        return []
    found: List[Variant] = []
    year = _year(parts.years, short=True)
    month = _number(parts.month)
    if parts.day is not None:
        day = _number(parts.day)
        tail = END_DIGIT
        for head in _forms(parts.month):
            found.append(Variant(head, f"{_SEP}{day}{_SEP}{year}{tail}", NUMBER))
        for head in _forms(parts.day):
            found.append(Variant(head, f"{_SEP}{month}{_SEP}{year}{tail}", NUMBER))
        for full in parts.years:
            found.append(Variant(str(full), f"{_SEP}{month}{_SEP}{day}{tail}", NUMBER))
            compact = f"{full}{parts.month:02d}{parts.day:02d}"
            found.append(Variant(compact, tail, NUMBER))
    fulls = "|".join(str(full) for full in parts.years)
    for head in _forms(parts.month):
        found.append(Variant(head, f"\\s?/\\s?(?:{fulls}){END_DIGIT}", NUMBER))
    return found


def named_date_variants(parts: DateParts) -> List[Variant]:
    """Dates with month names, with or without the day or the year.

    parts (DateParts): The parsed date.
    RETURNS (List[Variant]): The variants.
    """
    if parts.month is None:
        return []
    heads = _month_heads(parts.month)
    months = alternatives(heads) + r"\.?"
    of = rf"(?:\s+{word_regex('of')}\s+|\s+{word_regex('de')}\s+|\s+)"
    found: List[Variant] = []
    if parts.day is not None:
        day = _number(parts.day) + alternatives(_ORDINALS) + "?"
        day_heads = _forms(parts.day)
        if parts.years:
            full, short = _year(parts.years, False), _year(parts.years, True)
            de = rf"(?:\s*,\s*|\s+{word_regex('de')}l?\s+|\s+)"
            for head, rest in by_prefix(heads):  # March 7, 1950 / Mar-07-50
                found.append(Variant(head, rf"{rest}\.?\s+{day}{de}{full}{END_WORD}"))
                found.append(
                    Variant(head, rf"{rest}\.?\s*-\s*{day}\s*-\s*{short}{END_WORD}")
                )
            for head in day_heads:  # 7 March 1950 / 07-Mar-50 / 07MAR1950
                tail = alternatives(_ORDINALS) + "?"
                found.append(
                    Variant(head, rf"{tail}{of}{months}{de}{full}{END_WORD}", DIGIT)
                )
                found.append(
                    Variant(head, rf"\s*-?\s*{months}\s*-?\s*{short}{END_WORD}", DIGIT)
                )
        for head, rest in by_prefix(heads):  # March 7
            found.append(Variant(head, rf"{rest}\.?\s+{day}{END_WORD}"))
        for head in day_heads:  # 7 March, 7th of March, 7 de marzo
            tail = alternatives(_ORDINALS) + "?"
            found.append(Variant(head, rf"{tail}{of}{months}{END_WORD}", DIGIT))
    if parts.years:
        full = _year(parts.years, False)
        sep = rf"(?:\s+{word_regex('of')}\s+|\s+{word_regex('de')}l?\s+|\s*,\s*|\s+|\s*-\s*)"
        for head, rest in by_prefix(heads):  # March 1950, marzo de 1950
            found.append(Variant(head, rf"{rest}\.?{sep}{full}{END_WORD}"))
    return found


def date_variants(text: str) -> List[Variant]:
    """All variants of a known date; the exact text if it is not a date.

    text (str): The date as recorded, in any common format.
    RETURNS (List[Variant]): The variants.
    """
    found = [literal(text)]
    for parts in parse_date(text):
        found += numeric_date_variants(parts) + named_date_variants(parts)
    return found
