"""Spanish rule families (dates_es, ages_es, contact_es, ids_es), the
`families` selector of "spacy_deid.phi_patterns.v1" and the `label_map`
setting of `phi_rules`. Every example is invented."""

import importlib.util
import json
import pickle
import sys
from pathlib import Path
from typing import List, Tuple

import pytest
import spacy
import srsly
from spacy.util import make_tempdir, registry

from spacy_deid.corpus.convert import make_converter_nlp
from spacy_deid.corpus.jsonl import write_jsonl
from spacy_deid.core.types import Note, PhiSpan
from spacy_deid.rules.patterns import (
    DEFAULT_FAMILIES,
    FAMILIES,
    ages,
    contact,
    dates,
    default_patterns,
    facilities,
    ids,
    locations,
    names,
    negatives,
    social,
    usernames,
)
from spacy_deid.rules.ruler import PhiRuler
from spacy_deid.rules.validators import AGE_OVER_89, INVALID_DATE

ROOT = Path(__file__).resolve().parents[2]
SPANISH = ["dates_es", "ages_es", "contact_es", "ids_es", "names_es"]
# The Spanish pipeline's families (see the report / configs).
ES_FAMILIES = SPANISH + ["contact"]
Found = List[Tuple[str, str]]


@pytest.fixture(scope="module")
def nlp():
    return make_converter_nlp("es")


@pytest.fixture(scope="module")
def ruler():
    return PhiRuler(patterns=default_patterns(families=ES_FAMILIES))


@pytest.fixture(scope="module")
def ruler_md():
    return PhiRuler(
        patterns=default_patterns(families=ES_FAMILIES), label_map="i2b22meddocan"
    )


def _run(nlp, ruler, text):
    doc = ruler(nlp.make_doc(text))
    for ent in doc.ents:
        assert doc.text[ent.start_char : ent.end_char] == ent.text
    return doc


def _found(nlp, ruler, text) -> Found:
    return [(e.text, e.label_) for e in _run(nlp, ruler, text).ents]


def _sources(nlp, ruler, text) -> List[str]:
    return [e._.phi_source for e in _run(nlp, ruler, text).ents]


