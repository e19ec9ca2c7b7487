import pytest

from spacy_deid.labels.maps import (
    COARSE_LABELS,
    I2B2_TO_MEDDOCAN,
    LABEL_MAP_NAMES,
    MEDDOCAN_LABELS,
    MEDDOCAN_TO_COARSE,
    MEDDOCAN_TO_I2B2,
    apply,
    get_label_map,
    inverse,
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


def test_apply_dict_map_unmapped_labels():
    mapping = {"PATIENT": "NAME", "DOCTOR": None}
    assert apply("PATIENT", mapping) == "NAME"
    assert apply("patient", mapping) == "NAME"  # canonical spelling looked up
    assert apply("DOCTOR", mapping) is None
    assert apply("FOO", mapping) == "FOO"
    assert apply("FOO", mapping, drop_unmapped=True) is None
    assert apply("DOCTOR", mapping, drop_unmapped=True) is None
    assert apply("FOO", None) == "FOO"
    assert apply("FOO", None, drop_unmapped=True) == "FOO"


def test_apply_function_maps_decide_every_label():
    meddocan = get_label_map("meddocan2i2b2")
    assert apply("TERRITORIO", meddocan, "28035") == "ZIP"
    assert apply("TERRITORIO", meddocan, "Madrid") == "CITY"
    assert apply("SEXO_SUJETO_ASISTENCIA", meddocan) is None
    assert apply("PATIENT", meddocan) == "PATIENT"
    hipaa = get_label_map("hipaa")
    assert apply("DOCTOR", hipaa) is None
    assert apply("DOCTOR", hipaa, drop_unmapped=True) is None


def test_map_note_is_apply_on_every_span():
    note = Note(
        "n",
        "Ana en 28035, Madrid",
        [PhiSpan(0, 3, "NOMBRE_SUJETO_ASISTENCIA"), PhiSpan(7, 12, "TERRITORIO"),
         PhiSpan(14, 20, "TERRITORIO"), PhiSpan(4, 6, "SEXO_SUJETO_ASISTENCIA")],
    )  # fmt: skip
    mapping = get_label_map("meddocan2i2b2")
    mapped = map_note(note, mapping)
    expected = [apply(s.label, mapping, note.text[s.start : s.end]) for s in note.spans]
    assert [s.label for s in mapped.spans] == [e for e in expected if e]
    assert [s.label for s in mapped.spans] == ["PATIENT", "ZIP", "CITY"]


def test_inverse():
    assert inverse("meddocan2i2b2") == "i2b22meddocan"
    for name in ["none", "category", "hipaa", "coarse", "i2b22meddocan"]:
        assert inverse(name) is None
    assert inverse(None) is None
    assert all(inverse(name) in LABEL_MAP_NAMES + [None] for name in LABEL_MAP_NAMES)
    with pytest.raises(ValueError):
        inverse("nope")


def test_inverse_takes_i2b2_labels_back_to_meddocan():
    forward = get_label_map("meddocan2i2b2")
    back = get_label_map(inverse("meddocan2i2b2"))
    for label in ["NOMBRE_SUJETO_ASISTENCIA", "FECHAS", "TERRITORIO", "CALLE"]:
        assert apply(apply(label, forward, "Madrid"), back) == label
