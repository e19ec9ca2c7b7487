"""Installation-level checks: entry points, the shipped pipeline, the label scheme."""

import pickle

import pytest
import spacy
from spacy.util import load_config

from spacy_deid import labels, pipeline_path
from spacy_deid.extensions import install_extensions

from .conftest import ROOT, run_python


def test_entry_points_without_import():
    code = (
        "import sys, spacy\n"
        "nlp = spacy.blank('en', config={'nlp': {'tokenizer': "
        "{'@tokenizers': 'spacy_deid.ClinicalTokenizer.v1'}}})\n"
        "for name in ['clinical_sentencizer', 'phi_rules', 'phi_surrogates']:\n"
        "    nlp.add_pipe(name)\n"
        "print(nlp.pipe_names)\n"
        "print([t.text for t in nlp.make_doc('09/14/2067CPT')])\n"
    )
    proc = run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert "phi_surrogates" in proc.stdout
    assert "['09/14/2067', 'CPT']" in proc.stdout


def test_spacy_load_offline_in_fresh_interpreter():
    code = "import spacy; nlp = spacy.load('spacy_deid'); print(nlp.pipe_names)"
    proc = run_python(code, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "phi_rules" in proc.stdout and "phi_surrogates" in proc.stdout


def test_shipped_pipeline_matches_config():
    """The shipped pipeline is built from configs/pipeline_en_rules.cfg."""
    shipped = load_config(pipeline_path("en") / "config.cfg")
    source = load_config(ROOT / "configs" / "pipeline_en_rules.cfg")
    assert shipped["nlp"]["pipeline"] == source["nlp"]["pipeline"]
    assert shipped["nlp"]["tokenizer"] == source["nlp"]["tokenizer"]
    for name in source["components"]:
        for key, value in source["components"][name].items():
            assert shipped["components"][name][key] == value


def test_load_by_name(nlp_en):
    import spacy_deid

    nlp = spacy_deid.load("en")
    assert nlp.pipe_names == nlp_en.pipe_names
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


def test_pipeline_pickles(nlp_en):
    install_extensions()
    clone = pickle.loads(pickle.dumps(nlp_en))
    text = "Seen by Dr. Whalen on 09/14/2067."
    assert [e.text for e in clone(text).ents] == [e.text for e in nlp_en(text).ents]


def test_pipeline_disk_round_trip(nlp_en, tmp_path):
    text = "Pt Ora Hendrickson, MRN: 7194334, seen 09/14/2067, phone (617) 555-0142."
    nlp_en.to_disk(tmp_path / "p")
    nlp2 = spacy.load(tmp_path / "p")
    doc1, doc2 = nlp_en(text), nlp2(text)
    assert [(e.start_char, e.end_char, e.label_) for e in doc1.ents] == [
        (e.start_char, e.end_char, e.label_) for e in doc2.ents
    ]
    assert [t.text for t in doc1] == [t.text for t in doc2]
