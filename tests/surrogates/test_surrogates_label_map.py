"""phi_surrogates with `label_map` (own labels shown, mapped labels for
surrogates) and `locale` (Faker locale of realistic surrogates)."""

import pickle

import pytest
import spacy
from faker.providers.person.es_ES import Provider as SpanishNames

from spacy_deid.run.runner import check_deidentified
from spacy_deid.surrogates.generators import SurrogateGenerator
from spacy_deid.surrogates.replacer import PhiSurrogates

from .conftest import KEY, deidentify, make_nlp, surrogates

MEDDOCAN_TEXT = "Paciente Ana Ruiz, mujer, vista el 3/14/2067 con su madre. HC 7194334."
MEDDOCAN_PHI = [
    ("Ana Ruiz", "NOMBRE_SUJETO_ASISTENCIA"),
    ("mujer", "SEXO_SUJETO_ASISTENCIA"),
    ("3/14/2067", "FECHAS"),
    ("madre", "FAMILIARES_SUJETO_ASISTENCIA"),
    ("7194334", "ID_SUJETO_ASISTENCIA"),
]
# The same spans with the i2b2 labels meddocan2i2b2 gives (None: no equivalent).
I2B2_PHI = [
    ("Ana Ruiz", "PATIENT"),
    ("mujer", None),
    ("3/14/2067", "DATE"),
    ("madre", None),
    ("7194334", "MEDICALRECORD"),
]


def _i2b2_surrogates(patient: str):
    nlp = make_nlp()
    phi = [(value, label) for value, label in I2B2_PHI if label is not None]
    doc = deidentify(nlp, MEDDOCAN_TEXT, phi, patient)
    return dict(zip([value for value, _ in phi], surrogates(doc), strict=True))


def test_label_map_surrogates_follow_mapped_labels():
    nlp = make_nlp(label_map="meddocan2i2b2")
    doc = deidentify(nlp, MEDDOCAN_TEXT, MEDDOCAN_PHI, "P1")
    assert [e.label_ for e in doc.ents] == [label for _, label in MEDDOCAN_PHI]
    expected = _i2b2_surrogates("P1")
    for ent, (value, label) in zip(doc.ents, I2B2_PHI, strict=True):
        if label is None:
            # No i2b2 equivalent: masked, never the original.
            assert ent._.surrogate == "[**]"
        else:
            assert ent._.surrogate == expected[value]
    check_deidentified(doc, doc.ents)


def test_label_map_date_shift_is_the_patients():
    nlp = make_nlp(label_map="meddocan2i2b2")
    component = nlp.get_pipe("phi_surrogates")
    doc = deidentify(nlp, "el 3/14/2067", [("3/14/2067", "FECHAS")], "P9")
    plain = make_nlp()
    ref = deidentify(plain, "el 3/14/2067", [("3/14/2067", "DATE")], "P9")
    assert doc.ents[0]._.surrogate == ref.ents[0]._.surrogate != "3/14/2067"
    assert component.date_shift("P9") == plain.get_pipe("phi_surrogates").date_shift(
        "P9"
    )


@pytest.mark.parametrize(
    "mode,expected",
    [("tag", "[NOMBRE_SUJETO_ASISTENCIA]"), ("redact", "<NOMBRE_SUJETO_ASISTENCIA>")],
)
def test_label_map_tags_and_masks_show_own_label(mode, expected):
    nlp = make_nlp(label_map="meddocan2i2b2", mode=mode, redact_mask="<{label}>")
    doc = deidentify(nlp, MEDDOCAN_TEXT, MEDDOCAN_PHI[:1])
    assert doc.ents[0]._.surrogate == expected
    assert expected in doc._.deidentified


def test_label_map_territorio_digits_become_zip():
    nlp = make_nlp(label_map="meddocan2i2b2")
    doc = deidentify(nlp, "CP 02114, Teruel", [("02114", "TERRITORIO")])
    new = doc.ents[0]._.surrogate
    assert new != "02114" and len(new) == 5 and new.isdigit()


def test_label_map_surrogate_method():
    component = make_nlp(label_map="meddocan2i2b2").get_pipe("phi_surrogates")
    assert component.surrogate_label("FECHAS") == "DATE"
    assert component.surrogate_label("SEXO_SUJETO_ASISTENCIA") is None
    assert component.surrogate_label("TERRITORIO", "28034") == "ZIP"
    assert component.surrogate("SEXO_SUJETO_ASISTENCIA", "varón") == "[**]"
    new = component.surrogate("NOMBRE_SUJETO_ASISTENCIA", "Ana Ruiz", "P1")
    assert new == make_nlp().get_pipe("phi_surrogates").surrogate(
        "PATIENT", "Ana Ruiz", "P1"
    )