# (text, expected entities, the pattern id that must find the first one)
POSITIVES = [
    (
        "la atiende la Dra. Ana Fernández.",
        [("Ana Fernández", "DOCTOR")],
        "name_es.doctor_title",
    ),
    (
        "Remitido por: Dr. Tomás Ibarra de la Vega\nServicio de Urología",
        [("Tomás Ibarra de la Vega", "DOCTOR")],
        "name_es.doctor_title",
    ),
    ("acude con su hijo Pedro; refiere", [("Pedro", "PATIENT")], "name_es.relative"),
    (
        "según su esposa, Lucía Benítez Ortega, ha",
        [("Lucía Benítez Ortega", "PATIENT")],
        "name_es.relative",
    ),
    ("viene con su madre (Rosario) hoy", [("Rosario", "PATIENT")], "name_es.relative"),
    ("Ingresó el 22-7-04 por fiebre.", [("22-7-04", "DATE")], "date_es.dmy"),
    ("Control el 4-09-06.", [("4-09-06", "DATE")], "date_es.dmy"),
    ("Nacido el 16/09/03 en Lugo.", [("16/09/03", "DATE")], "date_es.dmy"),
    ("Alta el 4/09/2006.", [("4/09/2006", "DATE")], "date_es.dmy"),
    ("Informe del 05/13/2006.", [("05/13/2006", "DATE")], "date_es.mdy"),
    ("Revisión el 16.09.03.", [("16.09.03", "DATE")], "date_es.dotted"),
    ("Revisión el 16.09.2003.", [("16.09.2003", "DATE")], "date_es.dotted"),
    ("Cirugía el 16/09 /2003.", [("16/09 /2003", "DATE")], "date_es.dmy_spaced"),
    ("Analítica del 2005-05-03.", [("2005-05-03", "DATE")], "date_es.ymd"),
    (
        "Operado el 3 de mayo de 2005 sin incidencias.",
        [("3 de mayo de 2005", "DATE")],
        "date_es.day_month_year",
    ),
    (
        "Visto el 3 de Mayo del 2005.",
        [("3 de Mayo del 2005", "DATE")],
        "date_es.day_month_year",
    ),  # fmt: skip
    (
        "Desde el 1º de mayo de 2005.",
        [("1º de mayo de 2005", "DATE")],
        "date_es.day_month_year",
    ),  # fmt: skip
    (
        "Fecha de nacimiento: 23-octubre-1972.",
        [("23-octubre-1972", "DATE")],
        "date_es.day_month_year_sep",
    ),  # fmt: skip
    (
        "Biopsia el 12-oct-2005.",
        [("12-oct-2005", "DATE")],
        "date_es.day_month_year_sep",
    ),  # fmt: skip
    (
        "Ingresó en mayo 15 de 2005.",
        [("mayo 15 de 2005", "DATE")],
        "date_es.month_day_year",
    ),  # fmt: skip
    ("Acude el 3 de mayo por dolor.", [("3 de mayo", "DATE")], "date_es.day_month"),
    (
        "En febrero de 2016 se inicia.",
        [("febrero de 2016", "DATE")],
        "date_es.month_year",
    ),  # fmt: skip
    (
        "En noviembre del 2001 fue intervenido.",
        [("noviembre del 2001", "DATE")],
        "date_es.month_year",
    ),  # fmt: skip
    (
        "En enero del año 2005 recayó.",
        [("enero del año 2005", "DATE")],
        "date_es.month_year",
    ),  # fmt: skip
    (
        "TC (Septiembre 2015) normal.",
        [("Septiembre 2015", "DATE")],
        "date_es.month_year",
    ),  # fmt: skip
    ("Desde MAYO 2005.", [("MAYO 2005", "DATE")], "date_es.month_year"),
    (
        "Recidiva en noviembre-07.",
        [("noviembre-07", "DATE")],
        "date_es.month_year_dash",
    ),  # fmt: skip
    (
        "Revisado en sep-04 y enero-04.",
        [("sep-04", "DATE"), ("enero-04", "DATE")],
        "date_es.month_year_dash",
    ),  # fmt: skip
    ("Control en OCT-2005.", [("OCT-2005", "DATE")], "date_es.month_year_dash"),
    (
        "Se realizó en el plazo de 4 meses (Junio 04).",
        [("Junio 04", "DATE")],
        "date_es.month_year2",
    ),  # fmt: skip
    ("En el mes de abril se operó.", [("abril", "DATE")], "date_es.month_cued"),
    ("Apendicectomía en el año 1978.", [("año 1978", "DATE")], "date_es.year_word"),
    ("Diagnosticada en 2003 de LAM.", [("2003", "DATE")], "date_es.year_cued"),
    (
        "Hemodiálisis desde 1980 a 1983.",
        [("1980", "DATE"), ("1983", "DATE")],
        "date_es.year_cued",
    ),  # fmt: skip
    (
        "Descrita por Obwegeser et al. (1964).",
        [("1964", "DATE")],
        "date_es.year_cued",
    ),  # fmt: skip
    ("Fecha de Ingreso: 26708/2017.", [("26708/2017", "DATE")], "date_es.header"),
    ("Edad: 45 años Sexo: H.", [("45 años", "AGE")], "age_es.header"),
    ("Edad: 22  Sexo: M.", [("22", "AGE")], "age_es.header"),
    ("Edad: 58 a. Sexo: H.", [("58 a", "AGE")], "age_es.header"),
    ("Varón de 45 años que acude.", [("45 años", "AGE")], "age_es.cued_years"),
    (
        "Paciente mujer, 44 años, derivada.",
        [("44 años", "AGE")],
        "age_es.cued_years",
    ),  # fmt: skip
    ("Gestante de 27 años, grupo A.", [("27 años", "AGE")], "age_es.cued_years"),
    (
        "Cuando contaba con 69 años, seguía.",
        [("69 años", "AGE")],
        "age_es.cued_years",
    ),  # fmt: skip
    ("Lactante de 15 meses con fiebre.", [("15 meses", "AGE")], "age_es.cued_other"),
    ("Niña de trece años.", [("trece años", "AGE")], "age_es.cued_other"),
    (
        "Niño de 3 años y 10 meses.",
        [("3 años y 10 meses", "AGE")],
        "age_es.cued_other",
    ),  # fmt: skip
    (
        "Niña de tres años y medio.",
        [("tres años y medio", "AGE")],
        "age_es.cued_other",
    ),  # fmt: skip
    (
        "Mujer de sesenta y tres años.",
        [("sesenta y tres años", "AGE")],
        "age_es.cued_other",
    ),  # fmt: skip
    (
        "Varón de noventa y dos años.",
        [("noventa y dos años", "AGE")],
        "age_es.cued_over_89",
    ),  # fmt: skip
    ("Operada con 45 años de edad.", [("45 años", "AGE")], "age_es.of_age_years"),
    ("Ingresó con 19 días de vida.", [("19 días", "AGE")], "age_es.of_age_other"),
    (
        "Remitido con dos meses de edad.",
        [("dos meses", "AGE")],
        "age_es.of_age_other",
    ),  # fmt: skip
    (
        "Operado con noventa años de edad.",
        [("noventa años", "AGE")],
        "age_es.of_age_over_89",
    ),  # fmt: skip
    (
        "Valencia Tel.: 963 862 700 E-mail: a@b.es",
        [("963 862 700", "PHONE"), ("a@b.es", "EMAIL")],
        "phone_es.cued",
    ),  # fmt: skip
    (
        "Tfno: 986413144 ext 1530 - Fax: 986421439",
        [("986413144 ext 1530", "PHONE"), ("986421439", "FAX")],
        "phone_es.cued",
    ),  # fmt: skip
    ("Tel. y Fax: 961 622 403.", [("961 622 403", "PHONE")], "phone_es.cued"),
    (
        "Telfs.: 918823884 / 918823984 / 619128686.",
        [("918823884", "PHONE"), ("918823984", "PHONE"), ("619128686", "PHONE")],
        "phone_es.cued",
    ),  # fmt: skip
    ("Madrid. Fax: 91 336 87 85.", [("91 336 87 85", "FAX")], "fax_es.cued"),
    ("Llamar al +34 912 345 678.", [("+34 912 345 678", "PHONE")], "phone_es.intl"),
    (
        "NHC: 2748903.\nNASS: 26 37482910 04.",
        [("2748903", "MEDICALRECORD"), ("26 37482910 04", "HEALTHPLAN")],
        "mrn_es.nhc",
    ),  # fmt: skip
    ("CIPA: nhc-150679.", [("150679", "MEDICALRECORD")], "mrn_es.nhc"),
    (
        "NASS: 55-55012378-99.",
        [("55-55012378-99", "HEALTHPLAN")],
        "healthplan_es.nass",
    ),  # fmt: skip
    (
        "Médico: Ana Ruiz  NºCol: 28 28 70973.",
        [("28 28 70973", "LICENSE")],
        "license_es.colegiado",
    ),  # fmt: skip
    ("DNI: 12345678Z.", [("12345678Z", "IDNUM")], "idnum_es.dni"),
]


