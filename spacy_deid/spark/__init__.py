"""De-identify a text column of a Spark DataFrame (`pip install "spacy-deid[spark]"`).

`deidentify_dataframe(df, key=...)` returns a lazy DataFrame in which the text
column holds the de-identified notes (or a new column does, and the original
is dropped), with a `spans` column (array<struct<start:int,end:int,label:
string>>, offsets into the original text) and a `deid_error` column (null
when the row is fine; otherwise the error class, never text). Every other
column is passed through unchanged, as Arrow data.

It runs `runner.deidentify_items` inside `mapInArrow`, so the fail-closed
machinery of the CLI applies row by row: a row whose processing or check
failed has a null text ("reject") or all its letters and digits replaced by
"X" ("redact-all"), never its original text. Every input row gives one output
row. The pipeline is loaded once per executor Python worker (a module-level
cache keyed by model, mode, max_length and a digest of the key) and every
partition is one stream of `batch_size`-record batches (`partition.py`
is the executor side).

Surrogates and date shifts are keyed by (secret key, patient), so a patient's
notes get the same surrogates in whatever partition they land, and the same
as `spacy-deid run` with that key. The patient is `patient_col`, else the row
id (as in the CLI). The key goes to the executors as a broadcast variable: it
is not in the pickled function or the plan string, and it is never logged.

Known PHI (`known_phi_col`) applies to its own row only, so that the output
does not depend on how rows are partitioned; join a patient's identifiers
onto each of its rows.
"""

import warnings
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple, Union

try:
    import pyarrow  # noqa: F401 - mapInArrow needs it
    from pyspark.sql import DataFrame
    from pyspark.sql import types as T
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"spacy_deid.spark needs pyspark and pyarrow ({error.name} is missing): "
        'pip install "spacy-deid[spark]"'
    ) from error

from ..run.pool import check_timeout
from ..run.runner import ON_ERROR_POLICIES, ON_ERROR_REJECT
from ..surrogates.keys import generate_key, key_from_env, parse_key
from ..surrogates.replacer import MODES, EphemeralKeyWarning
from .partition import (
    CACHE_SIZE,
    OFFSET_FIELDS,
    DeidentifyPartition,
    DeidSettings,
    InlineKey,
    SparkDeidError,
    cached_pipeline,
    row_item,
)

__all__ = [
    "CACHE_SIZE",
    "DeidSettings",
    "DeidentifyPartition",
    "InlineKey",
    "SparkDeidError",
    "cached_pipeline",
    "deidentify_dataframe",
    "group_by_patient",
    "row_item",
]

EPHEMERAL_KEY_WARNING = (
    "spacy-deid: no secret key (key=..., SPACY_DEID_KEY_FILE or SPACY_DEID_KEY): "
    "surrogates and date shifts use a random key made for this DataFrame, "
    "consistent across its partitions but not with any other run."
)
ID_TYPES = (T.StringType, T.IntegerType, T.LongType, T.ShortType, T.ByteType)
TEXT_TYPES = (T.StringType, T.BinaryType)


