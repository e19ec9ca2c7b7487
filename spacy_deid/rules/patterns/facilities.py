"""HOSPITAL patterns: facility names ending in a head word, and well-known
hospital abbreviations after a cue.

`Mercy General Hospital`, `St. Mary's Medical Center`, `Children's Hospital of
Philadelphia`, `seen at Atrium Health`, `transferred from BWH`, `MGH ED`,
`Destination: BRMC` (a hospital-like acronym after a transfer cue); in
lower-case sign-out shorthand after a transfer cue, `dispo to norbu manor`,
`icu at brennerton` (`lower_facility` wants a place, a name or an uncommon
word among the name words).
The span includes the head word. A name made only of generic or specialty
words ("General Hospital", "Cardiology Clinic", "Mental Health") is rejected
by the `facility_name` validator: those are departments or common nouns, and
the ruler emits no DEPARTMENT (left to a statistical model).
"""

import re
from typing import List

from ..lexicons.facilities import (
    FACILITY_HEADS,
    FACILITY_STOP_WORDS,
    HOSPITAL_ABBR_FOLLOWERS,
    HOSPITAL_ABBRS,
    LOWER_FACILITY_HEADS,
    WEAK_FACILITY_HEADS,
)
from ._common import END, LOWER_NAME, PRIO_FACILITY, alternation, make_pattern
from ._common import title_and_upper
from ._common import word_trie

_STOP = r"(?!" + word_trie(title_and_upper(FACILITY_STOP_WORDS)) + r"(?![\w'\u2019]))"
# One capitalised name word: Mercy, St., Mary's, O'Connor, McLean, Dana-Farber,
# WOMEN'S, UCSF.
_WORD = (
    _STOP
    + r"(?:St\.|ST\.|Ste\.|Mt\.|Ft\.|(?:[A-Z]['\u2019])?[A-Z][a-z]+(?:[A-Z][a-z]+)*"
    r"(?:['\u2019]s)?(?:-[A-Z][a-z]+)*|[A-Z]{2,}(?:['\u2019]S)?(?:-[A-Z]{2,})*)"
    r"(?![\w'\u2019\-])"
)
# Words of one name stand one or two spaces apart; a tab or a wider gap is a
# table's column gap between two cells ("Ana Ruiz        Hospice").
_SP = r"[ ]{1,2}"
_CONN = r"(?:" + _SP + r"(?:and|&|AND|de|del|la))"
# "of" only after University/College ("University of Colorado Hospital"), so
# that "Dr. Mack of Mayo Clinic" gives "Mayo Clinic".
_UNIT = (
    r"(?:(?:University|College|Institute|UNIVERSITY|COLLEGE|INSTITUTE)[ \t]+"
    r"(?:of|OF)[ \t]+(?:(?:the|THE)[ \t]+)?)?"
) + _WORD
# 1-5 name words, with connectors between them.
_NAME = _UNIT + r"(?:" + _CONN + r"?" + _SP + _UNIT + r"){0,4}"
_END = r"(?![\w'\u2019\-])"
_HEAD = alternation(title_and_upper(FACILITY_HEADS)) + _END
_WEAK_HEAD = alternation(title_and_upper(WEAK_FACILITY_HEADS)) + _END
# "Hospital of the University of Pennsylvania", "Hospital of Saint Raphael".
_PLACE = r"(?:[ \t]+of[ \t]+(?:the[ \t]+)?(?P<place>" + _UNIT + r"(?:" + _CONN
_PLACE += r"?[ \t]+" + _UNIT + r"){0,3}))?"
_START = r"(?<![\w'\u2019\-.])(?=[A-Z])"
# Words after a head that make it a common noun: "Hospital course", "Clinic
# visit" (for generic names), "Hospital-acquired".
_NOT_AFTER = r"^(?:-|[ \t]+(?i:course|stay|day|days|acquired|admission|policy)\b)"
_CUE = (
    r"(?i:\b(?:(?:at|from|to|via|with|by|into)[ \t]*:?|destination|facility"
    r"|hospital|receiving|accepting)[ \t]*(?::[ \t]*)?(?:the[ \t]+)?)" + END
)
# Hospital-like acronyms: "BRMC", "FGH", "SDHC", "FSNF" (regional medical
# center, general hospital, ...); generic kinds of facility are left out.
_ACRONYM = r"[A-Z]{1,4}(?:MC|GH|MH|CH|HC|SNF|NH)"
_NOT_ACRONYM = r"(?:VAMC|CMHC|CMH|FQHC|RHC|PCMH|UCC|CHC|DCH|ECH|LTCH|ALFNH)"
_ABBR = alternation(re.escape(abbr) for abbr in HOSPITAL_ABBRS)
# Lower-case facilities in sign-out shorthand ("dispo to norbu manor", "icu at
# brennerton"): after a transfer cue only, with the heads such notes use.
_LOWER_CUE = (
    r"(?i:\b(?:icu|intubated|admitted|was)[ \t]+at|\b(?:transferred|tx|came)"
    r"[ \t]+from|\b(?:dispo|d/c|back)[ \t]+to)[ \t]+"
)
_LOWER_HEAD = alternation(LOWER_FACILITY_HEADS)
# "general surgery", "house staff", "memorial service": no facility.
_NOT_AFTER_LOWER_HEAD = (
    r"(?![ \t]+(?:surgery|medicine|floor|ward|service|services|day|officer"
    r"|staff|call|calls|practitioner|pediatrics)\b)"
)


