"""knowledge/credentials.py: credentials written after a clinician's name."""

import pytest

from spacy_deid.knowledge.credentials import is_credential


@pytest.mark.parametrize(
    "text",
    [
        "MD", "M.D.", "MLS(ASCP)", "PA-C", "FNP-C", "FNP-BC", "AGACNP-BC", "PMHNP-BC",
        "AuD", "MDiv", "OCN", "RHIT",
    ],
)
def test_credentials(text):
    assert is_credential(text)


@pytest.mark.parametrize("text", ["Smith", "ROOM", "C", "-BC", "X-C", "BC", "MD-X"])
def test_not_credentials(text):
    assert not is_credential(text)

