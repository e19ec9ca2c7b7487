"""AGE patterns for Spanish notes (MEDDOCAN conventions), family "ages_es".

Not among the default (English) families: select it with
`families = ["ages_es", ...]` in "spacy_deid.phi_patterns.v1". With
`label_map = "i2b22meddocan"` in `phi_rules` the spans become
EDAD_SUJETO_ASISTENCIA.

Unlike the English family (the number only, i2b2 style), the span is the
number with its unit, as MEDDOCAN tags it: "varón de 45 años" -> "45 años",
"lactante de 15 meses" -> "15 meses", "19 días de vida" -> "19 días",
"dos meses de edad" -> "dos meses", "3 años y 10 meses", "tres años y
medio", "Edad: 45" -> "45". "de edad" / "de vida" stay outside.

Only cued ages are tagged, because a number of years is as often a duration
("tras 20 años de seguimiento", "desde hace 3 años", "a los 2 años del
trasplante"). The cues, each precise in train:
- the "Edad:" header (capitalized: "para su edad: 43 mmHg" is no header);
- a word for the patient before "de" or a comma: "varón de 45 años", "mujer
  de 30 años", "paciente de 70 años", "niña de trece años", "lactante de 15
  meses", "Paciente mujer, 44 años". Relatives ("madre de 60 años") are left
  out: MEDDOCAN labels their ages FAMILIARES_SUJETO_ASISTENCIA;
- "gestante de 27 años" (years only: "gestante de 27 semanas" is the
  pregnancy's age);
- "de edad" or "de vida" after the age;
- "a la edad de", "edad 38 años", "tenía", "cumplió", "contaba con".
A cued age followed by a duration word ("de evolución", "de seguimiento",
"del trasplante") is not tagged. "a los N años" (an age at a past event) is
not tagged either: on train its exact precision is 0.77 (30 of 39 uses not
followed by "de"), below the family's bar.

Flags: ages over 89 get `span._.phi_flags == ["AGE_OVER_89"]` (the `age`
validator for "95 años", `age_over_89` for "noventa años" and "92 años y 3
meses"); numbers of years over 125 are rejected. Ages in months, weeks or
days are never flagged.
"""

from typing import List

from ._common import END, PRIO_AGE, alternation, make_pattern

_ONES = ["un", "uno", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete",
         "ocho", "nueve"]  # fmt: skip
_TEENS = [
    "diez", "once", "doce", "trece", "catorce", "quince", "dieciséis",
    "dieciseis", "diecisiete", "dieciocho", "diecinueve", "veinte", "veintiún",
    "veintiun", "veintiuno", "veintiuna", "veintidós", "veintidos",
    "veintitrés", "veintitres", "veinticuatro", "veinticinco", "veintiséis",
    "veintiseis", "veintisiete", "veintiocho", "veintinueve",
]  # fmt: skip
_TENS = ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta"]

_SP = r"[ \t]+"
_ONE = alternation(_ONES)
# A number word under 90 ("tres", "diecisiete", "sesenta y tres"), and one of
# 90-125 ("noventa", "noventa y dos", "cien", "ciento cinco").
_WORD_LT90 = (
    r"(?i:\b(?:"
    + "|".join(
        [
            alternation(_TENS) + r"(?:" + _SP + r"y" + _SP + _ONE + r")?",
            alternation(_TEENS),
            _ONE,
        ]
    )
    + r")\b)"
)
_WORD_GE90 = (
    r"(?i:\b(?:noventa(?:" + _SP + r"y" + _SP + _ONE + r")?|cien"
    r"|ciento" + _SP + r"(?:" + alternation(_TEENS) + r"|" + _ONE + r"))\b)"
)
_DIGITS = r"(?<![\d.,/\-])\d{1,3}"
_Y = r"(?i:años|año)(?!\w)"
_MDW = r"(?i:meses|mes|semanas|semana|días|dias|día|dia)(?!\w)"
# "y 10 meses", "y medio": the second part of a compound age.
_AND = _SP + r"y" + _SP + r"(?:(?i:medio)\b|(?:\d{1,3}|" + _WORD_LT90 + r")"
_AND += r"[ \t]*" + _MDW + r")"

