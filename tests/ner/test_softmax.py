"""The "no CRF" ablation (loss = "softmax"): loss, decoding, training, cfg."""

import itertools

import numpy as np
import pytest
import spacy
import srsly
from spacy.training import Example
from spacy.util import load_config, load_model_from_config, make_tempdir
from thinc.api import Adam, fix_random_seed

from spacy_deid.ner import PhiEntityRecognizer
from spacy_deid.tagging.crf import (
    constraint_params,
    is_valid_biluo,
    log_softmax,
    softmax_loss,
    viterbi,
)

from ..conftest import ROOT
from .conftest import TRAIN_DATA, make_examples, make_nlp

FIRST = ["John", "Mary", "Ana", "Lee", "Omar", "Kim", "Ruth", "Paul"]
LAST = ["Smith", "Jones", "Garcia", "Chen", "Khouri", "Novak", "Berg", "Kowalczyk"]
TEMPLATES = [
    "Seen by Dr {first} {last} on {date} .",
    "Patient {first} {last} returns {date} for review",
    "Call Dr {last} before {date}",
    "No PHI in this line at all",
]


def _generate(nlp, n, seed):
    """n small fictional examples: DOCTOR/PATIENT names and DATEs."""
    rng = np.random.default_rng(seed)
    examples = []
    for i in range(n):
        template = TEMPLATES[i % len(TEMPLATES)]
        values = {
            "first": str(rng.choice(FIRST)),
            "last": str(rng.choice(LAST)),
            "date": f"{rng.integers(1, 13):02d}/{rng.integers(1, 29):02d}/2021",
        }
        text = template.format(**values)
        ents = []
        if "{date}" in template:
            start = text.index(values["date"])
            ents.append((start, start + len(values["date"]), "DATE"))
        if "{first}" in template:
            name = f"{values['first']} {values['last']}"
            label = "PATIENT" if template.startswith("Patient") else "DOCTOR"
            ents.append((text.index(name), text.index(name) + len(name), label))
        elif "{last}" in template:
            start = text.index(values["last"])
            ents.append((start, start + len(values["last"]), "DOCTOR"))
        doc = nlp.make_doc(text)
        examples.append(Example.from_dict(doc, {"entities": sorted(ents)}))
    return examples


def _ner_with_labels(labels=("DATE", "DOCTOR")):
    nlp = make_nlp(loss="softmax")
    ner = nlp.get_pipe("phi_ner")
    for label in labels:
        ner.add_label(label)
    return nlp, ner


def _numeric_grad(E, lengths, gold, eps=1e-6):
    numeric = np.zeros_like(E)
    for idx in np.ndindex(E.shape):
        plus, minus = E.copy(), E.copy()
        plus[idx] += eps
        minus[idx] -= eps
        up = softmax_loss(plus, lengths, gold).loss.sum()
        down = softmax_loss(minus, lengths, gold).loss.sum()
        numeric[idx] = (up - down) / (2 * eps)
    return numeric


def test_softmax_loss_value_and_numerical_gradient():
    rng = np.random.default_rng(0)
    K, lengths = 9, np.array([4, 1, 3])
    E = rng.normal(scale=2.0, size=(3, 4, K))
    gold = rng.integers(0, K, size=(3, 4))
    gold[0, [1, 2]] = -1
    gold[2, 0] = -1
    gold[1, 0] = -1  # a sequence with no known tag
    gold[1, 1:] = 3  # padding: must be ignored even if not -1
    result = softmax_loss(E, lengths, gold)
    log_p = log_softmax(E)
    for b, n in enumerate(lengths):
        known = [i for i in range(n) if gold[b, i] >= 0]
        expected = -sum(log_p[b, i, gold[b, i]] for i in known)
        assert result.loss[b] == pytest.approx(expected)
    assert result.loss[1] == 0.0
    numeric = _numeric_grad(E, lengths, gold)
    assert np.abs(numeric - result.d_emissions).max() < 1e-6
    # Missing tags and padding get exactly zero gradient.
    assert np.all(result.d_emissions[0, [1, 2]] == 0.0)
    assert np.all(result.d_emissions[1] == 0.0)
    assert np.all(result.d_emissions[2, 0] == 0.0)
    assert np.all(result.d_emissions[2, 3] == 0.0)
    # No gradient for the CRF scores.
    assert not result.d_transitions.any()
    assert not result.d_start.any() and not result.d_end.any()


def test_softmax_loss_empty_batch():
    result = softmax_loss(np.zeros((0, 0, 5)), np.zeros(0, dtype=int), np.zeros((0, 0)))
    assert result.loss.shape == (0,) and result.d_emissions.shape == (0, 0, 5)


