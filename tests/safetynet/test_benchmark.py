"""`benchmarks/safety_net.py` runs on a small gold file and prints no text."""

import importlib
import sys

import spacy
import srsly

from ..conftest import ROOT

TOKENIZER = {"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}}


def test_benchmark_prints_both_ways_without_note_text(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("safety_net", None)
    bench = importlib.import_module("safety_net")
    pipeline = tmp_path / "blank"
    spacy.blank("en", config=TOKENIZER).to_disk(pipeline)
    text = "sis Fenella called; pt may go home"
    gold = tmp_path / "gold.jsonl"
    srsly.write_jsonl(
        gold,
        [
            {
                "id": "a",
                "text": text,
                "spans": [{"start": 4, "end": 11, "label": "PATIENT"}],
            }
        ],
    )
    bench.main([str(gold), "--pipeline", str(pipeline)])
    out = capsys.readouterr().out
    assert "without net" in out and "with net" in out
    assert "relative         1 / 1" in out
    assert "Fenella" not in out
