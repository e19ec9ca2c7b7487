"""Label maps between the i2b2 2014 scheme, HIPAA, MEDDOCAN and a coarse scheme.

A label map is either a dict `label -> new label or None` or a function
`(label, surface) -> new label or None`; `None` drops the span. Named maps
(`get_label_map`): "none", "category", "hipaa", "meddocan2i2b2",
"i2b22meddocan", "coarse". Every caller puts labels through a map with
`apply` (one label; what happens to labels a map does not mention is
documented there) or `map_note` (a note's spans), and `inverse` names the map
that takes labels back through a named map.

Lossy mappings (documented here, not hidden):
- MEDDOCAN -> i2b2: SEXO_SUJETO_ASISTENCIA (sex) and OTROS_SUJETO_ASISTENCIA
  (other facts about the patient, e.g. "raza mestiza") have no i2b2
  equivalent and are dropped. FAMILIARES_SUJETO_ASISTENCIA is dropped too: in
  MEDDOCAN it marks kinship words ("madre", "pareja"), which i2b2 does not
  annotate. TERRITORIO becomes ZIP when the surface is all digits, CITY
  otherwise (provinces and regions become CITY). CENTRO_SALUD -> HOSPITAL,
  INSTITUCION -> ORGANIZATION, ID_CONTACTO_ASISTENCIAL (episode number) and
  ID_EMPLEO_PERSONA / ID_EMPLEO_PERSONAL_SANITARIO (the spelling used in the
  released data) -> IDNUM, NUMERO_BENEF_PLAN_SALUD and ID_ASEGURAMIENTO
  both -> HEALTHPLAN.
- i2b2 -> MEDDOCAN: several subcategories share one MEDDOCAN type (CITY,
  STATE, ZIP, LOCATION_OTHER -> TERRITORIO; SSN, ACCOUNT, IDNUM ->
  OTRO_NUMERO_IDENTIF; HOSPITAL, DEPARTMENT -> HOSPITAL), USERNAME ->
  NOMBRE_PERSONAL_SANITARIO and ROOM -> OTROS_SUJETO_ASISTENCIA are
  approximations.
- coarse: i2b2 categories as they are (PROFESSION stays), MEDDOCAN types by
  their parent class in the release (SEXO, OTROS and FAMILIARES -> OTHER).
"""

from typing import Callable, Dict, Mapping, Optional, Union

from .scheme import CATEGORIES, LABEL_NAMES, LABELS, normalize_label
from ..core.types import Note, PhiSpan

LabelFunc = Callable[[str, str], Optional[str]]
LabelMap = Union[Mapping[str, Optional[str]], LabelFunc]

MEDDOCAN_LABELS = [
    "NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO",
    "FAMILIARES_SUJETO_ASISTENCIA", "EDAD_SUJETO_ASISTENCIA", "FECHAS",
    "TERRITORIO", "CALLE", "PAIS", "HOSPITAL", "INSTITUCION", "CENTRO_SALUD",
    "ID_SUJETO_ASISTENCIA", "ID_TITULACION_PERSONAL_SANITARIO",
    "ID_ASEGURAMIENTO", "ID_CONTACTO_ASISTENCIAL", "ID_EMPLEO_PERSONA",
    "ID_EMPLEO_PERSONAL_SANITARIO",
    "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "IDENTIF_DISPOSITIVOS_NRSERIE",
    "NUMERO_TELEFONO", "NUMERO_FAX", "CORREO_ELECTRONICO", "URL_WEB",
    "DIREC_PROT_INTERNET", "NUMERO_BENEF_PLAN_SALUD", "IDENTIF_BIOMETRICOS",
    "OTRO_NUMERO_IDENTIF", "PROFESION", "SEXO_SUJETO_ASISTENCIA",
    "OTROS_SUJETO_ASISTENCIA",
]  # fmt: skip

COARSE_LABELS = [
    "NAME",
    "LOCATION",
    "DATE",
    "AGE",
    "CONTACT",
    "ID",
    "PROFESSION",
    "OTHER",
]

