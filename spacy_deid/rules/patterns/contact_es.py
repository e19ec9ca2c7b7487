"""PHONE and FAX patterns for Spanish notes, family "contact_es".

Not among the default (English) families. The English "contact" family keeps
e-mails and URLs on Spanish text, but its phone shapes are North American:
Spanish numbers have 9 digits in groups of 2-3 ("963 862 700", "91 336 87 85",
"986413144", "985-27-36-14"), so they are tagged after a cue only: "Tel.:",
"Tfno.", "Telf.", "Tlf", "Teléfono", "móvil", "Fax:" (MEDDOCAN tags the number
without the cue). A number after "+34" / "0034" needs no cue.

Decisions:
- "Tel. y Fax: 961 622 403" is a PHONE (as in train), not a FAX.
- A list after one cue is tagged number by number: "Telfs.: 918823884 /
  918823984", "Tfno: 956 203 145 y 956 203 146".
- An extension belongs to the number: "986413144 ext 1530".
"""

from typing import List

from ._common import PRIO_CUED, PRIO_CUED_WEAK, PRIO_SHAPE, make_pattern

# 7 to 13 digits, single space, dot or dash between digits, after an optional
# country or area code: "+34 912 345 678", "(5982) 487-3837", "(0261) 423-4567".
_PREFIX = r"(?:(?:\+|00)[ \t]?\d{2,3}[ .\-]?|\(\+?\d{2,5}\)[ \t]?)?"
_NUMBER = _PREFIX + r"\d(?:[ .\-]?\d){6,12}"
_EXT = r"(?:[ \t]*(?i:ext\.?|extensión)[ \t]*\d{1,5})?"
_LEFT = r"(?<![\w+.\-/])"
_RIGHT = r"(?![ .\-]?\d|\w)"
_VALUE = r"(?P<phi>" + _NUMBER + _EXT + r")" + _RIGHT
# A number without its group name, to describe the list before a later one.
_ANY_NUMBER = _NUMBER + _EXT
_SEP = r"[ \t]*[:.\-#]?[ \t]*"
_PHONE_CUE = (
    r"(?:\b(?i:teléfonos?|telefonos?|tel[ée]f|telfs?|tlfn?o?s?|tfnos?|tfno"
    r"|tlf|tel|móvil|movil|celular)\b\.?"
    r"(?:[ \t]*(?i:y)[ \t]*(?i:fax)\b\.?)?"
    r"|(?i:número|numero)[ \t]+(?i:de)[ \t]+(?i:teléfono|telefono"
    r"|móvil|movil|contacto)\b)"
)
_FAX_CUE = r"(?<![A-Za-z])(?i:fax|telefax)\b\.?"
# "Tel. y Fax:" is a phone cue, so a number right after it is no fax.
_NOT_FAX = r"(?i:\btel\.?[ \t]*y[ \t]*fax\b)[^\r\n\d]{0,4}\Z"
# Between numbers of one list: "/", "y", ",", "-", "o".
_LIST_SEP = r"[ \t]*(?:/|,|-|(?i:y|o)\b)[ \t]*"


def _contact(id: str, label: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_CUED)
    return make_pattern(id, label, regex, **kwargs)


PATTERNS: List[dict] = [
    # Tel.: 963 862 700, Tfno. 848 435000, Teléfono: 925830034, móvil 618981345
    _contact(
        "phone_es.cued",
        "PHONE",
        _PHONE_CUE + r"(?:[ \t]+(?i:de[ \t]+contacto))?" + _SEP + _LEFT + _VALUE,
        priority=PRIO_CUED_WEAK,
        score=0.95,
    ),
    # The second and later numbers of a list: "Telfs.: 918823884 / 918823984".
    _contact(
        "phone_es.cued_list",
        "PHONE",
        _LEFT + _VALUE,
        require_before=_PHONE_CUE
        + _SEP
        + r"(?:"
        + _ANY_NUMBER
        + _LIST_SEP
        + r"){1,3}\Z",
        context_window=90,
        priority=PRIO_CUED_WEAK,
        score=0.9,
    ),
    # Fax: 948 296 500, Fax 848422528
    _contact(
        "fax_es.cued",
        "FAX",
        r"(?:" + _FAX_CUE + r")" + _SEP + _LEFT + _VALUE,
        exclude_before=_NOT_FAX,
        score=0.95,
    ),
    # +34 912 345 678, 0034 912345678: a Spanish number with its country code.
    _contact(
        "phone_es.intl",
        "PHONE",
        r"(?<![\w+.\-/])(?P<phi>(?:\+|00)34[ .\-]?[6-9](?:[ .\-]?\d){8}"
        + _EXT
        + r")"
        + _RIGHT,
        priority=PRIO_SHAPE,
        score=0.9,
    ),
]
