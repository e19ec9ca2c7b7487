import json

from typer.testing import CliRunner

from spacy_deid.cli import app


def test_cli_synth(tmp_path):
    out = tmp_path / "notes.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "synth",
            "25",
            str(out),
            "--seed",
            "2",
            "--split",
            "train",
            "--stats",
            "--templates",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf8").splitlines()
    assert len(lines) == 25
    record = json.loads(lines[0])
    assert {"id", "text", "spans", "patient", "meta"} <= set(record)
    assert record["meta"]["split"] == "train"


def test_cli_bad_split(tmp_path):
    result = CliRunner().invoke(
        app, ["synth", "2", str(tmp_path / "x.jsonl"), "--split", "holdout"]
    )
    assert result.exit_code != 0


def test_cli_synth_test_split(tmp_path):
    out = tmp_path / "test.jsonl"
    args = ["synth", "5", str(out), "--seed", "1", "--split", "test"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text("utf8").splitlines()]
    assert [r["meta"]["split"] for r in records] == ["test"] * 5
