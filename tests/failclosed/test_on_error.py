"""`on_error` / `--on-error`: reject (default) or redact-all, fail closed."""

import json
import subprocess
import sys

import pytest
from spacy.language import Language

import spacy_deid
from spacy_deid.io.records import Record, Rejected
from spacy_deid.run.runner import (
    Result,
    deidentify_items,
    redact_all_text,
)

from ..conftest import ROOT

NOTES = ["Dr. Whalen saw her.", "BOOM Dr. Whalen, MRN 7194334.", "MRN: 7194334"]


@Language.component("failclosed_boom")
def failclosed_boom(doc):
    if "BOOM" in doc.text:
        raise ValueError("secret " + doc.text)
    return doc


@pytest.fixture(scope="module")
def nlp_boom():
    nlp = spacy_deid.load("en_rules")
    nlp.add_pipe("failclosed_boom", first=True)
    return nlp


def _records():
    return [Record(i, f"r{i}", text) for i, text in enumerate(NOTES)]


def test_redact_all_text_keeps_layout():
    text = "Dr. Zoë Łukasz, 李雷 MRN#7194334\r\n\tDOB: 01/02/1960 ²\u200b€!"
    out = redact_all_text(text)
    assert len(out) == len(text)
    assert out == "XX. XXX XXXXXX, XX XXX#XXXXXXX\r\n\tXXX: XX/XX/XXXX XX€!"
    for a, b in zip(text, out, strict=True):
        if a.isalnum():
            assert b == "X"
        if a.isspace() or a in ".,:/#!":
            assert a == b


def test_redact_all_text_removes_every_letter_and_digit():
    text = "Whalen 7194334 Ferrer ñandú Ωμέγα ١٢٣ 二〇二三"
    out = redact_all_text(text)
    assert not any(c.isalnum() and c != "X" for c in out)
    assert [i for i, c in enumerate(text) if c.isspace()] == [
        i for i, c in enumerate(out) if c.isspace()
    ]


@pytest.mark.parametrize("batch_size", [1, 3])
def test_reject_policy_is_default(nlp_boom, batch_size):
    outs = list(deidentify_items(nlp_boom, _records(), batch_size=batch_size))
    assert [type(o).__name__ for o in outs] == ["Result", "Rejected", "Result"]
    assert outs[1].id == "r1" and "secret" not in outs[1].error
    assert "Whalen" not in outs[0].text and not outs[0].redacted_all


@pytest.mark.parametrize("batch_size", [1, 3])
def test_redact_all_policy(nlp_boom, batch_size):
    outs = list(
        deidentify_items(
            nlp_boom, _records(), batch_size=batch_size, on_error="redact-all"
        )
    )
    assert [type(o).__name__ for o in outs] == ["Result", "Result", "Result"]
    assert [o.id for o in outs] == ["r0", "r1", "r2"]
    good, bad = outs[0], outs[1]
    assert not good.redacted_all and "redacted_all" not in good.to_dict()
    assert bad.redacted_all and bad.spans == []
    assert bad.text == "XXXX XX. XXXXXX, XXX XXXXXXX."
    assert len(bad.text) == len(NOTES[1])
    assert isinstance(bad.rejected, Rejected) and bad.rejected.id == "r1"
    assert bad.rejected.error.startswith("ProcessingError")
    assert "Whalen" not in bad.rejected.error
    assert bad.to_dict() == {
        "id": "r1",
        "text": bad.text,
        "spans": [],
        "redacted_all": True,
    }
    assert "7194334" not in outs[2].text and not outs[2].redacted_all


def test_redact_all_check_failure(monkeypatch):
    """A record whose output fails `check_deidentified` (a PHI span replaced
    by itself) is redacted whole too."""
    from spacy_deid.surrogates.replacer import PhiSurrogates

    original_call = PhiSurrogates.__call__

    def broken(self, doc):
        doc = original_call(self, doc)
        doc._.deidentified = doc.text
        doc._.offset_map = [[e.start_char, e.end_char] * 2 for e in doc.ents]
        return doc

    monkeypatch.setattr(PhiSurrogates, "__call__", broken)
    nlp = spacy_deid.load("en_rules")
    records = [Record(0, "a", "Seen by Dr. Whalen."), Record(1, "b", "ok")]
    outs = list(deidentify_items(nlp, records, on_error="redact-all"))
    assert isinstance(outs[0], Result) and outs[0].text == "XXXX XX XX. XXXXXX."
    assert "replaced by itself" in outs[0].rejected.error
    assert outs[1].text == "ok" and not outs[1].redacted_all


