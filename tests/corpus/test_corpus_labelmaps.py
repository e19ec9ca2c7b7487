import pytest

from spacy_deid.labels.maps import (
    COARSE_LABELS,
    I2B2_TO_MEDDOCAN,
    MEDDOCAN_LABELS,
    MEDDOCAN_TO_COARSE,
    MEDDOCAN_TO_I2B2,
    get_label_map,
    map_note,
    meddocan_to_i2b2,
    subcategory_to_category,
    subcategory_to_hipaa,
    to_coarse,
)
from spacy_deid.core.types import Note, PhiSpan
from spacy_deid.labels import LABEL_NAMES


def test_tables_are_complete_and_valid():
    assert set(MEDDOCAN_LABELS) == set(MEDDOCAN_TO_I2B2) == set(MEDDOCAN_TO_COARSE)
    assert all(v is None or v in LABEL_NAMES for v in MEDDOCAN_TO_I2B2.values())
    assert set(I2B2_TO_MEDDOCAN) == set(LABEL_NAMES)
    assert set(I2B2_TO_MEDDOCAN.values()) <= set(MEDDOCAN_LABELS)
    assert set(MEDDOCAN_TO_COARSE.values()) <= set(COARSE_LABELS)
    assert all(to_coarse(label) in COARSE_LABELS for label in LABEL_NAMES)


def test_lossy_meddocan_labels():
    assert meddocan_to_i2b2("SEXO_SUJETO_ASISTENCIA") is None
    assert meddocan_to_i2b2("TERRITORIO", "28035") == "ZIP"
    assert meddocan_to_i2b2("TERRITORIO", "Madrid") == "CITY"
    assert to_coarse("SEXO_SUJETO_ASISTENCIA") == "OTHER"


def test_category_and_hipaa():
    assert subcategory_to_category("LOCATION-OTHER") == "LOCATION"
    assert subcategory_to_category("UNKNOWN") is None
    assert subcategory_to_hipaa("patient") == "PATIENT"
    assert subcategory_to_hipaa("DOCTOR") is None


def test_map_note_named_and_dict_maps():
    note = Note(
        "n",
        "Kim saw Dr Lee",
        [PhiSpan(0, 3, "PATIENT"), PhiSpan(11, 14, "DOCTOR"), PhiSpan(4, 7, "FOO")],
    )
    hipaa = map_note(note, get_label_map("hipaa"))
    assert [s.label for s in hipaa.spans] == ["PATIENT"]
    category = map_note(note, get_label_map("category"))
    assert [s.label for s in category.spans] == ["NAME", "NAME"]
    mapping = {"PATIENT": "NAME", "DOCTOR": None}
    kept = map_note(note, mapping)
    assert [s.label for s in kept.spans] == ["NAME", "FOO"]
    dropped = map_note(note, mapping, drop_unmapped=True)
    assert [s.label for s in dropped.spans] == ["NAME"]
    assert map_note(note, get_label_map("none")) is note
    assert note.spans[0].label == "PATIENT"  # original untouched
    with pytest.raises(ValueError):
        get_label_map("nope")
