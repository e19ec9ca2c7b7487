"""DATE patterns for Spanish notes (MEDDOCAN conventions), family "dates_es".

Not among the default (English) families: select it with
`families = ["dates_es", ...]` in "spacy_deid.phi_patterns.v1". With
`label_map = "i2b22meddocan"` in `phi_rules` the spans become FECHAS.

What the span covers follows MEDDOCAN's train split: the date itself, without
the preposition or article before it ("el 3 de mayo de 2005" ->
"3 de mayo de 2005", "a finales de 2009" -> "2009"), but with "año" ("en el
año 2000" -> "año 2000", "enero del año 2005"). Month names and abbreviations
match in any case ("Mayo", "MAYO"), as whole words ("la mayoría" never
matches).

Decisions:
- Numeric dates are day first ("16/09/03", "22-7-04", "4/09/2006",
  "16.09.03"); a date that is only valid month first ("05/13/2006") is tagged
  too, but only with a 4-digit year. As in the English family, a date with a
  4-digit year whose day or month is impossible but plausible (1-31:
  "31/02/2006") is tagged and flagged `INVALID_DATE` (fail closed); short or
  implausible shapes ("32-13-04", "31-02-04") are not.
- A month name alone is tagged only after "mes de" ("el mes de abril"): in
  train other bare month names ("en agosto de ese mismo año") are as often
  untagged as tagged. Abbreviations ("sep", "OCT", "mar") never stand alone:
  they need a year ("sep-04", "12-oct-2005"); with a space before a 4-digit
  year they must not be all capitals ("OCT 2000" is an ophthalmic scanner).
- A bare 4-digit year (1900-2199) needs a cue before it: "en 2003", "desde
  1980 a 1983", "(1964)", "a finales de 2009"; every such year in train is
  tagged, while years after an address ("Avenida de Italia 1460, 2000,") are
  postal codes and are not cued.
- "3 de mayo" and "mayo 14" after a street or hospital word ("Calle 2 de
  Mayo", "Hospital 12 de Octubre") are names, not dates.
- Month validity: the shared `calendar_date*` validators know the month
  names whose first three letters are English ("feb", "mar", "may", "jun",
  "jul", "sep", "oct", "nov"); for "enero", "abril", "agosto", "diciembre"
  and "setiembre" they check the day is 1-31 only, so "31 de abril de 2005"
  is tagged but not flagged.
"""

from typing import List

from ._common import END, NL, PRIO_DATE, alternation, make_pattern

MONTHS_ES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio",
             "agosto", "septiembre", "setiembre", "octubre", "noviembre",
             "diciembre"]  # fmt: skip
MONTH_ABBRS_ES = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep",
                  "sept", "set", "oct", "nov", "dic"]  # fmt: skip

