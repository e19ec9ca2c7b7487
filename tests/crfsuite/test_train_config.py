"""`spacy train configs/crf_en.cfg` on a few generated notes, in a subprocess."""

import subprocess
import sys
import time
from pathlib import Path

import pytest
import srsly

from ..extras import need

need("pycrfsuite")

from spacy_deid.synth import generate, write_jsonl  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Registers phi_crf in the training process (until the factory has its
# spacy_factories entry point, `spacy train` cannot find it by itself).
CODE = "import spacy_deid.crfsuite.component  # noqa: F401\n"


def test_spacy_train_crf_en(tmp_path):
    write_jsonl(generate(30, seed=3, split="train"), str(tmp_path / "train.jsonl"))
    write_jsonl(generate(5, seed=4, split="dev"), str(tmp_path / "dev.jsonl"))
    (tmp_path / "code.py").write_text(CODE)
    out = tmp_path / "out"
    started = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "spacy",
            "train",
            str(ROOT / "configs" / "crf_en.cfg"),
            "--output",
            str(out),
            "--paths.train",
            str(tmp_path / "train.jsonl"),
            "--paths.dev",
            str(tmp_path / "dev.jsonl"),
            "--code",
            str(tmp_path / "code.py"),
            "--components.phi_crf.max_iterations",
            "30",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert time.perf_counter() - started < 300
    meta = srsly.read_json(out / "model-best" / "meta.json")
    assert meta["pipeline"] == ["phi_crf"]
    assert meta["performance"]["ents_f"] > 0.2
    assert (out / "model-best" / "phi_crf" / "model").stat().st_size > 0
    # The saved pipeline loads and tags.
    import spacy

    nlp = spacy.load(out / "model-best")
    crf = nlp.get_pipe("phi_crf")
    assert crf.is_initialized and "DATE" in crf.labels
    doc = nlp("Seen by Dr. Smith on 03/04/2021.")
    assert all(ent._.phi_source == "phi_crf" for ent in doc.ents)


@pytest.mark.parametrize(
    "name,lang,dictionaries",
    [("crf_en.cfg", "en", True), ("crf_meddocan.cfg", "es", False)],
)
def test_configs(name, lang, dictionaries):
    from thinc.api import Config

    config = Config().from_disk(ROOT / "configs" / name, interpolate=False)
    assert config["nlp"]["lang"] == lang
    assert config["nlp"]["pipeline"] == ["phi_crf"]
    assert (
        config["nlp"]["tokenizer"]["@tokenizers"] == "spacy_deid.ClinicalTokenizer.v1"
    )
    assert config["components"]["phi_crf"]["dictionaries"] is dictionaries
    for corpus in ("train", "dev"):
        assert config["corpora"][corpus]["@readers"] == "spacy_deid.PhiCorpus.v1"
    # Training happens in initialize: one step is enough, and max_epochs = -1
    # would make spaCy initialize (train the CRF) on the first 100 notes only.
    assert config["training"]["max_steps"] == 1
    assert config["training"]["max_epochs"] >= 0