@pytest.mark.parametrize("text,expected,source", POSITIVES)
def test_positives(nlp, ruler, text, expected, source):
    assert _found(nlp, ruler, text) == expected
    assert _sources(nlp, ruler, text)[0] == "rules:" + source


def test_every_spanish_pattern_has_a_positive_example():
    tested = {source for _, _, source in POSITIVES}
    tested |= {"phone_es.cued_list"}  # the later numbers of the Telfs. list
    spanish = {p["id"] for family in SPANISH for p in FAMILIES[family]}
    assert spanish == tested


def test_list_numbers_come_from_the_list_pattern(nlp, ruler):
    text = "Telfs.: 918823884 / 918823984."
    assert _sources(nlp, ruler, text) == [
        "rules:phone_es.cued",
        "rules:phone_es.cued_list",
    ]


NEGATIVES = [
    "La mayoría de los pacientes mejora.",
    "Remitido por: Dra. \nServicio de Cardiología",  # no name after the title
    "su hijo mayor no acude",  # no capitalised name after the kinship word
    "El Dr. Servicio de Urgencias",
    "Acudió en mayo por dolor.",  # a bare month name without "mes de"
    "En agosto de ese mismo año se confirmó.",
    "Fecha de control 32-13-04 sin cambios.",
    "Pauta 31-02-04 según protocolo.",
    "Atorvastatina (0-0-20 mg) y pauta 1-0-1.",
    "Leucocitos entre 1000 y 2000 células.",
    "Dosis de 2000 mg al día.",
    "Hospital Universitario 12 de Octubre, Madrid.",
    "Vive en la Calle 2 de Mayo, 5.",
    'Hospital Universitario "12 de Octubre" (HU12O).',
    "Se realizó OCT 2000 y la OCT mostraba edema.",
    "Avenida de Italia 1460, 2000, Rosario.",
    "Hematíes 4.860.000/μl y 1.500.000 UI.",
    "TA 120/80 mmHg, fuerza 4/5, versión 1.2.10.",
    "Tras 20 años de seguimiento sigue bien.",
    "Desde hace 3 años refiere dolor.",
    "A los 2 años del trasplante presentó rechazo.",
    "Cuadro de 2 años de evolución.",
    "Gestante de 27 semanas, portadora de cinturón.",
    "Su madre de 60 años es diabética.",
    "Madre fallecida a los 48 años de edad por tumor.",
    "Hermana de 55 años de edad con nefropatía.",
    "Percentil 5 para su edad: 43 mmHg.",
    "Varón de 130 años.",
    "Avda. de Córdoba, s/n 28041 Madrid.",
    "NHC: pendiente. Tel.: no consta.",
    "El mar estaba en calma; set de pruebas.",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_negatives(nlp, ruler, text):
    assert _found(nlp, ruler, text) == []


def test_english_ids_family_misreads_spanish_addresses(nlp):
    """Why the Spanish list leaves out "ids": "s/n" is "sin número"."""
    english_ids = PhiRuler(patterns=default_patterns(families=["ids"]))
    assert _found(nlp, english_ids, "Avda. de Córdoba, s/n 28041 Madrid.") != []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Fecha: 31/02/2004.", "31/02/2004"),
        ("Fecha: 13/13/2006.", "13/13/2006"),
        ("Nacido el 31 de febrero de 2004.", "31 de febrero de 2004"),
    ],
)
def test_impossible_dates_are_tagged_and_flagged(nlp, ruler, text, expected):
    doc = _run(nlp, ruler, text)
    assert [(e.text, e._.phi_flags) for e in doc.ents] == [(expected, [INVALID_DATE])]


