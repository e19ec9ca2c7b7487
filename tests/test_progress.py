"""Progress on stderr: records done, moving-average notes/s, rejected, share
and ETA when the total is known; never note text; also with -n 2."""

import csv
import io
import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.run.progress import Progress, format_duration
from spacy_deid.io.records import Rejected, Result
from spacy_deid.io.tables import count_rows

from .conftest import ROOT

NOTE = "Dr. Zebulon Quackenbush, MRN 99887766, seen 03/14/2071."
SECRETS = ["Zebulon", "Quackenbush", "99887766", "03/14/2071"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def ok(i: int) -> Result:
    return Result(i, str(i), "x")


def test_progress_line_with_rate_and_eta():
    clock, stream = Clock(), io.StringIO()
    tracker = Progress(True, stream=stream, clock=clock, interval=1.0)
    tracker.total = 100
    for i in range(12):
        clock.now += 0.25
        tracker.update(ok(i) if i != 3 else Rejected(i, str(i), "InvalidRecord"))
    # Printed once a second: at 1 s (4 notes), 2 s (8) and 3 s (12).
    lines = stream.getvalue().split("\n")
    assert lines[:3] == [
        "4 notes, 4.0 notes/s, 1 rejected, 4.0% of 100, ETA 0:00:24",
        "8 notes, 4.0 notes/s, 1 rejected, 8.0% of 100, ETA 0:00:23",
        "12 notes, 4.0 notes/s, 1 rejected, 12.0% of 100, ETA 0:00:22",
    ]
    tracker.close()
    assert stream.getvalue().endswith("\n")


def test_progress_rate_is_a_moving_average():
    clock = Clock()
    tracker = Progress(True, stream=io.StringIO(), clock=clock, window=10.0)
    for i in range(100):  # 10 notes/s for 10 s
        clock.now += 0.1
        tracker.update(ok(i))
        tracker.rate()
    for i in range(20):  # then 1 note/s for 20 s
        clock.now += 1.0
        tracker.update(ok(i))
        tracker.rate()
    assert abs(tracker.rate() - 1.0) < 0.15
    assert tracker.done / (clock.now - 1000.0) > 3  # the mean since start


def test_progress_without_total_and_with_skipped_records():
    clock = Clock()
    tracker = Progress(True, stream=io.StringIO(), clock=clock)
    clock.now += 20.0  # loading the pipeline: not counted in the rate
    for i in range(4):  # a first batch, done at once
        tracker.update(ok(i))
    assert tracker.line() == "4 notes, 0 rejected"
    tracker.total, tracker.skipped = 1000, 990
    assert tracker.line() == "4 notes, 0 rejected, 40.0% of 10"
    clock.now += 2.0
    for i in range(4):
        tracker.update(ok(i))
    assert tracker.line() == "8 notes, 3.5 notes/s, 0 rejected, 80.0% of 10, ETA 0:00:01"


def test_progress_redraws_on_a_terminal_and_logs_elsewhere():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    clock, tty = Clock(), Tty()
    tracker = Progress(True, stream=tty, clock=clock)
    assert tracker.interval == 1.0
    clock.now += 1.0
    tracker.update(ok(0))
    assert tty.getvalue().endswith("\r")
    log = Progress(True, stream=io.StringIO(), clock=clock)
    assert log.interval == 10.0
    disabled = Progress(False, stream=io.StringIO(), clock=clock)
    clock.now += 100.0
    disabled.update(ok(0))
    disabled.close()
    assert disabled.stream.getvalue() == ""


def test_format_duration():
    assert format_duration(0) == "0:00:00"
    assert format_duration(59.6) == "0:01:00"
    assert format_duration(3 * 3600 + 62) == "3:01:02"
    assert format_duration(-5) == "0:00:00"


def test_count_rows(tmp_path):
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text(
        "".join(json.dumps({"id": i, "text": "a\nb"}) + "\n" for i in range(7))
    )
    assert count_rows(jsonl, "jsonl") == 7
    path = tmp_path / "in.csv"
    with path.open("w", newline="", encoding="utf8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "text"])
        writer.writerows([[i, "multi\r\nline"] for i in range(5)])
    assert count_rows(path, "csv") == 5
    pq.write_table(
        pa.table({"id": list(range(9)), "text": ["x"] * 9}), tmp_path / "t.parquet"
    )
    assert count_rows(tmp_path / "t.parquet", "parquet") == 9
    assert count_rows("-", "jsonl") is None


def test_cli_progress_forced_with_two_processes(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(
        "".join(json.dumps({"id": f"r{i}", "text": NOTE}) + "\n" for i in range(6))
    )
    cmd = [sys.executable, "-m", "spacy_deid", "run", str(src), str(tmp_path / "o.csv")]
    cmd += ["--model", "en_rules", "--progress", "-n", "2", "-b", "2"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "6 notes, " in proc.stderr and " notes/s, 0 rejected" in proc.stderr
    assert "of 6, ETA" in proc.stderr
    assert not any(secret in proc.stderr for secret in SECRETS)


def test_cli_no_progress_when_not_a_terminal(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "text": NOTE}) + "\n")
    args = ["run", str(src), str(tmp_path / "o.jsonl"), "--model", "en_rules"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "notes/s" not in result.output
