"""`spacy_deid.spark` under Spark Connect (Databricks shared and serverless
compute): a local Connect server (`SparkSession.builder.remote("local[2]")`).

There the key cannot be a broadcast variable: it travels inside the pickled
function (`InlineKey`). Skipped without pyspark's Connect client packages
(the `[spark]` extra installs them) or Java.
"""

import pytest

from .extras import need

need("pyspark")
need("pyarrow")
need("grpc")
need("google.rpc")

from pyspark.sql import SparkSession  # noqa: E402

from spacy_deid.synth import generate  # noqa: E402
from spacy_deid.io.records import Record  # noqa: E402
from spacy_deid.run.pipeline import open_pipeline  # noqa: E402
from spacy_deid.spark import deidentify_dataframe  # noqa: E402

from .test_spark import KEY, _collected, _runner, spark_workers_python  # noqa: E402

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)
SHARED = "Seen by Dr. Whalen on 09/14/2067. MRN: 7194334. Call 617-555-0199."


@pytest.fixture(scope="module")
def connect():
    with spark_workers_python():
        session = (
            SparkSession.builder.remote("local[2]")
            .config("spark.sql.shuffle.partitions", "4")
            .getOrCreate()
        )
        yield session
        session.stop()


def test_connect_same_output_as_deidentify_items(connect, capsys):
    """Same text, spans and errors as the runner with the same key; one
    patient's identical notes in different partitions get the same
    surrogates; the key is in no plan output."""
    notes = list(generate(12, seed=5, split="all"))
    rows = [(n.id, n.text, n.patient) for n in notes]
    for i, position in enumerate((0, 6, 11)):
        rows.insert(position, (f"p1-{i}", SHARED, "P1"))
    df = connect.createDataFrame(rows, "id string, text string, patient string")
    assert type(df).__module__.startswith("pyspark.sql.connect")
    out = deidentify_dataframe(
        df.repartition(3), patient_col="patient", model="en_rules", key=KEY
    )
    got = _collected(out)
    nlp = open_pipeline("en_rules", "surrogate", KEY)
    records = [Record(i, *row) for i, row in enumerate(rows)]
    assert got == _runner(nlp, records)
    assert got["p1-0"][0] == got["p1-1"][0] == got["p1-2"][0] != SHARED
    out.explain(True)
    plan = capsys.readouterr().out
    assert plan and KEY.hex() not in plan and str(KEY) not in plan