def deidentify_dataframe(
    df: DataFrame,
    *,
    text_col: str = "text",
    id_col: str = "id",
    patient_col: Optional[str] = None,
    known_phi_col: Optional[str] = None,
    model: Union[str, Path] = "en",
    mode: str = "surrogate",
    key: Optional[Union[bytes, str]] = None,
    on_error: str = ON_ERROR_REJECT,
    batch_size: int = 64,
    max_length: Optional[int] = None,
    output_col: Optional[str] = None,
    spans_col: str = "spans",
    error_col: str = "deid_error",
    with_offsets: bool = False,
    keep_original: bool = False,
    timeout: Optional[float] = None,
) -> DataFrame:
    """De-identify the notes in a column of a DataFrame (lazily).

    df (DataFrame): The notes, one per row.
    text_col (str): The notes: string, or binary (decoded as UTF-8; a row that
        is not valid UTF-8 is rejected with "InvalidUTF8").
    id_col (str): The record id (string or integer), used as the patient when
        there is no patient column or the row's patient is null.
    patient_col (Optional[str]): The patient id (string or integer).
    known_phi_col (Optional[str]): Known PHI of the row: array<struct<text,
        label>> or a JSON string of [{"text", "label"}, ...].
    model (Union[str, Path]): A shipped pipeline ("en", "en_rules",
        "es_meddocan"), or a pipeline directory or package name that exists
        on every executor.
    mode (str): "surrogate", "redact" or "tag".
    key (Optional[Union[bytes, str]]): The secret key (raw bytes or hex text,
        e.g. a key file's contents); None: SPACY_DEID_KEY_FILE or
        SPACY_DEID_KEY on the driver, else a random key for this DataFrame
        (with an EphemeralKeyWarning). Only used in "surrogate" mode.
    on_error (str): "reject" (a failed row's text is null) or "redact-all"
        (its letters and digits become "X", spans are empty).
    batch_size (int): Records per `nlp.pipe` batch.
    max_length (Optional[int]): Longest note in characters read as one doc;
        longer ones are de-identified in pieces. None: the pipeline's
        max_length.
    output_col (Optional[str]): The de-identified text column; None: the
        text column itself (same name and position, type string).
    spans_col (str): The PHI spans column.
    error_col (str): The error column.
    with_offsets (bool): Add out_start/out_end (offsets in the output text)
        to the spans.
    keep_original (bool): Keep the original text column (needs an
        `output_col` of another name). The result then holds PHI.
    timeout (Optional[float]): Seconds a batch may take (as the CLI's
        `--timeout`): each task then runs its notes in one worker process of
        its own, killed when a batch takes longer; the batch is redone record
        by record and a record that takes longer alone fails with
        "WorkerTimeout". None: no limit.
    RETURNS (DataFrame): The de-identified DataFrame (nothing runs until an
        action such as `write` or `collect`).
    """
    output_col = text_col if output_col is None else output_col
    columns = output_columns(
        df.schema, text_col, output_col, spans_col, error_col, keep_original
    )
    check_columns(df.schema, text_col, id_col, patient_col, known_phi_col)
    model = str(model)
    check_options(mode, on_error, batch_size, max_length, timeout)
    settings = DeidSettings(
        model=model,
        mode=mode,
        on_error=on_error,
        batch_size=batch_size,
        max_length=max_length,
        text_col=text_col,
        id_col=id_col,
        patient_col=patient_col,
        known_phi_col=known_phi_col,
        output_col=output_col,
        spans_col=spans_col,
        error_col=error_col,
        with_offsets=with_offsets,
        columns=tuple(columns),
        timeout=timeout,
    )
    key_value = driver_key(key) if mode == "surrogate" else None
    function = DeidentifyPartition(settings, share_key(df, key_value))
    schema = output_schema(df.schema, settings)
    return df.mapInArrow(function, schema)


def group_by_patient(
    df: DataFrame,
    patient_col: str,
    *,
    order_cols: Sequence[str] = (),
    num_partitions: Optional[int] = None,
) -> DataFrame:
    """Put all the rows of a patient in one partition, in a row, so that
    cross-note components (`phi_consistency`) see the patient's whole run.
    Surrogates are consistent per patient without it.

    df (DataFrame): The notes.
    patient_col (str): The patient column.
    order_cols (Sequence[str]): Columns that order a patient's rows (e.g. the
        note date and id).
    num_partitions (Optional[int]): Partitions; None: spark.sql.shuffle.partitions.
    RETURNS (DataFrame): The repartitioned, sorted DataFrame.
    """
    if patient_col not in df.columns:
        raise ValueError(f"no column '{patient_col}' in the DataFrame")
    if num_partitions is None:
        grouped = df.repartition(patient_col)
    else:
        grouped = df.repartition(num_partitions, patient_col)
    return grouped.sortWithinPartitions(patient_col, *order_cols)


def output_columns(
    schema: T.StructType,
    text_col: str,
    output_col: str,
    spans_col: str,
    error_col: str,
    keep_original: bool,
) -> List[str]:
    """The output column names, in order: the input columns (the text column
    replaced in place, or dropped and `output_col` added at the end), then the
    spans and error columns. Raises on a name clash."""
    names = list(schema.names)
    if text_col not in names:
        raise ValueError(f"no column '{text_col}' in the DataFrame")
    if keep_original and output_col == text_col:
        raise ValueError("keep_original needs an output_col other than the text column")
    if output_col == text_col:
        columns = names
    else:
        columns = [name for name in names if keep_original or name != text_col]
        columns.append(output_col)
    for new in (spans_col, error_col):
        columns.append(new)
    clashes = sorted({name for name in columns if columns.count(name) > 1})
    if clashes:
        raise ValueError(f"output column names clash: {', '.join(clashes)}")
    return columns


