"""Helpers shared by the `spacy-deid run` format and resume tests."""

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
