"""The shipped pipelines: multiprocessing, offsets, consistency, merging."""

import datetime
import json
import re

import pytest

from spacy_deid.labels.maps import MEDDOCAN_LABELS
from spacy_deid.io.records import Record
from spacy_deid.run.runner import Result, check_deidentified, deidentify_items

from .conftest import ROOT, run_python
from .test_package import DEFAULT_PIPES

PROTECTED = {"PHONE", "FAX", "EMAIL", "SSN", "MEDICALRECORD", "ZIP", "DATE", "AGE"}
ES_NOTE = (
    "Nombre: Lucía Ferrer Soler.\nNHC: 7194334.\nFecha de ingreso: 14/03/2017.\n"
    "Paciente mujer de 67 años que vive en Teruel con su madre. Alta el "
    "2 de abril de 2017."
)

TEXTS = [
    "Record date: 09/14/2067\nMRN: 7194334\nSeen by Dr.\nWhalen for chest pain.",
    "Call (617) 555-0142 or fax 617-555-0199. Email ora.h@example.org",
    "",
    "   \n\t ",
    "92 yo male, SSN 123-45-6789, lives at 45 Maple Street, Springfield, IL 62704.",
]

SCRIPT = """
import json, multiprocessing as mp
import spacy
if __name__ == "__main__":
    mp.set_start_method("{method}", force=True)
    nlp = spacy.load({model!r})
    nlp.get_pipe("phi_surrogates").set_key(b"0123456789abcdef-test-key")
    texts = json.loads({texts!r})
    ctx = [(t, {{"patient": "P1"}}) for t in texts]
    single = [nlp.pipe([c], as_tuples=True).__next__()[0] for c in ctx]
    multi = [d for d, _ in nlp.pipe(ctx, as_tuples=True, n_process=2, batch_size=2)]
    def view(doc):
        return [doc._.deidentified, [(e.start_char, e.end_char, e.label_) for e in doc.ents]]
    assert [view(d) for d in single] == [view(d) for d in multi]
    print(json.dumps([view(d) for d in multi]))
"""