MEDDOCAN_TO_I2B2: Dict[str, Optional[str]] = {
    "NOMBRE_SUJETO_ASISTENCIA": "PATIENT",
    "NOMBRE_PERSONAL_SANITARIO": "DOCTOR",
    "FAMILIARES_SUJETO_ASISTENCIA": None,
    "EDAD_SUJETO_ASISTENCIA": "AGE",
    "FECHAS": "DATE",
    "TERRITORIO": "CITY",
    "CALLE": "STREET",
    "PAIS": "COUNTRY",
    "HOSPITAL": "HOSPITAL",
    "INSTITUCION": "ORGANIZATION",
    "CENTRO_SALUD": "HOSPITAL",
    "ID_SUJETO_ASISTENCIA": "MEDICALRECORD",
    "ID_TITULACION_PERSONAL_SANITARIO": "LICENSE",
    "ID_ASEGURAMIENTO": "HEALTHPLAN",
    "ID_CONTACTO_ASISTENCIAL": "IDNUM",
    "ID_EMPLEO_PERSONA": "IDNUM",
    "ID_EMPLEO_PERSONAL_SANITARIO": "IDNUM",
    "IDENTIF_VEHICULOS_NRSERIE_PLACAS": "VEHICLE",
    "IDENTIF_DISPOSITIVOS_NRSERIE": "DEVICE",
    "NUMERO_TELEFONO": "PHONE",
    "NUMERO_FAX": "FAX",
    "CORREO_ELECTRONICO": "EMAIL",
    "URL_WEB": "URL",
    "DIREC_PROT_INTERNET": "IPADDR",
    "NUMERO_BENEF_PLAN_SALUD": "HEALTHPLAN",
    "IDENTIF_BIOMETRICOS": "BIOID",
    "OTRO_NUMERO_IDENTIF": "IDNUM",
    "PROFESION": "PROFESSION",
    "SEXO_SUJETO_ASISTENCIA": None,
    "OTROS_SUJETO_ASISTENCIA": None,
}

I2B2_TO_MEDDOCAN: Dict[str, Optional[str]] = {
    "PATIENT": "NOMBRE_SUJETO_ASISTENCIA",
    "DOCTOR": "NOMBRE_PERSONAL_SANITARIO",
    "USERNAME": "NOMBRE_PERSONAL_SANITARIO",
    "PROFESSION": "PROFESION",
    "ROOM": "OTROS_SUJETO_ASISTENCIA",
    "DEPARTMENT": "HOSPITAL",
    "HOSPITAL": "HOSPITAL",
    "ORGANIZATION": "INSTITUCION",
    "STREET": "CALLE",
    "CITY": "TERRITORIO",
    "STATE": "TERRITORIO",
    "COUNTRY": "PAIS",
    "ZIP": "TERRITORIO",
    "LOCATION_OTHER": "TERRITORIO",
    "AGE": "EDAD_SUJETO_ASISTENCIA",
    "DATE": "FECHAS",
    "PHONE": "NUMERO_TELEFONO",
    "FAX": "NUMERO_FAX",
    "EMAIL": "CORREO_ELECTRONICO",
    "URL": "URL_WEB",
    "IPADDR": "DIREC_PROT_INTERNET",
    "SSN": "OTRO_NUMERO_IDENTIF",
    "MEDICALRECORD": "ID_SUJETO_ASISTENCIA",
    "HEALTHPLAN": "ID_ASEGURAMIENTO",
    "ACCOUNT": "OTRO_NUMERO_IDENTIF",
    "LICENSE": "ID_TITULACION_PERSONAL_SANITARIO",
    "VEHICLE": "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
    "DEVICE": "IDENTIF_DISPOSITIVOS_NRSERIE",
    "BIOID": "IDENTIF_BIOMETRICOS",
    "IDNUM": "OTRO_NUMERO_IDENTIF",
}

