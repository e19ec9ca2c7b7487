"""The phi_crf component: training in initialize, decoding, settings,
serialization and the missing-extra error."""

import pickle
import sys

import numpy as np
import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example, offsets_to_biluo_tags
from spacy.util import make_tempdir

from ..extras import need

pycrfsuite = need("pycrfsuite")

from spacy_deid.crfsuite import PhiCRF, require_crfsuite  # noqa: E402
from spacy_deid.crfsuite._crfsuite import CRFWeights  # noqa: E402
from spacy_deid.crfsuite.component import gold_segments  # noqa: E402
from spacy_deid.tagging.crf import length_groups  # noqa: E402
from spacy_deid.crfsuite.features import FEATURES_VERSION  # noqa: E402
from spacy_deid.labels import NOT_PHI_KEY  # noqa: E402
from spacy_deid.tagging.crf import is_valid_biluo, viterbi  # noqa: E402

from ..conftest import count_calls  # noqa: E402
from .conftest import make_data, make_examples, make_nlp, train_nlp  # noqa: E402

TEXTS = [
    "Seen by Dr. Zorblat today .",
    "Patient Vera Quill was admitted overnight .",
    "Follow up on 07/14/2031 in clinic .",
    "No new complaints and vitals are stable .",
]
EXPECTED = [
    [("Zorblat", "DOCTOR")],
    [("Vera Quill", "PATIENT")],
    [("07/14/2031", "DATE")],
    [],
]


def _ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def _flagged(crf, docs):
    return sum(int((tags > 0).sum()) for tags, _ in crf.predict(docs))


