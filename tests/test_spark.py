"""`spacy_deid.spark`: de-identify a Spark DataFrame column (local[2]).

One SparkSession for the module; most tests use `en_rules`, one uses `en`.
Skipped when pyspark or pyarrow is missing; the tests that need a
SparkSession are skipped when Java is missing.
"""

import datetime
import os
import sys
import warnings
from collections import OrderedDict
from contextlib import contextmanager
from typing import Iterator

import pytest

from .extras import need, need_java

need("pyspark")
pa = need("pyarrow")


from pyspark import cloudpickle  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

from spacy.language import Language  # noqa: E402

import spacy_deid.spark.partition as partition  # noqa: E402
from spacy_deid.synth import generate  # noqa: E402
from spacy_deid.io.records import Record, Rejected  # noqa: E402
from spacy_deid.run.runner import deidentify_items, redact_all_text  # noqa: E402
from spacy_deid.run.pipeline import open_pipeline  # noqa: E402
from spacy_deid.spark import (  # noqa: E402
    DeidentifyPartition,
    DeidSettings,
    InlineKey,
    deidentify_dataframe,
    group_by_patient,
    row_item,
)
from spacy_deid.surrogates.replacer import EphemeralKeyWarning  # noqa: E402

from .conftest import run_python  # noqa: E402
from .hazard import HANG_MARK  # noqa: E402

# pyspark 4.3 warns that it does not fully support pandas 3 (mapInArrow
# checks the pandas version although it uses no pandas).
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)
KEY = bytes(range(7, 39))
SCHEMA = "id string, text string, patient string, n int, seen date"
# One patient's notes, identical, placed in different partitions.
SHARED = "Seen by Dr. Whalen on 09/14/2067. MRN: 7194334. Call 617-555-0199."


def _runner(nlp, records, **kwargs):
    """{id: (text, spans, error)} from `deidentify_items`."""
    out = {}
    for item in deidentify_items(nlp, records, **kwargs):
        if isinstance(item, Rejected):
            out[item.id] = (None, None, item.error)
        elif item.rejected is not None:
            out[item.id] = (item.text, [], item.rejected.error)
        else:
            out[item.id] = (item.text, item.spans, None)
    return out


def _collected(df, text_col="text", id_col="id"):
    """{id: (text, spans, error)} from a de-identified DataFrame (or its rows)."""
    out = {}
    for row in df if isinstance(df, list) else df.collect():
        spans = None
        if row["spans"] is not None:
            spans = [span.asDict() for span in row["spans"]]
        out[row[id_col]] = (row[text_col], spans, row["deid_error"])
    return out


@contextmanager
def spark_workers_python() -> Iterator[None]:
    """Skip without Java; run Spark's Python workers with this interpreter."""
    need_java()
    previous = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("PYSPARK_PYTHON", None)
        else:
            os.environ["PYSPARK_PYTHON"] = previous