MEDDOCAN_TO_COARSE: Dict[str, str] = {
    "NOMBRE_SUJETO_ASISTENCIA": "NAME",
    "NOMBRE_PERSONAL_SANITARIO": "NAME",
    "FAMILIARES_SUJETO_ASISTENCIA": "OTHER",
    "EDAD_SUJETO_ASISTENCIA": "AGE",
    "FECHAS": "DATE",
    "TERRITORIO": "LOCATION",
    "CALLE": "LOCATION",
    "PAIS": "LOCATION",
    "HOSPITAL": "LOCATION",
    "INSTITUCION": "LOCATION",
    "CENTRO_SALUD": "LOCATION",
    "ID_SUJETO_ASISTENCIA": "ID",
    "ID_TITULACION_PERSONAL_SANITARIO": "ID",
    "ID_ASEGURAMIENTO": "ID",
    "ID_CONTACTO_ASISTENCIAL": "ID",
    "ID_EMPLEO_PERSONA": "ID",
    "ID_EMPLEO_PERSONAL_SANITARIO": "ID",
    "IDENTIF_VEHICULOS_NRSERIE_PLACAS": "ID",
    "IDENTIF_DISPOSITIVOS_NRSERIE": "ID",
    "NUMERO_TELEFONO": "CONTACT",
    "NUMERO_FAX": "CONTACT",
    "CORREO_ELECTRONICO": "CONTACT",
    "URL_WEB": "CONTACT",
    "DIREC_PROT_INTERNET": "CONTACT",
    "NUMERO_BENEF_PLAN_SALUD": "ID",
    "IDENTIF_BIOMETRICOS": "ID",
    "OTRO_NUMERO_IDENTIF": "ID",
    "PROFESION": "PROFESSION",
    "SEXO_SUJETO_ASISTENCIA": "OTHER",
    "OTROS_SUJETO_ASISTENCIA": "OTHER",
}


def subcategory_to_category(label: str) -> Optional[str]:
    """i2b2 subcategory -> category ("DOCTOR" -> "NAME"); None if unknown."""
    name = normalize_label(label)
    return LABELS[name].category if name in LABELS else None


def subcategory_to_hipaa(label: str) -> Optional[str]:
    """Keep an i2b2 subcategory that HIPAA Safe Harbor requires removing.

    RETURNS (Optional[str]): The canonical label, or None (drop).
    """
    name = normalize_label(label)
    return name if name in LABELS and LABELS[name].hipaa else None


def meddocan_to_i2b2(label: str, surface: str = "") -> Optional[str]:
    """MEDDOCAN type -> i2b2 subcategory (None: no equivalent, drop).

    label (str): A MEDDOCAN type.
    surface (str): The span's text; an all-digit TERRITORIO becomes ZIP.
    RETURNS (Optional[str]): The i2b2 subcategory, or None.
    """
    if label == "TERRITORIO" and surface.strip().isdigit():
        return "ZIP"
    return MEDDOCAN_TO_I2B2.get(label, label if label in LABELS else None)


def i2b2_to_meddocan(label: str, surface: str = "") -> Optional[str]:
    """i2b2 subcategory -> MEDDOCAN type (None if unknown)."""
    return I2B2_TO_MEDDOCAN.get(normalize_label(label))


def to_coarse(label: str, surface: str = "") -> Optional[str]:
    """Any i2b2 subcategory/category or MEDDOCAN type -> coarse label.

    RETURNS (Optional[str]): One of COARSE_LABELS, or None if unknown.
    """
    name = normalize_label(label)
    if name in LABELS:
        return LABELS[name].category
    if name in CATEGORIES or name == "OTHER":
        return name
    return MEDDOCAN_TO_COARSE.get(name)


def _category_map(label: str, surface: str = "") -> Optional[str]:
    name = normalize_label(label)
    return name if name in CATEGORIES else subcategory_to_category(name)


def _hipaa_map(label: str, surface: str = "") -> Optional[str]:
    return subcategory_to_hipaa(label)


_NAMED_MAPS: Dict[str, LabelFunc] = {
    "category": _category_map,
    "hipaa": _hipaa_map,
    "meddocan2i2b2": meddocan_to_i2b2,
    "i2b22meddocan": i2b2_to_meddocan,
    "coarse": to_coarse,
}
LABEL_MAP_NAMES = ["none"] + list(_NAMED_MAPS)


def get_label_map(name: Optional[Union[str, LabelMap]]) -> Optional[LabelMap]:
    """Resolve a label map given by name ("category", ...), dict or function.

    name: A name from LABEL_MAP_NAMES, None/"none" (no mapping), or a map.
    RETURNS (Optional[LabelMap]): The map, or None for no mapping.
    """
    if name is None or (isinstance(name, str) and name.lower() == "none"):
        return None
    if isinstance(name, str):
        if name not in _NAMED_MAPS:
            raise ValueError(f"Unknown label map '{name}'. Known: {LABEL_MAP_NAMES}")
        return _NAMED_MAPS[name]
    return name