def test_implausible_dates_are_not_tagged(nlp, ruler):
    assert _found(nlp, ruler, "Valor 32/13/2006 y 40-50-2006.") == []


def test_age_flags(nlp, ruler):
    text = (
        "Varón de 95 años. Mujer de noventa y dos años. Niño de 9 años. "
        "Varón de 92 años y 3 meses. Lactante de 95 días."
    )
    flags = [(e.text, e._.phi_flags) for e in _run(nlp, ruler, text).ents]
    assert flags == [
        ("95 años", [AGE_OVER_89]),
        ("noventa y dos años", [AGE_OVER_89]),
        ("9 años", None),
        ("92 años y 3 meses", [AGE_OVER_89]),
        ("95 días", None),
    ]


def test_spanish_families_are_not_default():
    default_ids = {p["id"] for p in default_patterns()}
    for family in SPANISH:
        assert family in FAMILIES and family not in DEFAULT_FAMILIES
        assert not default_ids & {p["id"] for p in FAMILIES[family]}


def test_default_patterns_unchanged():
    """The default list is exactly the English families, in their order."""
    modules = [contact, ids, dates, ages, facilities, locations, social,
               usernames, names, negatives]  # fmt: skip
    snapshot = [p["id"] for module in modules for p in module.PATTERNS]
    assert [p["id"] for p in default_patterns()] == snapshot
    assert [p["id"] for p in default_patterns(families=None)] == snapshot
    assert default_patterns() == default_patterns(families=list(DEFAULT_FAMILIES))
    # labels and exclude keep their meaning
    dates_only = default_patterns(labels=["DATE"], exclude=["date.weekday"])
    assert "date.weekday" not in {p["id"] for p in dates_only}
    assert {p["label"] for p in dates_only} == {"DATE", "NOT_PHI"}


