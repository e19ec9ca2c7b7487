"""Installation-level checks: entry points, the shipped pipelines, the label scheme."""

import json
import pickle
import shutil

import pytest
import spacy
import srsly
from spacy.util import load_config

from spacy_deid import PIPELINES, labels, pipeline_path
from spacy_deid import load as spacy_deid_load
from spacy_deid.labels.maps import MEDDOCAN_LABELS
from spacy_deid.core.extensions import install_extensions

from .conftest import ROOT, SESSION_KEY, listening_tagger_pipeline, run_python
from .extras import need

DEFAULT_PIPES = [
    "clinical_sentencizer",
    "phi_rules",
    "phi_ner",
    "phi_relabel",
    "phi_safety_net",
    "phi_consistency",
    "phi_surrogates",
]
RULES_PIPES = ["clinical_sentencizer", "phi_rules", "phi_surrogates"]
# Shipped pipeline -> the config it is built from.
SHIPPED = {
    "en": "pipeline_en.cfg",
    "en_rules": "pipeline_en_rules.cfg",
    "es_meddocan": "pipeline_es_meddocan.cfg",
}
TRAINED = ["en", "es_meddocan"]
MAX_SIZE_MB = 30


def test_entry_points_without_import():
    code = (
        "import sys, spacy\n"
        "nlp = spacy.blank('en', config={'nlp': {'tokenizer': "
        "{'@tokenizers': 'spacy_deid.ClinicalTokenizer.v1'}}})\n"
        "for name in ['clinical_sentencizer', 'phi_rules', 'phi_ner', 'phi_surrogates']:\n"
        "    nlp.add_pipe(name)\n"
        "print(nlp.pipe_names)\n"
        "print([t.text for t in nlp.make_doc('09/14/2067CPT')])\n"
    )
    proc = run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert "phi_surrogates" in proc.stdout
    assert "['09/14/2067', 'CPT']" in proc.stdout


