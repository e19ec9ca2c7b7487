"""The `spacy-deid run` command: records, modes, keys, rejects, streaming."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spacy_deid.labels.maps import MEDDOCAN_LABELS

from .conftest import ROOT

PHI = [
    "Hendrickson",
    "7194334",
    "Whalen",
    "617) 555-0142",
    "617-555-0199",
    "09/14/2067",
]


def spacy_deid(*args: str, stdin: str = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "spacy_deid", *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=300)


def read_jsonl(path: Path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def key_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("key") / "deid.key"
    proc = spacy_deid("keygen", str(path))
    assert proc.returncode == 0, proc.stderr
    return path


def whole_word(word: str, text: str) -> bool:
    """Whether word occurs in text with no letter or digit on either side."""
    return re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text) is not None


ES_NOTE = (
    "Nombre: Lucía Ferrer Soler.\nNHC: 7194334.\nFecha de ingreso: 14/03/2017.\n"
    "Paciente de 67 años, natural de Teruel. Médico: Dr. Andrés Pons Vidal."
)


def test_run_examples_surrogate(tmp_path, examples_path, key_file):
    """The rules-only pipeline removes every PHI string of the examples."""
    out = tmp_path / "out.jsonl"
    proc = spacy_deid(
        "run",
        str(examples_path),
        str(out),
        "--mode",
        "surrogate",
        "--key-file",
        str(key_file),
        "--model",
        "en_rules",
    )
    assert proc.returncode == 0, proc.stderr
    inputs = read_jsonl(examples_path)
    outputs = read_jsonl(out)
    assert [o["id"] for o in outputs] == [i["id"] for i in inputs]
    for inp, outp in zip(inputs, outputs, strict=False):
        assert set(outp) == {"id", "text", "spans"}
        for span in outp["spans"]:
            assert set(span) == {"start", "end", "label"}
            original = inp["text"][span["start"] : span["end"]]
            assert original.strip()
            if span["label"] != "AGE":
                # As a whole word: the keygen key is random, and a surrogate
                # ID may hold a short original by chance ("IL" in "BIL-83").
                assert not whole_word(original, outp["text"]), original
    joined = "\n".join(o["text"] for o in outputs)
    for phi in PHI:
        assert phi not in joined
    # No note text on stderr.
    for phi in PHI:
        assert phi not in proc.stderr


def test_run_examples_default_pipeline(tmp_path, examples_path, key_file):
    """The default pipeline (rules + tagger): every span is replaced in place
    (checked with the output offsets), formulaic PHI always goes."""
    out = tmp_path / "out.jsonl"
    proc = spacy_deid(
        "run",
        str(examples_path),
        str(out),
        "--key-file",
        str(key_file),
        "--with-offsets",
    )
    assert proc.returncode == 0, proc.stderr
    inputs = read_jsonl(examples_path)
    outputs = read_jsonl(out)
    assert [o["id"] for o in outputs] == [i["id"] for i in inputs]
    for inp, outp in zip(inputs, outputs, strict=True):
        for span in outp["spans"]:
            original = inp["text"][span["start"] : span["end"]]
            new = outp["text"][span["out_start"] : span["out_end"]]
            assert span["label"] == "AGE" or new != original
    joined = "\n".join(o["text"] for o in outputs)
    for phi in ["7194334", "617) 555-0142", "617-555-0199", "09/14/2067"]:
        assert phi not in joined
    for phi in PHI:
        assert phi not in proc.stderr


def test_run_same_key_same_output(tmp_path, examples_path, key_file):
    outs = []
    extra = [
        [],
        ["--n-process", "2", "--batch-size", "2"],
        ["--timeout", "300"],
        ["--n-process", "2", "--start-method", "spawn"],
    ]
    for i, options in enumerate(extra):
        out = tmp_path / f"out{i}.jsonl"
        args = ["run", str(examples_path), str(out), "--key-file", str(key_file)]
        proc = spacy_deid(*args, *options)
        assert proc.returncode == 0, proc.stderr
        outs.append(out.read_text())
    assert outs[0] == outs[1] == outs[2] == outs[3]


def test_run_refuses_an_unknown_start_method(tmp_path, examples_path):
    out = tmp_path / "out.jsonl"
    proc = spacy_deid("run", str(examples_path), str(out), "--start-method", "thread")
    assert proc.returncode == 2 and not out.exists()
    assert "--start-method" in proc.stderr and "spawn" in proc.stderr


def test_run_without_key_says_so(tmp_path, examples_path):
    proc = spacy_deid("run", str(examples_path), str(tmp_path / "o.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert "random key" in proc.stderr


@pytest.mark.parametrize("mode,marker", [("tag", "[DATE]"), ("redact", "[**]")])
def test_run_modes(tmp_path, examples_path, mode, marker):
    out = tmp_path / "out.jsonl"
    proc = spacy_deid(
        "run", str(examples_path), str(out), "--mode", mode, "--model", "en_rules"
    )
    assert proc.returncode == 0, proc.stderr
    text = "\n".join(o["text"] for o in read_jsonl(out))
    assert marker in text
    for phi in PHI:
        assert phi not in text


def test_bad_records_rejected(tmp_path, key_file):
    lines = [
        json.dumps({"id": "a", "text": "Seen by Dr. Whalen on 09/14/2067."}),
        "{not json",
        json.dumps({"id": "b"}),
        json.dumps({"id": "c", "text": 42}),
        json.dumps(["a list"]),
        json.dumps({"id": "d", "text": "Call 617-555-0142.", "patient": "P9"}),
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    proc = spacy_deid(
        "run",
        str(src),
        str(out),
        "--reject-file",
        str(rejects),
        "--key-file",
        str(key_file),
    )
    assert proc.returncode == 3
    assert [o["id"] for o in read_jsonl(out)] == ["a", "d"]
    rejected = read_jsonl(rejects)
    assert [(r["id"], r["line"]) for r in rejected] == [
        (None, 2),
        ("b", 3),
        ("c", 4),
        (None, 5),
    ]
    assert "line 2" in proc.stderr and "'b'" in proc.stderr
    assert "Whalen" not in proc.stderr + rejects.read_text()


def test_stdin_stdout(key_file):
    record = {"id": "s1", "text": "Fax: (416) 943-8331. Email ora.h@example.org"}
    proc = spacy_deid(
        "run", "-", "-", "--key-file", str(key_file), stdin=json.dumps(record) + "\n"
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["id"] == "s1"
    assert "943-8331" not in out["text"] and "ora.h@example.org" not in out["text"]
    assert {s["label"] for s in out["spans"]} >= {"FAX", "EMAIL"}


def test_text_folder_in_folder_out(tmp_path, key_file):
    src = tmp_path / "notes"
    (src / "sub").mkdir(parents=True)
    (src / "one.txt").write_text("Dr. Whalen saw the patient on 09/14/2067.")
    (src / "sub" / "two.txt").write_text("MRN: 7194334")
    (src / "bad.txt").write_bytes(b"caf\xe9 MRN: 1234567")
    out = tmp_path / "out"
    proc = spacy_deid(
        "run", str(src), str(out), "--key-file", str(key_file), "--model", "en_rules"
    )
    assert proc.returncode == 3
    assert "'bad'" in proc.stderr
    assert "Whalen" not in (out / "one.txt").read_text()
    assert "7194334" not in (out / "sub" / "two.txt").read_text()
    index = read_jsonl(out / "spans.jsonl")
    assert [r["id"] for r in index] == ["one", "sub/two"]


def test_failing_component_fails_closed(tmp_path):
    """A component that raises on one note rejects that note only."""
    code = """
