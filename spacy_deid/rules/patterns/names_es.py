"""Spanish name patterns (MEDDOCAN pipelines): a clinician after a title and
a relative after a kinship word, in narrative text.

`la atiende la Dra. Ana Fernández` -> DOCTOR "Ana Fernández" (the title is
context); `su hijo Pedro la acompaña` -> PATIENT "Pedro" (the kinship word is
left to the tagger, which marks it FAMILIARES_SUJETO_ASISTENCIA as MEDDOCAN
does). Names are 1-4 capitalised words or initials, joined by the particles
of Spanish surnames ("de", "del", "de la", "y"); they never cross a line.
Labels are i2b2 subcategories, mapped by the ruler's `label_map`.
"""

from typing import List

from ._common import PRIO_CUED, PRIO_NAME, make_pattern

_UPPER = "A-ZÁÉÍÓÚÑÜ"
_LOWER = "a-záéíóúñüç"
# Capitalised words that end a name: services, places and header words that
# follow a name on the same line ("Dra. Ana Ruiz Servicio de Cardiología").
_STOP = (
    r"(?!(?:Servicio|Hospital|Unidad|Centro|Departamento|Dpto|M[ée]dic[oa]"
    r"|Correos?|E-?mail|Direcci[óo]n|Domicilio|Calle|Avda|Avenida|Plaza|Paseo"
    r"|Tel[ée]fono|Tfno|Tel|Fax|Fecha|Edad|Sexo|Paciente|Consulta|Urgencias"
    r"|Planta|Cl[íi]nica|Instituto|Facultad|Universidad|Laboratorio|Secci[óo]n"
    r"|Área|Area|Complejo|Fundaci[óo]n|MDS?|PhD)\b)"
)
_WORD = (
    _STOP
    + "(?:["
    + _UPPER
    + "]["
    + _LOWER
    + "]+(?:-["
    + _UPPER
    + "]["
    + _LOWER
    + "]+)?|["
    + _UPPER
    + r"]\.)"
)
_PARTICLE = r"(?:de[ \t]+la|de[ \t]+los|de[ \t]+las|del|de|y)"
_NAME = _WORD + r"(?:[ \t]+(?:" + _PARTICLE + r"[ \t]+)?" + _WORD + r"){0,3}"
# After the name: not another capitalised word (a cut-off name is no match).
_END = "(?![" + _UPPER + _LOWER + r"\-])"

_DOCTOR_CUE = r"(?:\b(?:Dra?|DRA?)\.?|\b(?i:doctora?))[ \t]+"
_KIN = (
    r"\b(?i:hij[oa]s?|espos[oa]|marido|mujer|madre|padre|herman[oa]s?|niet[oa]s?"
    r"|abuel[oa]s?|t[ií][oa]s?|prim[oa]s?|sobrin[oa]s?|cuñad[oa]s?|yerno|nuera"
    r"|pareja|novi[oa]|suegr[oa]s?)"
)
# "su hijo Pedro", "su madre (María)", "su esposo, Diego Maldonado".
_KIN_SEP = r"(?:[ \t]+(?i:mayor|menor|pequeñ[oa]|gemel[oa]))?(?:,[ \t]*|[ \t]*\(|[ \t]+)"

PATTERNS: List[dict] = [
    make_pattern(
        "name_es.doctor_title",
        "DOCTOR",
        _DOCTOR_CUE + r"(?P<phi>" + _NAME + r")" + _END,
        priority=PRIO_CUED,
        score=0.95,
    ),
    make_pattern(
        "name_es.relative",
        "PATIENT",
        _KIN + _KIN_SEP + r"(?P<phi>" + _NAME + r")" + _END,
        priority=PRIO_NAME,
        score=0.85,
    ),
]
