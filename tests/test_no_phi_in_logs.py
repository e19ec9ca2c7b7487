"""No note text or PHI leaves a `spacy-deid run` anywhere but the output file:
not in logging (at DEBUG, every logger), warnings, stderr, the progress line or
the reject file, whatever the records contain."""

import json
import logging
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app

# Planted PHI (fictional), and the pieces of it that must never show up.
NAME, MRN, PHONE, EMAIL, DATE = (
    "Zebulon Quackenbush",
    "99887766",
    "(617) 867-5309",
    "zq.quack@example.org",
    "03/14/2071",
)
SECRETS = ["Zebulon", "Quackenbush", MRN, "867-5309", EMAIL, DATE]
NOTE = f"Patient {NAME}, MRN {MRN}, phone {PHONE}, email {EMAIL}, seen {DATE}."


def _lines():
    """Good records and every kind of bad one, each holding the planted PHI."""
    return [
        json.dumps({"id": "good-1", "text": NOTE, "patient": "P1"}).encode(),
        json.dumps({"id": "bad-type", "text": 5, "note": NOTE}).encode(),
        ('{"id": "bad-json", "text": "' + NOTE).encode(),  # truncated JSON
        json.dumps({"id": "no-text", "body": NOTE}).encode(),
        b'{"id": "bad-utf8", "text": "' + NOTE.encode() + b'\xff\xfe"}',
        json.dumps(
            {"id": "bad-known", "text": NOTE, "known_phi": [{"text": 7, "label": NAME}]}
        ).encode(),
        json.dumps(
            {"id": "bad-patient", "text": NOTE, "patient": {"n": NAME}}
        ).encode(),
        json.dumps({"id": "good-2", "text": NOTE, "patient": "P1"}).encode(),
    ]


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(_lines()) + b"\n")
    known = tmp_path / "known.jsonl"
    known.write_text(
        json.dumps({"patient": "P1", "known_phi": [{"text": NAME, "label": "PATIENT"}]})
        + "\n"
    )
    return tmp_path


def _assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, "planted PHI found outside the output"


@pytest.mark.parametrize("model", ["en_rules", "en"])
def test_cli_run_keeps_phi_in_the_output_only(inputs, caplog, capfd, model):
    out, rejects = inputs / "out.jsonl", inputs / "rejects.jsonl"
    args = [
        "run", str(inputs / "in.jsonl"), str(out), "--model", model,
        "--reject-file", str(rejects), "--known-phi", str(inputs / "known.jsonl"),
    ]  # fmt: skip
    caplog.set_level(logging.DEBUG)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = CliRunner().invoke(app, args)
    _assert_clean("\n".join(str(w.message) for w in caught))
    assert result.exit_code == 3  # finished, some records rejected
    captured = capfd.readouterr()
    streams = result.output + getattr(result, "stderr", "") + captured.err
    assert "bad-type" in streams  # the rejects were reported where we look
    _assert_clean(result.output)
    _assert_clean(streams)
    _assert_clean(captured.out + captured.err)
    _assert_clean(caplog.text)
    _assert_clean(rejects.read_text())
    rejected = [json.loads(line)["id"] for line in rejects.read_text().splitlines()]
    assert {"bad-type", "no-text", "bad-known", "bad-patient"} <= set(rejected)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in written] == ["good-1", "good-2"]
    for record in written:  # and the output itself is de-identified
        _assert_clean(record["text"])


def test_subprocess_stderr_with_progress_is_clean(inputs):
    out = inputs / "out.jsonl"
    cmd = [sys.executable, "-W", "always", "-m", "spacy_deid", "run"]
    cmd += [str(inputs / "in.jsonl"), str(out), "--model", "en_rules", "--progress"]
    env_proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert env_proc.returncode == 3
    assert "bad-type" in env_proc.stderr
    _assert_clean(env_proc.stdout + env_proc.stderr)
