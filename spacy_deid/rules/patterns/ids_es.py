"""Identifier patterns for Spanish notes, family "ids_es".

Not among the default (English) families. Spanish records name their
identifiers with cues the English "ids" family does not know, and the value
after the cue is the span (as MEDDOCAN tags it):

- "NHC: 2748903" (número de historia clínica), "CIPA: nhc-150679",
  "CIP: nhc-794613864" ->
  MEDICALRECORD (MEDDOCAN ID_SUJETO_ASISTENCIA);
- "NASS: 26 37482910 04" (número de afiliación a la Seguridad Social),
  "NUSS", "tarjeta sanitaria" -> HEALTHPLAN (ID_ASEGURAMIENTO);
- "NºCol: 28 28 70973" (número de colegiado) -> LICENSE
  (ID_TITULACION_PERSONAL_SANITARIO);
- "DNI 12345678Z", "NIE X1234567L", "pasaporte AAA123456" -> IDNUM.

Do not use the English "ids" family on Spanish text: its `device.cued`
reads "s/n" (serial number) where Spanish addresses mean "sin número"
("Avda. de Córdoba, s/n 28041 Madrid").

"Episodio: 1234567" (MEDDOCAN ID_CONTACTO_ASISTENCIAL) is left out: no i2b2
label maps to that MEDDOCAN type under "i2b22meddocan".
"""

from typing import List

from ._common import CUE_SEP, PRIO_CUED, make_pattern

# Digit groups separated by a space (or two), a dash or a slash, with at least
# 4 digits: "2748903", "26 37482910 04", "08-08-25574", "9999999/999",
# "28 28" (a truncated NºCol in train), "08 08  53412".
_DIGIT_GROUPS = r"(?=(?:(?:[ ]{1,2}|[\-/])?\d){4})\d+(?:(?:[ ]{1,2}|[\-/])\d+){0,3}"
_END = r"(?![\w/\-])"
_MRN_CUE = (
    r"(?:\bNHC\b|\bN\.[ \t]?H\.[ \t]?C\.|\bCIPA?\b"
    r"|(?i:\bn[úu]mero[ \t]+de[ \t]+historia(?:[ \t]+cl[íi]nica)?"
    r"|\bn[ºo°][ \t]*(?:de[ \t]+)?historia(?:[ \t]+cl[íi]nica)?"
    r"|\bhistoria[ \t]+cl[íi]nica[ \t]*(?:n[ºo°]\.?|n[úu]m\.?)))"
)
_HEALTHPLAN_CUE = (
    r"(?:\bNASS\b|\bNUSS\b|\bN\.[ \t]?A\.[ \t]?S\.[ \t]?S\."
    r"|(?i:\bn[úu]mero[ \t]+de[ \t]+(?:afiliaci[óo]n|la[ \t]+"
    r"seguridad[ \t]+social|seguridad[ \t]+social)"
    r"|\bn[ºo°][ \t]*(?:de[ \t]+)?(?:afiliaci[óo]n"
    r"|seguridad[ \t]+social)|\btarjeta[ \t]+sanitaria))"
)
_LICENSE_CUE = (
    # "NºCol" may be glued to the doctor's name: "Demaría MartínezNºCol: ...".
    r"(?:(?:N[º°]|\bNo)[ \t]*\.?[ \t]*Col(?:egiado|egiada)?\b\.?"
    r"|(?i:\bn[úu]mero[ \t]+de[ \t]+colegiad[oa]"
    r"|\bcolegiad[oa][ \t]+(?:n[ºo°]\.?|n[úu]m\.?|n[úu]mero)))"
)
_DNI_CUE = (
    r"(?:\b(?:DNI|NIF|NIE)\b|\bD\.[ \t]?N\.[ \t]?I\.|\bN\.[ \t]?I\.[ \t]?[EF]\."
    r"|(?i:\bpasaporte\b))"
)
# 12345678Z, 12345678-Z, X1234567L, AAA123456 (a Spanish passport).
_DNI = r"\d{8}[ \-]?[A-Za-z]|[XYZxyz][ \-]?\d{7}[ \-]?[A-Za-z]|[A-Z]{3}\d{6}"


def _cued(id: str, label: str, cue: str, value: str, **kwargs) -> dict:
    """A pattern `cue + separator + (?P<phi>value)`."""
    regex = cue + CUE_SEP + r"(?P<phi>" + value + r")" + _END
    kwargs.setdefault("priority", PRIO_CUED)
    return make_pattern(id, label, regex, **kwargs)


PATTERNS: List[dict] = [
    # NHC: 2748903; CIPA: nhc-150679 (the "nhc-" prefix is no part of it)
    _cued(
        "mrn_es.nhc",
        "MEDICALRECORD",
        _MRN_CUE + r"(?:[ \t]*:)?[ \t]*(?:(?i:nhc)[ \t]*-[ \t]*)?",
        _DIGIT_GROUPS,
        score=0.95,
    ),
    # NASS: 26 37482910 04
    _cued(
        "healthplan_es.nass",
        "HEALTHPLAN",
        _HEALTHPLAN_CUE,
        _DIGIT_GROUPS,
        score=0.95,
    ),
    # NºCol: 28 28 70973
    _cued(
        "license_es.colegiado",
        "LICENSE",
        _LICENSE_CUE,
        _DIGIT_GROUPS,
        score=0.95,
    ),
    # DNI: 12345678Z, NIE X1234567L
    _cued("idnum_es.dni", "IDNUM", _DNI_CUE, _DNI, score=0.9),
]