@pytest.mark.parametrize(
    "model,method",
    [
        ("spacy_deid/pretrained/en_rules", "fork"),
        ("spacy_deid/pretrained/en_rules", "spawn"),
        # The default pipeline (rules + tagger): one start method is enough.
        ("spacy_deid", "spawn"),
    ],
)
def test_n_process_matches_single(model, method, tmp_path):
    script = tmp_path / "mp_check.py"
    script.write_text(
        SCRIPT.format(method=method, model=model, texts=json.dumps(TEXTS))
    )
    proc = run_python(script.read_text(), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    views = json.loads(proc.stdout)
    assert len(views) == len(TEXTS)
    assert "7194334" not in views[0][0] and "09/14/2067" not in views[0][0]
    if "en_rules" in model:
        assert "Whalen" not in views[0][0]


@pytest.mark.parametrize("fixture", ["nlp_en", "nlp_rules"])
def test_offsets_and_text(fixture, request):
    nlp = request.getfixturevalue(fixture)
    for text in TEXTS:
        doc = nlp(text)
        assert doc.text == text
        for ent in doc.ents:
            assert text[ent.start_char : ent.end_char] == ent.text
        out = doc._.deidentified
        for in_s, in_e, out_s, out_e in doc._.offset_map:
            ent = doc.char_span(in_s, in_e)
            assert ent is not None
            assert out[out_s:out_e] == ent._.surrogate or ent._.surrogate is None


@pytest.mark.parametrize("fixture", ["nlp_en", "nlp_rules"])
def test_dr_newline_name_same_sentence(fixture, request):
    nlp = request.getfixturevalue(fixture)
    doc = nlp("Seen today.\nSeen by Dr.\nWhalen for chest pain. Next visit soon.")
    sents = [s.text for s in doc.sents]
    assert any("Dr.\nWhalen" in s for s in sents)
    if fixture == "nlp_rules":
        assert any(e.text == "Whalen" and e.label_ == "DOCTOR" for e in doc.ents)


def test_same_patient_consistent_across_docs(nlp_rules):
    nlp_en = nlp_rules
    surrogates = nlp_en.get_pipe("phi_surrogates")
    surrogates.set_key(b"another-test-key-0123456789")
    docs = []
    for text in [
        "Dr. Whalen saw her on 09/14/2067.",
        "Follow-up with Dr. Whalen on 09/21/2067.",
    ]:
        doc = nlp_en.make_doc(text)
        doc._.patient = "P7"
        docs.append(nlp_en(doc))
    names = [e._.surrogate for d in docs for e in d.ents if e.label_ == "DOCTOR"]
    assert len(names) == 2 and names[0] == names[1] != "Whalen"


def test_default_pipeline_order(nlp_en):
    assert nlp_en.pipe_names == DEFAULT_PIPES


def test_default_pipeline_marks_a_repeated_name(nlp_en):
    # A name the tagger finds where a cue stands is also marked where none does.
    text = "Pt Halvard Quennell seen on rounds. Plan discussed; halvard quennell agrees."
    found = [(e.text, e.label_, e._.phi_source) for e in nlp_en(text).ents]
    assert ("Halvard Quennell", "PATIENT", "phi_ner") in found
    assert ("halvard quennell", "PATIENT", "consistency") in found
    ner = nlp_en.get_pipe("phi_ner")
    assert ner.cfg["overwrite_ents"] is True
    assert PROTECTED <= set(ner.cfg["protected_labels"])


def test_protected_rule_entities_win(nlp_en, nlp_rules):
    """Whatever the tagger predicts, rule entities with a protected
    (formulaic) label are kept as the rules found them."""
    for text in TEXTS:
        rules = {
            (e.start_char, e.end_char, e.label_)
            for e in nlp_rules(text).ents
            if e.label_ in PROTECTED
        }
        merged = {(e.start_char, e.end_char, e.label_) for e in nlp_en(text).ents}
        assert rules <= merged


def test_default_pipeline_spans_from_both(nlp_en):
    doc = nlp_en(TEXTS[0] + "\n" + TEXTS[4])
    sources = {e._.phi_source.split(":")[0] for e in doc.ents if e._.phi_source}
    assert "rules" in sources
    starts = [e.start for e in doc.ents]
    assert starts == sorted(starts)
    check_deidentified(doc, doc.ents)


def _es_doc(nlp_es, phi):
    doc = nlp_es.make_doc(ES_NOTE)
    ents = []
    for value, label in phi:
        start = ES_NOTE.index(value)
        ents.append(doc.char_span(start, start + len(value), label=label))
    doc.ents = ents
    doc._.patient = "P1"
    return doc


def test_es_surrogates_follow_the_label_map(nlp_es):
    """MEDDOCAN entities (set by hand: no dependence on the model) keep their
    labels; surrogates follow the mapped i2b2 labels; dates are day first."""
    surrogates = nlp_es.get_pipe("phi_surrogates")
    surrogates.set_key(b"es-pipeline-test-key-0123456789")
    phi = [
        ("Lucía Ferrer Soler", "NOMBRE_SUJETO_ASISTENCIA"),
        ("7194334", "ID_SUJETO_ASISTENCIA"),
        ("14/03/2017", "FECHAS"),
        ("mujer", "SEXO_SUJETO_ASISTENCIA"),
        ("67 años", "EDAD_SUJETO_ASISTENCIA"),
        ("Teruel", "TERRITORIO"),
        ("madre", "FAMILIARES_SUJETO_ASISTENCIA"),
        ("2 de abril de 2017", "FECHAS"),
    ]
    doc = surrogates(_es_doc(nlp_es, phi))
    out = check_deidentified(doc, doc.ents)
    assert [e.label_ for e in doc.ents] == [label for _, label in phi]
    new = {e.text: e._.surrogate for e in doc.ents}
    for value, _ in phi:
        assert value not in out
    assert new["mujer"] == new["madre"] == "[**]"
    assert re.fullmatch(r"\d+ años", new["67 años"])
    day, month, year = (int(x) for x in new["14/03/2017"].split("/"))
    first = datetime.date(year, month, day)
    match = re.fullmatch(r"(\d+) de (\w+) de (\d{4})", new["2 de abril de 2017"])
    assert match is not None
    months = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio",
              "agosto", "septiembre", "octubre", "noviembre", "diciembre"]  # fmt: skip
    second = datetime.date(
        int(match.group(3)), months.index(match.group(2)) + 1, int(match.group(1))
    )
    assert (second - first).days == 19  # the interval is kept


@pytest.mark.parametrize("mode", ["surrogate", "tag", "redact"])
def test_es_pipeline_end_to_end(nlp_es, mode):
    nlp_es.get_pipe("phi_surrogates").cfg["mode"] = mode
    try:
        outs = list(deidentify_items(nlp_es, [Record(0, "es-1", ES_NOTE, "P1")]))
    finally:
        nlp_es.get_pipe("phi_surrogates").cfg["mode"] = "surrogate"
    assert isinstance(outs[0], Result), outs[0]
    assert {span["label"] for span in outs[0].spans} <= set(MEDDOCAN_LABELS)
    if mode == "tag":
        for span in outs[0].spans:
            assert f"[{span['label']}]" in outs[0].text


HASH_SCRIPT = """
import json
import spacy
from spacy_deid.synth import generate
nlp = spacy.load("spacy_deid")
nlp.get_pipe("phi_surrogates").set_key(b"0123456789abcdef-test-key")
notes = list(generate(40, seed=17, split="test"))
docs = nlp.pipe([n.text for n in notes])
print(json.dumps([
    [d._.deidentified, [(e.start_char, e.end_char, e.label_) for e in d.ents]]
    for d in docs
]))
"""


def test_default_pipeline_output_does_not_depend_on_the_hash_seed():
    """The same notes and key give the same output in processes with other
    string hash seeds (no decision may follow a set's order)."""
    import os

    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = run_python(HASH_SCRIPT, cwd=ROOT, env=env)
        assert proc.returncode == 0, proc.stderr[-3000:]
        outputs.append(json.loads(proc.stdout))
    assert outputs[0] == outputs[1]
    assert any(spans for _, spans in outputs[0])