def test_families_selector():
    patterns = default_patterns(families=["ages_es", "dates_es"])
    order = [p["id"] for p in patterns]
    expected = [p["id"] for p in FAMILIES["ages_es"] + FAMILIES["dates_es"]]
    assert order == expected
    registered = registry.misc.get("spacy_deid.phi_patterns.v1")
    assert registered(families=["ages_es"]) == default_patterns(families=["ages_es"])
    dates_only = default_patterns(families=ES_FAMILIES, labels=["DATE"])
    assert {p["label"] for p in dates_only} == {"DATE"}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"families": ["dates_es", "fechas"]},
        {"families": ["dates_es", "dates_es"]},
        {"families": "dates_es"},
        {"families": []},
        {"families": ["dates_es"], "exclude": ["date.weekday"]},
    ],
)
def test_families_selector_errors(kwargs):
    with pytest.raises(ValueError):
        default_patterns(**kwargs)


def test_families_from_config():
    nlp = make_converter_nlp("es")
    config = {
        "patterns": {"@misc": "spacy_deid.phi_patterns.v1", "families": ["ages_es"]},
        "label_map": "i2b22meddocan",
    }
    ruler = nlp.add_pipe("phi_rules", config=config)
    assert set(ruler.pattern_ids) == {p["id"] for p in FAMILIES["ages_es"]}
    assert ruler.labels == ("EDAD_SUJETO_ASISTENCIA",)
    doc = nlp("Varón de 45 años, fecha 3 de mayo de 2005.")
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("45 años", "EDAD_SUJETO_ASISTENCIA")
    ]


NOTE = (
    "Edad: 45 años Sexo: H.\nFecha de ingreso: 16/09/2003.\nNHC: 2748903.\n"
    "Varón de 45 años operado en mayo de 2005. Tel.: 963 862 700. "
    "Dolor de intensidad, score 3/10."
)


def test_label_map_on_ents_and_span_group(nlp, ruler, ruler_md):
    plain = _run(nlp, ruler, NOTE)
    mapped = _run(nlp, ruler_md, NOTE)
    expected = [
        ("45 años", "EDAD_SUJETO_ASISTENCIA"),
        ("16/09/2003", "FECHAS"),
        ("2748903", "ID_SUJETO_ASISTENCIA"),
        ("45 años", "EDAD_SUJETO_ASISTENCIA"),
        ("mayo de 2005", "FECHAS"),
        ("963 862 700", "NUMERO_TELEFONO"),
    ]
    assert [(e.text, e.label_) for e in mapped.ents] == expected
    assert [(e.start_char, e.end_char) for e in mapped.ents] == [
        (e.start_char, e.end_char) for e in plain.ents
    ]
    group = mapped.spans["phi_rules"]
    assert len(group) == len(plain.spans["phi_rules"]) >= len(expected)
    assert {s.label_ for s in group} <= set(ruler_md.labels)
    assert [e._.phi_source for e in mapped.ents] == [e._.phi_source for e in plain.ents]
    assert ruler_md.label_map == "i2b22meddocan" and ruler.label_map is None