def test_spacy_load_offline_in_fresh_interpreter():
    code = (
        "import json, spacy\n"
        "nlp = spacy.load('spacy_deid')\n"
        "print(json.dumps([nlp.pipe_names, sorted(nlp.meta.get('training', {}))]))\n"
    )
    proc = run_python(code, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    pipe_names, training = json.loads(proc.stdout)
    assert pipe_names == DEFAULT_PIPES
    assert {"corpus", "seed", "ner", "ner_dev_scores"} <= set(training)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_pipeline_matches_config(name):
    """Each shipped pipeline is built from its config in configs/: every
    setting there is the shipped one (phi_ner's too, not the training ones)."""
    path = pipeline_path(name)
    shipped = load_config(path / "config.cfg")
    source = load_config(ROOT / "configs" / SHIPPED[name])
    assert shipped["nlp"]["lang"] == source["nlp"]["lang"]
    assert shipped["nlp"]["pipeline"] == source["nlp"]["pipeline"]
    assert shipped["nlp"]["tokenizer"] == source["nlp"]["tokenizer"]
    for component in source["components"]:
        for key, value in source["components"][component].items():
            assert shipped["components"][component][key] == value, (component, key)
    if name in TRAINED:
        ner = shipped["components"]["phi_ner"]
        assert "model" in ner and "loss" in ner
        stored = srsly.read_json(path / "phi_ner" / "cfg")
        for key in ("overwrite_ents", "protected_labels", "score_reduce", "loss"):
            assert stored[key] == ner[key], key


@pytest.mark.parametrize("name", TRAINED)
def test_shipped_meta_training_record(name):
    meta = srsly.read_json(pipeline_path(name) / "meta.json")
    assert meta["built_from"] == SHIPPED[name]
    training = meta["training"]
    corpus = training["corpus"]
    assert corpus["description"]
    for split in ("train", "dev"):
        assert corpus[split] and "/" not in corpus[split]
    assert isinstance(training["seed"], int)
    assert "max_steps" in training and "steps" in training
    ner = training["ner"]
    assert len(ner["config"]["sha256"]) == 64 and len(ner["weights_sha256"]) == 64
    assert ner["labels"] == meta["labels"]["phi_ner"]
    assert ner["settings_from_ner"] == ["model", "loss"]
    assert "overwrite_ents" in ner["settings_from_pipeline_config"]
    paths = ner["training_config"]["paths"]
    assert all(not isinstance(v, str) or "/" not in v for v in paths.values())
    assert "ents_f" in training["ner_dev_scores"]
    assert training["pipeline_config"]["file"] == SHIPPED[name]
    scores = training["pipeline_dev_scores"]
    if scores is not None:
        for level in ("strict", "relaxed", "token", "binary_token"):
            assert set(scores[level]) == {"precision", "recall", "f1"}


def test_default_meta_merge_policy():
    meta = srsly.read_json(pipeline_path("en") / "meta.json")
    policy = meta["merge_policy"]
    assert policy["overwrite_ents"] is True
    assert "phi_rules" in policy["components_before_ner"]
    assert {"PHONE", "SSN", "MEDICALRECORD", "DATE", "AGE"} <= set(
        policy["protected_labels"]
    )
    assert not {"PATIENT", "DOCTOR", "HOSPITAL"} & set(policy["protected_labels"])


def test_es_meddocan_meta_cites_meddocan():
    meta = srsly.read_json(pipeline_path("es_meddocan") / "meta.json")
    assert meta["lang"] == "es"
    assert set(meta["labels"]["phi_ner"]) <= set(MEDDOCAN_LABELS)
    assert any("MEDDOCAN" in source["name"] for source in meta["sources"])


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_shipped_pipeline_size(name):
    path = pipeline_path(name)
    size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6
    print(f"{name}: {size:.1f} MB")
    assert size < MAX_SIZE_MB


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_regex_table_matches_the_rules(name):
    """Each shipped pipeline carries the engine code of its rules' regexes,
    made by this Python from the rules it has now, so that its first note
    compiles none (`rules/precompiled.py`). After a rule change, or a change to
    rules/scout.py or rules/gate.py: python -m spacy_deid.pretrained.build NAME
    --prefilter-only."""
    import lzma

    from spacy_deid.rules import precompiled

    path = pipeline_path(name) / "phi_rules" / "regex_code.xz"
    saved = srsly.msgpack_loads(lzma.decompress(path.read_bytes()))
    if saved["engine"] != precompiled.ENGINE:
        pytest.skip(f"{path} was made by another Python ({saved['engine']})")
    ruler = spacy.load(pipeline_path(name)).get_pipe("phi_rules")
    fresh = srsly.msgpack_loads(lzma.decompress(ruler.regex_table()))
    assert fresh == saved, (
        f"{path} is stale: python -m spacy_deid.pretrained.build {name} "
        "--prefilter-only"
    )


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_prefilter_database_matches_the_rules(name):
    """Each shipped pipeline carries its rules' prefilter database, built from
    the prefilter regexes its rules have now, so that it loads with no build
    and is used from the first note on. After a rule change, or a change to
    rules/prefilter.py or rules/_sre.py: python -m spacy_deid.pretrained.build NAME
    --prefilter-only (needs the [fast] extra)."""
    from spacy_deid.rules import prefilter

    path = pipeline_path(name) / "phi_rules" / "prefilter.hs"
    saved = srsly.msgpack_loads(path.read_bytes())
    assert set(saved) == {"key", "covered", "database", "sources_key"}
    if not prefilter.available():
        need("hyperscan")
        pytest.skip("Hyperscan is not installed")
    nlp = spacy.load(pipeline_path(name))
    regexes = nlp.get_pipe("phi_rules")._prefilter._regexes
    sources = prefilter._sources(regexes)
    stale = saved["key"] != prefilter.database_key(sources)
    # The key that lets it rule patterns out from the first note on; it also
    # changes with rules/prefilter.py and rules/_sre.py.
    stale = stale or saved["sources_key"] != prefilter.sources_key(sources)
    assert not stale, (
        f"{path} is stale: python -m spacy_deid.pretrained.build {name} "
        "--prefilter-only"
    )


def test_build_rewrites_a_prefilter_database(tmp_path, capsys):
    """`build NAME --prefilter-only` writes the rules' database of a built
    pipeline, and only that file."""
    import shutil

    from spacy_deid.pretrained.build import main
    from spacy_deid.rules import prefilter

    if not prefilter.available():
        need("hyperscan")
        pytest.skip("Hyperscan is not installed")
    copy = tmp_path / "en_rules"
    shutil.copytree(pipeline_path("en_rules"), copy)
    (copy / "phi_rules" / "prefilter.hs").unlink()
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    main(["en_rules", "--prefilter-only", "--output", str(copy)])
    assert "phi_rules" in capsys.readouterr().out
    after = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    assert set(after) - set(before) == {copy / "phi_rules" / "prefilter.hs"}
    assert all(after[p] == data for p, data in before.items())
    saved = srsly.msgpack_loads(after[copy / "phi_rules" / "prefilter.hs"])
    shipped = srsly.msgpack_loads(
        (pipeline_path("en_rules") / "phi_rules" / "prefilter.hs").read_bytes()
    )
    assert saved["key"] == shipped["key"]


def test_load_by_name(nlp_en, nlp_rules, nlp_es):
    import spacy_deid

    assert spacy_deid.load("en").pipe_names == nlp_en.pipe_names == DEFAULT_PIPES
    assert spacy_deid.load().pipe_names == DEFAULT_PIPES
    assert nlp_rules.pipe_names == RULES_PIPES
    assert nlp_es.lang == "es"
    assert nlp_es.pipe_names == [
        "phi_rules",
        "phi_ner",
        "phi_relabel",
        "phi_boundaries",
        "phi_surrogates",
    ]
    assert set(nlp_es.get_pipe("phi_ner").labels) <= set(MEDDOCAN_LABELS)
    assert nlp_es.get_pipe("phi_surrogates").cfg["label_map"] == "meddocan2i2b2"
    with pytest.raises(ValueError):
        pipeline_path("nope")


def test_label_scheme():
    assert len(labels.LABEL_NAMES) == 30
    assert set(labels.CATEGORIES) == {lab.category for lab in labels.LABELS.values()}
    assert labels.category_of("LOCATION-OTHER") == "LOCATION"
    assert labels.is_hipaa("PATIENT") and not labels.is_hipaa("DOCTOR")
    assert labels.labels_in_category("CONTACT") == [
        "PHONE",
        "FAX",
        "EMAIL",
        "URL",
        "IPADDR",
    ]
    assert set(labels.PHI_COLORS) == set(labels.LABEL_NAMES)


ROUND_TRIP_TEXTS = {
    "nlp_en": "Pt Ora Hendrickson, MRN: 7194334, seen 09/14/2067, phone (617) 555-0142.",
    "nlp_es": "Nombre: Lucía Ferrer Soler. NHC: 7194334. Ingreso: 14/09/2017 en Teruel.",
}


@pytest.mark.parametrize("fixture", sorted(ROUND_TRIP_TEXTS))
def test_pipeline_pickles(fixture, request):
    install_extensions()
    nlp = request.getfixturevalue(fixture)
    clone = pickle.loads(pickle.dumps(nlp))
    text = ROUND_TRIP_TEXTS[fixture]
    assert [e.text for e in clone(text).ents] == [e.text for e in nlp(text).ents]


@pytest.mark.parametrize("fixture", sorted(ROUND_TRIP_TEXTS))
def test_pipeline_disk_round_trip(fixture, request, tmp_path):
    nlp = request.getfixturevalue(fixture)
    text = ROUND_TRIP_TEXTS[fixture]
    nlp.to_disk(tmp_path / "p")
    nlp2 = spacy.load(tmp_path / "p")
    nlp2.get_pipe("phi_surrogates").set_key(SESSION_KEY)  # keys are never saved
    doc1, doc2 = nlp(text), nlp2(text)
    assert [(e.start_char, e.end_char, e.label_) for e in doc1.ents] == [
        (e.start_char, e.end_char, e.label_) for e in doc2.ents
    ]
    assert [t.text for t in doc1] == [t.text for t in doc2]
    assert nlp2.config["components"] == nlp.config["components"]


def _tiny_ner(path, lang="en"):
    """Train nothing: an initialized phi_ner saved like `spacy train` output,
    with settings that differ from the pipeline config's."""
    from spacy.training import Example

    config = {"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}}
    nlp = spacy.blank(lang, config=config)
    nlp.add_pipe("phi_ner", config={"overwrite_ents": False, "score_reduce": "min"})
    doc = nlp.make_doc("Seen by Whalen on 09/14/2067.")
    ref = doc.copy()
    ref.ents = [ref.char_span(8, 14, "DOCTOR"), ref.char_span(18, 28, "DATE")]
    nlp.initialize(lambda: [Example(doc, ref)])
    nlp.meta["performance"] = {"ents_f": 0.5, "ents_p": 0.5, "ents_r": 0.5}
    nlp.to_disk(path)
    return path


def test_build_takes_settings_from_the_pipeline_config(tmp_path):
    from spacy_deid.pretrained.build import build

    ner_dir = _tiny_ner(tmp_path / "ner")
    out = build("en", tmp_path / "en", ner_dir=ner_dir)
    nlp = spacy_deid_load(out)
    ner = nlp.get_pipe("phi_ner")
    assert nlp.pipe_names == DEFAULT_PIPES
    assert ner.labels == ("DATE", "DOCTOR")
    assert ner.cfg["overwrite_ents"] is True and ner.cfg["score_reduce"] == "mean"
    assert "DATE" in ner.cfg["protected_labels"]
    training = nlp.meta["training"]
    assert training["ner_dev_scores"]["ents_f"] == 0.5
    assert training["ner"]["labels"] == ["DATE", "DOCTOR"]
    # The label strings are shipped, the training corpus's strings are not.
    strings = set(srsly.read_json(out / "vocab" / "strings.json"))
    assert all(label in nlp.vocab.strings for label in ner.labels)
    assert "DOCTOR" in strings and "Whalen" not in strings  # DATE is a symbol


def test_build_stores_frequent_chunks(tmp_path):
    """`build --chunks` stores the corpus's frequent non-PHI chunks in
    meta.json; the built pipeline warms its tokenizer with them on load."""
    import spacy_deid
    from spacy_deid.pretrained.build import build

    from .run_helpers import doctor_corpus

    corpus = doctor_corpus(tmp_path / "train.jsonl", "Whalen", 5, " on day")
    out = build("en_rules", tmp_path / "r", chunks=corpus)
    meta = srsly.read_json(out / "meta.json")
    assert meta["frequent_chunks"] == ["Dr.", "Seen", "by", "day", "on"]
    assert meta["frequent_chunks_source"]["file"] == "train.jsonl"
    nlp = spacy_deid.load(out)
    assert "Seen" in nlp.vocab.strings and "Whalen" not in nlp.vocab.strings


def test_build_refuses_a_mismatched_tagger(tmp_path):
    from spacy_deid.pretrained.build import build

    ner_dir = _tiny_ner(tmp_path / "ner", lang="es")
    with pytest.raises(ValueError, match="lang"):
        build("en", tmp_path / "en", ner_dir=ner_dir)
    with pytest.raises(ValueError, match="--ner"):
        build("en", tmp_path / "en")
    with pytest.raises(ValueError):
        build("en_rules", tmp_path / "r", ner_dir=ner_dir)


def test_build_refuses_a_tagger_with_a_listener(tmp_path):
    """A tagger fed by a tok2vec/transformer listener would predict from empty
    features once copied alone into the shipped pipeline: refused."""
    from spacy_deid.pretrained.build import build

    nlp = listening_tagger_pipeline()
    nlp.to_disk(tmp_path / "ner")
    with pytest.raises(ValueError, match="listens to an upstream"):
        build("en", tmp_path / "en", ner_dir=tmp_path / "ner")


def test_build_merge_ner_settings():
    from spacy_deid.pretrained.build import merge_ner_settings

    trained = {"factory": "phi_ner", "model": {"a": 1}, "loss": "softmax"}
    merged = merge_ner_settings({"factory": "phi_ner", "overwrite_ents": True}, trained)
    assert merged == {
        "factory": "phi_ner",
        "overwrite_ents": True,
        "model": {"a": 1},
        "loss": "softmax",
    }
    with pytest.raises(ValueError, match="loss"):
        merge_ner_settings({"factory": "phi_ner", "loss": "crf"}, trained)


def test_build_reads_training_logs_and_scores(tmp_path):
    from spacy_deid.pretrained.provenance import headline_scores, read_training_log

    console = tmp_path / "train.log"
    console.write_text(
        "E    #       LOSS PHI_NER  ENTS_F  ENTS_P  ENTS_R  SCORE\n"
        "---  ------  ------------  ------  ------  ------  ------\n"
        "  0     200      10.00      50.00   50.00   50.00    0.50\n"
        "  1     400       5.00      70.00   70.00   70.00    0.70\n"
        "  2     600       4.00      60.00   60.00   60.00    0.60\n"
        # A tie in the rounded SCORE: the first score column decides.
        "  3     800       3.00      70.40   70.00   70.00    0.70\n"
        "  4    1000       3.00      69.90   70.00   70.00    0.70\n"
    )
    assert read_training_log(console) == {"steps": 1000, "best_step": 800}
    jsonl = tmp_path / "log.jsonl"
    rows = [{"epoch": 0, "step": s, "score": x} for s, x in [(100, 0.2), (200, 0.1)]]
    jsonl.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert read_training_log(jsonl) == {"steps": 200, "best_step": 100}
    assert read_training_log(tmp_path / "none")["steps"] is None
    micro = {"precision": 0.9, "recall": 0.8, "f1": 0.85, "tp": 1}
    result = {level: {"micro": micro} for level in ("strict", "relaxed", "token")}
    result["binary_token"] = {"micro": micro}
    result["leak"] = {"overall": {"rate": 0.01}, "leaked_notes": ["n1"]}
    srsly.write_json(tmp_path / "scores.json", result)
    scores = headline_scores(tmp_path / "scores.json")
    assert scores["strict"] == {"precision": 0.9, "recall": 0.8, "f1": 0.85}
    assert scores["leak_rate"] == 0.01 and "n1" not in json.dumps(scores)


def test_build_rewrites_the_dev_scores(tmp_path, capsys):
    """`build NAME --scores-only --scores FILE` replaces the headline dev scores
    in a built pipeline's meta.json with those of `spacy-deid evaluate --json`,
    and changes nothing else."""
    from typer.testing import CliRunner

    from spacy_deid.cli import app
    from spacy_deid.pretrained.build import main

    text = "Seen by Dr. Whalen on 09/14/2067."
    gold = {
        "id": "a",
        "text": text,
        "spans": [{"start": 12, "end": 18, "label": "DOCTOR"}],
    }
    gold["spans"].append({"start": 22, "end": 32, "label": "DATE"})
    pred = {**gold, "spans": gold["spans"][1:]}
    srsly.write_jsonl(tmp_path / "gold.jsonl", [gold])
    srsly.write_jsonl(tmp_path / "pred.jsonl", [pred])
    scores = tmp_path / "scores.json"
    args = ["evaluate", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl")]
    result = CliRunner().invoke(app, [*args, "--json", str(scores)])
    assert result.exit_code == 0, result.output
    copy = tmp_path / "en"
    copy.mkdir()
    shutil.copy(pipeline_path("en") / "meta.json", copy / "meta.json")
    before = srsly.read_json(copy / "meta.json")
    main(["en", "--scores-only", "--scores", str(scores), "--output", str(copy)])
    assert "strict F1 0.6667" in capsys.readouterr().out
    after = srsly.read_json(copy / "meta.json")
    written = after["training"].pop("pipeline_dev_scores")
    before["training"].pop("pipeline_dev_scores")
    assert after == before
    assert written["file"] == "scores.json" and written["notes"] == 1
    expected = {"precision": 1.0, "recall": 0.5, "f1": 2 / 3}
    assert written["strict"] == pytest.approx(expected, abs=1e-9)


def test_build_scores_only_needs_scores_and_training(tmp_path):
    from spacy_deid.pretrained.build import main

    with pytest.raises(SystemExit, match="needs --scores"):
        main(["en", "--scores-only", "--output", str(tmp_path)])
    srsly.write_json(tmp_path / "meta.json", {"lang": "en"})
    srsly.write_json(tmp_path / "scores.json", {})
    with pytest.raises(SystemExit, match="records no training"):
        main(
            [
                "en",
                "--scores-only",
                "--scores",
                str(tmp_path / "scores.json"),
                "--output",
                str(tmp_path),
            ]
        )
