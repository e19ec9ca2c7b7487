"""The assembled default pipeline: multiprocessing, offsets, consistency."""

import json

import pytest

from .conftest import ROOT, run_python

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
    nlp = spacy.load("spacy_deid")
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


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_n_process_matches_single(method, tmp_path):
    script = tmp_path / "mp_check.py"
    script.write_text(SCRIPT.format(method=method, texts=json.dumps(TEXTS)))
    proc = run_python(script.read_text(), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    views = json.loads(proc.stdout)
    assert len(views) == len(TEXTS)
    assert "Whalen" not in views[0][0] and "7194334" not in views[0][0]


def test_offsets_and_text(nlp_en):
    for text in TEXTS:
        doc = nlp_en(text)
        assert doc.text == text
        for ent in doc.ents:
            assert text[ent.start_char : ent.end_char] == ent.text
        out = doc._.deidentified
        for in_s, in_e, out_s, out_e in doc._.offset_map:
            ent = doc.char_span(in_s, in_e)
            assert ent is not None
            assert out[out_s:out_e] == ent._.surrogate or ent._.surrogate is None


def test_dr_newline_name_same_sentence(nlp_en):
    doc = nlp_en("Seen today.\nSeen by Dr.\nWhalen for chest pain. Next visit soon.")
    sents = [s.text for s in doc.sents]
    assert any("Dr.\nWhalen" in s for s in sents)
    assert any(e.text == "Whalen" and e.label_ == "DOCTOR" for e in doc.ents)


def test_same_patient_consistent_across_docs(nlp_en):
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