import json, sys
import spacy
from spacy.language import Language
from spacy_deid.io.records import Record
from spacy_deid.run.runner import deidentify_items

@Language.component("boom_on_marker")
def boom(doc):
    if "BOOM" in doc.text:
        raise ValueError("secret " + doc.text)
    return doc

nlp = spacy.load("spacy_deid")
nlp.add_pipe("boom_on_marker", first=True)
records = [Record(i, str(i), t) for i, t in enumerate(["Dr. Whalen", "BOOM Dr. Whalen", "MRN: 7194334"])]
for n in (1, 2):
    outs = list(deidentify_items(nlp, records, n_process=n, batch_size=2))
    print(json.dumps([[type(o).__name__, o.id, getattr(o, "error", "")] for o in outs]))
"""
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        outs = json.loads(line)
        assert [o[:2] for o in outs] == [
            ["Result", "0"],
            ["Rejected", "1"],
            ["Result", "2"],
        ]
        assert "secret" not in outs[1][2] and "Whalen" not in outs[1][2]


def test_missing_input_and_unusable_pipeline(tmp_path):
    proc = spacy_deid("run", str(tmp_path / "nope.jsonl"), str(tmp_path / "o.jsonl"))
    assert proc.returncode == 1 and "Input not found" in proc.stderr
    assert "Traceback" not in proc.stderr
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("phi_surrogates")
    nlp.add_pipe("phi_rules")
    nlp.to_disk(tmp_path / "misordered")
    record = json.dumps({"id": "a", "text": "Dr. Whalen saw pt on 09/14/2067."})
    proc = spacy_deid(
        "run", "-", "-", "--model", str(tmp_path / "misordered"), stdin=record
    )
    assert proc.returncode == 1 and "Whalen" not in proc.stdout


def test_run_es_meddocan_tag():
    """The Spanish pipeline tags with MEDDOCAN types and passes the
    fail-closed output check."""
    record = {"id": "es-1", "text": ES_NOTE, "patient": "P1"}
    proc = spacy_deid(
        "run",
        "-",
        "-",
        "--model",
        "es_meddocan",
        "--mode",
        "tag",
        stdin=json.dumps(record) + "\n",
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["spans"], "the tagger found nothing"
    for span in out["spans"]:
        assert span["label"] in MEDDOCAN_LABELS
        assert f"[{span['label']}]" in out["text"]
    assert "14/03/2017" not in out["text"]
    assert "Ferrer" not in proc.stderr and "Teruel" not in proc.stderr


def test_run_es_meddocan_surrogate(tmp_path, key_file):
    src = tmp_path / "in.jsonl"
    records = [
        {"id": "es-1", "text": ES_NOTE, "patient": "P1"},
        {"id": "es-2", "text": "Ingresó el 2 de abril de 2017.", "patient": "P1"},
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in records))
    outs = []
    for n in ("1", "2"):
        out = tmp_path / f"out{n}.jsonl"
        proc = spacy_deid(
            "run",
            str(src),
            str(out),
            "--model",
            "es_meddocan",
            "--key-file",
            str(key_file),
            "--with-offsets",
            "--n-process",
            n,
            "--batch-size",
            "1",
        )
        assert proc.returncode == 0, proc.stderr
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    for record, line in zip(records, outs[0].splitlines(), strict=True):
        result = json.loads(line)
        for span in result["spans"]:
            assert span["label"] in MEDDOCAN_LABELS
            original = record["text"][span["start"] : span["end"]]
            assert result["text"][span["out_start"] : span["out_end"]] != original


def test_help_texts_hold_no_rich_markup_that_would_vanish():
    """Rich reads `[word]` in a help text as a markup tag and drops it
    (`spacy-deid vectors --help` once lost "[initialize]"): no command's
    help or option help may hold one."""
    import re

    import typer.main

    from spacy_deid.cli import app

    tag = re.compile(r"\[/?[A-Za-z_][\w .=#-]*\]")
    command = typer.main.get_command(app)
    for name, sub in command.commands.items():
        texts = [sub.help or ""] + [getattr(p, "help", None) or "" for p in sub.params]
        for text in texts:
            assert not tag.search(text), name


def test_vectors_help_names_the_initialize_block():
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    result = CliRunner().invoke(app, ["vectors", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "initialize block" in result.output


def test_the_console_command_freezes_the_collector_at_exit(monkeypatch):
    """`main` (the console script) freezes what is left at exit, so that the
    collector's pass at exit skips the pipeline; `app`, run inside another
    program, does not touch the collector."""
    import gc

    import spacy_deid.cli as cli

    registered, ran = [], []
    monkeypatch.setattr(cli.atexit, "register", registered.append)
    monkeypatch.setattr(cli, "app", lambda: ran.append(True))
    cli.main()
    assert registered == [gc.freeze] and ran == [True]
