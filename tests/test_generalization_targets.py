"""`benchmarks/generalization_targets.py`: the targets' verdicts, and one
small run through the CLI that prints figures and no note text."""

import importlib
import json
import subprocess
import sys

import pytest

from spacy_deid.synth import generate

from .conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "generalization_targets.py"


@pytest.fixture
def targets(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    return importlib.import_module("generalization_targets")


def test_verdicts_compare_each_figure_with_its_bound(targets):
    results = {
        "en_notes": {"bin_tok_r": 0.985, "bin_tok_p": 0.90, "strict_f1": 0.85,
                     "leaked": 0.011},
    }
    lines = targets.verdicts(results)
    assert len(lines) == 4  # the test split's targets need the test split
    verdict = {line.split()[1]: line.split()[-1] for line in lines}
    assert verdict == {"bin_tok_r": "PASS", "bin_tok_p": "FAIL", "strict_f1": "PASS",
                       "leaked": "FAIL"}


def test_figures_read_evaluate_and_audit_json(targets):
    scores = {"strict": {"micro": {"f1": 0.8}},
              "binary_token": {"micro": {"precision": 0.9, "recall": 0.95}}}
    leaks = {"overall": {"rate": 0.02}}
    assert targets.figures(scores, leaks) == {
        "strict_f1": 0.8, "bin_tok_p": 0.9, "bin_tok_r": 0.95, "leaked": 0.02,
    }


def test_a_small_run_prints_figures_and_no_note_text(tmp_path):
    notes = list(generate(3, seed=5, split="test"))
    gold = tmp_path / "test.jsonl"
    with gold.open("w", encoding="utf-8") as out:
        for note in notes:
            spans = [{"start": s.start, "end": s.end, "label": s.label} for s in note.spans]
            out.write(json.dumps({"id": note.id, "text": note.text, "spans": spans}) + "\n")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--test", str(gold), "--model", "en_rules",
         "--keep", str(tmp_path / "runs")],
        capture_output=True, text=True, check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["set", "strict_f1", "bin_tok_p", "bin_tok_r", "leaked"]
    assert lines[1].startswith("test")
    assert [line.split()[1] for line in lines[3:]] == ["bin_tok_r", "strict_f1"]
    assert all(line.split()[-1] in ("PASS", "FAIL") for line in lines[3:])
    for note in notes:
        for span in note.spans:
            phi = note.text[span.start:span.end]
            if len(phi) > 5:
                assert phi not in done.stdout + done.stderr
    assert (tmp_path / "runs" / "test" / "audit.json").exists()
