"""floret vectors trained on a corpus's texts (spacy_deid.corpus.vectors)."""

import io

import numpy as np
import pytest
import spacy
import srsly
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus.convert import make_converter_nlp
from spacy_deid.corpus.vectors import FloretSettings, train_vectors, write_token_lines

from ..extras import need

need("floret")

TEXTS = [
    "Paciente de 45 años remitido al Hospital Clínico de Valencia.\nDr. Pérez.",
    "Mujer de 62 años con dolor torácico; ingresa en el Hospital La Fe.",
    "Varón de 30 años, natural de Madrid, sin antecedentes de interés.",
] * 20
SMALL = FloretSettings(dim=8, bucket=500, epoch=2)


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "notes.jsonl"
    records = [{"id": str(i), "text": t, "spans": []} for i, t in enumerate(TEXTS)]
    srsly.write_jsonl(path, records)
    return path


def test_write_token_lines_uses_the_clinical_tokenizer():
    out = io.StringIO()
    n = write_token_lines(
        ["Vive en la C/Mayor 5\n\nTel 600123123"], make_converter_nlp("es"), out
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert n == sum(len(line.split()) for line in lines)


def test_train_vectors_is_a_floret_pipeline(corpus, tmp_path):
    out = tmp_path / "vectors"
    n_tokens = train_vectors(corpus, out, lang="es", settings=SMALL)
    assert n_tokens > 100
    nlp = spacy.load(out)
    assert nlp.lang == "es"
    assert nlp.vocab.vectors.mode == "floret"
    assert nlp.vocab.vectors.shape == (500, 8)
    # Subword hashing: an unseen, misspelt word still gets a non-zero vector.
    assert np.abs(nlp.vocab["Hospitall"].vector).sum() > 0


def test_one_thread_is_deterministic(corpus, tmp_path):
    train_vectors(corpus, tmp_path / "a", lang="es", settings=SMALL)
    train_vectors(corpus, tmp_path / "b", lang="es", settings=SMALL)
    a = spacy.load(tmp_path / "a").vocab.vectors.data
    b = spacy.load(tmp_path / "b").vocab.vectors.data
    assert np.array_equal(a, b)


def test_empty_corpus_is_an_error(tmp_path):
    path = tmp_path / "empty.jsonl"
    srsly.write_jsonl(path, [{"id": "1", "text": "  ", "spans": []}])
    with pytest.raises(ValueError):
        train_vectors(path, tmp_path / "out", settings=SMALL)


def test_cli(corpus, tmp_path):
    out = tmp_path / "cli_vectors"
    args = ["vectors", str(corpus), str(out), "--lang", "es", "--dim", "8"]
    result = CliRunner().invoke(app, args + ["--bucket", "300", "--epoch", "1"])
    assert result.exit_code == 0, result.output
    assert spacy.load(out).vocab.vectors.shape == (300, 8)


def test_phi_ner_trains_with_the_vectors(corpus, tmp_path):
    from spacy.training import Example

    out = tmp_path / "vectors"
    train_vectors(corpus, out, lang="es", settings=SMALL)
    from tests.ner.conftest import TINY_MODEL

    model = {**TINY_MODEL, "features": {**TINY_MODEL["features"]}}
    model["features"]["include_static_vectors"] = True
    nlp = make_converter_nlp("es")
    nlp.add_pipe("phi_ner", config={"model": model})
    nlp.config["initialize"]["vectors"] = str(out)
    text = "Paciente remitido al Hospital La Fe por el Dr. Pérez."
    doc = nlp.make_doc(text)
    start = text.index("Hospital")
    eg = Example.from_dict(doc, {"entities": [(start, start + 14, "HOSPITAL")]})
    optimizer = nlp.initialize(lambda: [eg])
    assert nlp.vocab.vectors.shape == (500, 8)
    losses = {}
    for _ in range(3):
        nlp.update([eg], sgd=optimizer, losses=losses)
    assert np.isfinite(losses["phi_ner"])
    assert nlp("Ingresa en el Hospital La Fe.") is not None
