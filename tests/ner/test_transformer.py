"""The optional transformer backbone (`configs/transformer.cfg`): a tiny,
randomly initialised BERT written by the test feeds `phi_ner` through a
spacy-transformers listener. Trained for a few steps, saved, reloaded and run
on a note longer than one window, with every socket connection refused.

The tests that need torch and spacy-transformers (the `[transformers]` extra)
are skipped without them (and fail where `SPACY_DEID_REQUIRE` names them, as in
CI); the import scan and `depth = 0` run everywhere:

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 \
        python -m pytest tests/ner/test_transformer.py -q
"""

import ast
import json
import os
import socket
from pathlib import Path
from typing import Iterator, List

import numpy as np
import pytest
import spacy
from spacy.util import load_config, load_model_from_config
from thinc.api import Adam, fix_random_seed

from ..extras import need

from spacy_deid.corpus import write_jsonl
from spacy_deid.corpus.reader import PhiCorpus
from spacy_deid.synth import generate

from ..conftest import ROOT
from .conftest import TINY_MODEL, make_examples, make_nlp, train

# Hugging Face reads these when it is imported: set them before any test
# imports transformers, so that nothing is even looked up online.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

CONFIG = ROOT / "configs" / "transformer.cfg"
PACKAGE = ROOT / "spacy_deid"
FORBIDDEN = ("torch", "spacy_transformers", "transformers")
WINDOW, STRIDE = 24, 16
SHORT_DATA = [
    (
        "Seen by Dr John Smith on 12/03/2020 .",
        {"entities": [(11, 21, "DOCTOR"), (25, 35, "DATE")]},
    ),
    ("Patient Mary Jones called 555-1234 today", {"entities": [(8, 18, "PATIENT")]}),
    (
        "Follow up on 01/02/2021 with Dr Kim",
        {"entities": [(13, 23, "DATE"), (32, 35, "DOCTOR")]},
    ),
    ("No PHI in this sentence at all", {"entities": []}),
]
# Tiny pipeline: overrides of configs/transformer.cfg (the BERT is tiny too).
TINY_OVERRIDES = {
    "components.transformer.model.get_spans.window": WINDOW,
    "components.transformer.model.get_spans.stride": STRIDE,
    "components.phi_ner.model.char_embed.width": 8,
    "components.phi_ner.model.char_embed.filters": 16,
    "components.phi_ner.model.char_embed.max_chars": 12,
}


# Import scan (no torch needed) --------------------------------------------------