def test_not_phi_spans_are_never_mapped(nlp):
    patterns = default_patterns(families=["dates_es", "negatives"])
    ruler = PhiRuler(patterns=patterns, label_map="i2b22meddocan")
    doc = _run(nlp, ruler, "Dolor con score 3/10 desde el 3 de mayo de 2005.")
    assert [(s.text, s.label_) for s in doc.spans["phi_not"]] == [("3/10", "NOT_PHI")]
    assert [(e.text, e.label_) for e in doc.ents] == [("3 de mayo de 2005", "FECHAS")]
    assert "NOT_PHI" not in ruler.labels


ROOM = {
    "id": "user.habitacion",
    "label": "ROOM",
    "pattern": r"\b(?i:habitación)[ \t]*(?P<phi>\d{3,4})\b",
    "priority": 90,
}
ROOM_YEAR = {
    "id": "user.room_year",
    "label": "ROOM",
    "pattern": r"\b(?P<phi>año[ \t]+\d{4})",
    "priority": 90,
}


def test_labels_mapped_to_none_are_dropped(nlp):
    patterns = default_patterns(families=["dates_es"]) + [ROOM, ROOM_YEAR]
    hipaa = PhiRuler(patterns=patterns, label_map="hipaa")
    plain = PhiRuler(patterns=patterns)
    text = "Habitación 512 desde el año 2005."
    assert _found(nlp, plain, text) == [("512", "ROOM"), ("año 2005", "ROOM")]
    # ROOM is no HIPAA identifier: dropped, and it no longer hides the DATE.
    doc = _run(nlp, hipaa, text)
    assert [(e.text, e.label_) for e in doc.ents] == [("año 2005", "DATE")]
    assert [s.label_ for s in doc.spans["phi_rules"]] == ["DATE"]
    assert "ROOM" not in hipaa.labels and "ROOM" in plain.labels


@pytest.mark.parametrize("label_map", [None, "none"])
def test_label_map_none(nlp, label_map):
    ruler = PhiRuler(
        patterns=default_patterns(families=["ages_es"]), label_map=label_map
    )
    assert _found(nlp, ruler, "Varón de 45 años.") == [("45 años", "AGE")]


@pytest.mark.parametrize("label_map", ["i2b2meddocan", "MEDDOCAN", 3, {"AGE": "EDAD"}])
def test_label_map_errors(label_map):
    with pytest.raises(ValueError) as err:
        PhiRuler(patterns=[], label_map=label_map)
    assert "label_map" in str(err.value) or "label map" in str(err.value)
    nlp = spacy.blank("es")
    with pytest.raises(ValueError):
        nlp.add_pipe("phi_rules", config={"label_map": label_map})


def test_label_map_cfg_round_trip(nlp, ruler_md):
    texts = [NOTE, "Niña de trece años. NASS: 26 37482910 04."]
    expected = [_found(nlp, ruler_md, t) for t in texts]
    assert ruler_md.cfg["label_map"] == "i2b22meddocan"
    with make_tempdir() as tmp:
        ruler_md.to_disk(tmp / "ruler")
        assert srsly.read_json(tmp / "ruler" / "cfg")["label_map"] == "i2b22meddocan"
        fresh = PhiRuler(patterns=default_patterns(families=ES_FAMILIES))
        fresh.from_disk(tmp / "ruler")
    assert fresh.label_map == "i2b22meddocan"
    assert [_found(nlp, fresh, t) for t in texts] == expected
    other = PhiRuler(patterns=default_patterns(families=ES_FAMILIES))
    other.from_bytes(ruler_md.to_bytes())
    assert other.label_map == "i2b22meddocan"
    assert [_found(nlp, other, t) for t in texts] == expected