def test_learns_and_predicts_unseen_values(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    assert isinstance(crf, PhiCRF) and crf.is_initialized
    assert crf.labels == ("DATE", "DOCTOR", "PATIENT")
    assert crf.label_data == ["DATE", "DOCTOR", "PATIENT"]
    docs = [trained_nlp(text) for text in TEXTS]
    assert [_ents(doc) for doc in docs] == EXPECTED
    for doc in docs:
        for ent in doc.ents:
            assert ent._.phi_source == "phi_crf"
            assert 0.5 < ent._.phi_score <= 1.0
    assert [_ents(doc) for doc in trained_nlp.pipe(TEXTS, batch_size=3)] == EXPECTED


def test_weights_reproduce_crfsuite(trained_nlp):
    # Our emission sums and (unconstrained) Viterbi give CRFsuite's own
    # tagging: training and scoring use the same feature strings.
    crf = trained_nlp.get_pipe("phi_crf")
    weights = crf._weights
    tagger = pycrfsuite.Tagger()
    model = crf.model_bytes
    tagger.open_inmemory(model)
    docs = [trained_nlp.make_doc(t) for t, _ in make_data(10)] + [
        trained_nlp.make_doc(t) for t in TEXTS
    ]
    for doc in docs:
        feats = crf.featurize(doc)
        emissions = weights.emissions(feats)
        for i in (0, len(doc) - 1):
            by_hand = sum(weights.state[weights.rows.get(f, 0)] for f in feats[i])
            assert np.allclose(emissions[i], by_hand, atol=1e-5)
        paths, _ = viterbi(emissions[None], np.array([len(doc)]), weights.params(False))
        ours = [crf.tag_names[i] for i in paths[0]]
        assert ours == tagger.tag(feats)
    tagger.close()


def test_gold_segments():
    assert gold_segments(["O", "-", None, "U-X", "O", ""]) == [(0, 1), (3, 5)]
    assert gold_segments([None, "-"]) == []
    assert gold_segments(["B-X", "L-X"]) == [(0, 2)]
    assert gold_segments([]) == []


def test_missing_gold_splits_sequences():
    nlp = make_nlp()
    crf = nlp.get_pipe("phi_crf")
    doc = nlp.make_doc("Seen by Dr. Smith on 01/02/2020 .")
    tags = ["O", "O", "O", "-", "O", "U-DATE", "O"]
    eg = Example.from_dict(doc, {"entities": tags})
    seqs = list(crf._training_sequences(eg, None))
    assert [y for _, y in seqs] == [["O", "O", "O"], ["O", "U-DATE", "O"]]
    # The window still sees across the missing token.
    assert "-1:w=Smith" in seqs[1][0][0]
    # Labels not kept are missing too.
    seqs = list(crf._training_sequences(eg, {"DOCTOR"}))
    assert [y for _, y in seqs] == [["O", "O", "O"], ["O"], ["O"]]


def _doctor_data(missing_tag):
    """Most doctor names carry `missing_tag` instead of their gold tag."""
    nlp = make_nlp()
    examples = []
    n_doctors = 0
    for text, ents in make_data(60):
        doc = nlp.make_doc(text)
        tags = offsets_to_biluo_tags(doc, ents)
        if any(t.endswith("-DOCTOR") for t in tags):
            n_doctors += 1
            # Annotate one pair in three (the two doctor templates alternate).
            if (n_doctors // 2) % 3:
                tags = [missing_tag if t.endswith("-DOCTOR") else t for t in tags]
        examples.append(Example.from_dict(doc, {"entities": tags}))
    return nlp, examples


def test_missing_gold_is_not_taught_as_O():
    # Two of three doctor names are unannotated ("-"). Trained as missing,
    # the annotated third teaches "Dr. <name>" = DOCTOR; trained as "O" (the
    # mistake this guards against), the unannotated ones win.
    nlp, examples = _doctor_data("-")
    nlp.initialize(get_examples=lambda: examples)
    assert _ents(nlp(TEXTS[0])) == EXPECTED[0]
    wrong, examples = _doctor_data("O")
    wrong.initialize(get_examples=lambda: examples)
    assert _ents(wrong(TEXTS[0])) == []


def test_initialize_labels_argument_restricts():
    nlp = make_nlp()
    examples = make_examples(nlp, make_data())
    nlp.initialize(get_examples=lambda: examples)
    crf = nlp.get_pipe("phi_crf")
    assert len(crf.labels) == 3 and _ents(nlp(TEXTS[2])) == EXPECTED[2]
    # Initializing again retrains from scratch, here with one label only.
    crf.initialize(lambda: examples, labels=["DOCTOR"])
    assert crf.labels == ("DOCTOR",)
    assert crf.tag_names == ["O", "B-DOCTOR", "I-DOCTOR", "L-DOCTOR", "U-DOCTOR"]
    assert _ents(nlp(TEXTS[0])) == EXPECTED[0]
    assert _ents(nlp(TEXTS[2])) == []


def test_initialize_errors():
    nlp = make_nlp()
    no_ents = make_examples(nlp, [("nothing here at all", [])])
    with pytest.raises(ValueError, match="no labels"):
        nlp.get_pipe("phi_crf").initialize(lambda: no_ents)
    doc = nlp.make_doc("Dr. Smith")
    missing = [Example.from_dict(doc, {"entities": ["-", "-"]})]
    with pytest.raises(ValueError, match="no tokens"):
        nlp.get_pipe("phi_crf").initialize(lambda: missing, labels=["DOCTOR"])
    with pytest.raises(ValueError, match="labels"):
        nlp.get_pipe("phi_crf").initialize(lambda: no_ents, labels="DOCTOR")
    assert not nlp.get_pipe("phi_crf").is_initialized


def test_untrained_fails_closed():
    nlp = make_nlp()
    with pytest.raises(ValueError, match="no trained model"):
        nlp("Seen by Dr. Smith")
    with pytest.raises(ValueError, match="no trained model"):
        list(nlp.pipe(["Seen by Dr. Smith"]))


def test_update_trains_nothing(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    before = crf.to_bytes()
    examples = make_examples(trained_nlp, make_data(5))
    losses = {"other": 1.5}
    assert crf.update(examples, losses=losses) is losses
    assert losses == {"other": 1.5}
    assert crf.update(examples) == {}
    assert trained_nlp.update(examples) == {}
    assert crf.to_bytes() == before
    assert not crf.is_trainable


def test_empty_and_whitespace_docs(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    docs = [trained_nlp.make_doc(t) for t in ["", "   ", "\n\n", "x"]]
    preds = crf.predict(docs)
    assert [len(tags) for tags, _ in preds] == [len(d) for d in docs]
    for doc in trained_nlp.pipe(["", "   ", "\n\n"]):
        assert doc.ents == ()


def _random_weights(rng, n_labels, scale, n_features=6):
    K = 1 + 4 * n_labels
    trained = rng.random(K) < 0.7
    trained[0] = True
    return CRFWeights(
        rows={
            f: i + 1
            for i, f in enumerate(
                ["bias", "title", "alpha", "len=3", "w=a", "w=b"][:n_features]
            )
        },
        state=(rng.normal(size=(n_features + 1, K)) * scale).astype("f4"),
        transitions=rng.normal(size=(K, K)) * scale,
        trained=trained,
    )


def test_decoding_is_always_legal():
    rng = np.random.default_rng(0)
    for trial in range(300):
        n_labels = 1 + trial % 3
        weights = _random_weights(rng, n_labels, scale=[0.1, 3.0, 1000.0][trial % 3])
        K = weights.n_tags
        lengths = rng.integers(1, 9, size=4)
        emissions = rng.normal(size=(4, int(lengths.max()), K)) * 5
        paths, _ = viterbi(emissions, lengths, weights.params())
        for row, n in enumerate(lengths):
            path = paths[row, :n]
            assert is_valid_biluo(list(path), K)
            assert weights.trained[path].all()


def test_component_predictions_are_legal_with_random_weights(trained_nlp):
    rng = np.random.default_rng(1)
    crf = make_nlp().get_pipe("phi_crf")
    crf.cfg["labels"] = ["DATE", "DOCTOR"]
    docs = [trained_nlp.make_doc(t) for t in TEXTS + ["a b c d e f g h i j"]]
    for _ in range(30):
        crf._weights = _random_weights(rng, 2, scale=5.0)
        for doc, (tags, probs) in zip(docs, crf.predict(docs), strict=True):
            assert len(tags) == len(probs) == len(doc)
            assert is_valid_biluo(list(tags), crf._weights.n_tags)
            assert np.all((probs >= 0) & (probs <= 1))
        crf.set_annotations(docs, crf.predict(docs))


def test_recall_bias_is_monotone(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    docs = [trained_nlp.make_doc(t) for t in TEXTS + [t for t, _ in make_data(10)]]
    counts = []
    try:
        for bias in [-8.0, -3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0]:
            crf.cfg["recall_bias"] = bias
            counts.append(_flagged(crf, docs))
    finally:
        crf.cfg["recall_bias"] = 0.0
    assert counts == sorted(counts)
    assert counts[-1] > counts[3] > counts[0]
    assert counts[-1] == sum(len(d) for d in docs)


def test_recall_bias_from_config(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    biased = make_nlp(recall_bias=16.0)
    biased.get_pipe("phi_crf").from_bytes(crf.to_bytes())
    doc = biased(TEXTS[3])
    assert len(doc.ents) > 0


def _scored(nlp, texts):
    return [(e.text, e.label_, e._.phi_score) for t in texts for e in nlp(t).ents]


def test_thresholds(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    texts = TEXTS + ["Seen by Dr. maybe today .", "Dr. Quill and Dr. Vera on 3/4 ."]
    base = _scored(trained_nlp, texts)
    scores = sorted({s for _, _, s in base})
    assert len(scores) >= 2
    cut = (scores[0] + scores[-1]) / 2
    data = crf.to_bytes()
    for thresholds, keep in [
        ({"*": cut}, lambda label, s: s >= cut),
        ({"DOCTOR": cut}, lambda label, s: label != "DOCTOR" or s >= cut),
        ({"*": 1.0, "DATE": 0.0}, lambda label, s: label == "DATE" or s >= 1.0),
    ]:
        nlp = make_nlp(thresholds=thresholds)
        nlp.get_pipe("phi_crf").from_bytes(data)
        expected = [(t, lab, s) for t, lab, s in base if keep(lab, s)]
        assert _scored(nlp, texts) == expected
    with pytest.raises(ValueError, match="thresholds"):
        make_nlp(thresholds={"DATE": 1.5})


def _count_marginals(monkeypatch) -> list:
    """Count phi_crf's calls of `crf_marginals_seqs` (one item per call)."""
    from spacy_deid.tagging import tagger

    return count_calls(monkeypatch, tagger, "crf_marginals_seqs")


def test_without_scores_same_spans_and_no_marginals(trained_nlp, monkeypatch):
    """`with_scores = False` (what the runner sets when nothing reads the
    scores): the same spans, `phi_score` None, no CRF marginals computed;
    `thresholds` still get their scores, a span group gets None scores, and
    thresholds set after a prediction without scores are refused."""
    data = trained_nlp.get_pipe("phi_crf").to_bytes()
    texts = TEXTS + ["Dr. Quill and Dr. Vera on 3/4 ."]
    scored = _scored(trained_nlp, texts)
    calls = _count_marginals(monkeypatch)
    crf = trained_nlp.get_pipe("phi_crf")
    monkeypatch.setattr(crf, "with_scores", False)
    plain = _scored(trained_nlp, texts)
    assert calls == [] and len(plain) >= 4
    assert [e[:2] for e in plain] == [e[:2] for e in scored]
    assert all(e[2] is None for e in plain) and all(e[2] > 0 for e in scored)
    nlp = make_nlp(thresholds={"*": 0.0})
    nlp.get_pipe("phi_crf").from_bytes(data)
    nlp.get_pipe("phi_crf").with_scores = False
    assert _scored(nlp, texts) == scored and calls
    nlp = make_nlp(spans_key="crf")
    nlp.get_pipe("phi_crf").from_bytes(data)
    nlp.get_pipe("phi_crf").with_scores = False
    doc = nlp(TEXTS[0])
    group = doc.spans["crf"]
    assert [(s.text, s.label_) for s in group] == EXPECTED[0]
    assert group[0]._.phi_score is None
    preds = _predictions(trained_nlp, TEXTS[:1])
    crf.cfg["thresholds"] = {"*": 0.5}
    try:
        with pytest.raises(ValueError, match="thresholds were set after prediction"):
            crf.set_annotations([trained_nlp.make_doc(TEXTS[0])], preds)
    finally:
        crf.cfg["thresholds"] = {}


def test_spans_key_mode(trained_nlp):
    nlp = make_nlp(spans_key="crf")
    nlp.get_pipe("phi_crf").from_bytes(trained_nlp.get_pipe("phi_crf").to_bytes())
    doc = nlp.make_doc(TEXTS[0])
    doc.ents = [Span(doc, 0, 1, label="DATE")]
    doc = nlp.get_pipe("phi_crf")(doc)
    assert _ents(doc) == [("Seen", "DATE")]
    spans = doc.spans["crf"]
    assert [(s.text, s.label_) for s in spans] == EXPECTED[0]
    assert spans[0]._.phi_source == "phi_crf" and spans[0]._.phi_score > 0.5


def _with_ent(nlp, text, start, end, label):
    doc = nlp.make_doc(text)
    doc.ents = [Span(doc, start, end, label=label)]
    return nlp.get_pipe("phi_crf")(doc)


def test_overwrite_ents(trained_nlp):
    data = trained_nlp.get_pipe("phi_crf").to_bytes()

    def make(**config):
        nlp = make_nlp(**config)
        nlp.get_pipe("phi_crf").from_bytes(data)
        return nlp

    # Default: an earlier entity wins over the overlapping model span.
    assert _ents(_with_ent(make(), TEXTS[0], 3, 4, "PATIENT")) == [
        ("Zorblat", "PATIENT")
    ]
    # overwrite_ents: a model span covering the whole entity replaces it ...
    nlp = make(overwrite_ents=True)
    doc = _with_ent(nlp, TEXTS[0], 3, 4, "PATIENT")
    assert _ents(doc) == EXPECTED[0] and doc.ents[0]._.phi_source == "phi_crf"
    # ... one covering part of it is widened to it, keeping its label.
    doc = _with_ent(nlp, TEXTS[0], 2, 4, "PATIENT")
    assert _ents(doc) == [("Dr. Zorblat", "PATIENT")]
    # Protected labels always win.
    nlp = make(overwrite_ents=True, protected_labels=["PATIENT"])
    assert _ents(_with_ent(nlp, TEXTS[0], 3, 4, "PATIENT")) == [("Zorblat", "PATIENT")]


def _predictions(nlp, texts):
    docs = [nlp.make_doc(t) for t in texts]
    return nlp.get_pipe("phi_crf").predict(docs)


def _same(a, b):
    return all(
        np.array_equal(ta, tb) and np.array_equal(pa, pb)
        for (ta, pa), (tb, pb) in zip(a, b, strict=True)
    )


def test_serialization_round_trips(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    texts = TEXTS + [t for t, _ in make_data(8)]
    expected = _predictions(trained_nlp, texts)
    # Component bytes into a fresh pipeline with other window settings: the
    # stored model settings win.
    nlp2 = make_nlp(window=1, dictionaries=False)
    nlp2.get_pipe("phi_crf").from_bytes(crf.to_bytes())
    assert nlp2.get_pipe("phi_crf").cfg["window"] == 2
    assert nlp2.get_pipe("phi_crf").labels == crf.labels
    assert _same(_predictions(nlp2, texts), expected)
    # Disk, through spacy.load, with a prediction setting overridden.
    with make_tempdir() as tmp:
        trained_nlp.to_disk(tmp)
        nlp3 = spacy.load(tmp)
        assert _same(_predictions(nlp3, texts), expected)
        assert [_ents(nlp3(t)) for t in TEXTS] == EXPECTED
        nlp4 = spacy.load(
            tmp, config={"components": {"phi_crf": {"recall_bias": 16.0}}}
        )
        assert nlp4.get_pipe("phi_crf").cfg["recall_bias"] == 16.0
        assert nlp4.get_pipe("phi_crf").labels == crf.labels
        assert len(nlp4(TEXTS[3]).ents) > 0
        # Component to_disk / from_disk.
        crf.to_disk(tmp / "crf")
        crf5 = make_nlp().get_pipe("phi_crf").from_disk(tmp / "crf")
        assert crf5.model_bytes == crf.model_bytes
        assert crf5.lexicons == crf.lexicons
    # Pickle (nlp.pipe with n_process > 1 under spawn).
    nlp6 = pickle.loads(pickle.dumps(trained_nlp))
    assert _same(_predictions(nlp6, texts), expected)


def test_untrained_round_trip_and_bad_data(trained_nlp):
    crf = trained_nlp.get_pipe("phi_crf")
    fresh = make_nlp().get_pipe("phi_crf")
    other = make_nlp().get_pipe("phi_crf").from_bytes(fresh.to_bytes())
    assert not other.is_initialized
    with make_tempdir() as tmp:
        fresh.to_disk(tmp)
        assert not (tmp / "model").exists()
        assert not make_nlp().get_pipe("phi_crf").from_disk(tmp).is_initialized
    # Invalid model data or a different feature version change nothing.
    target = make_nlp().get_pipe("phi_crf").from_bytes(crf.to_bytes())
    data = crf.to_bytes()
    bad_model = spacy.util.to_bytes(
        {"cfg": lambda: spacy.util.srsly.json_dumps(crf.cfg), "model": lambda: b"junk"},
        [],
    )
    with pytest.raises(ValueError):
        target.from_bytes(bad_model)
    old = dict(crf.cfg, features_version="v0")
    bad_version = spacy.util.to_bytes(
        {
            "cfg": lambda: spacy.util.srsly.json_dumps(old),
            "model": lambda: crf.model_bytes,
        },
        [],
    )
    with pytest.raises(ValueError, match="features"):
        target.from_bytes(bad_version)
    assert target.to_bytes() == data
    assert crf.cfg["features_version"] == FEATURES_VERSION


@pytest.mark.parametrize(
    "config",
    [
        {"algorithm": "sgd"},
        {"window": -1},
        {"window": 1.5},
        {"max_iterations": 0},
        {"c1": -0.1},
        {"spans_key": ""},
        {"recall_bias": float("inf")},
        {"protected_labels": "DATE"},
        {"thresholds": {"DATE": -0.1}},
    ],
)
def test_bad_settings(config):
    with pytest.raises(ValueError):
        PhiCRF(spacy.blank("en").vocab, **config)


def test_other_algorithm_trains():
    nlp = train_nlp(algorithm="ap", max_iterations=20)
    assert _ents(nlp(TEXTS[0])) == EXPECTED[0]


def test_length_groups():
    lengths = [5, 0, 3, 9, 1, 2]
    groups = length_groups(lengths, max_slots=10)
    assert sorted(i for g in groups for i in g) == [0, 2, 3, 4, 5]
    assert groups[0] == [3]
    for group in groups:
        longest = max(lengths[i] for i in group)
        assert len(group) == 1 or len(group) * longest <= 10


def test_missing_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pycrfsuite", None)
    with pytest.raises(ImportError, match=r'pip install "spacy-deid\[crf\]"'):
        require_crfsuite()
    with pytest.raises(ImportError, match=r"spacy-deid\[crf\]"):
        spacy.blank("en").add_pipe("phi_crf")


def test_known_non_phi_is_dropped(trained_nlp):
    doc = trained_nlp.make_doc(TEXTS[0])
    doc.spans[NOT_PHI_KEY] = [Span(doc, 3, 4, label="NOT_PHI")]
    assert _ents(trained_nlp.get_pipe("phi_crf")(doc)) == []


def test_memory_zone(trained_nlp):
    with trained_nlp.memory_zone():
        assert [_ents(trained_nlp(t)) for t in TEXTS] == EXPECTED


def test_long_doc_is_predicted_as_its_pieces(trained_nlp, monkeypatch):
    """A doc over MAX_DOC_TOKENS gets the tags of its pieces (cut after line
    breaks), each predicted as a doc of its own."""
    import spacy_deid.crfsuite.component as crf_component
    from spacy_deid.tagging.segments import piece_bounds

    crf = trained_nlp.get_pipe("phi_crf")
    line = "Seen by Dr. Smith today . Follow up on 03/04/2021 in clinic .\n"
    doc = trained_nlp.make_doc(line * 6)
    per_line = len(trained_nlp.make_doc(line))
    monkeypatch.setattr(crf_component, "MAX_DOC_TOKENS", 2 * per_line + 3)
    bounds = piece_bounds(doc, 2 * per_line + 3)
    assert len(bounds) == 3 and all(
        end - start == 2 * per_line for start, end in bounds
    )
    (tags, probs), _ = crf.predict([doc, trained_nlp.make_doc("x")])
    alone = crf.predict([trained_nlp.make_doc(doc[a:b].text) for a, b in bounds])
    assert np.array_equal(tags, np.concatenate([t for t, _ in alone]))
    assert np.array_equal(probs, np.concatenate([p for _, p in alone]))
    labels = {crf.tag_names[t][2:] for t in tags if crf.tag_names[t] != "O"}
    assert labels == {"DOCTOR", "DATE"}


def test_runner_computes_no_unread_marginals(monkeypatch):
    """`deidentify_items` over a pipeline ending `phi_crf`, `phi_surrogates`
    computes no CRF marginals, gives the output it gives with them, and turns
    the scores back on after the run."""
    from spacy_deid.io.records import Record
    from spacy_deid.run import plan, runner

    nlp = train_nlp()
    nlp.add_pipe("phi_surrogates").set_key(bytes(range(32)))
    records = [Record(i, str(i), text) for i, text in enumerate(TEXTS)]
    calls = _count_marginals(monkeypatch)
    fast = list(runner.deidentify_items(nlp, records))
    assert calls == [] and sum(len(out.spans) for out in fast) == 3
    assert nlp.get_pipe("phi_crf").with_scores
    monkeypatch.setattr(plan, "skip_unread_work", lambda nlp, changes: None)
    assert list(runner.deidentify_items(nlp, records)) == fast and calls