_W = r"[\wáéíóúüñ]"  # a word character
_NOT_W = r"(?!\w)"
_FULL = alternation(MONTHS_ES, ignore_case=True)
_ABBR = alternation(MONTH_ABBRS_ES, ignore_case=True)
# A month name, or an abbreviation with an optional ".", group `mon`.
_MON = r"(?P<mon>" + _FULL + _NOT_W + r"|" + _ABBR + _NOT_W + r"\.?)"
_MON_FULL = r"(?P<mon>" + _FULL + r")" + _NOT_W
# The same, but an abbreviation may not be all capitals ("OCT 2000").
_MON_CASED = r"(?P<mon>" + _FULL + _NOT_W + r"|(?![A-Z]{3})" + _ABBR + _NOT_W + r"\.?)"
_DAY = r"(?P<d>[0-3]?\d)(?:[º°]|(?i:ro))?"
_YEAR4 = r"(?P<y>\d{4})"
_YEAR2 = r"(?P<y>\d{2}|['\u2019]\d{2})"
_YEAR = r"(?P<y>\d{4}|['\u2019]?\d{2})"
_SLASH = r"[ \t]*/[ \t]*"
# Edges of a numeric date: no adjacent digits or separators.
_L = r"(?<![\w/.\-])"
_R = r"(?![\w/]|[.\-]\d)"
# " de 2005", " del 2005", " del año 2005", " 2005", ", 2005".
_DE_YEAR4 = (
    r"(?:[ \t]+(?i:del?)[ \t]+(?:(?i:año)[ \t]+)?|,?[ \t]+)"
    + _YEAR4
    + r"(?![\w/]|[.,]\d)"
)
# A numeric value followed by a unit is a dose or a measure, not a date.
_UNITS_ES = (
    r"^[ \t]*(?i:mg|mcg|µg|μg|g|gr|kg|ng|pg|ml|cc|dl|l|ui|u|meq|mmol"
    r"|mosm|mm|cm|m|mmhg|cmh2o|lpm|rpm|%|h|hs|horas?|min|minutos?|seg|días?"
    r"|dias?|semanas?|meses|años?|veces|comprimidos?|cápsulas?|gotas"
    r"|dosis|ciclos|sesiones|ampollas?|unidades|copias|células|pacientes"
    r"|casos|puntos|gramos|litros|x)" + _NOT_W
)
# Streets, squares and hospitals named after a date: "Calle 2 de Mayo",
# "Hospital Universitario 12 de Octubre", "Avda. 9 de Julio": a place word,
# then at most three capitalized name words, right before the date.
_CAP_WORD = (
    r"(?!(?:El|La|Los|Las|Lo|En|Desde|Hasta|Tras|Durante|Y|A|De|Del)\b)"
    r"[A-ZÁÉÍÓÚÑ]" + _W + r"*\.?"
)
_PLACE_BEFORE = (
    r"(?i:\b(?:hospital|universitario|clínica|centro|residencia|calle"
    r"|avenida|plaza|paseo|barrio|colonia|glorieta|puerta|parque|colegio"
    r"|instituto|escuela|universidad|estación|carretera|urbanización"
    r"|ronda|travesía|camino)\b"
    r"|\b(?:hosp|avda|av|pza|pl|ctra|urb|h)\.|\bc/)"
    r"(?:[ \t]*" + _CAP_WORD + r"){0,3}[ \t]*[\"'“«]?" + END
)
# Cues before a bare 4-digit year ("en 2003", "desde 1980 a 1983",
# "a finales de 2009", "(1964)", "Obwegeser et al. 1964").
_YEAR_CUE = (
    r"(?:(?i:\b(?:en|desde|hasta|durante|entre|hacia|tras|antes[ \t]+de"
    r"|después[ \t]+de|de|del|al|el|a|y|e|o|u|et[ \t]+al\.?))[ \t]*"
    r"|\([ \t]*)" + END
)
# A year right after a month name belongs to the month's date ("mayo de 2005").
_AFTER_MONTH = (
    r"(?:" + _FULL + r"|" + _ABBR + r"\.?)"
    r"(?:[ \t]+(?i:del?)[ \t]+(?:(?i:año)[ \t]+)?|,?[ \t]+|[\-/])" + END
)
# "entre 1000 y 2000", "de 10 a 2000": the number before the connective is
# no year, so neither is the one after it.
_NOT_YEAR_BEFORE = (
    r"(?<![\d.,])(?:\d{1,3}|(?!19|20|21)\d{4}|\d+[.,]\d+)[ \t]*"
    r"(?i:y|a|e|o|u|-|hasta|al)[ \t]*" + END
)
# A header such as "Fecha de nacimiento:" or "Fecha de ingreso:", before a
# numeric value on the same line (or the next one).
_HEADER = (
    r"(?i:\bfecha(?:[ \t]+" + _W + r"+){0,3}"
    r"|\bf\.[ \t]*(?:de[ \t]+)?(?:nacimiento|nac\.|ingreso|alta))"
    r"[ \t]*:[ \t]*(?:" + NL + r"[ \t]*)?\Z"
)


def _date(id: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_DATE)
    kwargs.setdefault("validator", "calendar_date")
    return make_pattern(id, "DATE", regex, **kwargs)