def test_pipeline_round_trip():
    nlp = make_converter_nlp("es")
    nlp.add_pipe(
        "phi_rules",
        config={
            "patterns": {
                "@misc": "spacy_deid.phi_patterns.v1",
                "families": ES_FAMILIES,
            },
            "label_map": "i2b22meddocan",
        },
    )
    doc = nlp(NOTE)
    with make_tempdir() as tmp:
        nlp.to_disk(tmp / "es")
        loaded = spacy.load(tmp / "es")
    assert loaded.get_pipe("phi_rules").label_map == "i2b22meddocan"
    assert loaded.config["components"]["phi_rules"]["label_map"] == "i2b22meddocan"
    again = loaded(NOTE)
    assert [(e.start_char, e.end_char, e.label_) for e in again.ents] == [
        (e.start_char, e.end_char, e.label_) for e in doc.ents
    ]


def test_old_cfg_without_label_map_loads_unchanged(nlp):
    """A ruler saved before `label_map` existed (cfg without the key)."""
    patterns = default_patterns(families=ES_FAMILIES)
    old = PhiRuler(patterns=patterns)
    expected = _found(nlp, old, NOTE)
    with make_tempdir() as tmp:
        old.to_disk(tmp / "ruler")
        cfg = srsly.read_json(tmp / "ruler" / "cfg")
        del cfg["label_map"]
        srsly.write_json(tmp / "ruler" / "cfg", cfg)
        loaded = PhiRuler(patterns=patterns).from_disk(tmp / "ruler")
        old_bytes = srsly.msgpack_loads(old.to_bytes())
        old_bytes["cfg"] = srsly.json_dumps(cfg)
        from_bytes = PhiRuler(patterns=patterns).from_bytes(
            srsly.msgpack_dumps(old_bytes)
        )
    for restored in (loaded, from_bytes):
        assert restored.label_map is None
        assert _found(nlp, restored, NOTE) == expected
    assert ("16/09/2003", "DATE") in expected


def test_bad_label_map_in_saved_cfg_is_rejected(nlp, ruler_md):
    with make_tempdir() as tmp:
        ruler_md.to_disk(tmp / "ruler")
        cfg = srsly.read_json(tmp / "ruler" / "cfg")
        cfg["label_map"] = "nonexistent"
        srsly.write_json(tmp / "ruler" / "cfg", cfg)
        target = PhiRuler(patterns=default_patterns(families=["ages_es"]))
        with pytest.raises(ValueError):
            target.from_disk(tmp / "ruler")
    # the failed load left the ruler as it was
    assert target.label_map is None and target.cfg["label_map"] is None
    assert _found(nlp, target, "Varón de 45 años.") == [("45 años", "AGE")]


def test_pickle_and_json(nlp, ruler_md):
    restored = pickle.loads(pickle.dumps(ruler_md))
    assert restored.label_map == "i2b22meddocan"
    assert _found(nlp, restored, NOTE) == _found(nlp, ruler_md, NOTE)
    patterns = default_patterns(families=SPANISH)
    assert json.loads(json.dumps(patterns)) == patterns