def local_session(app: str) -> SparkSession:
    """A quiet `local[2]` Spark session (no UI, no progress bar, 1 GB)."""
    session = (
        SparkSession.builder.master("local[2]")
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


@pytest.fixture(scope="module")
def spark():
    with spark_workers_python():
        session = local_session("spacy-deid-tests")
        yield session
        session.stop()


@pytest.fixture(scope="module")
def rows():
    """Synthetic notes, with patient P1's three identical notes at positions
    0, 10 and 20 (different partitions of a 4-way `parallelize`) and the same
    text for patient P2."""
    notes = list(generate(26, seed=11, split="all"))
    rows = [
        (n.id, n.text, n.patient, i, datetime.date(2067, 1, 1 + i))
        for i, n in enumerate(notes)
    ]
    for i, position in enumerate((0, 10, 20)):
        rows.insert(position, (f"p1-{i}", SHARED, "P1", None, None))
    rows.append(("p2-0", SHARED, "P2", 7, None))
    return rows


@pytest.fixture(scope="module")
def expected(rows):
    """The runner's output on the same records, with the same key."""
    nlp = open_pipeline("en_rules", "surrogate", KEY)
    records = [Record(i, r[0], r[1], r[2]) for i, r in enumerate(rows)]
    return _runner(nlp, records)


@pytest.fixture(scope="module")
def runs(spark, rows):
    """The same notes de-identified in 4 partitions, in 1, and grouped by patient."""
    rdd = spark.sparkContext.parallelize(rows, 4)
    df = spark.createDataFrame(rdd, SCHEMA).withColumn("part", F.spark_partition_id())
    options = {"patient_col": "patient", "model": "en_rules", "key": KEY}
    multi = deidentify_dataframe(df, **options)
    single = deidentify_dataframe(df.coalesce(1), **options)
    grouped = group_by_patient(df.drop("part"), "patient", order_cols=["id"])
    grouped = grouped.withColumn("grouped_part", F.spark_partition_id())
    grouped_rows = deidentify_dataframe(grouped, **options).collect()
    return {
        "multi": multi,
        "multi_rows": multi.collect(),
        "single": _collected(single),
        "grouped": grouped_rows,
        "grouped_out": _collected(grouped_rows),
    }


def test_same_output_as_deidentify_items(runs, expected):
    got = {row["id"]: row for row in runs["multi_rows"]}
    assert set(got) == set(expected)
    for record_id, (text, spans, error) in expected.items():
        row = got[record_id]
        assert error is None and row["deid_error"] is None, record_id
        assert row["text"] == text, record_id
        assert [span.asDict() for span in row["spans"]] == spans, record_id
    assert runs["single"] == expected
    assert runs["grouped_out"] == expected


def test_patient_consistent_across_partitions(runs, rows):
    by_id = {row["id"]: row for row in runs["multi_rows"]}
    p1 = [by_id[f"p1-{i}"] for i in range(3)]
    assert len({row["part"] for row in p1}) == 3  # the premise
    assert p1[0]["spans"] and p1[0]["text"] != SHARED
    assert p1[0]["text"] == p1[1]["text"] == p1[2]["text"]
    # Another patient, same text: other surrogates and date shift.
    assert by_id["p2-0"]["text"] != p1[0]["text"]
    # group_by_patient puts each patient's rows in one partition.
    parts = {}
    for row in runs["grouped"]:
        parts.setdefault(row["patient"], set()).add(row["grouped_part"])
    assert all(len(found) == 1 for found in parts.values())


def test_output_columns_and_pass_through(runs, rows):
    multi = runs["multi"]
    assert multi.columns == [
        "id",
        "text",
        "patient",
        "n",
        "seen",
        "part",
        "spans",
        "deid_error",
    ]
    assert multi.schema["text"].dataType.simpleString() == "string"
    spans_type = "array<struct<start:int,end:int,label:string>>"
    assert multi.schema["spans"].dataType.simpleString() == spans_type
    by_id = {row["id"]: row for row in runs["multi_rows"]}
    for record_id, text, patient, n, seen in rows:
        row = by_id[record_id]
        assert (row["patient"], row["n"], row["seen"]) == (patient, n, seen)
        assert row["text"] != text  # every note holds PHI
    renamed = deidentify_dataframe(
        multi.select("id", "text"), output_col="clean", key=KEY
    )
    assert renamed.columns == ["id", "clean", "spans", "deid_error"]
    kept = deidentify_dataframe(
        multi.select("id", "text"), output_col="clean", keep_original=True, key=KEY
    )
    assert kept.columns == ["id", "text", "clean", "spans", "deid_error"]


def test_bad_rows_fail_closed(spark):
    good = "Dr. Whalen saw Zorblax Quint on 09/14/2067."
    data = [
        ("ok", good.encode("utf-8"), None),
        ("bom", b"\xef\xbb\xbf" + good.encode("utf-8"), None),
        ("utf8", b"Dr. Whalen \xff\xfe", None),
        ("null", None, None),
        ("known", good.encode("utf-8"), '[{"text": "Zorblax Quint", "label": "PATIENT"}]'),
        ("badknown", good.encode("utf-8"), '[{"text": "Zorblax Quint"}]'),
        ("badjson", good.encode("utf-8"), "[{"),
        (None, good.encode("utf-8"), None),
    ]  # fmt: skip
    schema = "id string, text binary, known string, patient string"
    df = spark.createDataFrame([row + ("P",) for row in data], schema)
    options = {"patient_col": "patient", "known_phi_col": "known", "key": KEY}
    out = deidentify_dataframe(df, model="en_rules", **options)
    assert out.schema["text"].dataType.simpleString() == "string"
    got = out.collect()
    assert len(got) == len(data)
    by_id = {row["id"]: row for row in got}
    errors = {rid: row["deid_error"] for rid, row in by_id.items()}
    assert errors["utf8"] == "InvalidUTF8: byte 11"
    assert errors["null"] == "InvalidRecord: 'text' is null, not a string"
    assert errors["badknown"].startswith("InvalidRecord: known_phi[0]")
    assert errors["badjson"].startswith("InvalidRecord: known_phi is not valid JSON")
    assert errors[None].startswith("InvalidRecord: 'id' is null")
    for rid in ("utf8", "null", "badknown", "badjson", None):
        assert by_id[rid]["text"] is None and by_id[rid]["spans"] is None
        assert "Whalen" not in errors[rid] and "Zorblax" not in errors[rid]
    assert errors["ok"] is errors["bom"] is errors["known"] is None
    assert by_id["ok"]["text"] == by_id["bom"]["text"]
    assert "Whalen" not in by_id["ok"]["text"]
    known = {tuple(span) for span in by_id["known"]["spans"]}
    assert (15, 28, "PATIENT") in known and "Zorblax" not in by_id["known"]["text"]
    assert (15, 28, "PATIENT") not in {tuple(s) for s in by_id["ok"]["spans"]}


def test_known_phi_array_column(spark):
    schema = "id string, text string, known array<struct<text:string,label:string>>"
    text = "Dr. Whalen saw Zorblax Quint."
    known = [{"text": "Zorblax Quint", "label": "PATIENT"}]
    df = spark.createDataFrame([("a", text, known), ("b", text, None)], schema)
    out = deidentify_dataframe(df, model="en_rules", known_phi_col="known", key=KEY)
    assert out.schema["known"] == df.schema["known"]
    rows = {row["id"]: row for row in out.collect()}
    assert (15, 28, "PATIENT") in {tuple(span) for span in rows["a"]["spans"]}
    assert "Zorblax" not in rows["a"]["text"] and rows["a"]["deid_error"] is None
    assert (15, 28, "PATIENT") not in {tuple(span) for span in rows["b"]["spans"]}


def test_timeout(spark, rows, expected):
    """With `timeout` each task runs its notes in a worker process of its own
    Python worker: a timeout no batch reaches changes nothing; one that every
    note exceeds rejects every note with WorkerTimeout, no text."""
    df = spark.createDataFrame(spark.sparkContext.parallelize(rows, 2), SCHEMA)
    options = {"patient_col": "patient", "model": "en_rules", "key": KEY}
    generous = deidentify_dataframe(df, timeout=300.0, **options)
    assert _collected(generous) == expected
    # Notes of over 1,000 characters take milliseconds each.
    long_rows = [row for row in rows if len(row[1]) > 1000][:4]
    tiny = deidentify_dataframe(
        spark.createDataFrame(long_rows, SCHEMA), timeout=0.001, **options
    )
    out = _collected(tiny)
    assert set(out) == {row[0] for row in long_rows}
    error = "WorkerTimeout: no result after 0.001 s"
    assert all(got == (None, None, error) for got in out.values())


def test_long_notes_are_done_in_pieces(spark):
    """A note longer than `max_length` is de-identified in pieces, as in the
    runner; "redact-all" changes nothing for notes that do not fail."""
    short = "Seen by Dr. Whalen on 09/14/2067."
    long = "Dr. Whalen, MRN 7194334, seen 09/14/2067. " * 10
    df = spark.createDataFrame([("a", short), ("b", long)], "id string, text string")
    options = {"model": "en_rules", "key": KEY, "max_length": 200}
    redacted = _collected(deidentify_dataframe(df, on_error="redact-all", **options))
    rejected = _collected(deidentify_dataframe(df, **options))
    text, spans, error = rejected["b"]
    assert error is None and len(spans) == 30  # 10 doctors, MRNs and dates
    assert "Whalen" not in text and "7194334" not in text
    assert redacted == rejected


@Language.component("test_raise_on_mark")
def _raise_on_mark(doc):
    if "RAISEHERE" in doc.text:
        raise ValueError("a component failed")
    return doc


def test_partition_redact_all_policy(monkeypatch):
    """Without Spark: a note a component fails on comes out redacted whole
    with "redact-all" and with no text by default; the others as usual."""
    nlp = open_pipeline("en_rules", "surrogate", KEY)
    nlp.add_pipe("test_raise_on_mark", first=True)
    monkeypatch.setattr(partition, "cached_pipeline", lambda *args: nlp)
    texts = ["Seen by Dr. Whalen on 09/14/2067.", "Dr. Whalen, RAISEHERE 09/14/2067."]
    batch = pa.RecordBatch.from_pydict({"id": ["a", "b"], "text": texts})

    def rows(**overrides):
        function = DeidentifyPartition(_settings(**overrides))
        return {r["id"]: r for out in function(iter([batch])) for r in out.to_pylist()}

    rejected, redacted = rows(), rows(on_error="redact-all")
    error = rejected["b"]["deid_error"]
    assert error.startswith("ProcessingError: ")
    assert rejected["b"] == {"id": "b", "text": None, "spans": None, "deid_error": error}
    assert redacted["b"]["text"] == redact_all_text(texts[1])
    assert redacted["b"]["deid_error"] == error and redacted["b"]["spans"] == []
    assert "Whalen" not in redacted["b"]["text"]
    assert redacted["a"] == rejected["a"] and rejected["a"]["deid_error"] is None


def test_en_pipeline(spark, rows):
    records = [Record(i, r[0], r[1], r[2]) for i, r in enumerate(rows[:8])]
    nlp = open_pipeline("en", "surrogate", KEY)
    expected = _runner(nlp, records)
    df = spark.createDataFrame(
        [row[:3] for row in rows[:8]], "id string, text string, patient string"
    )
    out = deidentify_dataframe(df.repartition(2), patient_col="patient", key=KEY)
    assert _collected(out) == expected


def test_key_not_in_plan_or_function(spark, capsys):
    df = spark.createDataFrame([("a", "Dr. Whalen")], "id string, text string")
    out = deidentify_dataframe(df, model="en_rules", key=KEY.hex())
    out.explain(True)
    plan = capsys.readouterr().out + out._jdf.queryExecution().toString()
    assert "DeidentifyPartition" in plan
    assert KEY.hex() not in plan and str(KEY) not in plan
    settings = _settings()
    function = DeidentifyPartition(settings, spark.sparkContext.broadcast(KEY))
    pickled = cloudpickle.dumps(function)
    assert KEY not in pickled and KEY.hex().encode() not in pickled
    assert "hidden" in repr(InlineKey(KEY)) and KEY.hex() not in repr(InlineKey(KEY))


def test_key_from_env_else_ephemeral_with_warning(spark, monkeypatch):
    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)
    monkeypatch.delenv("SPACY_DEID_KEY_FILE", raising=False)
    df = spark.createDataFrame([("a", SHARED)], "id string, text string")
    with pytest.warns(EphemeralKeyWarning):
        deidentify_dataframe(df, model="en_rules")
    with warnings.catch_warnings():
        warnings.simplefilter("error", EphemeralKeyWarning)
        deidentify_dataframe(df, model="en_rules", mode="tag")
        monkeypatch.setenv("SPACY_DEID_KEY", KEY.hex())
        from_env = deidentify_dataframe(df, model="en_rules")
    given = deidentify_dataframe(df, model="en_rules", key=KEY)
    assert _collected(from_env) == _collected(given)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"text_col": "nope"}, "no column 'nope'"),
        ({"id_col": "nope"}, "no column 'nope'"),
        ({"text_col": "n"}, "column 'n' is int, not string or binary"),
        ({"id_col": "f"}, "column 'f' is double, not string or integer"),
        ({"patient_col": "f"}, "column 'f' is double"),
        ({"known_phi_col": "n"}, "column 'n' is int, not array"),
        ({"mode": "mask"}, "mode must be one of"),
        ({"on_error": "skip"}, "on_error must be one of"),
        ({"batch_size": 0}, "batch_size must be at least 1"),
        ({"max_length": 0}, "max_length must be at least 1"),
        ({"spans_col": "n"}, "output column names clash: n"),
        ({"error_col": "spans"}, "output column names clash: spans"),
        ({"keep_original": True}, "keep_original needs an output_col"),
        ({"key": b"short"}, "too short"),
        ({"timeout": 0}, "timeout must be a positive number"),
        ({"timeout": float("inf")}, "timeout must be a positive number"),
        ({"timeout": True}, "timeout must be a positive number"),
    ],
)
def test_bad_arguments(spark, kwargs, message):
    df = spark.createDataFrame(
        [("a", "x", 1, 1.0)], "id string, text string, n int, f double"
    )
    with pytest.raises(ValueError, match=message):
        deidentify_dataframe(df, **{"model": "en_rules", "key": KEY, **kwargs})