def _module_level(body: List[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run when a module is imported: not function bodies."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        yield node
        for field in ("body", "orelse", "finalbody"):
            yield from _module_level(getattr(node, field, []) or [])
        for handler in getattr(node, "handlers", []) or []:
            yield from _module_level(handler.body)
        for case in getattr(node, "cases", []) or []:
            yield from _module_level(case.body)


def forbidden_imports(source: str) -> List[str]:
    """Module-level imports of torch / (spacy_)transformers in the source."""
    found = []
    for node in _module_level(ast.parse(source).body):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found += [n for n in names if n.split(".")[0] in FORBIDDEN]
    return found


def test_import_scan_finds_planted_imports():
    source = (
        "import os\n"
        "try:\n    import torch.nn as nn\nexcept ImportError:\n    pass\n"
        "if True:\n    from spacy_transformers import Transformer\n"
        "class A:\n    import transformers\n"
        "def f():\n    import torch\n"
        "from . import torch_free\n"
    )
    assert forbidden_imports(source) == [
        "torch.nn",
        "spacy_transformers",
        "transformers",
    ]


def test_core_package_never_imports_torch():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in files
        if (found := forbidden_imports(path.read_text(encoding="utf8")))
    }
    assert offenders == {}


# depth = 0 (no torch needed) -----------------------------------------------------


def test_depth_zero_has_no_bilstm_and_trains():
    cnn = {"@architectures": "spacy_deid.CharCNNEmbed.v1", "width": 8, "filters": 16}
    nlp = make_nlp(model={**TINY_MODEL, "depth": 0, "char_embed": cnn})
    model = nlp.get_pipe("phi_ner").model
    names = [node.name for node in model.walk()]
    assert "bilstm" not in names
    assert not any("with_padded" in name for name in names)
    losses = train(nlp, make_examples(nlp), steps=25)
    assert losses["phi_ner"] < 1.0
    doc = nlp("Seen by Dr John Smith on 12/03/2020 .")
    assert ("John Smith", "DOCTOR") in [(e.text, e.label_) for e in doc.ents]


def test_depth_one_keeps_its_layers():
    """depth = 1 builds what it always built (the shipped configs' models)."""
    nlp = make_nlp()
    names = [node.name for node in nlp.get_pipe("phi_ner").model.walk()]
    assert names.count("bilstm") == 2  # token + character
    assert names.count("with_packed(bilstm)") == 1


def test_negative_depth_is_an_error():
    with pytest.raises(ValueError, match="depth"):
        make_nlp(model={**TINY_MODEL, "depth": -1})


# Transformer pipeline --------------------------------------------------------------


@pytest.fixture(scope="module")
def trf():
    torch = need("torch")
    torch.set_num_threads(1)  # tiny models: threads only add overhead
    return need("spacy_transformers")


@pytest.fixture(scope="module")
def no_network(trf):
    """Every socket connection fails for the module's tests."""

    def refuse(*args, **kwargs):
        raise AssertionError("network access attempted")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        mp.setattr(socket, "create_connection", refuse)
        yield


def _vocab() -> List[str]:
    """A BERT vocabulary where every ASCII word splits into known pieces."""
    chars = [chr(c) for c in range(33, 127) if not chr(c).isupper()]
    words = ["dr", "patient", "seen", "by", "on", "the", "and", "mrn"]
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    return specials + chars + ["##" + c for c in chars] + words


@pytest.fixture(scope="module")
def tiny_bert(trf, no_network, tmp_path_factory) -> Path:
    """A randomly initialised 1-layer BERT and its tokenizer, saved locally."""
    from transformers import BertConfig, BertModel, BertTokenizerFast

    path = tmp_path_factory.mktemp("tiny_bert")
    vocab_file = path / "vocab.txt"
    vocab_file.write_text("\n".join(_vocab()) + "\n", encoding="utf8")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab_file), do_lower_case=True)
    tokenizer.model_max_length = 128
    tokenizer.save_pretrained(str(path))
    config = BertConfig(
        vocab_size=len(_vocab()),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=128,
    )
    fix_random_seed(0)
    BertModel(config).save_pretrained(str(path))
    return path


def make_trf_nlp(model_dir: Path) -> spacy.Language:
    """configs/transformer.cfg filled with the tiny BERT and tiny head."""
    overrides = {"paths.transformer_model": str(model_dir), **TINY_OVERRIDES}
    config = load_config(CONFIG, overrides=overrides, interpolate=True)
    return load_model_from_config(config, auto_fill=True, validate=True)


@pytest.fixture(scope="module")
def notes_path(tmp_path_factory) -> Path:
    """Four synthetic notes (several windows each) as JSONL."""
    path = tmp_path_factory.mktemp("notes") / "notes.jsonl"
    write_jsonl(generate(4, seed=11, split="train", crlf_rate=0.0), str(path))
    return path


@pytest.fixture(scope="module")
def trained(tiny_bert, notes_path, tmp_path_factory):
    """Train on short examples + synthetic notes, save, reload."""
    nlp = make_trf_nlp(tiny_bert)
    examples = make_examples(nlp, SHORT_DATA)
    examples += list(PhiCorpus(notes_path, misaligned="missing")(nlp))
    fix_random_seed(0)
    nlp.initialize(get_examples=lambda: examples)
    optimizer = Adam(0.005)
    history = []
    for step in range(24):
        losses = {}
        nlp.update(examples[:4] if step % 4 else examples, sgd=optimizer, losses=losses)
        if step % 4:
            history.append(losses["phi_ner"])
    path = tmp_path_factory.mktemp("trf_pipeline")
    nlp.to_disk(path)
    return nlp, spacy.load(path), history


def test_network_is_refused(no_network):
    with pytest.raises(AssertionError, match="network"):
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    with pytest.raises(AssertionError, match="network"):
        with socket.socket() as sock:
            sock.connect(("127.0.0.1", 9))


def test_losses_fall(trained):
    _, _, history = trained
    assert history[-1] < 0.2 * history[0]


def test_learns_through_the_listener(trained):
    """The short training examples are fitted (the listener passes gradients
    and features; the CRF decodes)."""
    _, nlp, _ = trained
    for text, annots in SHORT_DATA:
        doc = nlp(text)
        gold = {(s, e, label) for s, e, label in annots["entities"]}
        assert {(e.start_char, e.end_char, e.label_) for e in doc.ents} == gold


