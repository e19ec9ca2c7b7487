import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **kwargs) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter (nothing imported from spacy_deid yet)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


# The session pipelines' surrogate key: set when they load, so that no test
# depends on another having set one first (tests run in any order, and in
# two worker processes).
SESSION_KEY = b"session-pipelines-test-key-0123456789"


def _with_key(nlp):
    nlp.get_pipe("phi_surrogates").set_key(SESSION_KEY)
    return nlp


@pytest.fixture(scope="session")
def nlp_en():
    """The shipped default English pipeline (rules + trained tagger), loaded
    once per test session."""
    import spacy

    return _with_key(spacy.load("spacy_deid"))


@pytest.fixture(scope="session")
def nlp_rules():
    """The shipped rules-only English pipeline ("en_rules"): tests of what the
    rules find use it, so that they do not depend on the trained model."""
    import spacy_deid

    return _with_key(spacy_deid.load("en_rules"))


@pytest.fixture(scope="session")
def nlp_es():
    """The shipped Spanish pipeline trained on MEDDOCAN ("es_meddocan")."""
    import spacy_deid

    return _with_key(spacy_deid.load("es_meddocan"))


def count_calls(monkeypatch, owner, name: str) -> list:
    """Wrap `owner.<name>` (a module function or a class's method) so that
    each call appends its positional arguments to the list returned."""
    calls = []
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


@pytest.fixture(scope="session")
def examples_path() -> Path:
    return ROOT / "examples" / "notes.jsonl"


def listening_tagger_pipeline():
    """A blank English pipeline: `tok2vec`, then a `phi_ner` whose features
    are a `Tok2VecListener` of it, initialized on one fictional example."""
    import spacy
    from spacy.training import Example

    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    listener = {"@architectures": "spacy.Tok2VecListener.v1", "width": 96}
    model = {
        "@architectures": "spacy_deid.CharBiLSTMCRF.v1",
        "features": {**listener, "upstream": "*"},
        "char_embed": None,
        "hidden_width": 8,
    }
    nlp.add_pipe("phi_ner", config={"model": model})
    doc = nlp.make_doc("Seen by Whalen on 09/14/2067.")
    ref = doc.copy()
    ref.ents = [ref.char_span(8, 14, "DOCTOR")]
    nlp.initialize(lambda: [Example(doc, ref)])
    return nlp
