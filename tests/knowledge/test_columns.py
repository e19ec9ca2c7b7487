"""The precomputed columns behind `lookup`: same answers as the tables, fresh."""

import pytest

from spacy_deid.knowledge import lookup
from spacy_deid.knowledge.columns import COLUMNS_PATH, EMPTY, load_columns, write_columns
from spacy_deid.knowledge.lookup import lookup_in_tables


def test_shipped_columns_are_rebuilt_byte_for_byte(tmp_path):
    """Fails while columns.bin.gz is stale: `python -m spacy_deid.knowledge.columns`.
    Writing from the tables again gives the same bytes (deterministic)."""
    path = tmp_path / "columns.bin.gz"
    assert write_columns(path) > 100_000
    assert path.read_bytes() == COLUMNS_PATH.read_bytes()
    assert load_columns(path).row("smith") == load_columns().row("smith")


@pytest.mark.parametrize(
    "text", ["Smith", "O'Brien", "Zürich", "Calif.", "New Zealand", "Humira", "Xqzvbrt"]
)
def test_lookup_answers_as_the_tables(text):
    assert lookup(text) == lookup_in_tables(text)


def test_unknown_key():
    assert load_columns().row("xqzvbrt qq") == EMPTY