def _load_benchmark():
    path = ROOT / "benchmarks" / "rules_es_eval.py"
    spec = importlib.util.spec_from_file_location("rules_es_eval", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_script(tmp_path, monkeypatch, capsys):
    bench = _load_benchmark()
    text = (
        "Varón de 45 años. Fecha de ingreso: 16/09/2003. Tras 20 años de seguimiento."
    )
    gold = [
        Note("n1", text, [PhiSpan(9, 16, "EDAD_SUJETO_ASISTENCIA"),
                          PhiSpan(36, 46, "FECHAS")]),
        Note("n2", "Control en mayo de 2005.", [PhiSpan(11, 23, "FECHAS")]),
    ]  # fmt: skip
    nlp = bench.build_pipeline(["dates_es", "ages_es"], "i2b22meddocan")
    result = bench.evaluate(nlp, gold)
    assert result["notes"] == 2
    assert result["patterns"]["age_es.cued_years"] == {
        "matches": 1, "won": 1, "exact": 1, "overlap": 1
    }  # fmt: skip
    fechas = result["labels"]["FECHAS"]
    assert (fechas["tp"], fechas["fp"], fechas["fn"]) == (2, 0, 0)
    path = tmp_path / "gold.jsonl"
    write_jsonl(gold, path)
    out = tmp_path / "figures.json"
    argv = ["rules_es_eval.py", str(path), "--families", "dates_es,ages_es"]
    monkeypatch.setattr(sys, "argv", argv + ["--json", str(out)])
    bench.main()
    printed = capsys.readouterr().out
    assert "date_es.dmy" in printed and "FECHAS" in printed
    assert "16/09/2003" not in printed and "45 años" not in printed
    figures = srsly.read_json(out)
    assert figures["labels"]["EDAD_SUJETO_ASISTENCIA"]["precision"] == 1.0


def test_english_pipeline_output_unchanged():
    """The English default ruler still emits i2b2 labels (label_map None)."""
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("phi_rules")
    assert ruler.label_map is None
    doc = nlp("Pt is a 68 yo M seen on 3/14/2067. Call (617) 555-1212.")
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("68", "AGE"),
        ("3/14/2067", "DATE"),
        ("(617) 555-1212", "PHONE"),
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_offsets_with_accents_and_line_endings(nlp, ruler_md, newline):
    lines = [
        "Nombre: María José Núñez Peña.",
        "Fecha de nacimiento:",
        "16/09/1953.",
        "Edad: 52 años Sexo: M.",
        "Niña de diecisiete años, diagnosticada en marzo de 2004.",
        "NºCol: 28 28 70973.",
    ]
    text = newline.join(lines)
    doc = _run(nlp, ruler_md, text)
    found = [(text[e.start_char : e.end_char], e.label_) for e in doc.ents]
    assert found == [
        ("16/09/1953", "FECHAS"),
        ("52 años", "EDAD_SUJETO_ASISTENCIA"),
        ("diecisiete años", "EDAD_SUJETO_ASISTENCIA"),
        ("marzo de 2004", "FECHAS"),
        ("28 28 70973", "ID_TITULACION_PERSONAL_SANITARIO"),
    ]
    for span in doc.spans["phi_rules"]:
        assert text[span.start_char : span.end_char] == span.text
        assert "\r" not in span.text and "\n" not in span.text


def test_dates_do_not_cross_lines(nlp, ruler):
    """A date broken over two lines gives two spans, none across the break."""
    assert _found(nlp, ruler, "Ingresó el 3 de mayo\r\nde 2005 hubo") == [
        ("3 de mayo", "DATE"),
        ("2005", "DATE"),
    ]


@pytest.mark.parametrize(
    "text", ["31 de abril de 2005", "30 de febrero de 2004", "31 de sept. de 2001"]
)
def test_spanish_impossible_month_name_dates_are_flagged(nlp_es, text):
    doc = nlp_es.get_pipe("phi_rules")(
        nlp_es.make_doc(f"Ingresó el {text} en el hospital.")
    )
    dates = [e for e in doc.ents if e.label_ == "FECHAS"]
    assert dates and all("INVALID_DATE" in (e._.phi_flags or []) for e in dates)


NARRATIVE = [
    # (sentence, names that must be tagged, whatever their label)
    (
        "La paciente acude con su hijo Pedro; la atiende la Dra. Ana Fernández.",
        ["Pedro", "Ana Fernández"],
    ),
    ("Su hermana Remedios la acompaña a la consulta.", ["Remedios"]),
    ("Según su esposo, Ramiro Quintana Gil, no ha tomado la medicación.", ["Ramiro Quintana Gil"]),
    ("La revisa el Dr. Íñigo Salcedo por la tarde.", ["Íñigo Salcedo"]),
]


@pytest.mark.parametrize("text,names", NARRATIVE)
def test_narrative_names_are_found_by_es_meddocan(nlp_es, text, names):
    """Names in narrative sentences (MEDDOCAN's training data has names mostly
    in headers and footers) are tagged, and none survives in the output."""
    doc = nlp_es(text)
    covered = {i for ent in doc.ents for i in range(ent.start_char, ent.end_char)}
    for name in names:
        start = text.index(name)
        assert set(range(start, start + len(name))) <= covered, name
        assert name not in doc._.deidentified
