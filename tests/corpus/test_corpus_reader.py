import pickle
import subprocess
import sys

import pytest
import spacy
from spacy.training.initialize import init_nlp
from spacy.util import load_config_from_str, load_model_from_config, registry

from spacy_deid.corpus import PhiCorpus, create_phi_corpus, write_i2b2_dir, write_jsonl

CONFIG = """
[paths]
train = null
dev = null

[nlp]
lang = "en"
pipeline = ["ner"]

[components]

[components.ner]
factory = "ner"

[corpora]

[corpora.train]
@readers = "spacy_deid.PhiCorpus.v1"
path = ${paths.train}
format = "auto"
label_map = "category"
misaligned = "missing"
limit = 0

[corpora.dev]
@readers = "spacy_deid.PhiCorpus.v1"
path = ${paths.dev}
"""


def test_entry_point_resolves():
    assert registry.readers.get("spacy_deid.PhiCorpus.v1") is create_phi_corpus


def test_reader_yields_examples_and_pickles(tmp_path, notes):
    write_jsonl(notes, tmp_path / "train.jsonl")
    corpus = create_phi_corpus(tmp_path / "train.jsonl", limit=2)
    corpus = pickle.loads(pickle.dumps(corpus))
    assert isinstance(corpus, PhiCorpus)
    nlp = spacy.blank("en")
    examples = list(corpus(nlp))
    assert len(examples) == 2
    eg = examples[0]
    assert eg.predicted.text == eg.reference.text
    assert {e.label_ for e in eg.reference.ents} >= {"PATIENT", "DATE"}
    assert eg.reference._.patient is None and examples[1].reference._.patient == "p7"
    assert corpus.last_stats.notes == 2


def test_config_driven_training_setup(tmp_path, notes):
    write_jsonl(notes, tmp_path / "train.jsonl")
    write_i2b2_dir(notes, tmp_path / "dev")
    overrides = {
        "paths.train": str(tmp_path / "train.jsonl"),
        "paths.dev": str(tmp_path / "dev"),
    }
    config = load_config_from_str(CONFIG, overrides=overrides)
    filled = load_model_from_config(config, auto_fill=True).config
    nlp = init_nlp(filled)
    assert set(nlp.get_pipe("ner").labels) == {
        "NAME",
        "DATE",
        "LOCATION",
        "ID",
        "AGE",
        "CONTACT",
    }
    dev = registry.resolve(nlp.config.interpolate()["corpora"])["dev"]
    dev_examples = list(dev(nlp))
    assert len(dev_examples) == 3
    losses = nlp.update(
        list(registry.resolve(nlp.config.interpolate()["corpora"])["train"](nlp))
    )
    assert "ner" in losses


def test_reader_needs_a_path_when_read():
    corpus = create_phi_corpus(None)  # building it with null paths is fine
    with pytest.raises(ValueError, match="path"):
        next(iter(corpus(spacy.blank("en"))))


def test_entry_points_resolve_without_import():
    code = (
        "from spacy.util import registry\n"
        "import sys\n"
        "assert 'spacy_deid' not in sys.modules\n"
        "corpus = registry.readers.get('spacy_deid.PhiCorpus.v1')\n"
        "scorer = registry.scorers.get('spacy_deid.phi_scorer.v1')\n"
        "print(corpus.__module__, scorer.__module__)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "spacy_deid.corpus.reader spacy_deid.core.scorers" in proc.stdout
