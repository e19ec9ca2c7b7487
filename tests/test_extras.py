"""The tests' optional dependencies skip where absent and fail where required
(`tests/extras.py`, `SPACY_DEID_REQUIRE`, set by `.ci/run`)."""

import pytest

from . import extras

MISSING = "spacy_deid_no_such_module"


def test_a_missing_extra_skips_unless_required(monkeypatch):
    monkeypatch.delenv(extras.REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception):
        extras.need(MISSING)
    monkeypatch.setenv(extras.REQUIRE_ENV, f"pyarrow, {MISSING}")
    assert extras.required() == {"pyarrow", MISSING}
    with pytest.raises(ImportError):
        extras.need(MISSING)


def test_missing_java_fails_where_required(monkeypatch):
    monkeypatch.setattr(extras, "java_runs", lambda: False)
    monkeypatch.delenv(extras.REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception):
        extras.need_java()
    monkeypatch.setenv(extras.REQUIRE_ENV, "java")
    with pytest.raises(pytest.fail.Exception):
        extras.need_java()


def test_the_ci_script_requires_java_and_the_extras_it_installs():
    from .conftest import ROOT

    script = (ROOT / ".ci" / "run").read_text()
    assert "default-jre-headless" in script
    lines = script.splitlines()
    line = next(x for x in lines if "SPACY_DEID_REQUIRE=pyspark" in x)
    for name in ("java", "pyspark", "pyarrow", "pycrfsuite", "floret", "hyperscan"):
        assert name in line.split("=", 1)[1].split(",")