def _hosp(id: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_FACILITY)
    return make_pattern(id, "HOSPITAL", regex, **kwargs)


PATTERNS: List[dict] = [
    # Mercy General Hospital / St. Mary's Medical Center / Mayo Clinic /
    # Children's Hospital of Philadelphia / MERCY GENERAL HOSPITAL
    _hosp(
        "hospital.name",
        _START + r"(?P<phi>(?:(?P<name>" + _NAME + r")" + _SP + r")?" + _HEAD + _PLACE + r")",
        validator="facility_name",
        exclude_after=_NOT_AFTER,
        score=0.85,
    ),
    # seen at Atrium Health / from Springfield Memorial: heads that are also
    # ordinary words need a place cue.
    _hosp(
        "hospital.name_cued",
        _START + r"(?P<phi>(?P<name>" + _NAME + r")" + _SP + _WEAK_HEAD + r")",
        validator="facility_name",
        require_before=_CUE,
        exclude_after=r"^[ \t]+(?:Day|Weekend|Fund|Service|Park)\b",
        score=0.75,
    ),
    # at MGH / transferred from BWH / to the UCSF
    _hosp(
        "hospital.abbr_cued",
        r"(?<![\w\-+])(?P<phi>" + _ABBR + r")(?![\w\-+])",
        require_before=_CUE,
        score=0.8,
    ),
    # transferred from BRMC / Destination: SDHC / discharged to FSNF
    _hosp(
        "hospital.acronym_cued",
        r"(?<![\w\-+])(?!" + _NOT_ACRONYM + r"\b)(?P<phi>" + _ACRONYM + r")(?![\w\-+])",
        require_before=_CUE,
        score=0.7,
    ),
    # dispo to norbu manor / d/c to bacliff nursing home / icu at brennerton
    _hosp(
        "hospital.lower_cued",
        _LOWER_CUE
        + r"(?P<phi>"
        + LOWER_NAME
        + r"(?:[ \t]+(?P<head>"
        + _LOWER_HEAD
        + r")(?![\w\-])"
        + _NOT_AFTER_LOWER_HEAD
        + r"|(?![\w\-])(?![ \t]+[a-z])))",
        validator="lower_facility",
        score=0.7,
    ),
    # MGH ED / BWH records / UCSF Cardiology
    _hosp(
        "hospital.abbr_unit",
        r"(?<![\w\-+])(?P<phi>"
        + _ABBR
        + r")[ \t]+"
        + alternation(HOSPITAL_ABBR_FOLLOWERS)
        + r"\b",
        score=0.8,
    ),
]
