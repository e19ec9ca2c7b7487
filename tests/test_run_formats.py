"""`spacy-deid run` with CSV and Parquet input and output: round trips, column
options, kept columns, hostile CSV, bad rows, the missing-pyarrow message,
and --n-process/--batch-size reaching the runner for every format."""

import csv
import io
import json
import sys
from pathlib import Path

import pytest


import spacy_deid.run.job as job_module
from spacy_deid.io.readers import read_rows
from spacy_deid.io.records import Columns, Record

from .run_helpers import invoke, write_jsonl
from .extras import need

pa = need("pyarrow")
pq = need("pyarrow.parquet")

NOTES = [
    {
        "id": "n1",
        "patient": "P1",
        "text": "Dr. Whalen saw Ms. Hendrickson on 09/14/2067.",
    },
    {
        "id": "n2",
        "patient": "P1",
        "text": 'MRN: 7194334\r\nCall (617) 555-0142, "urgent".',
    },
    {"id": "n3", "patient": "P2", "text": "Seen 3/14/2068.\nEmail ora.h@example.org"},
    {"id": "n4", "patient": "P2", "text": ""},
]
SECRET = "Quackenbush-secret-column"
PHI = ["Whalen", "Hendrickson", "7194334", "555-0142", "ora.h@example.org"]


def write_csv(path: Path, rows, fields=None, bom=False, newline="\r\n") -> Path:
    fields = fields or list(rows[0])
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator=newline)
    writer.writeheader()
    writer.writerows(rows)
    data = buffer.getvalue().encode("utf8")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


def read_jsonl(path: Path):
    return [json.loads(line) for line in path.read_text("utf8").splitlines()]


