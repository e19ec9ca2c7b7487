import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **kwargs) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter (nothing imported from spacy_deid yet)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


@pytest.fixture(scope="session")
def nlp_en():
    """The shipped English pipeline, loaded once per test session."""
    import spacy

    return spacy.load("spacy_deid")


@pytest.fixture(scope="session")
def examples_path() -> Path:
    return ROOT / "examples" / "notes.jsonl"
