"""Fail-closed behaviour of the record runner (`spacy_deid.run.runner`)."""

import json
import subprocess
import sys

import pytest
import spacy

import spacy_deid
from spacy_deid.run import plan
from spacy_deid.run import runner as runner_module
from spacy_deid.tagging.segments import MAX_DOC_TOKENS
from spacy_deid.io.records import Record
from spacy_deid.run.runner import (
    Rejected,
    Result,
    deidentify_items,
    deidentify_texts,
    doc_to_result,
)

from .conftest import ROOT, count_calls

RULER_FAILS = """
import json
import spacy
from spacy_deid.io.records import Record
from spacy_deid.rules.ruler import PhiRuler
from spacy_deid.run.runner import deidentify_items

original = PhiRuler.match

def match(self, doc):
    if "BOOM" in doc.text:
        raise RuntimeError("secret " + doc.text)
    return original(self, doc)

PhiRuler.match = match
nlp = spacy.load("spacy_deid")
texts = ["Dr. Whalen", "BOOM Dr. Whalen on 09/14/2067", "MRN: 7194334", "Seen 09/15/2067"]
records = [Record(i, str(i), t) for i, t in enumerate(texts)]
for n in (1, 2):
    outs = list(deidentify_items(nlp, records, n_process=n, batch_size=2))
    print(json.dumps([[type(o).__name__, o.id, getattr(o, "error", "")] for o in outs]))
"""


