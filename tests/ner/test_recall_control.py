"""phi_ner recall control (recall_bias, thresholds, spans_key) and a smoke test
of `benchmarks/recall_curve.py`."""

import copy
import csv
import importlib
import json
import subprocess
import sys
from contextlib import contextmanager

import numpy as np
import pytest
import spacy
import srsly
from spacy.tokens import Doc, Span
from spacy.util import make_tempdir
from thinc.api import Adam, fix_random_seed

import spacy_deid
from spacy_deid.corpus import write_jsonl
from spacy_deid.synth import generate
from spacy_deid.labels import NOT_PHI_KEY
from spacy_deid.ner import PhiEntityRecognizer
from spacy_deid.ner._crf_layer import get_crf_params
from spacy_deid.ner.component import RECALL_DEFAULTS
from spacy_deid.tagging.spans import bias_emissions
from spacy_deid.tagging import tagger as tagger_module
from spacy_deid.tagging.crf import crf_marginals, crf_marginals_seqs, is_valid_biluo
from spacy_deid.tagging.crf import log_softmax, viterbi

from ..conftest import ROOT
from .conftest import TRAIN_DATA, make_examples, make_nlp

NEW_KEYS = tuple(RECALL_DEFAULTS)
BIASES = [-1e3, -6.0, -4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0, 6.0, 1e3]
SCRIPT = ROOT / "benchmarks" / "recall_curve.py"
TEXT = TRAIN_DATA[0][0]  # "Seen by Dr John Smith on 12/03/2020 ."
EN_NOTES = [
    "Pt Walter Brennan seen 03/14/2019 by Dr. Ann Lee at Mercy Hospital.",
    "Call 617-555-0199 re: MRN 4455667. Lives in Boston with his wife Joan.",
    "Follow-up in 2 weeks with Dr Okafor. Pain 2/10, no fever.",
]
ES_NOTES = [
    "Nombre: María García López. Fecha de ingreso: 12/03/2018.",
    "Médico: Dr. Juan Pérez, Hospital Universitario La Paz, Madrid.",
    "Paciente de 54 años, varón, natural de Sevilla. Sin alergias.",
]


@contextmanager
def settings(ner, **cfg):
    """Change cfg entries of a (shared) component for the block."""
    old = {key: copy.deepcopy(ner.cfg[key]) for key in cfg}
    ner.cfg.update(cfg)
    try:
        yield ner
    finally:
        ner.cfg.update(old)


def _initialized(loss="crf", **config):
    nlp = make_nlp(loss=loss, **config)
    examples = make_examples(nlp)
    fix_random_seed(0)
    nlp.initialize(get_examples=lambda: examples)
    return nlp, nlp.get_pipe("phi_ner")


def _random_scores(ner, seed, scale=3.0):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 25, size=5)
    K = len(ner.tag_names)
    return [rng.normal(scale=scale, size=(n, K)) for n in lengths]


def _run_until(nlp, text, stop):
    """The doc after the components before `stop`."""
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name == stop:
            break
        doc = proc(doc)
    return doc


def _ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def _alnum_tokens(doc):
    return {t.i for t in doc if any(c.isalnum() for c in t.text)}


def _covered(spans):
    return {i for span in spans for i in range(span.start, span.end)}


# recall_bias: decoding


@pytest.mark.parametrize("loss", ["crf", "softmax"])
def test_bias_is_a_shift_of_the_non_O_scores(loss):
    _, ner = _initialized(loss)
    scores = _random_scores(ner, seed=1)
    for bias in (-2.5, 1.5, 4.0):
        shifted = [s + np.r_[0.0, np.full(s.shape[1] - 1, bias)] for s in scores]
        with settings(ner, recall_bias=0.0):
            ref_tags, ref_probs = zip(*ner.decode(shifted), strict=True)
        with settings(ner, recall_bias=bias):
            tags, probs = zip(*ner.decode(scores), strict=True)
        for a, b in zip(tags, ref_tags, strict=True):
            assert np.array_equal(a, b)
        for a, b in zip(probs, ref_probs, strict=True):
            assert np.allclose(a, b, atol=1e-6)
        if loss == "softmax":  # renormalised softmax of the biased scores
            for s, t, p in zip(shifted, tags, probs, strict=True):
                expected = np.exp(log_softmax(s))[np.arange(len(s)), t]
                assert np.allclose(p, expected, atol=1e-6)