def test_constraint_params_are_the_mask():
    p = constraint_params(9)
    assert set(np.unique(p.transitions)) == {0.0, -np.inf}
    assert p.start[0] == 0.0 and p.start[2] == -np.inf  # "O" and "I-A"
    assert p.end[3] == 0.0 and p.end[1] == -np.inf  # "L-A" and "B-A"


@pytest.mark.parametrize("scale", [1.0, 50.0, 1e6])
def test_softmax_decoding_is_always_valid(scale):
    nlp, ner = _ner_with_labels(("A", "B", "C", "D", "E"))
    K = len(ner.tag_names)
    for seed in range(40):
        rng = np.random.default_rng(seed)
        lengths = rng.integers(1, 30, size=6)
        scores = [rng.normal(scale=scale, size=(n, K)).astype("f4") for n in lengths]
        tags, probs = zip(*ner.decode(scores), strict=True)
        for score, tag_ids, tag_probs in zip(scores, tags, probs, strict=True):
            assert len(tag_ids) == len(score)
            assert is_valid_biluo(list(tag_ids), K)
            expected = np.exp(log_softmax(score))[np.arange(len(score)), tag_ids]
            assert np.allclose(tag_probs, expected, atol=1e-6)


def test_softmax_decoding_is_best_legal_path():
    nlp, ner = _ner_with_labels(("A",))
    K = len(ner.tag_names)
    rng = np.random.default_rng(3)
    for n in (1, 2, 4):
        score = rng.normal(scale=3.0, size=(n, K))
        (tag_ids,), _ = zip(*ner.decode([score]), strict=True)
        log_p = log_softmax(score)
        legal = [
            path
            for path in itertools.product(range(K), repeat=n)
            if is_valid_biluo(path, K)
        ]
        best = max(legal, key=lambda path: log_p[np.arange(n), path].sum())
        assert tuple(tag_ids) == best


def test_viterbi_with_constraints_ignores_learned_scores():
    rng = np.random.default_rng(5)
    E = log_softmax(rng.normal(size=(2, 5, 9)))
    lengths = np.array([5, 3])
    paths, scores = viterbi(E, lengths, constraint_params(9))
    for b, n in enumerate(lengths):
        assert is_valid_biluo(list(paths[b, :n]), 9)
        assert scores[b] == pytest.approx(E[b, np.arange(n), paths[b, :n]].sum())


def test_softmax_training():
    nlp = make_nlp(loss="softmax")
    examples = _generate(nlp, 12, seed=0)
    fix_random_seed(0)
    nlp.initialize(get_examples=lambda: examples)
    ner = nlp.get_pipe("phi_ner")
    crf = ner.model.get_ref("crf")
    optimizer = Adam(0.02)
    history = []
    for _ in range(25):
        losses = nlp.update(examples, sgd=optimizer, losses={})
        history.append(losses["phi_ner"])
        assert not any(crf.has_grad(name) for name in crf.param_names)
    assert history[-1] < 0.2 * history[0]
    # The CRF scores were never touched.
    for name in ("transitions", "start", "end"):
        assert not crf.get_param(name).any()
    docs = [nlp(eg.reference.text) for eg in _generate(nlp, 8, seed=1)]
    assert any(doc.ents for doc in docs)
    n_tags = len(ner.tag_names)
    for doc, (tags, probs) in zip(docs, ner.predict(docs), strict=True):
        assert is_valid_biluo(list(tags), n_tags)
        assert np.all((probs > 0) & (probs <= 1.0 + 1e-6))
        for ent in doc.ents:
            assert ent._.phi_source == "phi_ner"
            assert 0.0 < ent._.phi_score <= 1.0
            expected = float(np.mean(probs[ent.start : ent.end]))
            assert ent._.phi_score == pytest.approx(expected)


def test_softmax_get_loss_matches_update_and_handles_empty():
    nlp = make_nlp(loss="softmax")
    examples = make_examples(nlp)
    nlp.initialize(get_examples=lambda: examples)
    ner = nlp.get_pipe("phi_ner")
    empty = Example.from_dict(nlp.make_doc(""), {"entities": []})
    docs = [empty.predicted, examples[0].predicted]
    loss, d_scores = ner.get_loss([empty, examples[0]], ner.model.predict(docs))
    assert loss > 0 and d_scores[0].shape[0] == 0
    loss, _ = ner.get_loss([empty], ner.model.predict([empty.predicted]))
    assert loss == 0.0
    tags = ["-"] * len(examples[0].predicted)
    partial = Example.from_dict(nlp.make_doc(TRAIN_DATA[0][0]), {"entities": tags})
    loss, d_scores = ner.get_loss([partial], ner.model.predict([partial.predicted]))
    assert loss == 0.0 and not d_scores[0].any()