def _settings(**overrides) -> DeidSettings:
    values = {
        "model": "en_rules", "mode": "surrogate", "on_error": "reject",
        "batch_size": 2, "max_length": None, "text_col": "text", "id_col": "id",
        "patient_col": None, "known_phi_col": None, "output_col": "text",
        "spans_col": "spans", "error_col": "deid_error", "with_offsets": False,
        "columns": ("id", "text", "spans", "deid_error"),
    }  # fmt: skip
    values.update(overrides)
    return DeidSettings(**values)


def test_partition_function_keeps_batches_and_tags(monkeypatch):
    """Without Spark: a partition's Arrow batches go through one runner
    stream (a patient's run may cross them), and every input batch comes
    back with as many rows, empty ones included."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(kwargs)
        return deidentify_items(*args, **kwargs)

    monkeypatch.setattr(partition, "deidentify_items", counted)
    texts = ["Dr. Whalen", "Seen 09/14/2067", "MRN: 7194334", "nothing here", "Dr. Q"]
    ids = [str(i) for i in range(len(texts))]
    batches = [
        pa.RecordBatch.from_pydict({"id": ids[:3], "text": texts[:3]}),
        pa.RecordBatch.from_pydict(
            {"id": [], "text": []},
            schema=pa.schema([("id", pa.string()), ("text", pa.string())]),
        ),
        pa.RecordBatch.from_pydict({"id": ids[3:], "text": texts[3:]}),
    ]
    function = DeidentifyPartition(_settings(mode="tag", with_offsets=True))
    out = list(function(iter(batches)))
    assert [batch.num_rows for batch in out] == [3, 0, 2]
    assert len(calls) == 1 and calls[0]["batch_size"] == 2
    assert out[0].schema.names == ["id", "text", "spans", "deid_error"]
    got = [row for batch in out for row in batch.to_pylist()]
    assert [row["text"] for row in got[:3]] == [
        "Dr. [DOCTOR]",
        "Seen [DATE]",
        "MRN: [MEDICALRECORD]",
    ]
    assert got[0]["spans"] == [
        {"start": 4, "end": 10, "label": "DOCTOR", "out_start": 4, "out_end": 12}
    ]
    assert got[3] == {
        "id": "3",
        "text": "nothing here",
        "spans": [],
        "deid_error": None,
    }


def test_partition_timeout_rejects_only_the_note_that_hangs(monkeypatch):
    """Without Spark: with `timeout` a partition's notes run in a worker
    process; the note that hangs there comes out with no text and
    WorkerTimeout, the others as without a timeout."""
    nlp = open_pipeline("en_rules", "surrogate", KEY)
    nlp.add_pipe("test_pool_hazard", first=True)
    monkeypatch.setattr(partition, "cached_pipeline", lambda *args: nlp)
    texts = [f"Dr. Whalen saw her on 09/{10 + i}/2067." for i in range(5)]
    texts[3] = f"MRN 7194334 {HANG_MARK} Whalen"
    ids = [str(i) for i in range(len(texts))]
    batch = pa.RecordBatch.from_pydict({"id": ids, "text": texts})

    def rows(**overrides):
        function = DeidentifyPartition(_settings(**overrides))
        return [row for out in function(iter([batch])) for row in out.to_pylist()]

    timed = rows(timeout=2.0)
    error = "WorkerTimeout: no result after 2 s"
    assert timed[3] == {"id": "3", "text": None, "spans": None, "deid_error": error}
    # The hazard hangs only in a worker process: here the note goes through.
    plain = rows()
    assert plain[3]["deid_error"] is None
    assert timed[:3] + timed[4:] == plain[:3] + plain[4:]
    assert all(row["deid_error"] is None for row in plain)


def test_row_item_rejects_without_text():
    assert row_item(0, 5, "x", 7) == Record(0, "5", "x", "7")
    assert row_item(1, "a", 42).error == "InvalidRecord: 'text' is int, not a string"
    assert row_item(2, True, "x").error.startswith("InvalidRecord: 'id' is bool")
    assert row_item(3, "a", "x", 1.5).error.startswith(
        "InvalidRecord: 'patient' is float"
    )
    assert row_item(4, "a", b"\xc3(").error == "InvalidUTF8: byte 0"
    known = [{"text": "Zorblax Quint", "label": "PATIENT"}]
    assert row_item(5, "a", "x", None, known).known_phi == known
    bad = row_item(6, "a", "x", None, [{"text": "Zorblax Quint", "label": 3}])
    assert isinstance(bad, Rejected) and "Zorblax" not in bad.error


def test_pipeline_cache(monkeypatch):
    loads = []

    def fake_load(model, mode, key=None, max_length=None):
        loads.append((model, mode, key, max_length))
        return object()

    monkeypatch.setattr(partition, "open_pipeline", fake_load)
    monkeypatch.setattr(partition, "_PIPELINES", OrderedDict())
    first = partition.cached_pipeline("en_rules", "surrogate", KEY, None)
    assert partition.cached_pipeline("en_rules", "surrogate", KEY, None) is first
    other = partition.cached_pipeline("en_rules", "surrogate", KEY[::-1], None)
    assert other is not first and len(loads) == 2
    partition.cached_pipeline("en_rules", "tag", None, None)
    assert len(partition._PIPELINES) == partition.CACHE_SIZE
    cache_keys = repr(list(partition._PIPELINES))
    assert KEY.hex() not in cache_keys and repr(KEY) not in cache_keys


IMPORTS = """
import sys
import spacy_deid, spacy_deid.run.runner, spacy_deid.cli
assert "pyspark" not in sys.modules, "spacy_deid imported pyspark"
sys.modules["pyspark"] = None
try:
    import spacy_deid.spark
except ImportError as error:
    print(error)
"""


def test_imports_without_pyspark():
    proc = run_python(IMPORTS)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "spacy-deid[spark]" in proc.stdout and "pyspark" in proc.stdout
