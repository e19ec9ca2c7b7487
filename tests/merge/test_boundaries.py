"""phi_boundaries: span conventions applied to doc.ents."""

import pytest
import spacy

from spacy_deid.corpus.convert import make_converter_nlp
from spacy_deid.merge.boundaries import PhiBoundaries

from .preset import doc_with_ents, ents_of

CONFIG = {
    "strip_prefixes": {"DOCTOR": ["Dr", "Doctora"]},
    "split_labels": ["CITY"],
}


@pytest.fixture
def nlp():
    nlp = make_converter_nlp("es")
    nlp.add_pipe("phi_boundaries", config=CONFIG)
    return nlp


def test_defaults_change_nothing():
    nlp = make_converter_nlp("es")
    nlp.add_pipe("phi_boundaries")
    doc = doc_with_ents(
        nlp, "Vive en Reocín 39539, Cantabria.", [("Reocín 39539, Cantabria", "CITY")]
    )
    assert ents_of(nlp.get_pipe("phi_boundaries")(doc)) == [
        ("Reocín 39539, Cantabria", "CITY")
    ]


def test_strip_title(nlp):
    text = "Remitido por Dr. Pablo Garrido y Doctora Marta García."
    doc = doc_with_ents(
        nlp, text, [("Dr. Pablo Garrido", "DOCTOR"), ("Doctora Marta García", "DOCTOR")]
    )
    doc = nlp.get_pipe("phi_boundaries")(doc)
    assert ents_of(doc) == [("Pablo Garrido", "DOCTOR"), ("Marta García", "DOCTOR")]
    assert all(e._.phi_source == "test" and e._.phi_score == 0.75 for e in doc.ents)


def test_title_only_span_is_kept(nlp):
    doc = doc_with_ents(nlp, "Visto por Dr hoy.", [("Dr", "DOCTOR")])
    assert ents_of(nlp.get_pipe("phi_boundaries")(doc)) == [("Dr", "DOCTOR")]


def test_titles_only_for_their_label(nlp):
    doc = doc_with_ents(nlp, "Calle Dr Fleming 3", [("Dr Fleming", "STREET")])
    assert ents_of(nlp.get_pipe("phi_boundaries")(doc)) == [("Dr Fleming", "STREET")]


@pytest.mark.parametrize(
    "text,span,expected",
    [
        ("Villapresente. Reocín 39539 Cantabria", "Reocín 39539", ["Reocín", "39539"]),
        (
            "Dirección: San Lucas, Coyoacan, CDMX",
            "San Lucas, Coyoacan",
            ["San Lucas", "Coyoacan"],
        ),
        (
            "CP 45600 - Talavera de la Reina",
            "45600 - Talavera de la Reina",
            ["45600", "Talavera de la Reina"],
        ),
        ("Granada E-18012 España", "E-18012", ["E-18012"]),
        ("Vive en Vitoria-Gasteiz ahora", "Vitoria-Gasteiz", ["Vitoria-Gasteiz"]),
        ("Vive en Cdad. Real ahora", "Cdad. Real", ["Cdad. Real"]),
        ("Vive en Dos Hermanas ahora", "Dos Hermanas", ["Dos Hermanas"]),
    ],
)
def test_split(nlp, text, span, expected):
    doc = doc_with_ents(nlp, text, [(span, "CITY")])
    doc = nlp.get_pipe("phi_boundaries")(doc)
    assert ents_of(doc) == [(piece, "CITY") for piece in expected]
    assert all(e._.phi_source == "test" for e in doc.ents)


def test_split_never_uncovers_alnum_tokens(nlp):
    text = "En 28100 Alcobendas, Madrid; 08907 L'Hospitalet / Barcelona."
    span = text[3:-1]
    doc = doc_with_ents(nlp, text, [(span, "CITY")])
    before = {t.i for e in doc.ents for t in e if any(c.isalnum() for c in t.text)}
    doc = nlp.get_pipe("phi_boundaries")(doc)
    after = {t.i for e in doc.ents for t in e}
    assert before <= after
    assert [e.text for e in doc.ents] == [
        "28100",
        "Alcobendas",
        "Madrid",
        "08907",
        "L'Hospitalet",
        "Barcelona",
    ]


def test_config_validation():
    with pytest.raises(ValueError):
        PhiBoundaries(strip_prefixes={"DOCTOR": "Dr"})
    with pytest.raises(ValueError):
        PhiBoundaries(split_labels="CITY")


def test_round_trip(nlp, tmp_path):
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("phi_boundaries").cfg == nlp.get_pipe("phi_boundaries").cfg
    pipe = PhiBoundaries().from_bytes(nlp.get_pipe("phi_boundaries").to_bytes())
    assert pipe.cfg == nlp.get_pipe("phi_boundaries").cfg


def test_shipped_spanish_pipeline_has_it(nlp_es):
    assert "phi_boundaries" in nlp_es.pipe_names
    assert nlp_es.pipe_names.index("phi_boundaries") < nlp_es.pipe_names.index(
        "phi_surrogates"
    )
    assert "TERRITORIO" in nlp_es.get_pipe("phi_boundaries").cfg["split_labels"]
