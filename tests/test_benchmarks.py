"""Smoke test of `benchmarks/accuracy_speed.py` (no figures asserted, only shape)."""

import json
import subprocess
import sys
from pathlib import Path

import spacy_deid
from spacy_deid.corpus import write_jsonl
from spacy_deid.synth import generate

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "accuracy_speed.py"


def _rules_pipeline(path: Path) -> Path:
    """The shipped English pipeline without any trained component, on disk."""
    nlp = spacy_deid.load("en", exclude=["phi_ner"])
    nlp.to_disk(path)
    return path


def test_accuracy_speed_smoke(tmp_path):
    gold = list(generate(5, seed=0, split="dev"))
    gold_path = tmp_path / "dev.jsonl"
    write_jsonl(gold, gold_path)
    rules = str(_rules_pipeline(tmp_path / "rules"))
    out = tmp_path / "figures.json"
    command = [
        sys.executable, str(SCRIPT), "--en-dev", str(gold_path), "--limit", "3",
        "--no-defaults", "--row", f"rules=en:{rules}",
        "--row", f"missing=en:{tmp_path / 'nothing-here'}",
        "--speed-notes", "3", "--speed-default", rules, "--speed-rules", rules,
        "--json", str(out),
    ]  # fmt: skip
    proc = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    stdout = proc.stdout
    for heading in ("command:", "machine:", "## Throughput", "## Accuracy"):
        assert heading in stdout
    assert "| system" in stdout and "strict F1" in stdout and "bin-tok R" in stdout
    assert "| pipeline" in stdout and "tokens/s" in stdout
    assert "neither a shipped pipeline" in stdout  # the missing row, reported
    phi = {note.text[s.start : s.end] for note in gold for s in note.spans}
    assert not [text for text in phi if len(text) >= 8 and text in stdout]

    figures = json.loads(out.read_text(encoding="utf-8"))
    ok, missing = figures["accuracy"]
    assert ok["status"] == "ok" and ok["notes"] == 3
    for measure in ("strict", "binary_token"):
        micro = ok[measure]["micro"]
        assert 0.0 <= micro["precision"] <= 1.0 and 0.0 <= micro["recall"] <= 1.0
    assert isinstance(ok["passed"], bool)
    assert missing["status"] == "error" and missing["message"]
    assert [r["name"] for r in figures["throughput"]] == ["default", "rules only"]
    for row in figures["throughput"]:
        assert row["status"] == "ok" and row["notes"] == 3
        assert row["tokens"] > 0 and row["tokens_per_s"] > 0 and row["peak_rss_mb"] > 0
    assert figures["machine"]["cpu_count"] and figures["command"].startswith("python")
