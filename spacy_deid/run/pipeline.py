"""Opening a pipeline for a de-identification run, the same way for the CLI
and for Spark executors: a shipped pipeline, a directory or a package, with
its surrogate mode, key and longest note set; and the run-wide settings a
user may change (`set_recall_bias`, the known-PHI store)."""

import math
from pathlib import Path
from typing import List, Optional

import spacy
from spacy.language import Language

from .. import PIPELINES
from .. import load as load_shipped
from ..known.store import DEFAULT_MAX_PATIENTS, KnownPhiStore
from ..surrogates.keys import read_key_file
from .runner import SURROGATES, set_surrogate_mode

LOAD = "load"
MODE = "mode"
KEY = "key"


class PipelineError(Exception):
    """A pipeline could not be opened. `step` says which step failed (LOAD,
    MODE or KEY) and `error` is the original exception, so that callers word
    the message (messages never hold note text)."""

    def __init__(self, step: str, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.step = step
        self.error = error


def open_pipeline(
    model: str,
    mode: str,
    key: Optional[bytes] = None,
    key_file: Optional[Path] = None,
    max_length: Optional[int] = None,
) -> Language:
    """Load a pipeline for de-identification with the given mode and key.

    model (str): A shipped pipeline name, a directory or an installed package.
    mode (str): surrogate, redact or tag.
    key (Optional[bytes]): The surrogate key; None: `key_file`, else the
        component's own (SPACY_DEID_KEY_FILE, SPACY_DEID_KEY or a random key).
    key_file (Optional[Path]): A file holding the surrogate key.
    max_length (Optional[int]): Set `nlp.max_length` (the longest note).
    RETURNS (Language): The pipeline, ending with `phi_surrogates`.
    """
    try:
        # The runner warms the tokenizer's cache once a run has a second batch.
        nlp = (
            load_shipped(model, warm=False) if model in PIPELINES else spacy.load(model)
        )
    except (OSError, ValueError) as error:
        raise PipelineError(LOAD, error) from None
    try:
        set_surrogate_mode(nlp, mode)
    except ValueError as error:
        raise PipelineError(MODE, error) from None
    if key is not None or key_file is not None:
        try:
            if key is None and key_file is not None:
                key = read_key_file(key_file)
            nlp.get_pipe(SURROGATES).set_key(key)
        except (OSError, ValueError) as error:
            raise PipelineError(KEY, error) from None
    if max_length is not None:
        nlp.max_length = max_length
    return nlp


def open_known(
    path: Optional[Path] = None, max_patients: int = DEFAULT_MAX_PATIENTS
) -> KnownPhiStore:
    """The known-PHI store of a run, with the preset lists of a known-PHI
    file (raises known.store.KnownFileError or OSError).

    path (Optional[Path]): A known-PHI JSONL file, or None.
    max_patients (int): Patients whose inherited lists are kept.
    RETURNS (KnownPhiStore): The store.
    """
    if path is None:
        return KnownPhiStore(max_patients=max_patients)
    return KnownPhiStore.from_file(path, max_patients=max_patients)


RECALL_BIAS = "recall_bias"


def set_recall_bias(nlp: Language, value: float) -> List[str]:
    """Set `cfg["recall_bias"]` on every component that has that setting.

    nlp (Language): The pipeline.
    value (float): The bias (finite).
    RETURNS (List[str]): The names of the components changed.
    """
    if not math.isfinite(value):
        raise ValueError("the recall bias must be a finite number")
    names = []
    for name, pipe in nlp.pipeline:
        cfg = getattr(pipe, "cfg", None)
        if isinstance(cfg, dict) and RECALL_BIAS in cfg:
            cfg[RECALL_BIAS] = float(value)
            names.append(name)
    if not names:
        raise ValueError(
            "no component of this pipeline has a recall_bias setting "
            f"(components: {', '.join(nlp.pipe_names)})"
        )
    return names
