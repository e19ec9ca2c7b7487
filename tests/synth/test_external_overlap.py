"""scripts/external_overlap.py: phrases the train split shares with other notes."""

import importlib.util
import json

from ..conftest import ROOT

SPEC = importlib.util.spec_from_file_location(
    "external_overlap", ROOT / "scripts" / "external_overlap.py"
)
external_overlap = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(external_overlap)


def test_shared_ngrams_count_the_generated_texts_holding_each():
    external = ["The pony Quillon trots to the old mill at dawn."]
    generated = [
        "quillon trots to the old mill twice; quillon trots to the old mill",
        "Nothing here trots.",
        "A pony Quillon trots to the barn.",
    ]
    shared = external_overlap.shared_ngrams(external, generated, 5)
    assert shared == {
        ("quillon", "trots", "to", "the", "old"): 1,
        ("trots", "to", "the", "old", "mill"): 1,
        ("pony", "quillon", "trots", "to", "the"): 1,
    }


def test_main_prints_the_phrases(tmp_path, capsys):
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps({"text": "Quillon the pony"}) + "\n", encoding="utf-8")
    external_overlap.main([str(path), "--notes", "3", "--n", "3"])
    out = capsys.readouterr().out
    assert out.startswith("0 shared 3-word phrases in 3 train notes")