# Digits and years ("45 años"): the `age` validator flags > 89, rejects > 125.
_V_YEARS = r"(?P<phi>" + _DIGITS + r"[ \t]*" + _Y + r")(?!" + _AND + r")"
# Everything else under 90 years, never flagged.
_NUM_LT90 = r"(?<![\d.,/\-])[1-8]?\d"
_UNIT = r"(?:" + _Y + r"|" + _MDW + r")"
_OPT_AND = r"(?:" + _AND + r")?"
_NUM = r"(?:" + _DIGITS + r"|" + _WORD_LT90 + r")"
_V_OTHER = (
    r"(?P<phi>"
    + "|".join(
        [
            # "3 años y 10 meses", "2 años y medio"
            _NUM_LT90 + r"[ \t]*" + _Y + _AND,
            # two ages sharing a unit, one span as in train: "a los 4 y 6
            # meses de edad"
            _NUM_LT90 + _SP + r"y" + _SP + r"[1-8]?\d[ \t]*" + _UNIT,
            # "trece años", "un año y cinco meses", "tres años y medio"
            _WORD_LT90 + r"[ \t]*" + _Y + _OPT_AND,
            # "15 meses", "19 días", "dos meses", "1 mes y 10 días"
            _NUM + r"[ \t]*" + _MDW + _OPT_AND,
        ]
    )
    + r")"
)
# Over 89 in words or as a compound: "noventa años", "92 años y 3 meses"
# ("95 años" alone is `_V_YEARS`, flagged by the `age` validator).
_V_OVER_89 = (
    r"(?P<phi>(?:"
    + _WORD_GE90
    + r"[ \t]*"
    + _Y
    + r"|(?<![\d.,/\-])(?:9\d|1[01]\d|12[0-5])[ \t]*"
    + _Y
    + r"(?="
    + _AND
    + r"))"
    + _OPT_AND
    + r")"
)
# Words for the patient before "de <age>": "varón de 45 años", "mujer, de 30
# años", "paciente varón de 70 años", "niña de raza gitana de 7 años".
_PERSON = (
    r"(?i:varón|varones|mujer|hombre|paciente|niñ[oa]|chic[oa]"
    r"|muchach[oa]|joven|adolescente|lactante|bebé|neonato|neonata"
    r"|recién[ \t]+nacid[oa]|anciano|anciana|señor|señora"
    r"|masculino|femenino|femenina|indígena"
    r"|caucásic[oa]|blanc[oa]|negr[oa]|mestiz[oa]|pretérmino|prematur[oa])"
)
# "varón de 45 años", "mujer, de 30 años", "Paciente mujer, 44 años".
_PERSON_CUE = (
    r"\b" + _PERSON + r"\b(?:" + _SP + r"de" + _SP + r"raza" + _SP
    + r"[\wáéíóúñ]+)?(?:[ \t]*,?[ \t]*(?i:de)" + _SP + r"|[ \t]*,[ \t]*)"
    + END
)  # fmt: skip
# "gestante de 27 años", but "gestante de 27 semanas" is the pregnancy's age:
# a cue for years only.
_PREGNANT_CUE = (
    r"\b(?i:gestante|embarazada|primigesta|secundigesta|multípara|nulípara"
    r"|primípara)\b[ \t]*,?[ \t]*(?i:de)" + _SP + END
)
# "Edad: 45", "a la edad de 45 años", "edad 38 años", "tenía 45 años",
# "cumplió 18 años", "contaba con 69 años". The header is capitalized: "para
# su edad: 43 mmHg" is no header.
_HEADER = r"\b(?:Edad|EDAD)[ \t]*:[ \t]*"
_OTHER_CUE = (
    r"(?:" + _HEADER + r"|\b(?i:edad)" + _SP + r"(?:(?i:de)" + _SP + r")?"
    + r"|\b(?i:tenía|cumplió|cumplía|contaba[ \t]+con)" + _SP + r")" + END
)  # fmt: skip
_CUE = r"(?:" + _PERSON_CUE + r"|" + _OTHER_CUE + r")"
_CUE_YEARS = r"(?:" + _PERSON_CUE + r"|" + _PREGNANT_CUE + r"|" + _OTHER_CUE + r")"
# Relatives: MEDDOCAN tags their ages FAMILIARES_SUJETO_ASISTENCIA ("Madre
# fallecida a los 48 años de edad", "su hermano Juan, de siete meses de edad",
# "pareja femenina de 23 años", "su mujer de 87 años").
_RELATIVE_BEFORE = (
    r"(?i:\b(?:padres?|madres?|herman[oa]s?|hij[oa]s?|t[ií][oa]s?|abuel[oa]s?"
    r"|prim[oa]s?|sobrin[oa]s?|niet[oa]s?|espos[oa]|marido|pareja|cónyuge"
    r"|suegr[oa]|cuñad[oa]|familiares?|(?:su|sus)[ \t]+(?:mujer|hombre))\b)"
    r"[^.;:\r\n]{0,40}" + END
)
# After the age: "de edad", "de vida".
_OF_AGE = r"(?=" + _SP + r"(?i:de)" + _SP + r"(?i:edad|vida)\b)"
# Durations after an otherwise cued age: "paciente de 2 años de evolución".
_DURATION_AFTER = (
    r"^[ \t]*(?:(?i:de|del)" + _SP + r"(?i:evolución|duración"
    r"|seguimiento|tratamiento|antigüedad|historia|enfermedad|diagnóstico"
    r"|la|el|su)\b|(?i:antes|después|tras|más[ \t]+tarde)\b)"
)


