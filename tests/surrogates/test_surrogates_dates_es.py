"""Spanish dates: day first, Spanish month and weekday names."""

import datetime
import re

import pytest
import spacy

from spacy_deid.surrogates.dates import date_language, find_anchor, shift_date_text

from .conftest import KEY, deidentify

MONTHS = [
    "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
    "septiembre", "octubre", "noviembre", "diciembre",
]  # fmt: skip


def _es_nlp():
    nlp = spacy.blank("es")
    nlp.add_pipe("phi_surrogates").set_key(KEY)
    return nlp


@pytest.mark.parametrize(
    "text,shift,expected",
    [
        ("12/03/2018", 10, "22/03/2018"),
        ("03.05.2016", 30, "02.06.2016"),
        ("3 de marzo de 2018", 31, "3 de abril de 2018"),
        ("marzo de 2018", 31, "abril de 2018"),
        ("marzo del 2007", -45, "enero del 2007"),
        ("23-febrero-1931", 6, "1-marzo-1931"),
        ("diciembre-03", 31, "enero-04"),
        ("OCTUBRE DE 2005", 31, "NOVIEMBRE DE 2005"),
        ("Lunes, 5 de marzo de 2018", 1, "Martes, 6 de marzo de 2018"),
        ("1º de septiembre de 2019", 1, "2 de septiembre de 2019"),
        ("principios de marzo de 2018", 31, "principios de abril de 2018"),
        ("14/3", 1, "15/3"),
        ("año 2000", 400, "año 2001"),
    ],
)
def test_shift_spanish(text, shift, expected):
    assert shift_date_text(text, shift, lang="es") == expected


def test_day_first_only_for_spanish():
    assert shift_date_text("03/04/2018", 1, lang="es") == "04/04/2018"
    assert shift_date_text("03/04/2018", 1) == "03/05/2018"
    # An impossible day-first date is read month first, as in English.
    assert shift_date_text("03/25/2018", 1, lang="es") == "03/26/2018"


def test_date_language():
    assert date_language("es") == date_language("es_ES") == "es"
    assert date_language("en") == date_language("fr") == date_language("") == "en"


def test_find_anchor_spanish():
    assert find_anchor("12/03/2018", "es") == datetime.date(2018, 3, 12)
    assert find_anchor("3 de marzo de 2018", "es") == datetime.date(2018, 3, 3)
    assert find_anchor("12/03/2018") == datetime.date(2018, 12, 3)


def test_spanish_pipeline_keeps_intervals():
    """A Spanish pipeline (nlp.lang "es") shifts every date of a patient by the
    same number of days, written back day first and in Spanish."""
    text = "Ingreso 12/03/2018, alta el 2 de abril de 2018 y control en mayo de 2018."
    phi = [
        ("12/03/2018", "DATE"),
        ("2 de abril de 2018", "DATE"),
        ("mayo de 2018", "DATE"),
    ]
    nlp = _es_nlp()
    doc = deidentify(nlp, text, phi, "P1")
    first, second, month = [ent._.surrogate for ent in doc.ents]
    day, mon, year = (int(x) for x in first.split("/"))
    match = re.fullmatch(r"(\d+) de (\w+) de (\d{4})", second)
    assert match is not None and match.group(2) in MONTHS
    new_second = datetime.date(
        int(match.group(3)), MONTHS.index(match.group(2)) + 1, int(match.group(1))
    )
    assert (new_second - datetime.date(year, mon, day)).days == 21
    shift = nlp.get_pipe("phi_surrogates").date_shift("P1")
    assert datetime.date(year, mon, day) - datetime.date(2018, 3, 12) == (
        datetime.timedelta(days=shift)
    )
    assert re.fullmatch(r"(\w+) de \d{4}", month).group(1) in MONTHS


def test_english_pipeline_reads_month_first():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_surrogates").set_key(KEY)
    doc = deidentify(nlp, "seen 03/04/2018", [("03/04/2018", "DATE")], "P1")
    shift = nlp.get_pipe("phi_surrogates").date_shift("P1")
    new = datetime.date(2018, 3, 4) + datetime.timedelta(days=shift)
    assert doc.ents[0]._.surrogate == new.strftime("%m/%d/%Y")
