import warnings
import os

import pytest

from spacy_deid.surrogates import (
    EphemeralKeyWarning,
    InvalidKeyError,
    generate_key,
    parse_key,
    read_key_file,
    write_key_file,
)
from spacy_deid.surrogates.keys import derive_digest, derive_seed

from .conftest import KEY, deidentify, make_nlp

PHI = [("John Smith", "PATIENT"), ("617-555-1234", "PHONE")]
TEXT = "John Smith, 617-555-1234"


def test_generate_key():
    key = generate_key()
    assert isinstance(key, bytes) and len(key) == 32
    assert generate_key() != key


def test_read_key_file_raw_and_hex(tmp_path):
    raw = tmp_path / "raw.key"
    raw.write_bytes(b"a raw secret key of some length\n")
    assert read_key_file(raw) == b"a raw secret key of some length"
    hex_file = tmp_path / "hex.key"
    key = write_key_file(hex_file)
    assert read_key_file(hex_file) == key
    assert parse_key(key.hex()) == key
    if os.name == "posix":
        assert (hex_file.stat().st_mode & 0o777) == 0o600


@pytest.mark.parametrize("content", [b"", b"  \n", b"k3yz"])
def test_read_key_file_rejects_empty_or_short(tmp_path, content):
    path = tmp_path / "bad.key"
    path.write_bytes(content)
    with pytest.raises(InvalidKeyError) as excinfo:
        read_key_file(path)
    if content.strip():
        assert content.decode() not in str(excinfo.value)


def test_set_key_rejects_short_key():
    nlp = make_nlp(key=None)
    with pytest.raises(InvalidKeyError):
        nlp.get_pipe("phi_surrogates").set_key(b"too short")


def test_derivation_is_separated():
    assert derive_digest(KEY, "ab", "c") != derive_digest(KEY, "a", "bc")
    assert derive_seed(KEY, "x") != derive_seed(b"z" * 20, "x")


def test_env_key_file(tmp_path, monkeypatch):
    path = tmp_path / "deid.key"
    write_key_file(path, KEY)
    monkeypatch.setenv("SPACY_DEID_KEY_FILE", str(path))
    nlp_env = make_nlp(key=None)
    assert nlp_env.get_pipe("phi_surrogates").key_source == "env:SPACY_DEID_KEY_FILE"
    doc_env = deidentify(nlp_env, TEXT, PHI)
    doc_set = deidentify(make_nlp(key=KEY), TEXT, PHI)
    assert doc_env._.deidentified == doc_set._.deidentified


def test_env_key_text_and_hex(monkeypatch):
    expected = deidentify(make_nlp(key=KEY), TEXT, PHI)._.deidentified
    monkeypatch.setenv("SPACY_DEID_KEY", KEY.decode())
    assert deidentify(make_nlp(key=None), TEXT, PHI)._.deidentified == expected
    monkeypatch.setenv("SPACY_DEID_KEY", KEY.hex())
    assert deidentify(make_nlp(key=None), TEXT, PHI)._.deidentified == expected


def test_set_key_overrides_env(monkeypatch):
    monkeypatch.setenv("SPACY_DEID_KEY", "x" * 40)
    nlp = make_nlp(key=KEY)
    assert nlp.get_pipe("phi_surrogates").key_source == "set_key"
    expected = deidentify(make_nlp(key=KEY), TEXT, PHI)._.deidentified
    monkeypatch.delenv("SPACY_DEID_KEY")
    assert deidentify(nlp, TEXT, PHI)._.deidentified == expected


def test_ephemeral_key_warns_once_and_stays_consistent():
    nlp = make_nlp(key=None)
    assert nlp.get_pipe("phi_surrogates").key_source == "ephemeral"
    with pytest.warns(EphemeralKeyWarning) as record:
        first = deidentify(nlp, TEXT, PHI)._.deidentified
        second = deidentify(nlp, TEXT, PHI)._.deidentified
    assert len(record) == 1
    assert "John" not in str(record[0].message)
    assert first == second
    other = make_nlp(key=None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert deidentify(other, TEXT, PHI)._.deidentified != first
    # once per process, whatever the number of components
    assert not [w for w in caught if issubclass(w.category, EphemeralKeyWarning)]


def test_no_warning_with_key(recwarn):
    deidentify(make_nlp(key=KEY), TEXT, PHI)
    assert not [w for w in recwarn if issubclass(w.category, EphemeralKeyWarning)]


def test_set_key_accepts_raw_file_contents(tmp_path):
    path = tmp_path / "k.key"
    key = write_key_file(path)
    from_file = make_nlp(key=read_key_file(path))
    from_contents = make_nlp(key=path.read_bytes())
    assert (
        deidentify(from_file, TEXT, PHI)._.deidentified
        == deidentify(from_contents, TEXT, PHI)._.deidentified
    )
    assert parse_key(parse_key(key)) == key
    text_path = tmp_path / "text.key"
    text_path.write_text("a long text passphrase for the key\n")
    assert parse_key(text_path.read_bytes()) == read_key_file(text_path)