PATTERNS: List[dict] = [
    # 16/09/2003, 16-09-03, 22-7-04, 4/09/2006 (day first, one separator)
    _date(
        "date_es.dmy",
        _L + r"(?P<phi>(?P<d>\d{1,2})(?P<sep>[/\-])(?P<m>\d{1,2})(?P=sep)"
        r"(?P<y>\d{4}|\d{2}))" + _R,
        exclude_after=_UNITS_ES,
        validator="calendar_date_fail_closed",
        score=0.95,
    ),
    # 05/13/2006: month first, the day over 12 (so it is no day-first date);
    # a 4-digit year is required.
    _date(
        "date_es.mdy",
        _L
        + r"(?P<phi>(?P<m>0?[1-9]|1[0-2])(?P<sep>[/\-])(?P<d>1[3-9]|[23]\d)(?P=sep)"
        + _YEAR4
        + r")"
        + _R,
        exclude_after=_UNITS_ES,
        validator="calendar_date_fail_closed",
        score=0.85,
    ),
    # 16.09.2003, 16.09.03 (a 2-digit year only in dd.dd.yy, not in versions
    # like 1.2.10)
    _date(
        "date_es.dotted",
        _L + r"(?P<phi>(?P<a>\d{1,2})\.(?P<b>\d{1,2})\.(?P<y>\d{4}|"
        r"(?<=\d\d\.\d\d\.)\d{2}))" + _R,
        exclude_after=_UNITS_ES,
        validator="calendar_date_either",
        score=0.9,
    ),
    # "16/09 /2003", "16 / 09 / 2003": spaces around the slashes.
    _date(
        "date_es.dmy_spaced",
        _L
        + r"(?=[\d/]*[ \t])(?P<phi>(?P<d>\d{1,2})"
        + _SLASH
        + r"(?P<m>\d{1,2})"
        + _SLASH
        + _YEAR4
        + r")"
        + _R,
        validator="calendar_date_fail_closed",
        score=0.9,
    ),
    # 2005-05-03, 2005/05/03 (ISO order)
    _date(
        "date_es.ymd",
        _L + r"(?P<phi>" + _YEAR4 + r"(?P<sep>[\-/.])(?P<m>\d{1,2})(?P=sep)"
        r"(?P<d>\d{1,2}))" + _R,
        validator="calendar_date_fail_closed",
        score=0.95,
    ),
    # 3 de mayo de 2005, 3 de mayo del 2005, 3 mayo 2005, 1º de mayo de 2005
    _date(
        "date_es.day_month_year",
        r"(?<![\w/.,\-])(?P<phi>"
        + _DAY
        + r"(?:[ \t]+(?i:de)[ \t]+|[ \t]+)"
        + _MON_CASED
        + _DE_YEAR4
        + r")",
        exclude_before=_PLACE_BEFORE,
        validator="calendar_date_fail_closed",
        score=0.98,
    ),
    # 23-octubre-1972, 12-oct-2005, 3/may/05, 03.sep.2004
    _date(
        "date_es.day_month_year_sep",
        r"(?<![\w/.,\-])(?P<phi>"
        + _DAY
        + r"(?P<sep>[\-/.])"
        + _MON
        + r"(?P=sep)"
        + _YEAR
        + r")"
        + _R,
        validator="calendar_date_fail_closed",
        score=0.95,
    ),
    # mayo 15 de 2005, mayo 15, 2005 (month first, Latin American style)
    _date(
        "date_es.month_day_year",
        r"\b(?P<phi>"
        + _MON_CASED
        + r"[ \t]+"
        + _DAY
        + r"(?:[ \t]+(?i:del?)[ \t]+|,[ \t]*)"
        + _YEAR4
        + r")(?![\w/]|[.,]\d)",
        exclude_before=_PLACE_BEFORE,
        validator="calendar_date_fail_closed",
        score=0.95,
    ),
    # 3 de mayo (no year)
    _date(
        "date_es.day_month",
        r"(?<![\w/.,\-])(?P<phi>" + _DAY + r"[ \t]+(?i:de)[ \t]+" + _MON_FULL + r")",
        exclude_before=_PLACE_BEFORE,
        validator="calendar_date_fail_closed",
        score=0.9,
    ),
    # mayo de 2005, mayo del 2005, enero del año 2005, mayo 2005, Sept. 2005
    _date(
        "date_es.month_year",
        r"\b(?P<phi>" + _MON_CASED + _DE_YEAR4 + r")",
        exclude_before=_PLACE_BEFORE,
        score=0.95,
    ),
    # mayo-05, noviembre-07, sep-04, oct/2005, OCT-2005
    _date(
        "date_es.month_year_dash",
        r"(?<!\d[\-/.])\b(?P<phi>" + _MON + r"[ \t]?[\-/][ \t]?" + _YEAR + r")"
        r"(?![\w/]|[.,\-:]\d)",
        exclude_before=_PLACE_BEFORE,
        exclude_after=_UNITS_ES,
        score=0.9,
    ),
    # Junio 04, noviembre 06: a 2-digit year after a full month name.
    _date(
        "date_es.month_year2",
        r"\b(?P<phi>" + _MON_FULL + r"[ \t]+" + _YEAR2 + r")"
        r"(?![\w/]|[.,\-:]\d)",
        exclude_before=_PLACE_BEFORE,
        exclude_after=_UNITS_ES,
        score=0.85,
    ),
    # el mes de abril: the only cue after which train tags a bare month name.
    _date(
        "date_es.month_cued",
        r"\b(?i:mes)[ \t]+(?i:de)[ \t]+(?P<phi>" + _MON_FULL + r")"
        r"(?![ \t,]*(?:(?i:del?|año)[ \t]+)*\d)",
        validator=None,
        score=0.85,
    ),
    # año 2005, en el año 1989, del año 2000: the span includes "año".
    _date(
        "date_es.year_word",
        r"\b(?P<phi>(?i:año)[ \t]+" + _YEAR4 + r")(?![\w/]|[.,\-]\d)",
        exclude_after=_UNITS_ES,
        validator="bare_year",
        score=0.95,
    ),
    # A bare year after a cue: "en 2003", "desde 1980 a 1983", "(1964)".
    _date(
        "date_es.year_cued",
        r"(?<![\w/.,\-'])(?P<phi>" + _YEAR4 + r")(?![\w/]|[.,\-]\d)",
        require_before=_YEAR_CUE,
        exclude_before=r"(?:" + _NOT_YEAR_BEFORE + r"|" + _AFTER_MONTH + r")",
        exclude_after=_UNITS_ES,
        validator="bare_year",
        score=0.85,
    ),
    # A header value: "Fecha de nacimiento: 16/09/2003", also with typos
    # ("26708/2017", "15/05//2016") or a year alone. Fail closed: any run of
    # digits and date separators after the header is the date.
    _date(
        "date_es.header",
        r"(?<![\w/.\-])(?P<phi>\d(?:[\d/.\-]|[ \t](?=[/.\-])){2,}\d)(?![\w/\-])",
        require_before=_HEADER,
        context_window=50,
        validator=None,
        score=0.9,
    ),
]