def test_unknown_loss():
    with pytest.raises(ValueError, match="loss must be one of"):
        make_nlp(loss="hinge")
    with pytest.raises(ValueError, match="loss must be one of"):
        PhiEntityRecognizer(spacy.blank("en").vocab, None, loss="CRF")


def _trained(loss, **config):
    nlp = make_nlp(loss=loss, **config)
    examples = make_examples(nlp)
    fix_random_seed(0)
    nlp.initialize(get_examples=lambda: examples)
    nlp.update(examples, sgd=Adam(0.02))
    return nlp


def _preds(nlp, texts):
    ner = nlp.get_pipe("phi_ner")
    return [(list(t), list(p)) for t, p in ner.predict(map(nlp.make_doc, texts))]


def test_cfg_round_trip_bytes():
    texts = [text for text, _ in TRAIN_DATA]
    nlp = _trained("softmax", protected_labels=["DATE"], overwrite_ents=True)
    data = nlp.get_pipe("phi_ner").to_bytes()
    fresh = make_nlp()  # defaults: loss "crf", no protected labels
    ner = fresh.get_pipe("phi_ner").from_bytes(data)
    assert ner.cfg["loss"] == "softmax"
    assert ner.cfg["protected_labels"] == ["DATE"]
    assert ner.cfg["overwrite_ents"] is True
    assert _preds(fresh, texts) == _preds(nlp, texts)
    with make_tempdir() as tmp:
        nlp.to_disk(tmp)
        loaded = spacy.load(tmp)
        assert loaded.get_pipe("phi_ner").cfg == nlp.get_pipe("phi_ner").cfg
        assert _preds(loaded, texts) == _preds(nlp, texts)


def _old_cfg_bytes(data):
    """Component bytes as written before `loss` and `protected_labels`."""
    msg = srsly.msgpack_loads(data)
    cfg = srsly.json_loads(msg["cfg"])
    del cfg["loss"], cfg["protected_labels"]
    msg["cfg"] = srsly.json_dumps(cfg)
    return srsly.msgpack_dumps(msg)


def test_old_models_load_with_defaults():
    texts = [text for text, _ in TRAIN_DATA]
    nlp = _trained("crf")
    old = _old_cfg_bytes(nlp.get_pipe("phi_ner").to_bytes())
    fresh = make_nlp()
    ner = fresh.get_pipe("phi_ner").from_bytes(old)
    assert ner.cfg["loss"] == "crf" and ner.cfg["protected_labels"] == []
    assert _preds(fresh, texts) == _preds(nlp, texts)
    with make_tempdir() as tmp:
        nlp.to_disk(tmp)
        cfg_path = tmp / "phi_ner" / "cfg"
        cfg = srsly.read_json(cfg_path)
        del cfg["loss"], cfg["protected_labels"]
        srsly.write_json(cfg_path, cfg)
        config = (tmp / "config.cfg").read_text(encoding="utf8")
        lines = config.splitlines(keepends=True)
        old_keys = ("loss =", "protected_labels =")
        config = "".join(line for line in lines if not line.startswith(old_keys))
        (tmp / "config.cfg").write_text(config, encoding="utf8")
        assert "loss" not in srsly.read_json(cfg_path)
        loaded = spacy.load(tmp)
        loaded_cfg = loaded.get_pipe("phi_ner").cfg
        assert loaded_cfg["loss"] == "crf" and loaded_cfg["protected_labels"] == []
        assert _preds(loaded, texts) == _preds(nlp, texts)


def test_loaded_cfg_is_validated():
    nlp = make_nlp()
    examples = make_examples(nlp)
    nlp.initialize(get_examples=lambda: examples)
    msg = srsly.msgpack_loads(nlp.get_pipe("phi_ner").to_bytes())
    cfg = srsly.json_loads(msg["cfg"])
    cfg["loss"] = "bogus"
    msg["cfg"] = srsly.json_dumps(cfg)
    with pytest.raises(ValueError, match="loss must be one of"):
        make_nlp().get_pipe("phi_ner").from_bytes(srsly.msgpack_dumps(msg))


@pytest.mark.parametrize("name", ["ner_en.cfg", "ner_meddocan.cfg"])
def test_ablation_overrides(name):
    overrides = {
        "components.phi_ner.model.char_embed": None,
        "components.phi_ner.loss": "softmax",
    }
    config = load_config(ROOT / "configs" / name, overrides=overrides)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    ner = nlp.get_pipe("phi_ner")
    assert ner.cfg["loss"] == "softmax"
    assert nlp.config["components"]["phi_ner"]["model"]["char_embed"] is None
    assert not any("char" in node.name for node in ner.model.walk())