def check_columns(
    schema: T.StructType,
    text_col: str,
    id_col: str,
    patient_col: Optional[str],
    known_phi_col: Optional[str],
) -> None:
    """Raise a ValueError unless the input columns exist and have usable types."""
    _check_type(schema, text_col, TEXT_TYPES, "string or binary")
    _check_type(schema, id_col, ID_TYPES, "string or integer")
    if patient_col is not None:
        _check_type(schema, patient_col, ID_TYPES, "string or integer")
    if known_phi_col is not None:
        data_type = _field(schema, known_phi_col).dataType
        if not isinstance(data_type, T.StringType) and not _is_known_array(data_type):
            raise ValueError(
                f"column '{known_phi_col}' is {data_type.simpleString()}, not "
                "array<struct<text:string,label:string>> or a JSON string"
            )


def _field(schema: T.StructType, name: str) -> T.StructField:
    if name not in schema.names:
        raise ValueError(f"no column '{name}' in the DataFrame")
    return schema[name]


def _check_type(
    schema: T.StructType, name: str, types: Tuple[type, ...], wanted: str
) -> None:
    data_type = _field(schema, name).dataType
    if not isinstance(data_type, types):
        raise ValueError(f"column '{name}' is {data_type.simpleString()}, not {wanted}")


def _is_known_array(data_type: T.DataType) -> bool:
    if not isinstance(data_type, T.ArrayType):
        return False
    element = data_type.elementType
    return isinstance(element, T.StructType) and {"text", "label"} <= set(element.names)


def check_options(
    mode: str,
    on_error: str,
    batch_size: int,
    max_length: Optional[int],
    timeout: Optional[float] = None,
) -> None:
    """Raise a ValueError on an unknown mode or policy, a bad size or a bad
    timeout."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    if on_error not in ON_ERROR_POLICIES:
        raise ValueError(f"on_error must be one of {', '.join(ON_ERROR_POLICIES)}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int):
        raise ValueError("batch_size must be an integer")
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if max_length is not None and (
        isinstance(max_length, bool) or not isinstance(max_length, int)
    ):
        raise ValueError("max_length must be an integer")
    if max_length is not None and max_length < 1:
        raise ValueError("max_length must be at least 1")
    check_timeout(timeout)


def driver_key(key: Optional[Union[bytes, str]]) -> bytes:
    """The surrogate key of a run: `key`, else the environment of the driver,
    else a random key (with an EphemeralKeyWarning). Raises InvalidKeyError
    (which never shows the key) on a bad key."""
    if key is not None:
        return parse_key(key)
    env_key, _ = key_from_env()
    if env_key is not None:
        return env_key
    warnings.warn(EPHEMERAL_KEY_WARNING, EphemeralKeyWarning, stacklevel=3)
    return generate_key()


def share_key(df: DataFrame, key: Optional[bytes]) -> Any:
    """Something with a `.value` that gives the key on the executors: a
    broadcast variable, or an `InlineKey` under Spark Connect."""
    if key is None:
        return None
    if type(df).__module__.startswith("pyspark.sql.connect"):
        return InlineKey(key)
    return df.sparkSession.sparkContext.broadcast(key)


def spans_type(with_offsets: bool) -> T.ArrayType:
    """The Spark type of the spans column."""
    fields = [
        T.StructField("start", T.IntegerType()),
        T.StructField("end", T.IntegerType()),
        T.StructField("label", T.StringType()),
    ]
    if with_offsets:
        fields += [T.StructField(name, T.IntegerType()) for name in OFFSET_FIELDS]
    return T.ArrayType(T.StructType(fields))


def output_schema(schema: T.StructType, settings: DeidSettings) -> T.StructType:
    """The schema of the result."""
    new = {
        settings.output_col: T.StructField(settings.output_col, T.StringType()),
        settings.spans_col: T.StructField(
            settings.spans_col, spans_type(settings.with_offsets)
        ),
        settings.error_col: T.StructField(settings.error_col, T.StringType()),
    }
    fields = [new[name] if name in new else schema[name] for name in settings.columns]
    return T.StructType(fields)