def test_zero_bias_decodes_as_before():
    _, ner = _initialized("crf")
    scores = _random_scores(ner, seed=2)
    params = get_crf_params(ner.model.get_ref("crf"))
    tags, probs = zip(*ner.decode(scores), strict=True)
    for s, t, p in zip(scores, tags, probs, strict=True):
        lengths = np.array([len(s)])
        (path,), _ = viterbi(s[None], lengths, params)
        marginals = crf_marginals(s[None], lengths, params)[0]
        assert np.array_equal(t, path)
        assert np.allclose(p, marginals[np.arange(len(s)), path], atol=1e-6)
    same = np.zeros((2, 3))
    assert bias_emissions(same, 0.0) is same
    biased = bias_emissions(same, 2)
    assert biased[:, 0].tolist() == [0.0, 0.0] and (biased[:, 1:] == 2.0).all()


@pytest.mark.parametrize("loss", ["crf", "softmax"])
def test_bias_monotone_and_legal_on_random_scores(loss):
    _, ner = _initialized(loss)
    K = len(ner.tag_names)
    for seed in range(6):
        scores = _random_scores(ner, seed=seed, scale=4.0)
        n_tokens = sum(len(s) for s in scores)
        counts = []
        for bias in BIASES:
            with settings(ner, recall_bias=bias):
                preds = ner.decode(scores)
            for tags, probs in preds:
                assert is_valid_biluo(list(tags), K)
                assert np.all((probs >= 0.0) & (probs <= 1.0 + 1e-6))
            counts.append(sum(int((tags > 0).sum()) for tags, _ in preds))
        assert counts == sorted(counts), counts
        assert counts[0] == 0 and counts[-1] == n_tokens


def test_bias_monotone_on_shipped_spanish(nlp_es):
    """The model's flagged tokens grow with the bias (in the whole pipeline
    the protected rule entities beat overlapping model spans, so doc.ents
    need not grow: see the README's recall section)."""
    ner = nlp_es.get_pipe("phi_ner")
    docs_by_bias, flagged = [], []
    for bias in BIASES:
        with settings(ner, recall_bias=bias):
            docs = [_run_until(nlp_es, text, "phi_surrogates") for text in ES_NOTES]
            preds = ner.predict(docs)
        for tags, _ in preds:
            assert is_valid_biluo(list(tags), len(ner.tag_names))
        docs_by_bias.append(docs)
        flagged.append(sum(int((tags > 0).sum()) for tags, _ in preds))
    assert flagged == sorted(flagged), flagged
    assert flagged[0] == 0
    # At the lowest bias the model flags nothing: only rule entities remain.
    for doc in docs_by_bias[0]:
        assert all(ent._.phi_source != "phi_ner" for ent in doc.ents)
    assert ner.cfg["recall_bias"] == 0.0


