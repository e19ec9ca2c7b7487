"""scripts/mix_corpus.py: a training corpus from several files, some repeated."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("mix_corpus", ROOT / "scripts" / "mix_corpus.py")
mix_corpus = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(mix_corpus)


def write(path, ids):
    path.write_text("".join(json.dumps({"id": i, "text": i, "spans": []}) + "\n" for i in ids))


def test_repeats_get_unique_ids_and_dropped_prefixes_stay_out(tmp_path):
    write(tmp_path / "a.jsonl", ["train-1", "train-2"])
    write(tmp_path / "b.jsonl", ["hwA-01", "hwV-01"])
    out = tmp_path / "mix.jsonl"
    mix_corpus.main([str(out), str(tmp_path / "a.jsonl"), f"{tmp_path / 'b.jsonl'}:2", "--drop", "hwV-"])
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert ids == ["train-1", "train-2", "hwA-01-x0", "hwA-01-x1"]


def test_an_input_spec_without_a_count_is_read_once():
    assert mix_corpus.parse_input("a.jsonl") == (Path("a.jsonl"), 1)
    assert mix_corpus.parse_input("dir:x/a.jsonl:3") == (Path("dir:x/a.jsonl"), 3)
    assert mix_corpus.parse_input("a.jsonl:0") == (Path("a.jsonl:0"), 1)
