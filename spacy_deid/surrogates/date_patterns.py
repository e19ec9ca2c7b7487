"""The date expressions `dates` recognises, per date language: regex patterns
(numeric dates, month and weekday names, seasons, years, holidays), the
languages' month, weekday and season names, and what parsing one gives."""

import datetime
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from ..text.datenames import MONTHS, WEEKDAYS

SEASONS = ["winter", "spring", "summer", "fall"]


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
HOLIDAY_RES = [(re.compile(regex, re.IGNORECASE), rule) for regex, rule in _HOLIDAYS]
_HOLIDAY_RE = "(?:" + "|".join(regex for regex, _ in _HOLIDAYS) + ")"

_MONTH_RE = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
    r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAY_RE = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|"
    r"fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
)
# Schedules name days by one or two letters: letters -> the day's index in
# `calendar.day_name` (0 is the first).
WEEKDAY_LETTERS: Dict[str, int] = {
    "m": 0, "t": 1, "tu": 1, "w": 2, "r": 3, "th": 3, "f": 4, "sa": 5, "su": 6,
}  # fmt: skip
_SEASON_RE = r"(?:spring|summer|fall|autumn|winter)"
_ORD_RE = r"(?:st|nd|rd|th)"
# Boundaries: no letter or digit, and no "<digit><sep>" / "<sep><digit>", so
# that a part of an invalid date like "02/30/2067" is not taken as a date.
# A numeric range ("9/14-9/16/2067") may join two dates with a bare hyphen.
_B = r"(?<![0-9A-Za-z])(?:(?<![0-9][-/.])|(?<=[0-9]-)(?=\d{1,2}/\d))"
_E = r"(?![0-9A-Za-z])(?:(?![-/.][0-9])|(?=-\d{1,2}/\d))"
_BW = r"(?<![0-9A-Za-z])"


@dataclass
class DatePattern:
    name: str
    regex: "re.Pattern[str]"
    lang: str = "en"


def _compile(name: str, body: str, lang: str = "en") -> DatePattern:
    # Expressions starting with a word ("October 2" in "September 29-October
    # 2") only need a word boundary before them.
    start = _B if body.startswith(("(?P<year>", "(?P<month>", "(?P<day>")) else _BW
    return DatePattern(name, re.compile(start + body + _E, re.IGNORECASE), lang)


# Tried in order at each position; the first that parses to a valid date wins.
_PATTERNS: List[DatePattern] = [
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
    # A day of a schedule by its letters ("M" of "HD M/W/F"), tried last.
    _compile(
        "weekday",
        r"(?P<wday>" + "|".join(sorted(WEEKDAY_LETTERS, key=len, reverse=True)) + r")",
    ),
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
_ES_PATTERNS: List[DatePattern] = [
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
PATTERNS_BY_LANG: Dict[str, List[DatePattern]] = {"en": _PATTERNS, "es": _ES_PATTERNS}
DATE_LANGUAGES: Tuple[str, ...] = tuple(PATTERNS_BY_LANG)


@dataclass(frozen=True)
class DateNames:
    """Month, weekday and season names of a date language."""

    months: Tuple[str, ...]
    weekdays: Tuple[str, ...]
    seasons: Dict[str, str]  # "winter", "spring", "summer", "fall" -> name


# Words a date is written with: in a date span, what is not a date expression
# (all of it when nothing can be read) keeps these and loses every other word
# and digit to shape replacement, since such text is often not a date at all
# ("okoro/75" of a bed list, an ID, a name the tagger joined to a date).
_DATE_WORD_RES = {
    "en": re.compile(
        rf"(?i:{_MONTH_RE}|{_WEEKDAY_RE}|{_SEASON_RE}|{_ORD_RE}|of|the|and|to"
        r"|weds|days?|weeks?|months?|years?|wks?|mos?|yrs?|am|pm|early|mid|late|end)"
    ),
    "es": re.compile(
        rf"(?i:{_ES_MONTH_RE}|{_ES_WEEKDAY_RE}|{_ES_SEASON_RE}|de|del|el|y|al"
        r"|d[ií]as?|semanas?|mes(?:es)?|a[ñn]os?|principios|mediados|finales)"
    ),
}


def is_date_word(word: str, lang: str) -> bool:
    """Whether a word (a run of letters) is a month, weekday or season name,
    an ordinal suffix or a linking word of dates in a date language.

    word (str): The word.
    lang (str): A code from DATE_LANGUAGES.
    RETURNS (bool): True for such a word.
    """
    return _DATE_WORD_RES[lang].fullmatch(word) is not None


DATE_NAMES: Dict[str, DateNames] = {
    "en": DateNames(
        MONTHS,
        WEEKDAYS,
        {season: season.capitalize() for season in SEASONS},
    ),
    "es": DateNames(
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
    return code if code in PATTERNS_BY_LANG else "en"


@dataclass
class ParsedDate:
    date: datetime.date
    fields: Dict[str, Tuple[int, int, str]]  # group -> (start, end, text)
    has_year: bool = False
    end: Optional[datetime.date] = None  # the last day of a range


@lru_cache(maxsize=None)
def folded(names: Tuple[str, ...]) -> Tuple[str, ...]:
    """`fold` of each of a fixed table of names (months, weekdays), once."""
    return tuple(fold(name) for name in names)


def fold(value: str) -> str:
    """Lower case without accents ("Miércoles" -> "miercoles")."""
    decomposed = unicodedata.normalize("NFD", value.lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))
