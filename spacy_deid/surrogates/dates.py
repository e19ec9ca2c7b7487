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

The expressions recognised are in `date_patterns`, the re-rendering in
`date_render`; this module scans, parses and shifts.
"""

import calendar
import datetime
import re
from dataclasses import dataclass
from typing import Callable, FrozenSet, Iterable, List, Optional, Set, Tuple

from spacy.tokens import Span

from ..labels import normalize_label
from .date_patterns import (
    DATE_LANGUAGES,
    DATE_NAMES,
    ES_MONTHS,
    ES_WEEKDAYS,
    HOLIDAY_RES,
    WEEKDAY_LETTERS,
    PATTERNS_BY_LANG,
    DatePattern,
    ParsedDate,
    date_language,
    fold,
    folded,
)
from .date_render import render_date, render_holiday

# Year for dates without one when nothing in the span or doc gives a year:
# not a leap year, nor are the years next to it, so no February 29 lies within
# a year's shift of it. "2/29" without a year uses LEAP_YEAR.
DEFAULT_YEAR = 2002
LEAP_YEAR = 2004
# Extra days tried, in the shift's direction, when a coarse date ("2067",
# "March", "Spring 2067") would come out unchanged.
_BUMPS = (0, 31, 92, 366, 731)
# Extra days tried, in the shift's direction and for the whole span, when a
# shifted date reads as one of the doc's original dates ("2067" shifted a year
# back reads "2066", written elsewhere in the note), or holds one as a word or
# number ("October 4" where "October" alone was a date, "3/14" where "14" was a
# bed): a shifted string must not bring an original back. A few days first,
# then one to four months for month names, then a year or two for years.
_NUDGES = (1, 2, 3, 4, 5, 6, 31, 62, 92, 123, 366, 731)
_WORDS = re.compile(r"[^\W\d_]+")
_NUMBERS = re.compile(r"\d+")
_RANGE_PARTS = re.compile(r"\s*(?:-|\u2013|\u2014|\bto\b|\bthrough\b|\bal\b|\ba\b)\s*")

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


@dataclass
class _Found:
    pattern: DatePattern
    match: "re.Match[str]"
    parsed: ParsedDate
    lenient: bool


def shift_date_text(
    text: str,
    shift_days: int,
    reference: Optional[datetime.date] = None,
    lang: str = "en",
    gap: Optional[Callable[[str], str]] = None,
    avoid: FrozenSet[str] = frozenset(),
) -> Optional[str]:
    """Shift every date expression in a DATE span and keep its format.

    text (str): The span text, e.g. "09/14/2067" or "Monday, March 14th".
    shift_days (int): The patient's date shift (non-zero).
    reference (Optional[datetime.date]): A date near this one (e.g. the
        nearest dated mention in the doc), used to pick the year of dates
        written without one.
    lang (str): The date language ("en", "es"; see `date_language`).
    gap (Optional[Callable[[str], str]]): What the text between and around the
        date expressions becomes (default: kept as it is). A span may hold
        more than a date ("okoro 3/4" of a bed list).
    avoid (FrozenSet[str]): The doc's original date strings (`date_strings`):
        when a shifted date reads as one of them or holds one as a word or
        number, the span is moved a few days (then one to four months, then a
        year or two) further in the shift's direction, so that no
        original date string comes back; if every try reads as one, the
        plain shift.
    RETURNS (Optional[str]): The shifted text, or None if no date expression
        was found (or a parsed one could not be shifted).
    """
    found = _scan(text, date_language(lang))
    if not found:
        return None
    items = _with_years(found, reference)
    if items is None:
        return None
    sign = 1 if shift_days >= 0 else -1
    dates = _render_all(items, shift_days)
    if dates is None:
        return None
    for extra in _NUDGES if avoid and _reads_as_any(items, dates, avoid) else ():
        nudged = _render_all(items, shift_days + sign * extra)
        if nudged is not None and not _reads_as_any(items, nudged, avoid):
            dates = nudged
            break
    gaps = [
        text[a.match.end() : b.match.start()]
        for a, b in zip(items, items[1:], strict=False)
    ]
    gaps = [text[: items[0].match.start()], *gaps, text[items[-1].match.end() :]]
    # The gaps are filled once every date could be shifted.
    fill = gap or (lambda part: part)
    return "".join(
        fill(part) + date for part, date in zip(gaps, [*dates, ""], strict=True)
    )


def _with_years(
    found: List[_Found], reference: Optional[datetime.date]
) -> Optional[List[_Found]]:
    """The expressions, those without a year parsed again in the year of the
    nearest one that has one (before it, else after it), else `reference`."""
    anchors = [(i, f.parsed.date) for i, f in enumerate(found) if f.parsed.has_year]
    items: List[_Found] = []
    for i, item in enumerate(found):
        if not item.parsed.has_year and item.pattern.name != "weekday":
            before = [date for j, date in anchors if j < i]
            after = [date for j, date in anchors if j > i]
            ref = before[-1] if before else (after[0] if after else reference)
            reparsed = _parse(item.pattern, item.match, ref, item.lenient)
            if reparsed is None:
                return None
            item = _Found(item.pattern, item.match, reparsed, item.lenient)
        items.append(item)
    return items


def _render_all(items: List[_Found], shift_days: int) -> Optional[List[str]]:
    """Each expression shifted, or None if one could not be."""
    dates = []
    for item in items:
        new = _render_shifted(item.pattern, item.match, item.parsed, shift_days)
        if new is None:
            return None
        dates.append(new)
    return dates


def _reads_as_any(items: List[_Found], dates: List[str], avoid: FrozenSet[str]) -> bool:
    """Whether a shifted expression reads as one of the `avoid` strings or
    holds one as a word or a number ("October 4", "8/17/2079" where "October" and
    "2079" were dates alone, "3/14" where "14" was a bed), or a shifted range
    lost its span ("2065-2065")."""
    for item, new in zip(items, dates, strict=True):
        strings = {new.casefold()}
        if item.parsed.end is not None:
            parts = [part.casefold() for part in _RANGE_PARTS.split(new)]
            old = {part.casefold() for part in _RANGE_PARTS.split(item.match.group())}
            if len(set(parts)) < len(old):
                return True
            strings.update(parts)
        strings.update(word.casefold() for word in _WORDS.findall(new))
        strings.update(_NUMBERS.findall(new))
        if not strings.isdisjoint(avoid):
            return True
    return False


def date_strings(texts: Iterable[str], lang: str = "en") -> FrozenSet[str]:
    """The date strings of some DATE spans' texts, lower case: each date
    expression, each end of a range ("2066" and "2067" of "2066-2067") and
    each weekday name (of a weekday alone or before a date).

    texts (Iterable[str]): The spans' texts.
    lang (str): The date language ("en", "es").
    RETURNS (FrozenSet[str]): The strings.
    """
    found: Set[str] = set()
    for text in texts:
        for item in _scan(text, date_language(lang)):
            found.update(_strings_of(item.match.group(), item.parsed))
    return frozenset(found)


def _strings_of(expression: str, parsed: ParsedDate) -> Set[str]:
    """An expression, the ends of a range and a weekday name, lower case."""
    strings = {expression.casefold()}
    if parsed.end is not None:
        strings.update(part.casefold() for part in _RANGE_PARTS.split(expression))
    if "wday" in parsed.fields:
        strings.add(parsed.fields["wday"][2].casefold())
    strings.discard("")
    return strings


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
    for pattern in PATTERNS_BY_LANG[lang]:
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
    pattern: DatePattern,
    match: "re.Match[str]",
    reference: Optional[datetime.date],
    lenient: bool = False,
) -> Optional[ParsedDate]:
    groups = {
        name: (match.start(name), match.end(name), value)
        for name, value in match.groupdict().items()
        if value is not None
    }
    if pattern.name == "weekday":
        # A weekday alone has no date; any date with that weekday will do.
        index = _weekday_index(groups["wday"][2], pattern.lang)
        return ParsedDate(datetime.date(2001, 1, 1 + index), groups)
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
        return ParsedDate(date, groups, has_year)
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
    return ParsedDate(date, groups, has_year and "year" in groups, end)


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
    for regex, rule in HOLIDAY_RES:
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
    pattern: DatePattern, match: "re.Match[str]", parsed: ParsedDate, shift_days: int
) -> Optional[str]:
    original = match.group().casefold()
    sign = 1 if shift_days >= 0 else -1
    for bump in _BUMPS:
        try:
            rendered = _render_at(pattern, match, parsed, shift_days + sign * bump)
        except OverflowError:
            return None
        if pattern.name == "holiday" or rendered.casefold() != original:
            return rendered
    return None


def _render_at(
    pattern: DatePattern, match: "re.Match[str]", parsed: ParsedDate, days: int
) -> str:
    """The date expression moved by `days` (a weekday by `days` mod 7)."""
    delta = datetime.timedelta(days=days)
    new_date = parsed.date + delta
    new_end = parsed.end + delta if parsed.end is not None else None
    if pattern.name == "weekday":
        new_date = parsed.date + datetime.timedelta(days=days % 7 or 1)
    if pattern.name == "holiday":
        return render_holiday(match, parsed, new_date)
    return render_date(match, parsed, new_date, new_end, pattern.lang)


def _parse_year(value: str) -> int:
    digits = value.lstrip("'")
    year = int(digits)
    return 2000 + year if len(digits) == 2 else year


def _month_index(value: str, lang: str = "en") -> int:
    prefix = fold(value)[:3]
    if lang == "es" and prefix == "set":  # "setiembre"
        return 8
    return [month[:3] for month in folded(DATE_NAMES[lang].months)].index(prefix)


def _weekday_index(value: str, lang: str = "en") -> int:
    folded_value = fold(value)
    if lang == "en" and folded_value in WEEKDAY_LETTERS:
        return WEEKDAY_LETTERS[folded_value]
    prefix = folded_value[:3]
    return [day[:3] for day in folded(DATE_NAMES[lang].weekdays)].index(prefix)


def _season_name(value: str, lang: str = "en") -> str:
    if lang != "en":
        names = {
            fold(name): season for season, name in DATE_NAMES[lang].seasons.items()
        }
        return names[fold(value)]
    lower = value.lower()
    return _SEASON_ALIASES.get(lower, lower)


__all__ = [
    "date_references",
    "DATE_LANGUAGES", "DEFAULT_YEAR", "ES_MONTHS", "ES_WEEKDAYS", "LEAP_YEAR",
    "date_language", "date_strings", "find_anchor", "shift_date_text",
]  # fmt: skip


def date_references(
    spans: List[Span],
    labels: Optional[List[Optional[str]]] = None,
    lang: str = "en",
) -> List[Optional[datetime.date]]:
    """For each span, the reference date for DATE spans written without a
    year: the date of the nearest preceding DATE span that has a year, else
    the nearest following one, else None.

    spans (List[Span]): The regions' spans, in doc order.
    labels (Optional[List[Optional[str]]]): The spans' surrogate labels
        (after `label_map`); None: their own labels.
    lang (str): The date language ("en", "es").
    RETURNS (List[Optional[datetime.date]]): One reference per span.
    """
    if labels is None:
        labels = [span.label_ for span in spans]
    anchors: List[Optional[datetime.date]] = [
        find_anchor(span.text, lang)
        if label is not None and normalize_label(label) == "DATE"
        else None
        for span, label in zip(spans, labels, strict=True)
    ]
    references: List[Optional[datetime.date]] = []
    previous: Optional[datetime.date] = None
    for anchor in anchors:
        references.append(previous)
        if anchor is not None:
            previous = anchor
    following: Optional[datetime.date] = None
    for i in range(len(anchors) - 1, -1, -1):
        if references[i] is None:
            references[i] = following
        if anchors[i] is not None:
            following = anchors[i]
    return references
