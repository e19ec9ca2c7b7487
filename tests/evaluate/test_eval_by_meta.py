"""Breakdown by gold meta values, unknown labels, empty and unmatched input."""

import json

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus import CorpusError, write_jsonl
from spacy_deid.core.types import Note
from spacy_deid.evaluate import evaluate_notes, format_table

from .conftest import TEXT, gold_spans, note, span


def _gold():
    """Three notes shaped like synthetic ones: `kind` and a `family` list."""
    metas = [
        {"kind": "discharge", "family": ["f.seen", "f.unseen"]},
        {"kind": "discharge", "family": ["f.seen"]},
        {"kind": "telephone", "family": ["f.unseen"]},
    ]
    notes = [note(gold_spans(), f"n{i}") for i in range(3)]
    for n, meta in zip(notes, metas, strict=True):
        n.meta = meta
    return notes + [note(gold_spans(), "plain")]


def _pred():
    return [
        note(gold_spans(), "n0"),  # perfect
        note(gold_spans()[:2], "n1"),  # misses HOSPITAL and DOCTOR
        note([], "n2"),  # finds nothing
        note(gold_spans(), "plain"),
    ]


def test_by_meta_kind_and_family_lists():
    result = evaluate_notes(_gold(), _pred(), by_meta=["kind", "family"])
    kind = result["by_meta"]["kind"]
    assert list(kind) == ["(none)", "discharge", "telephone"]
    assert kind["discharge"]["notes"] == 2
    assert kind["discharge"]["strict"]["tp"] == 6
    assert kind["discharge"]["strict"]["support"] == 8
    assert kind["telephone"]["strict"]["recall"] == 0.0
    assert kind["telephone"]["binary_token"]["recall"] == 0.0
    assert kind["(none)"]["strict"]["f1"] == 1.0
    # binary (i2b2) token recall: 9 gold tokens a note (John Smith 2, the date
    # 2020-01-02 3, Mercy Hospital 2, Ann Lee 2); n0 finds 9, n1 5 (John Smith
    # and the date): 14 of 18
    assert kind["discharge"]["binary_token"]["recall"] == pytest.approx(14 / 18)
    family = result["by_meta"]["family"]
    # n0 counts under both of its families
    assert family["f.seen"]["notes"] == 2 and family["f.unseen"]["notes"] == 2
    assert family["f.unseen"]["strict"]["recall"] == 0.5
    assert family["f.seen"]["strict"]["recall"] == 0.75
    table = format_table(result)
    assert "By gold meta 'family'" in table and "f.unseen" in table
    assert "John" not in table
    assert "by_meta" not in evaluate_notes(_gold(), _pred())


def test_by_meta_accepts_a_single_key_and_scalar_values():
    gold = [note(gold_spans(), "a"), note(gold_spans(), "b")]
    gold[0].meta = {"seed": 3}
    gold[1].meta = {"seed": []}
    result = evaluate_notes(gold, gold, by_meta="seed")
    assert set(result["by_meta"]["seed"]) == {"3", "(none)"}


def test_unknown_predicted_labels_are_reported_per_label():
    pred = [note(gold_spans() + [span("Pt", "FOO")])]
    result = evaluate_notes([note(gold_spans())], pred)
    assert result["per_label"]["subcategory"]["FOO"]["strict"]["fp"] == 1
    assert result["per_label"]["category"]["FOO"]["strict"]["fp"] == 1
    assert result["taxonomy"]["per_label"]["FOO"]["spurious"] == 1
    assert result["unknown_pred_labels"] == ["FOO"]
    table = format_table(result)
    assert "FOO" in table and "neither gold nor a known scheme" in table


def test_no_matching_ids_is_an_error():
    with pytest.raises(CorpusError, match="None of the 1 predicted note ids"):
        evaluate_notes([note(gold_spans(), "a")], [note(gold_spans(), "b")])
    with pytest.raises(CorpusError, match="No gold notes"):
        evaluate_notes([], [note(gold_spans())])
    with pytest.raises(CorpusError, match="No predicted notes"):
        evaluate_notes([note(gold_spans())], [])


def test_cli_by_meta_and_input_errors(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    write_jsonl(_gold(), gold)
    write_jsonl(_pred(), pred)
    runner = CliRunner()
    args = ["evaluate", str(gold), str(pred), "--json", str(tmp_path / "r.json")]
    out = runner.invoke(app, args + ["--by-meta", "kind", "--by-meta", "family"])
    assert out.exit_code == 0, out.output
    assert "By gold meta 'kind'" in out.output and "telephone" in out.output
    result = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert result["by_meta"]["family"]["f.seen"]["notes"] == 2
    out = runner.invoke(app, args + ["--by-meta", "knd"])
    assert out.exit_code == 1 and "'knd'" in out.output
    # no matching ids
    write_jsonl([Note("other", TEXT)], tmp_path / "other.jsonl")
    out = runner.invoke(app, ["evaluate", str(gold), str(tmp_path / "other.jsonl")])
    assert out.exit_code == 1
    assert "None of the 1 predicted note ids" in out.output
    assert "other.jsonl" in out.output and "'other'" in out.output
    # empty gold
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    out = runner.invoke(app, ["evaluate", str(tmp_path / "empty.jsonl"), str(pred)])
    assert out.exit_code == 1 and "No notes found in" in out.output
    assert "empty.jsonl" in out.output
    # empty directory of predictions
    (tmp_path / "xml").mkdir()
    out = runner.invoke(
        app,
        ["evaluate", str(gold), str(tmp_path / "xml"), "--pred-format", "i2b2"],
    )
    assert out.exit_code == 1 and "No notes found in" in out.output