def _age(id: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_AGE)
    kwargs.setdefault("validator", "age")
    kwargs.setdefault("context_window", 40)
    return make_pattern(id, "AGE", regex, **kwargs)


PATTERNS: List[dict] = [
    # The header: "Edad: 45 años", "Edad: 45", "Edad: 45 a", "EDAD: 45 A."
    _age(
        "age_es.header",
        _HEADER
        + r"(?P<phi>"
        + _DIGITS
        + r"(?:[ \t]*(?:"
        + _Y
        + r"|(?i:a)(?!\w)))?)(?![\d.,]\d)",
        exclude_after=r"^[ \t]*" + _MDW,
        score=0.95,
    ),
    # "varón de 45 años", "tenía 45 años", "a la edad de 45 años"
    _age(
        "age_es.cued_years",
        _V_YEARS,
        require_before=_CUE_YEARS,
        exclude_before=_RELATIVE_BEFORE,
        exclude_after=_DURATION_AFTER,
        score=0.95,
    ),
    # "lactante de 15 meses", "niña de trece años", "Edad: 3 años y 2 meses"
    _age(
        "age_es.cued_other",
        _V_OTHER,
        require_before=_CUE,
        exclude_before=_RELATIVE_BEFORE,
        exclude_after=_DURATION_AFTER,
        validator=None,
        score=0.9,
    ),
    _age(
        "age_es.cued_over_89",
        _V_OVER_89,
        require_before=_CUE_YEARS,
        exclude_before=_RELATIVE_BEFORE,
        exclude_after=_DURATION_AFTER,
        validator="age_over_89",
        score=0.9,
    ),
    # "45 años de edad", "19 días de vida", "dos meses de edad"
    _age(
        "age_es.of_age_years",
        _V_YEARS + _OF_AGE,
        exclude_before=_RELATIVE_BEFORE,
        score=0.95,
    ),
    _age(
        "age_es.of_age_other",
        _V_OTHER + _OF_AGE,
        exclude_before=_RELATIVE_BEFORE,
        validator=None,
        score=0.9,
    ),
    _age(
        "age_es.of_age_over_89",
        _V_OVER_89 + _OF_AGE,
        exclude_before=_RELATIVE_BEFORE,
        validator="age_over_89",
        score=0.9,
    ),
]