KNOWN_LABELS = frozenset(
    set(LABEL_NAMES) | set(CATEGORIES) | set(MEDDOCAN_LABELS) | set(COARSE_LABELS)
)


def is_known_label(label: str) -> bool:
    """Whether a label belongs to a scheme we know: an i2b2 subcategory (any
    spelling `labels.normalize_label` accepts) or category, a MEDDOCAN type,
    or a coarse label."""
    return label in KNOWN_LABELS or normalize_label(label) in KNOWN_LABELS


def apply(
    label: str,
    mapping: Optional[LabelMap],
    surface: str = "",
    *,
    drop_unmapped: bool = False,
) -> Optional[str]:
    """Put one label through a label map.

    A function map decides every label itself. A dict map is looked up by the
    label as given, then by its canonical i2b2 spelling (`normalize_label`); a
    label it does not mention is *unmapped* and keeps its label, unless
    `drop_unmapped`. A label mapped to None is dropped in both cases.

    label (str): The label.
    mapping (Optional[LabelMap]): Dict or function; None keeps every label.
    surface (str): The span's text (a function map may look at it).
    drop_unmapped (bool): Drop labels a dict map does not mention instead of
        keeping them (`convert --drop-unmapped`: an explicit dict map is then
        the whole target scheme).
    RETURNS (Optional[str]): The new label, or None to drop the span.
    """
    if mapping is None:
        return label
    if callable(mapping):
        return mapping(label, surface)
    if label in mapping:
        return mapping[label]
    name = normalize_label(label)
    if name in mapping:
        return mapping[name]
    return None if drop_unmapped else label


def map_note(
    note: Note, mapping: Optional[LabelMap], drop_unmapped: bool = False
) -> Note:
    """Return a copy of a note with its spans' labels put through `apply`.

    note (Note): The note (not modified).
    mapping (Optional[LabelMap]): Dict or function; None returns the note.
    drop_unmapped (bool): See `apply`.
    RETURNS (Note): The relabelled note, without the spans `apply` drops.
    """
    if mapping is None:
        return note
    spans = []
    for span in note.spans:
        surface = note.text[span.start : span.end]
        new = apply(span.label, mapping, surface, drop_unmapped=drop_unmapped)
        if new is not None:
            spans.append(PhiSpan(span.start, span.end, new))
    return Note(note.id, note.text, spans, note.patient, dict(note.meta))


# A named map's way back: the map that takes labels of the scheme the first map
# writes into the scheme it reads. meddocan2i2b2 lets the surrogate generators
# (which read i2b2 labels) serve a MEDDOCAN pipeline; i2b22meddocan gives i2b2
# labels (e.g. known PHI from a structured record) that pipeline's own types.
# Both are lossy (see the module docstring), so the way back gives a label's
# nearest equivalent, not always the label itself. The other maps merge
# labels and have no way back.
_INVERSES: Dict[str, str] = {"meddocan2i2b2": "i2b22meddocan"}


def inverse(name: Optional[str]) -> Optional[str]:
    """The named map that takes labels back through a named map.

    name (Optional[str]): A name from LABEL_MAP_NAMES, or None.
    RETURNS (Optional[str]): The inverse map's name, or None where there is
        none (including for None and "none", which map nothing).
    """
    if name is None:
        return None
    get_label_map(name)  # an unknown name raises a ValueError
    return _INVERSES.get(name)


__all__ = [
    "LABEL_NAMES", "COARSE_LABELS", "MEDDOCAN_LABELS", "MEDDOCAN_TO_I2B2",
    "I2B2_TO_MEDDOCAN", "MEDDOCAN_TO_COARSE", "get_label_map", "apply",
    "map_note", "inverse", "subcategory_to_category", "subcategory_to_hipaa",
    "meddocan_to_i2b2", "i2b2_to_meddocan", "to_coarse", "KNOWN_LABELS",
    "is_known_label",
]  # fmt: skip
