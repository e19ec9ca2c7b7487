"""Helpers shared by the `spacy-deid run` format and resume tests, and a tiny
annotated corpus for the frequent-chunk tests."""

import json
from pathlib import Path

from typer.testing import CliRunner

from spacy_deid.cli import app


def invoke(*args: str, expect: int = 0):
    """Run `spacy-deid run` in-process (en_rules, tag mode) and check the exit code."""
    base = ["--model", "en_rules", "--mode", "tag", "--no-progress"]
    result = CliRunner().invoke(app, ["run", *args, *base])
    assert result.exit_code == expect, result.output
    return result


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf8")
    return path


def doctor_corpus(path: Path, name: str, n: int, tail: str = "") -> Path:
    """Write n notes "Seen by Dr. <name><tail> <i>." with <name> as DOCTOR."""
    span = {"start": 12, "end": 12 + len(name), "label": "DOCTOR"}
    rows = [
        {"id": str(i), "text": f"Seen by Dr. {name}{tail} {i}.", "spans": [span]}
        for i in range(n)
    ]
    return write_jsonl(path, rows)