def test_component_that_swallows_errors_still_fails_closed():
    """phi_rules reports errors to the error handler; the runner's handler marks
    the doc and the record is rejected, in one and in several processes."""
    proc = subprocess.run(
        [sys.executable, "-c", RULER_FAILS],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 2
    for line in lines:
        outs = json.loads(line)
        kinds = [o[:2] for o in outs]
        assert kinds == [
            ["Result", "0"],
            ["Rejected", "1"],
            ["Result", "2"],
            ["Result", "3"],
        ]
        assert "secret" not in outs[1][2] and "Whalen" not in outs[1][2]


def test_surrogates_must_be_last():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_surrogates")
    nlp.add_pipe("phi_rules")
    with pytest.raises(ValueError):
        list(deidentify_items(nlp, [Record(0, "a", "Dr. Whalen")]))


def test_kept_by_reads_the_surrogates_label_map():
    """A span may be replaced by itself only if phi_surrogates sees an AGE:
    the MEDDOCAN age label maps to AGE under "meddocan2i2b2"."""
    nlp = spacy.blank("es")
    nlp.add_pipe("phi_surrogates", config={"label_map": "meddocan2i2b2"})
    doc = nlp.make_doc("Varón de 45 años, Lucía.")
    age = doc.char_span(9, 16, "EDAD_SUJETO_ASISTENCIA")
    name = doc.char_span(18, 23, "NOMBRE_SUJETO_ASISTENCIA")
    kept = runner_module.kept_by(nlp)
    assert kept(age) and not kept(name)
    assert not runner_module.kept_by(spacy.blank("es"))(age)  # no label map


def test_meddocan_ages_kept_under_90_are_not_rejected(monkeypatch):
    """With keep_ages_under_90, a MEDDOCAN-labelled age stays as it is and the
    note passes the check; a name replaced by itself is still rejected."""
    from spacy_deid.surrogates.replacer import PhiSurrogates

    overrides = {"components.phi_surrogates.keep_ages_under_90": True}
    nlp = spacy_deid.load("es_meddocan", config=overrides)
    nlp.get_pipe("phi_surrogates").set_key(bytes(range(32)))
    text = "Paciente de 45 años, atendido por la Dra. Lucía Ferrer Soler."
    (out,) = deidentify_items(nlp, [Record(0, "a", text)])
    assert isinstance(out, Result), out
    assert out.text.startswith("Paciente de 45 años") and "Ferrer" not in out.text
    ages = [s for s in out.spans if s["label"] == "EDAD_SUJETO_ASISTENCIA"]
    assert [text[s["start"] : s["end"]] for s in ages] == ["45 años"]

    original = PhiSurrogates._surrogate

    def keep_names(self, label, text, *args, **kwargs):
        if label == "DOCTOR":
            return text
        return original(self, label, text, *args, **kwargs)

    monkeypatch.setattr(PhiSurrogates, "_surrogate", keep_names)
    (out,) = deidentify_items(nlp, [Record(0, "a", text)])
    assert isinstance(out, Rejected), out
    assert "NOMBRE_PERSONAL_SANITARIO span was replaced by itself" in out.error


def test_surrogate_equal_to_original_is_rejected(monkeypatch):
    """A replacement that leaves the PHI in place is caught by the check."""
    from spacy_deid.surrogates.replacer import PhiSurrogates

    original_call = PhiSurrogates.__call__

    def broken(self, doc):
        doc = original_call(self, doc)
        doc._.deidentified = doc.text
        doc._.offset_map = [[e.start_char, e.end_char] * 2 for e in doc.ents]
        return doc

    monkeypatch.setattr(PhiSurrogates, "__call__", broken)
    nlp = spacy_deid.load("en_rules")  # a rule entity, whatever the tagger says
    nlp.get_pipe("phi_surrogates").set_key(bytes(range(32)))
    records = [Record(0, "a", "Seen by Dr. Whalen."), Record(1, "b", "ok")]
    outs = list(deidentify_items(nlp, records))
    assert isinstance(outs[0], Rejected) and "replaced by itself" in outs[0].error
    assert "Whalen" not in outs[0].error
    assert isinstance(outs[1], Result) and outs[1].text == "ok"


def test_deidentify_texts(nlp_en):
    out = deidentify_texts(nlp_en, ["MRN: 7194334", ""])
    assert "7194334" not in out[0] and out[1] == ""


def test_meddocan_labels_pass_the_check(nlp_es):
    """Spans with MEDDOCAN labels, including those the label map drops (masked)
    and ages (replaced: keep_ages_under_90 is off), pass the output check."""
    text = "Varón de 45 años, vive con su pareja. Ingreso el 03/05/2016."
    doc = nlp_es.make_doc(text)
    phi = [
        ("Varón", "SEXO_SUJETO_ASISTENCIA"),
        ("45 años", "EDAD_SUJETO_ASISTENCIA"),
        ("pareja", "FAMILIARES_SUJETO_ASISTENCIA"),
        ("03/05/2016", "FECHAS"),
    ]
    spans = []
    for value, label in phi:
        start = text.index(value)
        spans.append(doc.char_span(start, start + len(value), label=label))
    doc.ents = spans
    doc = nlp_es.get_pipe("phi_surrogates")(doc)
    out = doc_to_result(Record(0, "a", text), doc)
    assert [s["label"] for s in out.spans] == [label for _, label in phi]
    assert "45 años" not in out.text and "03/05/2016" not in out.text


def test_patient_batches_keep_runs_whole():
    from spacy_deid.io.records import Record
    from spacy_deid.run.runner import patient_batches

    patients = ["a"] * 5 + ["b"] * 2 + [None] * 3 + ["c"] * 4
    records = [Record(i, f"r{i}", "x", p) for i, p in enumerate(patients)]
    batches = [[r.index for r in b] for b in patient_batches(records, 3, 100)]
    assert sum(batches, []) == list(range(len(records)))
    assert batches[0] == [0, 1, 2, 3, 4]  # patient a is not cut
    for batch in batches:
        assert len(batch) >= 3 or batch is batches[-1]
    capped = [[r.index for r in b] for b in patient_batches(records, 2, 4)]
    assert capped[0] == [0, 1, 2, 3]  # the cap wins over the run


def test_check_pipeline_refuses_unmerged_span_groups(nlp_rules):
    import spacy

    from spacy_deid.run.runner import check_pipeline

    nlp = spacy.blank("en")
    nlp.add_pipe("phi_ner", config={"spans_key": "phi_ner"})
    nlp.add_pipe("phi_surrogates")
    with pytest.raises(ValueError, match="phi_merge"):
        check_pipeline(nlp)
    nlp.add_pipe("phi_merge", before="phi_surrogates", config={"sources": ["phi_ner"]})
    check_pipeline(nlp)


def test_runner_computes_no_unread_scores(monkeypatch):
    """`deidentify_items` on `en` without `phi_consistency` (the one component
    after `phi_ner` that reads span scores) computes no CRF marginals, gives
    the output it gives with them, with one process and with two, and turns
    the scores back on after the run."""
    import spacy

    from spacy_deid.tagging import tagger

    nlp = spacy.load("spacy_deid", exclude=["phi_consistency"])
    calls = count_calls(monkeypatch, tagger, "crf_marginals_seqs")
    check_skipped_work(nlp, monkeypatch, calls)
    assert nlp.get_pipe("phi_ner").with_scores


def test_runner_keeps_scores_that_are_read(nlp_en, monkeypatch):
    """`phi_consistency` in `en` spreads only confident spans: the run keeps
    the scores it reads."""
    from spacy_deid.synth import generate
    from spacy_deid.tagging import tagger

    calls = count_calls(monkeypatch, tagger, "crf_marginals_seqs")
    notes = list(generate(2, seed=5, split="all"))
    records = [Record(i, n.id, n.text, n.patient) for i, n in enumerate(notes)]
    assert list(deidentify_items(nlp_en, records, batch_size=4))
    assert calls


def check_skipped_work(nlp, monkeypatch, calls: list) -> None:
    """A run of `nlp` does none of the work counted in `calls`, and gives the
    output of a run where `plan.skip_unread_work` skips nothing, with one
    process and with two."""
    from spacy_deid.synth import generate

    notes = list(generate(6, seed=5, split="all"))
    records = [Record(i, n.id, n.text, n.patient) for i, n in enumerate(notes)]
    nlp.get_pipe("phi_surrogates").set_key(bytes(range(32)))
    fast = list(deidentify_items(nlp, records, batch_size=4))
    assert calls == []
    assert sum(len(out.spans) for out in fast) > 20
    monkeypatch.setattr(plan, "skip_unread_work", lambda nlp, changes: None)
    assert list(deidentify_items(nlp, records, batch_size=4)) == fast
    assert calls
    monkeypatch.undo()
    assert list(deidentify_items(nlp, records, n_process=2, batch_size=4)) == fast


@pytest.mark.parametrize(
    "first,between,skipped",
    [
        ("phi_ner", [], ["phi_ner"]),
        ("phi_ner", ["phi_consistency"], []),
        # phi_ner reads no span scores (it merges by label and offsets).
        ("phi_ner", ["phi_ner"], ["phi_ner_2", "phi_ner"]),
        ("phi_crf", [], ["phi_crf"]),
        ("phi_crf", ["phi_merge"], []),
        ("phi_ner", ["phi_crf"], ["phi_crf_2", "phi_ner"]),
    ],
)
def test_skip_unread_scores_only_where_nothing_reads_them(first, between, skipped):
    """Scores are skipped for a `phi_ner` or `phi_crf` after which no component
    requires `span._.phi_score` (`phi_known` and `phi_surrogates` do not;
    `phi_consistency` and `phi_merge` do), and turned back on by `undo_run`."""
    nlp = spacy.blank("en")
    nlp.add_pipe(first)
    for i, factory in enumerate(between):
        nlp.add_pipe(factory, name=f"{factory}_{i + 2}")
    nlp.add_pipe("phi_known")
    nlp.add_pipe("phi_surrogates")
    changes = plan.prepare_run(nlp)
    assert changes.skipped == skipped and changes.disabled == []
    for name in nlp.pipe_names:
        if nlp.get_pipe_meta(name).factory in ("phi_ner", "phi_crf"):
            assert nlp.get_pipe(name).with_scores is (name not in skipped)
    plan.undo_run(nlp, changes)
    assert all(getattr(pipe, "with_scores", True) for _, pipe in nlp.pipeline)


def test_an_undeclared_component_may_read_anything():
    """A component whose factory declares neither requires nor assigns (a
    third-party one) counts as reading everything: nothing before it is
    switched off."""

    @spacy.Language.component("test_undeclared_reader")
    def undeclared(doc):
        return doc

    nlp = spacy.blank("en")
    nlp.add_pipe("clinical_sentencizer")
    nlp.add_pipe("phi_ner")
    nlp.add_pipe("test_undeclared_reader")
    nlp.add_pipe("phi_surrogates")
    changes = plan.prepare_run(nlp)
    assert changes.skipped == [] and changes.disabled == []
    plan.undo_run(nlp, changes)


def test_runner_splits_no_unread_sentences(nlp_rules, monkeypatch):
    """`deidentify_items` on `en_rules` does not run its sentence splitter
    (nothing after it reads sentences), gives the output it gives with it,
    with one process and with two, and enables it again after the run."""
    from spacy_deid.text.sentences import ClinicalSentencizer

    calls = count_calls(monkeypatch, ClinicalSentencizer, "__call__")
    names = list(nlp_rules.pipe_names)
    assert "clinical_sentencizer" in names
    check_skipped_work(nlp_rules, monkeypatch, calls)
    assert nlp_rules.pipe_names == names


@pytest.mark.parametrize(
    "after,skipped,limited",
    [
        (["phi_rules", "phi_known", "phi_surrogates"], ["clinical_sentencizer"], []),
        (["phi_rules", "phi_ner", "phi_surrogates"], [], ["clinical_sentencizer"]),
        (["phi_crf", "phi_surrogates"], [], ["clinical_sentencizer"]),
        # phi_consistency reads no sentence starts.
        (["phi_ner", "phi_consistency", "phi_surrogates"], [], ["clinical_sentencizer"]),
        (["phi_consistency", "phi_surrogates"], ["clinical_sentencizer"], []),
        # The stock splitter is skipped first (the last component first); the
        # clinical one is then followed by no reader of sentences at all.
        (
            ["phi_rules", "sentencizer", "phi_surrogates"],
            ["sentencizer", "clinical_sentencizer"],
            [],
        ),
        (
            ["phi_ner", "sentencizer", "phi_surrogates"],
            ["sentencizer"],
            ["clinical_sentencizer"],
        ),
    ],
)
def test_skip_unread_sentences_only_before_sentence_blind_components(
    after, skipped, limited
):
    """A splitter is disabled only when no later component requires sentence
    starts, and a `clinical_sentencizer` splits only long docs when later
    components read only long docs' sentences (`read_from`); `undo_run`
    enables the one and lets the other split every doc again."""
    nlp = spacy.blank("en")
    nlp.add_pipe("clinical_sentencizer")
    for factory in after:
        nlp.add_pipe(factory)
    names = list(nlp.pipe_names)
    changes = plan.prepare_run(nlp)
    assert changes.disabled == skipped
    assert [n for n in changes.skipped if "sentencizer" in n] == limited
    assert sorted(n for n in names if n not in nlp.pipe_names) == sorted(skipped)
    expected = MAX_DOC_TOKENS + 1 if limited else 0
    assert nlp.get_pipe("clinical_sentencizer").min_tokens == expected
    plan.undo_run(nlp, changes)
    assert nlp.pipe_names == names
    assert nlp.get_pipe("clinical_sentencizer").min_tokens == 0


def count_split_docs(monkeypatch) -> list:
    """Patch `ClinicalSentencizer.predict` to record the length of each doc it
    splits; returns the list it appends to."""
    from spacy_deid.text.sentences import ClinicalSentencizer

    split = []
    real = ClinicalSentencizer.predict

    def counted(self, doc):
        split.append(len(doc))
        return real(self, doc)

    monkeypatch.setattr(ClinicalSentencizer, "predict", counted)
    return split


def test_runner_splits_only_the_long_docs_phi_ner_cuts(nlp_en, monkeypatch):
    """On `en` the runner splits no doc of at most `MAX_DOC_TOKENS` tokens
    into sentences (`phi_ner` reads the sentences of longer docs alone), and
    gives the output it gives when every doc is split, with one process and
    with two."""
    split = count_split_docs(monkeypatch)
    check_skipped_work(nlp_en, monkeypatch, split)
    assert nlp_en.get_pipe("clinical_sentencizer").min_tokens == 0


def test_runner_still_splits_docs_that_phi_ner_cuts(nlp_en, monkeypatch):
    """Docs longer than `MAX_DOC_TOKENS` tokens (60 here) are split, and cut
    at their sentence starts as in a run that splits every doc."""
    from spacy_deid.synth import generate
    from spacy_deid.ner import component

    monkeypatch.setattr(component, "MAX_DOC_TOKENS", 60)
    split = count_split_docs(monkeypatch)
    # Long lines, so that cuts fall at sentence starts, not line breaks.
    notes = [n.text.replace("\n", " ") for n in generate(4, seed=8, split="all")]
    records = [Record(i, str(i), text) for i, text in enumerate(notes)]
    nlp_en.get_pipe("phi_surrogates").set_key(bytes(range(32)))
    limited = list(deidentify_items(nlp_en, records, batch_size=4))
    lengths = [len(nlp_en.make_doc(text)) for text in notes]
    assert sorted(split) == sorted(n for n in lengths if n > 60)
    assert split
    monkeypatch.setattr(plan, "skip_unread_work", lambda nlp, changes: None)
    assert list(deidentify_items(nlp_en, records, batch_size=4)) == limited


def test_a_run_that_fails_to_start_leaves_the_pipeline_as_it_was(
    nlp_en, nlp_rules, monkeypatch
):
    """The run-scoped changes (an added `phi_known`, the error handler, span
    scores off) are undone also when the run fails before its first record."""

    def broken(*args, **kwargs):
        raise RuntimeError("batching failed")

    monkeypatch.setattr(runner_module, "patient_batches", broken)
    names = list(nlp_en.pipe_names)
    rules_names = list(nlp_rules.pipe_names)
    handler = nlp_en.default_error_handler
    with pytest.raises(RuntimeError, match="batching failed"):
        list(deidentify_items(nlp_en, [Record(0, "a", "Dr. Whalen")]))
    assert nlp_en.pipe_names == names
    assert nlp_en.default_error_handler is handler
    assert nlp_en.get_pipe("phi_ner").with_scores
    with pytest.raises(RuntimeError, match="batching failed"):
        list(deidentify_items(nlp_rules, [Record(0, "a", "Dr. Whalen")]))
    assert nlp_rules.pipe_names == rules_names and not nlp_rules.disabled
