"""`spacy-deid run --resume`: an interrupted run, resumed, gives the output of
one uninterrupted run (JSONL, CSV, Parquet dataset, text folder), with
duplicate ids, reject files and records written redacted whole."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spacy_deid.synth import generate
from spacy_deid.known.store import KnownPhiStore
from spacy_deid.io.resume import Done, Feed, KeyMultiset
from spacy_deid.io.records import Record, Row
from spacy_deid.io.tables import csv_rows

from .conftest import ROOT
from .run_helpers import invoke, write_jsonl
from .extras import need

pq = need("pyarrow.parquet")

NOTES = [
    {"id": "a", "patient": "P1", "text": "Dr. Whalen saw her on 09/14/2067."},
    {"id": "b", "patient": "P1", "text": "MRN: 7194334.\nCall (617) 555-0142."},
    {"id": "c", "patient": "P2", "text": 'Seen 3/14/2068, "stable",\r\nby Dr. Pons.'},
    {"id": "d", "patient": "P2", "text": "Email ora.h@example.org today."},
    {"id": "e", "patient": "P3", "text": "Nothing here."},
]


def cut_lines(data: bytes, keep: int) -> bytes:
    """The first `keep` lines and half of the next one (kill -9 mid-write)."""
    lines = data.splitlines(keepends=True)
    return b"".join(lines[:keep]) + lines[keep][: len(lines[keep]) // 2]


def cut_csv(path: Path, keep: int) -> bytes:
    """The header, `keep` rows and half of the next row."""
    data = path.read_bytes()
    with path.open("rb") as stream:
        ends = [lines.offset for _, _, lines in csv_rows(stream)]
    end, next_end = ends[keep], ends[keep + 1]
    return data[: end + (next_end - end) // 2]


@pytest.fixture
def source(tmp_path) -> Path:
    return write_jsonl(tmp_path / "in.jsonl", NOTES)


@pytest.mark.parametrize("keep", [0, 2, 4])
def test_resume_jsonl(tmp_path, source, keep):
    full = tmp_path / "full.jsonl"
    invoke(str(source), str(full))
    out = tmp_path / "out.jsonl"
    out.write_bytes(cut_lines(full.read_bytes(), keep))
    result = invoke(str(source), str(out), "--resume")
    assert out.read_bytes() == full.read_bytes()
    assert f"skipped {keep} records" in result.output


@pytest.mark.parametrize("keep", [0, 3])
def test_resume_csv(tmp_path, source, keep):
    full = tmp_path / "full.csv"
    invoke(str(source), str(full), "--keep-columns", "patient")
    out = tmp_path / "out.csv"
    out.write_bytes(cut_csv(full, keep))
    invoke(str(source), str(out), "--resume", "--keep-columns", "patient")
    assert out.read_bytes() == full.read_bytes()


def test_resume_csv_with_other_columns_is_refused(tmp_path, source):
    out = tmp_path / "out.csv"
    out.write_bytes(b"id,text\r\na,x\r\n")
    result = invoke(str(source), str(out), "--resume", expect=1)
    assert "cannot resume" in result.output
    assert out.read_bytes() == b"id,text\r\na,x\r\n"


def test_resume_parquet_dataset(tmp_path, source):
    args = ["--output-format", "parquet", "--rows-per-part", "2"]
    full = tmp_path / "full"
    invoke(str(source), str(full), *args)
    expected = pq.read_table(full).to_pylist()
    out = tmp_path / "out"
    invoke(str(source), str(out), *args)
    # Killed while writing the second part: only the first is whole.
    (out / "part-00001.parquet").rename(out / "_part-00001.parquet.tmp")
    (out / "part-00002.parquet").unlink()
    invoke(str(source), str(out), *args, "--resume")
    assert sorted(p.name for p in out.iterdir()) == [
        "part-00000.parquet",
        "part-00001.parquet",
        "part-00002.parquet",
    ]
    assert pq.read_table(out).to_pylist() == expected


def test_resume_parquet_is_always_a_dataset_folder(tmp_path, source):
    """With --resume, OUT is a dataset folder even when named like a file
    (as Spark names them); a single Parquet file cannot be resumed."""
    out = tmp_path / "o.parquet"
    invoke(str(source), str(out), "--resume")
    assert out.is_dir() and (out / "part-00000.parquet").is_file()
    single = tmp_path / "single.parquet"
    invoke(str(source), str(single))
    assert single.is_file()
    result = invoke(str(source), str(single), "--resume", expect=1)
    assert "not a Parquet dataset folder" in result.output


def test_resume_text_folder(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    for note in NOTES:
        (notes / f"{note['id']}.txt").write_text(note["text"])
    full, out = tmp_path / "full", tmp_path / "out"
    invoke(str(notes), str(full))
    invoke(str(notes), str(out))
    spans = out / "spans.jsonl"
    spans.write_bytes(cut_lines(spans.read_bytes(), 2))
    invoke(str(notes), str(out), "--resume")
    assert spans.read_text() == (full / "spans.jsonl").read_text()


def test_resume_with_duplicate_ids(tmp_path):
    rows = [
        {"id": "a", "text": "Dr. Whalen, first."},
        {"id": "b", "text": "MRN 7194334."},
        {"id": "a", "text": "Call (617) 555-0142, second."},
        {"id": "c", "text": "Seen 3/14/2068."},
        {"id": "a", "text": "Email ora.h@example.org, third."},
    ]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    full = tmp_path / "full.jsonl"
    invoke(str(source), str(full))
    out = tmp_path / "out.jsonl"
    out.write_bytes(cut_lines(full.read_bytes(), 3))
    invoke(str(source), str(out), "--resume")
    assert out.read_bytes() == full.read_bytes()
    texts = [json.loads(line)["text"] for line in out.read_text().splitlines()]
    assert len(texts) == 5 and "third" in texts[4] and "second" in texts[2]


def test_resume_with_reject_file(tmp_path):
    lines = [
        json.dumps(NOTES[0]),
        "{not json",
        json.dumps(NOTES[1]),
        json.dumps({"id": "bad", "text": 42}),
        json.dumps(NOTES[2]),
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    full, full_rejects = tmp_path / "full.jsonl", tmp_path / "full_rejects.jsonl"
    invoke(str(source), str(full), "--reject-file", str(full_rejects), expect=3)
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    # Stopped after the first two records: one written, one rejected, and
    # half of the next rejection.
    out.write_bytes(cut_lines(full.read_bytes(), 1))
    rejects.write_bytes(cut_lines(full_rejects.read_bytes(), 1))
    result = invoke(
        str(source), str(out), "--resume", "--reject-file", str(rejects), expect=3
    )
    assert out.read_bytes() == full.read_bytes()
    assert rejects.read_bytes() == full_rejects.read_bytes()
    assert "skipped 2 records" in result.output
    # Everything done already: nothing new, and still exit 3 (rejections).
    again = invoke(
        str(source), str(out), "--resume", "--reject-file", str(rejects), expect=3
    )
    assert "De-identified 0 notes, rejected 0" in again.output
    assert out.read_bytes() == full.read_bytes()


def test_resume_redacted_all_is_not_listed_twice(tmp_path, monkeypatch):
    from spacy_deid.surrogates.replacer import PhiSurrogates

    real = PhiSurrogates.__call__

    def failing(self, doc):
        if "FAILHERE" in doc.text:
            raise ValueError("a component failed")
        return real(self, doc)

    # A record the pipeline fails on, to be written redacted whole.
    monkeypatch.setattr(PhiSurrogates, "__call__", failing)
    rows = [NOTES[0], {"id": "bad", "text": "Dr. Whalen FAILHERE"}, NOTES[1]]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    args = ["--on-error", "redact-all"]
    full, full_rejects = tmp_path / "full.jsonl", tmp_path / "full_rejects.jsonl"
    invoke(str(source), str(full), "--reject-file", str(full_rejects), *args, expect=3)
    assert json.loads(full_rejects.read_text())["redacted_all"] is True
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    # Killed between the reject line and the output lines of a batch.
    out.write_bytes(cut_lines(full.read_bytes(), 1))
    rejects.write_bytes(full_rejects.read_bytes())
    invoke(
        str(source),
        str(out),
        "--resume",
        "--reject-file",
        str(rejects),
        *args,
        expect=3,
    )
    assert out.read_bytes() == full.read_bytes()
    assert rejects.read_bytes() == full_rejects.read_bytes()


def test_existing_output_is_overwritten_without_resume(tmp_path, source):
    out = tmp_path / "out.jsonl"
    invoke(str(source), str(out))
    first = out.read_bytes()
    invoke(str(source), str(out))
    assert out.read_bytes() == first


def test_resume_replays_the_patient_run_it_continues():
    """Skipped records of the patient whose run the resumed part continues
    are sent again (outputs dropped), so cross-note components see it whole;
    the others only pass their known PHI on."""
    records = [
        Record(0, "a", "x", "P1"),
        Record(1, "b", "x", "P2", known_phi=[{"text": "Zed", "label": "PATIENT"}]),
        Record(2, "c", "x", "P2"),
        Record(3, "d", "x", "P2"),
        Record(4, "e", "x", "P3"),
    ]
    done = Done()
    for record_id in "abc":
        done.written.add(("id", record_id))
    store = KnownPhiStore()
    feed = Feed(store, done)
    items = list(feed.items(Row(r) for r in records))
    assert [i.id for i in items] == ["b", "c", "d", "e"]
    assert feed.replayed == {1, 2} and feed.skipped == 3
    assert [feed.take(i)[0] for i in items] == [False, False, True, True]
    # Record "a" was not replayed: its patient's state was passed on.
    assert store.resolve("z", "P1") is None


def test_kill_9_then_resume(tmp_path):
    """A real `kill -9` in the middle of a run, then `--resume`."""
    source = tmp_path / "in.jsonl"
    with source.open("w", encoding="utf8") as handle:
        for i, note in enumerate(generate(200, seed=11)):
            record = {"id": f"n{i}", "text": note.text, "patient": note.patient}
            handle.write(json.dumps(record) + "\n")
    cmd = [sys.executable, "-m", "spacy_deid", "run", str(source)]
    opts = ["--model", "en_rules", "--mode", "tag", "--no-progress", "-b", "4"]
    full = tmp_path / "full.jsonl"
    subprocess.run([*cmd, str(full), *opts], cwd=ROOT, check=True, timeout=300)
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([*cmd, str(out), *opts], cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.stat().st_size > 0:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    written = out.read_bytes().count(b"\n")
    assert written < 200, "the run ended before it was killed"
    resumed = subprocess.run(
        [*cmd, str(out), *opts, "--resume"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == full.read_bytes()


def test_key_multiset_counts_each_key():
    """Each key is taken as many times as it was added, across merges."""
    keys = KeyMultiset()
    assert not keys and not keys.take(("id", "a"))
    keys.add(("id", "a"), 2)
    keys.add(("id", "b"))
    keys.add(("position", 7))
    assert keys.total == keys.left == 4
    assert keys.take(("id", "a")) and keys.take(("id", "b"))
    keys.add(("id", "b"))  # added after a take: merged in
    assert keys.take(("id", "a")) and not keys.take(("id", "a"))
    assert keys.take(("id", "b")) and not keys.take(("id", "b"))
    assert not keys.take(("position", "7")) and not keys.take(("id", 7))
    assert keys.take(("position", 7)) and not keys
    assert keys.total == 5 and keys.left == 0


def test_key_multiset_is_compact():
    """About 20 bytes per distinct key once merged (a Counter of tuples
    takes about ten times that): resuming 100 million records fits."""
    keys = KeyMultiset()
    for i in range(200_000):
        keys.add(("id", f"note-{i:09d}"))
    assert len(keys._added) == 200_000 * 16
    assert keys.take(("id", "note-000000007"))
    held = keys._digests.nbytes + keys._counts.nbytes + len(keys._added)
    assert held <= 200_000 * 20
    assert sum(keys.take(("id", f"note-{i:09d}")) for i in range(200_000)) == 199_999