def test_reloaded_pipeline_predicts_the_same(trained, notes_path):
    original, reloaded, _ = trained
    assert reloaded.pipe_names == ["transformer", "phi_ner"]
    texts = _texts(notes_path)
    for doc_a, doc_b in zip(original.pipe(texts), reloaded.pipe(texts), strict=True):
        assert [(e.start, e.end, e.label_) for e in doc_a.ents] == [
            (e.start, e.end, e.label_) for e in doc_b.ents
        ]
        np.testing.assert_allclose(
            doc_a._.trf_data.tensors[0],
            doc_b._.trf_data.tensors[0],
            rtol=1e-5,
            atol=1e-6,
        )


def _texts(notes_path: Path) -> List[str]:
    lines = notes_path.read_text(encoding="utf8").splitlines()
    return [json.loads(line)["text"] for line in lines]


def _long_text(notes_path: Path) -> str:
    return "\n\n".join(_texts(notes_path))


def test_long_note_windows_and_exact_offsets(trained, notes_path):
    """A note many windows long: every visible token is aligned to wordpieces
    (the last window too), and every span is on our tokenizer's boundaries."""
    _, nlp, _ = trained
    text = _long_text(notes_path)
    ner = nlp.get_pipe("phi_ner")
    ner.cfg["recall_bias"] = 1e3  # every token is PHI: spans all along the note
    try:
        doc = nlp(text)
    finally:
        ner.cfg["recall_bias"] = 0.0
    assert len(doc) > 10 * WINDOW
    trf_data = doc._.trf_data
    assert trf_data.wordpieces.input_ids.shape[0] >= len(doc) // STRIDE
    lengths = trf_data.align.lengths
    assert len(lengths) == len(doc)
    assert all(lengths[t.i] > 0 for t in doc if not t.is_space)
    assert np.isfinite(trf_data.tensors[0]).all()
    # Tokens are the clinical tokenizer's, and spans cover the whole note.
    plain = nlp.tokenizer(text)
    assert [(t.idx, t.text) for t in doc] == [(t.idx, t.text) for t in plain]
    starts = {t.idx for t in doc}
    ends = {t.idx + len(t) for t in doc}
    assert doc.ents and doc.ents[-1].end >= len(doc) - 2
    for ent in doc.ents:
        assert ent.start_char in starts and ent.end_char in ends
        assert text[ent.start_char : ent.end_char] == ent.text


def test_empty_and_whitespace_notes(trained):
    _, nlp, _ = trained
    docs = list(nlp.pipe(["", "   ", "\n\n", "Seen by Dr John Smith on 12/03/2020 ."]))
    assert [len(d.ents) for d in docs[:3]] == [0, 0, 0]
    assert len(docs[3].ents) == 2


def test_spacy_train_resolves_the_config(tiny_bert, notes_path, tmp_path):
    """`spacy train configs/transformer.cfg --paths.transformer_model DIR`
    runs (2 steps, in process) and writes a loadable pipeline."""
    from spacy.cli.train import train as spacy_train

    overrides = {
        "paths.transformer_model": str(tiny_bert),
        "paths.train": str(notes_path),
        "paths.dev": str(notes_path),
        "training.max_steps": 2,
        "training.eval_frequency": 1,
        "training.logger": {
            "@loggers": "spacy.ConsoleLogger.v1",
            "progress_bar": False,
        },
        **TINY_OVERRIDES,
    }
    spacy_train(CONFIG, tmp_path / "out", overrides=overrides, use_gpu=-1)
    nlp = spacy.load(tmp_path / "out" / "model-last")
    assert nlp.pipe_names == ["transformer", "phi_ner"]
    assert "DATE" in nlp.get_pipe("phi_ner").labels
    assert nlp.get_pipe("transformer").model.get_dim("nO") == 32


def test_update_with_an_empty_note(tiny_bert):
    """An empty note in a training batch (skipped by phi_ner's model) keeps
    the listener's outputs aligned with the other notes."""
    nlp = make_trf_nlp(tiny_bert)
    examples = make_examples(nlp, [("", {"entities": []}), *SHORT_DATA])
    fix_random_seed(0)
    nlp.initialize(get_examples=lambda: examples)
    losses = {}
    nlp.update(examples, sgd=Adam(0.001), losses=losses)
    assert np.isfinite(losses["phi_ner"])