def test_unparsable_items_stay_rejected(nlp_rules):
    items = [
        Rejected(0, None, "InvalidJSON: x", 1),
        Record(1, "ok", "MRN: 7194334"),
        Rejected(2, "noText", "InvalidRecord: no 'text' field", 3),
    ]
    outs = list(deidentify_items(nlp_rules, items, on_error="redact-all"))
    assert [type(o).__name__ for o in outs] == ["Rejected", "Result", "Rejected"]


def test_bad_policy(nlp_rules):
    with pytest.raises(ValueError, match="on_error"):
        list(deidentify_items(nlp_rules, [], on_error="ignore"))


CLI = """
import sys
from spacy.language import Language
import spacy_deid
from spacy_deid.cli import main

@Language.component("failclosed_boom")
def boom(doc):
    if "BOOM" in doc.text:
        raise ValueError("secret " + doc.text)
    return doc

nlp = spacy_deid.load("en_rules")
nlp.add_pipe("failclosed_boom", first=True)
nlp.to_disk(sys.argv[1])
sys.argv = ["spacy-deid", "run", *sys.argv[2:], "--model", sys.argv[1]]
main()
"""


@pytest.mark.parametrize("policy", ["reject", "redact-all", None])
def test_cli_on_error(tmp_path, policy):
    src = tmp_path / "in.jsonl"
    lines = [json.dumps({"id": f"r{i}", "text": t}) for i, t in enumerate(NOTES)]
    src.write_text("\n".join(["{not json", *lines]) + "\n")
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    args = [str(src), str(out), "--reject-file", str(rejects), "--no-progress"]
    if policy is not None:
        args += ["--on-error", policy]
    proc = subprocess.run(
        [sys.executable, "-c", CLI, str(tmp_path / "pipe"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 3, proc.stderr
    assert "Whalen" not in proc.stderr and "secret" not in proc.stderr
    assert "Traceback" not in proc.stderr
    written = [json.loads(line) for line in out.read_text().splitlines()]
    rejected = [json.loads(line) for line in rejects.read_text().splitlines()]
    assert [r["id"] for r in rejected] == [None, "r1"]
    assert rejected[1]["error"].startswith("ProcessingError")
    assert "Whalen" not in out.read_text() and "7194334" not in out.read_text()
    if policy == "redact-all":
        assert [r["id"] for r in written] == ["r0", "r1", "r2"]
        assert written[1] == {
            "id": "r1",
            "text": "XXXX XX. XXXXXX, XXX XXXXXXX.",
            "spans": [],
            "redacted_all": True,
        }
        assert "redacted_all" not in written[0]
    else:
        assert [r["id"] for r in written] == ["r0", "r2"]


def test_cli_bad_on_error(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "spacy_deid", "run", "-", "-", "--on-error", "skip"],
        input="",
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 2 and "--on-error" in proc.stderr


def test_cli_redact_all_text_folder(tmp_path):
    src = tmp_path / "notes"
    src.mkdir()
    (src / "a.txt").write_text(NOTES[0])
    (src / "b.txt").write_text(NOTES[1])
    out = tmp_path / "out"
    args = [str(src), str(out), "--on-error", "redact-all", "--no-progress"]
    proc = subprocess.run(
        [sys.executable, "-c", CLI, str(tmp_path / "pipe"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 3, proc.stderr
    assert "Rejected record 'b'" in proc.stderr and "Whalen" not in proc.stderr
    assert (out / "b.txt").read_text() == "XXXX XX. XXXXXX, XXX XXXXXXX."
    assert "Whalen" not in (out / "a.txt").read_text()
    index = [
        json.loads(line) for line in (out / "spans.jsonl").read_text().splitlines()
    ]
    assert index[1] == {"id": "b", "spans": [], "redacted_all": True}
    assert "redacted_all" not in index[0]
    assert not list(out.glob("*.tmp"))
