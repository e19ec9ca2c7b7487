"""`spacy-deid run --known-phi FILE` and `--recall-bias`."""

import json
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span
from typer.testing import CliRunner

import spacy_deid.known.component  # noqa: F401  (registers "phi_known")
from spacy_deid.cli import app

FIRST, LAST = "Zarqowitz", "Ulvenhart"
NAME = {"text": f"{FIRST} {LAST}", "label": "PATIENT"}
MRN = {"text": "0044172", "label": "MEDICALRECORD"}


class FakeBiasedTagger:
    """Stands in for a tagger with a recall_bias setting: marks "zzqx" as an
    IDNUM only when cfg["recall_bias"] > 1."""

    def __init__(self, recall_bias: float) -> None:
        self.cfg = {"recall_bias": recall_bias}

    def __call__(self, doc):
        if self.cfg["recall_bias"] > 1:
            doc.ents = [
                Span(doc, t.i, t.i + 1, "IDNUM") for t in doc if t.text == "zzqx"
            ]
        return doc


@Language.factory("test_fake_biased_tagger", default_config={"recall_bias": 0.0})
def make_fake_biased_tagger(nlp, name, recall_bias):
    return FakeBiasedTagger(recall_bias)


def save_pipeline(path: Path, *components: str) -> str:
    nlp = spacy.blank("en")
    for name in components:
        nlp.add_pipe(name)
    nlp.add_pipe("phi_surrogates")
    nlp.to_disk(path)
    return str(path)


@pytest.fixture(scope="module")
def blank_model(tmp_path_factory) -> str:
    """A pipeline that finds nothing by itself: only known PHI is marked."""
    return save_pipeline(tmp_path_factory.mktemp("blank") / "nlp")


def write_jsonl(path: Path, rows) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf8")
    return str(path)


def run(*args: str):
    return CliRunner().invoke(app, ["run", *args, "--mode", "tag", "--no-progress"])


def read_out(path: Path):
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines())}


def test_known_phi_file(tmp_path, blank_model):
    note = f"{FIRST} {LAST}, MRN 44172, seen."
    records = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "a", "patient": "p1", "text": note},
            {"id": "b", "patient": "p1", "text": f"{LAST.upper()}, {FIRST}."},
            {"id": "c", "patient": "p2", "text": note},
            {"id": "d", "patient": "p2", "text": note},
            {"id": "e", "text": f"{LAST} again", "known_phi": [NAME]},
        ],
    )
    known = write_jsonl(
        tmp_path / "known.jsonl",
        [
            {"patient": "p1", "known_phi": [NAME]},
            {"patient": "p1", "known_phi": [MRN]},
            {"id": "d", "known_phi": [NAME]},
        ],
    )
    out = tmp_path / "out.jsonl"
    result = run(records, str(out), "--model", blank_model, "--known-phi", known)
    assert result.exit_code == 0, result.output
    rows = read_out(out)
    assert rows["a"]["text"] == "[PATIENT], MRN [MEDICALRECORD], seen."
    assert rows["b"]["text"] == "[PATIENT]."
    assert rows["c"]["text"] == note  # another patient, nothing known
    assert rows["d"]["text"] == "[PATIENT], MRN 44172, seen."  # by record id
    assert rows["e"]["text"] == "[PATIENT] again"  # the record's own list
    assert FIRST not in result.output and LAST not in result.output


@pytest.mark.parametrize(
    "line,message",
    [
        ("{not json", "invalid JSON"),
        (json.dumps({"known_phi": [NAME]}), "give either 'patient' or 'id'"),
        (json.dumps({"patient": "p", "id": "a", "known_phi": [NAME]}), "either"),
        (json.dumps({"patient": ["p"], "known_phi": [NAME]}), "'patient' is not"),
        (json.dumps({"patient": "p"}), "no 'known_phi' field"),
        (json.dumps({"patient": "p", "known_phi": NAME}), "known_phi is dict"),
        (json.dumps({"id": 3, "known_phi": [{"text": FIRST}]}), "has no 'label'"),
    ],
)
def test_bad_known_phi_file(tmp_path, blank_model, line, message):
    records = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "x"}])
    known = tmp_path / "known.jsonl"
    known.write_text(json.dumps({"patient": "p", "known_phi": [NAME]}) + "\n\n" + line)
    out = tmp_path / "out.jsonl"
    result = run(records, str(out), "--model", blank_model, "--known-phi", str(known))
    assert result.exit_code == 1
    assert "line 3" in result.output and message in result.output
    assert FIRST not in result.output
    assert not out.exists()  # nothing was processed


def test_recall_bias(tmp_path):
    model = save_pipeline(tmp_path / "nlp", "test_fake_biased_tagger")
    records = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "code zzqx"}])
    texts = []
    for extra in ([], ["--recall-bias", "2.5"], ["--recall-bias", "0.5"]):
        out = tmp_path / "out.jsonl"
        result = run(records, str(out), "--model", model, *extra)
        assert result.exit_code == 0, result.output
        texts.append(read_out(out)["a"]["text"])
    assert texts == ["code zzqx", "code [IDNUM]", "code zzqx"]


def test_recall_bias_needs_a_component_with_it(tmp_path, blank_model):
    records = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "x"}])
    out = tmp_path / "out.jsonl"
    result = run(records, str(out), "--model", blank_model, "--recall-bias", "1.0")
    assert result.exit_code == 2
    assert "recall_bias" in result.output
    model = save_pipeline(tmp_path / "nlp", "test_fake_biased_tagger")
    result = run(records, str(out), "--model", model, "--recall-bias", "nan")
    assert result.exit_code == 2
    assert "finite" in result.output