def test_bias_is_read_at_prediction_time(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    base = _ents(nlp(TEXT))
    with settings(ner, recall_bias=-1e3):
        assert nlp(TEXT).ents == ()
        assert [d.ents for d in nlp.pipe([TEXT, TEXT])] == [(), ()]
    with settings(ner, recall_bias=1e3):
        doc = nlp(TEXT)
        assert _covered(doc.ents) == _alnum_tokens(doc)
    assert _ents(nlp(TEXT)) == base


# thresholds


def _scored(nlp, text):
    return {e.label_: e._.phi_score for e in nlp(text).ents}


def test_thresholds_per_label_and_default(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    scores = _scored(nlp, TEXT)
    assert set(scores) == {"DOCTOR", "DATE"} and scores["DATE"] < 1.0
    cases = [
        ({"DATE": 1.0}, {"DOCTOR"}),
        ({"DATE": scores["DATE"]}, {"DOCTOR", "DATE"}),  # equal: kept
        ({"*": 1.0}, set()),
        ({"*": 1.0, "DOCTOR": 0.0}, {"DOCTOR"}),
        ({"*": 0.0, "DATE": 1.0}, {"DOCTOR"}),
        ({"*": scores["DOCTOR"], "DATE": 0.0}, {"DOCTOR", "DATE"}),
    ]
    for thresholds, labels in cases:
        with settings(ner, thresholds=thresholds):
            kept = _scored(nlp, TEXT)
        assert set(kept) == labels, thresholds
        assert all(kept[label] == scores[label] for label in kept)


def _scored_ents(doc):
    return [(e.start_char, e.end_char, e.label_, e._.phi_score) for e in doc.ents]


def test_without_scores_same_spans_and_no_marginals(trained_nlp, monkeypatch):
    """`with_scores = False` (what the runner sets when nothing reads the
    scores): the same spans, `phi_score` None, no CRF marginals computed;
    `thresholds` still get their scores, and a span group gets None scores."""
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    scored = _scored_ents(nlp(TEXT))
    calls = []

    def counted(*args, **kwargs):
        calls.append(len(args[0]))
        return crf_marginals_seqs(*args, **kwargs)

    monkeypatch.setattr(tagger_module, "crf_marginals_seqs", counted)
    monkeypatch.setattr(ner, "with_scores", False)
    plain = _scored_ents(nlp(TEXT))
    assert calls == []
    assert [e[:3] for e in plain] == [e[:3] for e in scored] and len(plain) == 2
    assert all(e[3] is None for e in plain) and all(e[3] > 0 for e in scored)
    with settings(ner, thresholds={"DATE": 1.0}):
        kept = _scored_ents(nlp(TEXT))
    assert calls and [e[2] for e in kept] == ["DOCTOR"]
    assert kept[0] == next(e for e in scored if e[2] == "DOCTOR")
    with settings(ner, spans_key="model"):
        group = nlp(TEXT).spans["model"]
    assert len(group) == 2 and group.attrs["phi_scores"] == [None, None]
    preds = ner.predict([nlp.make_doc(TEXT)])
    with settings(ner, thresholds={"*": 0.5}):
        with pytest.raises(ValueError, match="thresholds were set after prediction"):
            ner.set_annotations([nlp.make_doc(TEXT)], preds)


def test_thresholds_drop_before_merging(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    earlier = [(4, 6, "CITY")]  # "Smith on": partly covered by "John Smith"
    with settings(ner, overwrite_ents=True):
        merged = ner(_with_ents(nlp, earlier))
        assert [e.text for e in merged.ents] == ["John Smith on", "12/03/2020"]
        with settings(ner, thresholds={"DOCTOR": 1.0}):
            kept = ner(_with_ents(nlp, earlier))
    assert [(e.text, e.label_) for e in kept.ents] == [
        ("Smith on", "CITY"),
        ("12/03/2020", "DATE"),
    ]
    assert kept.ents[0]._.phi_source == "rules:test"


def _with_ents(nlp, ents, source="rules:test", score=0.7):
    doc = nlp.make_doc(TEXT)
    spans = [Span(doc, start, end, label=label) for start, end, label in ents]
    for span in spans:
        span._.phi_source = source
        span._.phi_score = score
    doc.set_ents(spans, default="outside")
    return doc


# spans_key


def test_spans_key_leaves_ents_and_fills_the_group(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    merged = nlp(TEXT)
    expected = [(e.text, e.label_, e._.phi_score) for e in merged.ents]
    with settings(ner, spans_key="ner_spans"):
        doc = ner(nlp.make_doc(TEXT))
        assert doc.ents == () and not doc.has_annotation("ENT_IOB")
        group = doc.spans["ner_spans"]
        assert [(s.text, s.label_, s._.phi_score) for s in group] == expected
        assert all(s._.phi_source == "phi_ner" for s in group)
        assert group.attrs["phi_source"] == "phi_ner"
        assert group.attrs["phi_scores"] == [score for _, _, score in expected]
        # Earlier entities stay as they were, extension values included: the
        # model span at the same offsets does not change them.
        doc = ner(_with_ents(nlp, [(3, 5, "PATIENT")]))
        assert _ents(doc) == [(11, 21, "PATIENT")]
        assert doc.ents[0]._.phi_source == "rules:test"
        assert doc.ents[0]._.phi_score == 0.7
        group = doc.spans["ner_spans"]
        assert [(s.text, s.label_) for s in group] == [e[:2] for e in expected]
        assert group.attrs["phi_scores"] == [score for _, _, score in expected]
        # Serialized with the doc, attrs included.
        restored = Doc(nlp.vocab).from_bytes(doc.to_bytes())
        assert restored.spans["ner_spans"].attrs == group.attrs
        assert [s.text for s in restored.spans["ner_spans"]] == [s.text for s in group]


def test_spans_key_with_not_phi_and_thresholds(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    with settings(ner, spans_key="ner_spans"):
        doc = nlp.make_doc(TEXT)
        doc.spans[NOT_PHI_KEY] = [Span(doc, 6, 7, label="NOT_PHI")]  # the date
        assert [s.label_ for s in ner(doc).spans["ner_spans"]] == ["DOCTOR"]
        with settings(ner, thresholds={"*": 1.0}):
            doc = ner(nlp.make_doc(TEXT))
        assert len(doc.spans["ner_spans"]) == 0
        assert doc.spans["ner_spans"].attrs["phi_scores"] == []


def test_spans_key_never_overwrites_another_group(trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    with settings(ner, spans_key="phi_rules"):
        doc = nlp.make_doc(TEXT)
        doc.spans["phi_rules"] = [Span(doc, 6, 7, label="DATE")]
        with pytest.raises(ValueError, match="another component") as error:
            ner(doc)
        assert "12/03" not in str(error.value)
        assert [s.text for s in doc.spans["phi_rules"]] == ["12/03/2020"]
        doc = nlp.make_doc(TEXT)
        doc.spans["phi_rules"] = []  # an empty group may be replaced
        again = ner(ner(doc))  # and so may this component's own group
        assert [s.label_ for s in again.spans["phi_rules"]] == ["DOCTOR", "DATE"]


def test_spans_key_on_shipped_english(nlp_en):
    ner = nlp_en.get_pipe("phi_ner")
    shipped_bias = ner.cfg["recall_bias"]
    flagged = []
    for bias in BIASES:
        with settings(ner, spans_key="phi_ner_test", recall_bias=bias):
            for text in EN_NOTES:
                before = _run_until(nlp_en, text, "phi_ner")
                ents = _ents(before)
                sources = [e._.phi_source for e in before.ents]
                doc = ner(before)
                assert _ents(doc) == ents
                assert [e._.phi_source for e in doc.ents] == sources
                group = doc.spans["phi_ner_test"]
                assert all(s.label_ in ner.labels for s in group)
                assert len(group.attrs["phi_scores"]) == len(group)
                flagged.append((bias, len(_covered(group))))
                not_phi = doc.spans[NOT_PHI_KEY] if NOT_PHI_KEY in doc.spans else []
                outside_not_phi = _alnum_tokens(doc) - _covered(not_phi)
                if bias == BIASES[0]:
                    assert len(group) == 0
                if bias == BIASES[-1]:
                    assert _covered(group) >= outside_not_phi
    per_bias = [sum(n for b, n in flagged if b == bias) for bias in BIASES]
    assert per_bias == sorted(per_bias), per_bias
    assert ner.cfg["spans_key"] is None and ner.cfg["recall_bias"] == shipped_bias


# validation


@pytest.mark.parametrize(
    "setting",
    [
        {"recall_bias": "2"},
        {"recall_bias": True},
        {"recall_bias": float("inf")},
        {"recall_bias": float("nan")},
        {"thresholds": {"*": 1.5}},
        {"thresholds": {"DATE": -0.1}},
        {"thresholds": {"DATE": "0.5"}},
        {"thresholds": {"DATE": True}},
        {"thresholds": {"DATE": float("nan")}},
        {"thresholds": {1: 0.5}},
        {"thresholds": {"": 0.5}},
        {"thresholds": [("DATE", 0.5)]},
        {"spans_key": ""},
        {"spans_key": 3},
        {"spans_key": NOT_PHI_KEY},
    ],
)
def test_bad_settings(setting):
    vocab = spacy.blank("en").vocab
    with pytest.raises(ValueError):
        PhiEntityRecognizer(vocab, None, **setting)


def test_good_settings_are_normalized():
    nlp = make_nlp(recall_bias=2, thresholds={"*": 0, "DATE": 1}, spans_key="k")
    cfg = nlp.get_pipe("phi_ner").cfg
    assert cfg["recall_bias"] == 2.0 and isinstance(cfg["recall_bias"], float)
    assert cfg["thresholds"] == {"*": 0.0, "DATE": 1.0}
    assert all(isinstance(v, float) for v in cfg["thresholds"].values())
    assert cfg["spans_key"] == "k"
    with pytest.raises(ValueError, match="recall_bias"):
        make_nlp(recall_bias="high")
    with pytest.raises(ValueError, match="thresholds"):
        make_nlp(thresholds={"*": 2.0})


def test_threshold_labels_checked_once_known(trained_nlp):
    nlp = make_nlp(thresholds={"NAME": 0.5})  # labels not known yet
    examples = make_examples(nlp)
    with pytest.raises(ValueError, match="NAME"):
        nlp.initialize(get_examples=lambda: examples)
    trained, _ = trained_nlp
    ner = trained.get_pipe("phi_ner")
    with settings(ner, thresholds={'"*"': 0.5}):  # a config section's quoted key
        with pytest.raises(ValueError, match="does not predict"):
            trained(TEXT)


@pytest.mark.parametrize(
    "key,value",
    [("recall_bias", "1"), ("recall_bias", None), ("thresholds", {"DATE": 2})]
    + [("thresholds", None), ("spans_key", 5)],
)
def test_settings_changed_at_runtime_are_checked(trained_nlp, key, value):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    with settings(ner, **{key: value}):
        with pytest.raises(ValueError, match=key) as error:
            list(nlp.pipe([TEXT]))
    assert "Smith" not in str(error.value) and "12/03" not in str(error.value)


# serialization


def _trained_with(**config):
    nlp, ner = _initialized("crf", **config)
    nlp.update(make_examples(nlp), sgd=Adam(0.02))
    return nlp, ner


def _outputs(nlp, key=None):
    docs = list(nlp.pipe([text for text, _ in TRAIN_DATA]))
    if key is None:
        return [_ents(doc) for doc in docs]
    return [[(s.start, s.end, s.label_) for s in doc.spans[key]] for doc in docs]


def test_cfg_round_trip():
    config = {
        "recall_bias": 1.5,
        "thresholds": {"*": 0.2, "DATE": 0.4},
        "spans_key": "ner_spans",
    }
    nlp, ner = _trained_with(**config)
    expected = _outputs(nlp, "ner_spans")
    fresh = make_nlp()
    loaded = fresh.get_pipe("phi_ner").from_bytes(ner.to_bytes())
    assert {key: loaded.cfg[key] for key in NEW_KEYS} == config
    assert _outputs(fresh, "ner_spans") == expected
    with make_tempdir() as tmp:
        nlp.to_disk(tmp)
        reloaded = spacy.load(tmp)
        assert reloaded.get_pipe("phi_ner").cfg == ner.cfg
        assert _outputs(reloaded, "ner_spans") == expected
        # A setting changed at runtime is what gets saved.
        ner.cfg["recall_bias"] = -1.0
        nlp.to_disk(tmp)
        assert spacy.load(tmp).get_pipe("phi_ner").cfg["recall_bias"] == -1.0


def _without_new_keys(data):
    msg = srsly.msgpack_loads(data)
    cfg = srsly.json_loads(msg["cfg"])
    for key in NEW_KEYS:
        del cfg[key]
    msg["cfg"] = srsly.json_dumps(cfg)
    return srsly.msgpack_dumps(msg)


def test_old_cfg_loads_with_defaults():
    nlp, ner = _trained_with()
    expected = _outputs(nlp)
    fresh = make_nlp()
    loaded = fresh.get_pipe("phi_ner").from_bytes(_without_new_keys(ner.to_bytes()))
    assert {key: loaded.cfg[key] for key in NEW_KEYS} == RECALL_DEFAULTS
    assert _outputs(fresh) == expected
    # Missing keys keep the constructor's values (e.g. a load-time override).
    biased = make_nlp(recall_bias=2.0).get_pipe("phi_ner")
    biased.from_bytes(_without_new_keys(ner.to_bytes()))
    assert biased.cfg["recall_bias"] == 2.0
    with make_tempdir() as tmp:
        nlp.to_disk(tmp)
        cfg_path = tmp / "phi_ner" / "cfg"
        cfg = srsly.read_json(cfg_path)
        for key in NEW_KEYS:
            del cfg[key]
        srsly.write_json(cfg_path, cfg)
        lines = (tmp / "config.cfg").read_text(encoding="utf8").splitlines(True)
        old = tuple(f"{key} =" for key in NEW_KEYS)
        config = "".join(line for line in lines if not line.startswith(old))
        (tmp / "config.cfg").write_text(config, encoding="utf8")
        reloaded = spacy.load(tmp)
        cfg = reloaded.get_pipe("phi_ner").cfg
        assert {key: cfg[key] for key in NEW_KEYS} == RECALL_DEFAULTS
        assert _outputs(reloaded) == expected


@pytest.mark.parametrize("name", ["en", "es_meddocan"])
def test_shipped_pipelines_load_the_settings(name, nlp_en, nlp_es):
    nlp = {"en": nlp_en, "es_meddocan": nlp_es}[name]
    stored = srsly.read_json(spacy_deid.pipeline_path(name) / "phi_ner" / "cfg")
    cfg = nlp.get_pipe("phi_ner").cfg
    for key, default in RECALL_DEFAULTS.items():  # saved before they existed
        assert cfg[key] == stored.get(key, default)


# benchmarks/recall_curve.py


@pytest.fixture
def recall_curve(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    return importlib.import_module("recall_curve")


def test_parse_biases(recall_curve):
    assert recall_curve.parse_biases(["-4,-2,0", "2", "-2"]) == [-4.0, -2.0, 0.0, 2.0]
    for bad in (["x"], ["nan"], ["1,inf"], [","]):
        with pytest.raises(recall_curve.CurveError):
            recall_curve.parse_biases(bad)


def test_sweep_point_equals_the_pipeline(recall_curve, trained_nlp):
    nlp, _ = trained_nlp
    ner = nlp.get_pipe("phi_ner")
    texts = [text for text, _ in TRAIN_DATA] + ["", "Dr Kim"]
    prepared = recall_curve.prepare(nlp, "phi_ner", texts, batch_size=2)
    for bias in (-3.0, 0.0, 3.0):
        docs = recall_curve.run_point(nlp, "phi_ner", prepared, bias, 2)
        ner.cfg["recall_bias"] = bias
        try:
            expected = [_ents(doc) for doc in nlp.pipe(texts, batch_size=2)]
        finally:
            ner.cfg["recall_bias"] = 0.0
        assert [_ents(doc) for doc in docs] == expected
    assert all(not doc.ents for doc in prepared.docs)


def test_recall_curve_smoke(tmp_path, trained_nlp):
    nlp, _ = trained_nlp
    nlp.to_disk(tmp_path / "pipeline")
    gold = list(generate(5, seed=0, split="dev"))
    write_jsonl(gold, tmp_path / "dev.jsonl")
    out = tmp_path / "out"
    command = [
        sys.executable, str(SCRIPT), "--pipeline", str(tmp_path / "pipeline"),
        "--dev", str(tmp_path / "dev.jsonl"), "--limit", "4",
        "--biases=2,-2", "--out", str(out),
    ]  # fmt: skip
    proc = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for heading in ("command:", "## recall_bias sweep", "| bias", "bin-tok R"):
        assert heading in proc.stdout
    phi = {note.text[s.start : s.end] for note in gold for s in note.spans}
    output = proc.stdout + proc.stderr
    assert not [text for text in phi if len(text) >= 8 and text in output]

    data = json.loads((out / "recall_curve.json").read_text(encoding="utf-8"))
    assert [p["bias"] for p in data["points"]] == [-2.0, 2.0]
    assert data["component"] == "phi_ner" and data["configured_recall_bias"] == 0.0
    for point in data["points"]:
        assert point["notes"] == 4
        for measure in ("strict", "binary_token"):
            micro = point[measure]["micro"]
            assert 0.0 <= micro["precision"] <= 1.0 and 0.0 <= micro["recall"] <= 1.0
    low, high = data["points"]
    assert high["pred_phi_tokens"] >= low["pred_phi_tokens"]
    with (out / "recall_curve.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [float(r["bias"]) for r in rows] == [-2.0, 2.0]
    assert "binary_token_recall" in rows[0] and "strict_f1" in rows[0]
    if data["plot_skipped"] is None:
        assert (out / "recall_curve.png").read_bytes()[:4] == b"\x89PNG"
    else:
        assert "matplotlib" in proc.stdout


def test_recall_curve_errors(recall_curve, tmp_path, capsys):
    dev = tmp_path / "dev.jsonl"
    write_jsonl(list(generate(1, seed=0, split="dev")), dev)
    args = ["--dev", str(dev), "--out", str(tmp_path / "out")]
    for extra, message in [
        (["--pipeline", str(tmp_path / "missing")], "neither a shipped pipeline"),
        (["--biases=1,x"], "is not a number"),
        (["--dev", str(tmp_path / "none.jsonl")], "not found"),
        (["--limit", "0"], "--limit"),
    ]:
        with pytest.raises(SystemExit) as error:
            recall_curve.main(args + extra)
        assert message in str(error.value.code)
    assert not (tmp_path / "out").exists()