def read_csv(path: Path):
    with path.open(encoding="utf8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["spans"] = json.loads(row["spans"])
    return rows


def read_parquet(path: Path):
    return pq.read_table(path).to_pylist()


def read_any(path: Path):
    if path.suffix == ".csv":
        return read_csv(path)
    if path.suffix == ".jsonl":
        return read_jsonl(path)
    return read_parquet(path)


def core(rows):
    return [(r["id"], r["text"], r["spans"]) for r in rows]


@pytest.fixture
def inputs(tmp_path):
    rows = [{**note, "secret": SECRET} for note in NOTES]
    jsonl = write_jsonl(tmp_path / "in.jsonl", rows)
    write_csv(tmp_path / "in.csv", rows)
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
    reference = tmp_path / "ref.jsonl"
    invoke(str(jsonl), str(reference))
    return tmp_path, core(read_jsonl(reference))


@pytest.mark.parametrize(
    "src,dst",
    [
        ("jsonl", "csv"),
        ("csv", "parquet"),
        ("parquet", "jsonl"),
        ("csv", "csv"),
        ("parquet", "parquet"),
        ("jsonl", "parquet"),
    ],
)
def test_round_trips_match_jsonl(inputs, src, dst):
    folder, reference = inputs
    out = folder / f"out.{dst}"
    invoke(str(folder / f"in.{src}"), str(out))
    rows = read_any(out)
    assert core(rows) == reference
    joined = "\n".join(r["text"] for r in rows)
    assert not any(phi in joined for phi in PHI)
    # Extra columns are dropped: they may hold PHI.
    assert all(SECRET not in json.dumps(r, default=str) for r in rows)
    if dst != "jsonl":
        assert [r["patient"] for r in rows] == [n["patient"] for n in NOTES]
        assert "redacted_all" not in rows[0]


def test_parquet_output_schema_and_row_groups(inputs):
    folder, _ = inputs
    out = folder / "out.parquet"
    invoke(str(folder / "in.csv"), str(out), "--on-error", "redact-all")
    schema = pq.read_schema(out)
    assert schema.names == ["id", "patient", "text", "spans", "redacted_all"]
    span = schema.field("spans").type.value_type
    assert [(f.name, str(f.type)) for f in span] == [
        ("start", "int64"),
        ("end", "int64"),
        ("label", "string"),
    ]
    assert read_parquet(out)[0]["redacted_all"] is False
    assert not (folder / "out.parquet.tmp").exists()


def test_parquet_dataset_output(inputs):
    folder, reference = inputs
    out = folder / "ds"
    args = ["--output-format", "parquet", "--rows-per-part", "3"]
    invoke(str(folder / "in.jsonl"), str(out), *args)
    parts = sorted(p.name for p in out.iterdir())
    assert parts == ["part-00000.parquet", "part-00001.parquet"]
    assert core(read_parquet(out)) == reference
    # A dataset folder is also an input.
    again = folder / "again.jsonl"
    invoke(str(out), str(again), "--input-format", "parquet")
    assert [r["id"] for r in read_jsonl(again)] == [n["id"] for n in NOTES]


def test_csv_stdout(inputs):
    folder, reference = inputs
    result = invoke(str(folder / "in.csv"), "-", "--output-format", "csv")
    text = result.stdout_bytes.decode("utf8")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [(r["id"], r["text"]) for r in rows] == [(i, t) for i, t, _ in reference]


def test_hostile_csv_reads_exactly(tmp_path):
    """Newlines, quotes, CRLF, a BOM and a field longer than the csv module's
    default limit (131072) are read exactly, and survive a CLI round trip."""
    long_field = "x" * 200_000 + ',\r\n"quoted"'
    rows = [
        {"id": "a", "text": 'line one\nline "two"\r\nthree,\r\n', "patient": ""},
        {"id": "b", "text": "Dr. Whalen, MRN 7194334.\r\n" * 200, "patient": "P9"},
        {"id": "c", "text": "ünïcödé ☃ — \t tab", "patient": "P9"},
        {"id": "d", "text": long_field, "patient": "P9"},
    ]
    path = write_csv(tmp_path / "in.csv", rows, bom=True)
    items = [row.item for row in read_rows(path)]
    assert [type(i) for i in items] == [Record] * 4
    assert [i.text for i in items] == [r["text"] for r in rows]
    assert [i.patient for i in items] == [None, "P9", "P9", "P9"]
    assert [i.line for i in items] == [1, 2, 3, 4]
    write_csv(path, rows[:3], bom=True, newline="\n")
    out = tmp_path / "out.csv"
    invoke(str(path), str(out))
    written = read_csv(out)
    for row, result in zip(rows, written, strict=False):
        for span in result["spans"]:
            assert row["text"][span["start"] : span["end"]].strip()
    assert "7194334" not in written[1]["text"] and "[DOCTOR]" in written[1]["text"]
    assert written[0]["text"] == rows[0]["text"]
    assert written[2]["text"] == rows[2]["text"]


def test_bad_csv_rows_are_rejected_by_row(tmp_path):
    data = (
        "id,text,patient\n"
        "good,Dr. Whalen saw her.,P1\n"
        ",Dr. Whalen has no id.,P1\n"
        "short,Dr. Whalen\n"
        'badq,"Dr. Whalen"x,P1\n'
        "last,MRN 7194334,P1\n"
    ).encode() + b"bytes,Dr. Whalen \xff,P1\n"
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    out, rejects = tmp_path / "out.csv", tmp_path / "rejects.jsonl"
    result = invoke(str(path), str(out), "--reject-file", str(rejects), expect=3)
    assert [r["id"] for r in read_csv(out)] == ["good", "last"]
    rejected = read_jsonl(rejects)
    assert [(r["id"], r["row"]) for r in rejected] == [
        (None, 2),
        ("short", 3),
        (None, 4),
        ("bytes", 6),
    ]
    assert rejected[1]["error"] == "InvalidRecord: 2 fields, the header has 3"
    assert rejected[3]["error"].startswith("InvalidUTF8")
    assert "row 3" in result.output
    assert "Whalen" not in result.output + rejects.read_text()


def test_parquet_null_text_and_numeric_ids(tmp_path):
    table = pa.table(
        {
            "id": pa.array([1, 2, 3, None], pa.int64()),
            "text": pa.array(["Dr. Whalen saw her.", None, "MRN 7194334", "x"]),
            "patient": pa.array([7.0, 7.0, None, None], pa.float64()),
        }
    )
    pq.write_table(table, tmp_path / "in.parquet")
    items = [row.item for row in read_rows(tmp_path / "in.parquet")]
    assert [(type(i).__name__, i.id, i.line) for i in items] == [
        ("Record", "1", 1),
        ("Rejected", "2", 2),
        ("Record", "3", 3),
        ("Rejected", None, 4),
    ]
    assert items[0].patient == "7" and items[2].patient is None
    assert items[1].error == "InvalidRecord: 'text' is null, not a string"
    floats = pa.table({"id": ["a", "b"], "text": pa.array([1.5, float("nan")])})
    pq.write_table(floats, tmp_path / "floats.parquet")
    errors = [row.item.error for row in read_rows(tmp_path / "floats.parquet")]
    assert errors == ["InvalidRecord: 'text' is float, not a string"] * 2
    out = tmp_path / "out.jsonl"
    invoke(str(tmp_path / "in.parquet"), str(out), expect=3)
    assert [r["id"] for r in read_jsonl(out)] == ["1", "3"]


def test_column_options(tmp_path):
    rows = [
        {"note_id": "x1", "mrn": "M1", "body": "Dr. Whalen saw her.", "site": "A"},
        {"note_id": "x2", "mrn": "M1", "body": "MRN 7194334", "site": "B"},
    ]
    path = write_csv(tmp_path / "in.csv", rows)
    names = ["--id-column", "note_id", "--text-column", "body"]
    names += ["--patient-column", "mrn"]
    out = tmp_path / "out.csv"
    invoke(str(path), str(out), *names)
    written = read_csv(out)
    assert list(written[0]) == ["note_id", "mrn", "body", "spans"]
    assert [(r["note_id"], r["mrn"]) for r in written] == [("x1", "M1"), ("x2", "M1")]
    assert "Whalen" not in written[0]["body"]
    items = [r.item for r in read_rows(path, columns=Columns("note_id", "body", "mrn"))]
    assert [i.patient for i in items] == ["M1", "M1"]
    # A missing id or text column is a clear error before anything runs.
    result = invoke(str(path), str(tmp_path / "o.csv"), expect=1)
    assert "no 'id' column" in result.output
    assert not (tmp_path / "o.csv").exists()


def test_keep_columns(tmp_path):
    rows = [{**n, "site": f"S{i}", "secret": SECRET} for i, n in enumerate(NOTES)]
    csv_in = write_csv(tmp_path / "in.csv", rows)
    jsonl_in = write_jsonl(tmp_path / "in.jsonl", rows)
    table = pa.Table.from_pylist(rows).append_column("year", pa.array([1, 2, 3, 4]))
    pq.write_table(table, tmp_path / "in.parquet")
    invoke(str(csv_in), str(tmp_path / "a.csv"), "--keep-columns", "site")
    kept = read_csv(tmp_path / "a.csv")
    assert list(kept[0]) == ["id", "patient", "text", "spans", "site"]
    assert [r["site"] for r in kept] == ["S0", "S1", "S2", "S3"]
    invoke(str(jsonl_in), str(tmp_path / "a.jsonl"), "--keep-columns", "site,patient")
    written = read_jsonl(tmp_path / "a.jsonl")
    assert set(written[0]) == {"id", "text", "spans", "site", "patient"}
    invoke(str(jsonl_in), str(tmp_path / "b.jsonl"))
    assert set(read_jsonl(tmp_path / "b.jsonl")[0]) == {"id", "text", "spans"}
    out = tmp_path / "a.parquet"
    invoke(str(tmp_path / "in.parquet"), str(out), "--keep-columns", "year")
    assert pq.read_schema(out).field("year").type == pa.int64()
    assert [r["year"] for r in read_parquet(out)] == [1, 2, 3, 4]
    for path in (tmp_path / "a.csv", tmp_path / "a.jsonl", out):
        assert SECRET.encode() not in path.read_bytes()
    result = invoke(
        str(csv_in), str(tmp_path / "c.csv"), "--keep-columns", "text", expect=2
    )
    assert "cannot be kept" in result.output
    missing = invoke(
        str(csv_in), str(tmp_path / "d.csv"), "--keep-columns", "nope", expect=1
    )
    assert "no 'nope' column" in missing.output


def test_keep_reserved_column_is_refused(tmp_path):
    path = write_jsonl(tmp_path / "in.jsonl", NOTES)
    result = invoke(
        str(path), str(tmp_path / "o.csv"), "--keep-columns", "spans", expect=2
    )
    assert "cannot be kept" in result.output


def test_unsafe_ids_in_text_folder_output(tmp_path):
    rows = [
        {"id": "../escape", "text": "Dr. Whalen"},
        {"id": "sub/ok", "text": "MRN 7194334"},
    ]
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "out"
    result = invoke(str(path), str(out), "--output-format", "txt", expect=3)
    assert "UnsafeId" in result.output
    assert not (tmp_path / "escape.txt").exists()
    assert "7194334" not in (out / "sub" / "ok.txt").read_text()


def test_missing_pyarrow_message(tmp_path, monkeypatch):
    path = write_jsonl(tmp_path / "in.jsonl", NOTES)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    result = invoke(str(path), str(tmp_path / "o.parquet"), expect=1)
    assert 'pip install "spacy-deid[parquet]"' in result.output
    assert "Traceback" not in result.output
    write_csv(tmp_path / "in.csv", NOTES)
    # CSV needs no pyarrow.
    invoke(str(tmp_path / "in.csv"), str(tmp_path / "o.csv"))


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "txt"])
def test_n_process_and_batch_size_reach_the_runner(inputs, monkeypatch, fmt):
    folder, _ = inputs
    seen = {}
    real = job_module.deidentify_items

    def spy(nlp, items, **kwargs):
        seen.update(kwargs)
        return real(nlp, items, **{**kwargs, "n_process": 1})

    monkeypatch.setattr(job_module, "deidentify_items", spy)
    if fmt == "txt":
        source = folder / "notes"
        source.mkdir()
        (source / "a.txt").write_text("Dr. Whalen")
    else:
        source = folder / f"in.{fmt}"
    invoke(
        str(source), str(folder / f"out.{fmt}"), "-n", "3", "-b", "5", "--timeout", "30"
    )
    assert seen["n_process"] == 3 and seen["batch_size"] == 5
    assert seen["timeout"] == 30.0


def test_run_uses_one_blas_thread(tmp_path, monkeypatch):
    """`spacy-deid run` runs numerical libraries with one thread per process
    (parallelism is --n-process): BLAS threads competing for the cores make
    the CRF's small matrix products many times slower."""
    threadpoolctl = need("threadpoolctl")
    seen = []
    real = job_module.deidentify_items

    def spy(nlp, items, **kwargs):
        seen.extend(pool["num_threads"] for pool in threadpoolctl.threadpool_info())
        return real(nlp, items, **kwargs)

    monkeypatch.setattr(job_module, "deidentify_items", spy)
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "Dr. Whalen"}])
    invoke(str(source), str(tmp_path / "out.jsonl"))
    assert seen and set(seen) == {1}
