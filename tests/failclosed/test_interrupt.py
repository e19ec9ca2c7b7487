"""SIGINT / SIGTERM during `spacy-deid run`: whole lines only, a prefix of the
input order, a distinct exit code."""

import json
import re
import signal
import subprocess
import sys
import time

import pytest

from spacy_deid.synth import generate

from ..conftest import ROOT

N_NOTES = 3000


@pytest.fixture(scope="module")
def notes_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("interrupt") / "notes.jsonl"
    with path.open("w", encoding="utf8") as handle:
        for i, note in enumerate(generate(N_NOTES, seed=7)):
            record = {"id": f"n{i}", "text": note.text, "patient": note.patient}
            handle.write(json.dumps(record) + "\n")
    return path


def _wait_for_output(path, proc, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return
        if path.exists() and path.stat().st_size > 0:
            return
        time.sleep(0.02)


@pytest.mark.parametrize(
    "signum,n_process",
    [(signal.SIGINT, 1), (signal.SIGTERM, 1), (signal.SIGTERM, 2)],
)
def test_signal_leaves_valid_prefix(tmp_path, notes_file, signum, n_process):
    out = tmp_path / "out.jsonl"
    rejects = tmp_path / "rejects.jsonl"
    cmd = [sys.executable, "-m", "spacy_deid", "run", str(notes_file), str(out)]
    cmd += ["--model", "en_rules", "--no-progress", "-b", "8", "-n", str(n_process)]
    cmd += ["--reject-file", str(rejects)]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        _wait_for_output(out, proc)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    match = re.search(r"Interrupted: wrote (\d+) records", stderr)
    assert match, stderr
    data = out.read_bytes()
    assert data.endswith(b"\n")
    lines = data.decode("utf8").splitlines()
    records = [json.loads(line) for line in lines]
    assert 0 < len(records) < N_NOTES
    assert int(match.group(1)) == len(records)
    ids = [r["id"] for r in records]
    assert ids == [f"n{i}" for i in range(len(ids))]
    assert all(isinstance(r["text"], str) and "spans" in r for r in records)
    assert rejects.read_text() == ""
