import json
import pickle

import spacy
from spacy.training import Example
from spacy.util import registry
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus import read_jsonl, write_jsonl
from spacy_deid.core.types import Note
from spacy_deid.evaluate import MEASURES, evaluate_notes, format_table, render_html
from spacy_deid.core.scorers import make_phi_scorer, score_phi

from .conftest import TEXT, gold_spans, note, span

DEID = "Pt Xavier Quinn seen 2021-02-03 at Mercy Hospital by Dr Bo Ray."


def test_format_table_and_html():
    pred = [span("John Smith", "PATIENT"), span("Mercy", "HOSPITAL")]
    gold, preds = [note(gold_spans())], [note(pred)]
    result = evaluate_notes(gold, preds)
    table = format_table(result)
    assert "strict" in table and "HIPAA PHI" in table and "Error taxonomy" in table
    assert "John" not in table  # counts only
    page = render_html(gold, preds)
    assert page.startswith("<!DOCTYPE html>") and "Mercy" in page and "n1" in page
    assert "<mark" in page
    assert "No notes" in render_html(gold, gold, only_errors=True)


def test_cli_evaluate_with_deid_output(tmp_path):
    write_jsonl([note(gold_spans())], tmp_path / "gold.jsonl")
    write_jsonl([Note("n1", DEID, gold_spans()[:3])], tmp_path / "deid.jsonl")
    write_jsonl([note(gold_spans())], tmp_path / "b.jsonl")
    args = [
        "evaluate",
        str(tmp_path / "gold.jsonl"),
        str(tmp_path / "deid.jsonl"),
        "--json",
        str(tmp_path / "r.json"),
        "--html",
        str(tmp_path / "r.html"),
        "--compare",
        str(tmp_path / "b.jsonl"),
        "--shuffles",
        "99",
    ]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    assert "Leak" in out.output and "John" not in out.output
    result = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    for key in MEASURES:
        assert set(result[key]) == {"micro", "macro"}
        assert set(result["hipaa"][key]) == {"micro", "macro"}
        assert {"precision", "recall", "f1"} <= set(result[key]["micro"])
    assert result["strict"]["micro"]["recall"] == 0.75
    assert result["leak"]["overall"]["leaked"] == 1  # Mercy Hospital
    assert result["significance"]["shuffles"] == 99
    assert "taxonomy" in result and "per_label" in result
    assert (tmp_path / "r.html").exists()


def test_cli_convert(tmp_path):
    write_jsonl([note(gold_spans())], tmp_path / "gold.jsonl")
    runner = CliRunner()
    out = runner.invoke(
        app,
        [
            "convert",
            str(tmp_path / "gold.jsonl"),
            str(tmp_path / "xml"),
            "--to",
            "i2b2",
        ],
    )
    assert out.exit_code == 0, out.output
    out = runner.invoke(
        app,
        [
            "convert",
            str(tmp_path / "xml"),
            str(tmp_path / "c.jsonl"),
            "--label-map",
            "hipaa",
        ],
    )
    assert out.exit_code == 0, out.output
    assert [len(n.spans) for n in read_jsonl(tmp_path / "c.jsonl")] == [2]
    out = runner.invoke(
        app,
        [
            "convert",
            str(tmp_path / "gold.jsonl"),
            str(tmp_path / "d.spacy"),
            "--misaligned",
            "missing",
        ],
    )
    assert out.exit_code == 0, out.output
    assert "misaligned" in out.output and "John" not in out.output
    bad = runner.invoke(app, ["convert", str(tmp_path / "gold.jsonl"), "x.foo"])
    assert bad.exit_code != 0


def test_phi_scorer():
    assert registry.scorers.get("spacy_deid.phi_scorer.v1") is make_phi_scorer
    scorer = make_phi_scorer()
    assert scorer is score_phi
    pickle.loads(pickle.dumps(scorer))
    nlp = spacy.blank("en")
    predicted = nlp.make_doc(TEXT)
    predicted.ents = [
        predicted.char_span(3, 13, "PATIENT"),
        predicted.char_span(3 + 30, 38, "HOSPITAL"),
    ]
    gold = {"entities": [(s.start, s.end, s.label) for s in gold_spans()]}
    example = Example.from_dict(predicted, gold)
    scores = scorer([example])
    # strict: 1 of 2 predictions right, 1 of 4 gold found
    assert (scores["ents_p"], scores["ents_r"]) == (0.5, 0.25)
    assert scores["ents_per_type"]["PATIENT"]["f"] == 1.0
    # spaCy tokens: gold PHI tokens John Smith 2020-01-02 Mercy Hospital Ann Lee;
    # predicted John Smith Mercy
    n_gold = sum(1 for t in example.reference if t.ent_iob_ in ("B", "I"))
    assert scores["phi_token_p"] == 1.0
    assert scores["phi_token_r"] == 3 / n_gold