def test_unknown_label_without_map_is_never_kept():
    """Without a label map, a label the generator does not know gets a
    shape-preserving replacement (never the original), which passes the
    output check."""
    nlp = make_nlp()
    doc = deidentify(nlp, "x Abc-123 y", [("Abc-123", "SOMETHING_ELSE")])
    new = doc.ents[0]._.surrogate
    assert new != "Abc-123" and len(new) == 7 and new[3] == "-"
    check_deidentified(doc, doc.ents)


def test_label_map_and_locale_validated():
    with pytest.raises(ValueError, match="label map"):
        make_nlp(label_map="nope")
    with pytest.raises(ValueError, match="locale"):
        make_nlp(locale="xx_XX")
    with pytest.raises(ValueError):
        PhiSurrogates(spacy.blank("en"), label_map=["not", "a", "name"])


def test_label_map_and_locale_serialized(tmp_path):
    nlp = make_nlp(label_map="meddocan2i2b2", locale="es_ES")
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    component = loaded.get_pipe("phi_surrogates")
    assert component.cfg["label_map"] == "meddocan2i2b2"
    assert component.cfg["locale"] == "es_ES"
    fresh = PhiSurrogates(spacy.blank("en"))
    fresh.from_bytes(nlp.get_pipe("phi_surrogates").to_bytes())
    assert fresh.surrogate_label("FECHAS") == "DATE"
    assert fresh._generator.locale == "es_ES"


def test_locale_names_deterministic_and_from_locale():
    spanish = {n.lower() for n in SpanishNames.first_names + SpanishNames.last_names}
    outs = []
    for _ in range(2):
        nlp = make_nlp(locale="es_ES")
        doc = deidentify(nlp, "Ana Ruiz Soler", [("Ana Ruiz Soler", "PATIENT")], "P1")
        outs.append(doc.ents[0]._.surrogate)
    assert outs[0] == outs[1]
    assert all(token.lower() in spanish for token in outs[0].split())
    other = deidentify(
        make_nlp(locale="es_ES"),
        "Ana Ruiz Soler",
        [("Ana Ruiz Soler", "PATIENT")],
        "P2",
    )
    assert other.ents[0]._.surrogate != outs[0]


def test_locale_realistic_values_deterministic():
    phi = [("Teruel", "CITY"), ("Acme Ltd", "ORGANIZATION")]
    text = "Teruel y Acme Ltd"
    first = surrogates(deidentify(make_nlp(locale="es_ES"), text, phi, "P1"))
    again = surrogates(deidentify(make_nlp(locale="es_ES"), text, phi, "P1"))
    english = surrogates(deidentify(make_nlp(), text, phi, "P1"))
    assert first == again and first != english


def test_default_locale_unchanged():
    text = "John Smith in Boston"
    phi = [("John Smith", "PATIENT"), ("Boston", "CITY")]
    default = surrogates(deidentify(make_nlp(), text, phi, "P1"))
    explicit = surrogates(deidentify(make_nlp(locale="en_US"), text, phi, "P1"))
    assert default == explicit


def test_generator_pickle_keeps_locale():
    generator = SurrogateGenerator(KEY, locale="es_ES", date_lang="es")
    clone = pickle.loads(pickle.dumps(generator))
    assert clone.locale == "es_ES" and clone.date_lang == "es"
    args = ("PATIENT", "Ana Ruiz", "P1")
    assert clone.generate(*args, date_shift=10) == generator.generate(
        *args, date_shift=10
    )


def test_spanish_hospitals_read_spanish():
    nlp = make_nlp(locale="es_ES")
    for value in ("Hospital Universitario La Paz", "Centro de Salud Delicias"):
        new = deidentify(nlp, f"en {value}.", [(value, "HOSPITAL")]).ents[0]._.surrogate
        assert new != value
        assert new.startswith(("Hospital", "Clínica", "Centro de Salud"))
    new = deidentify(nlp, "en el CS Delicias", [("Delicias", "HOSPITAL")])
    assert new.ents[0]._.surrogate != "Delicias"
