"""Smoke test of `benchmarks/hmm_comparison.py` and `benchmarks/timed.py`:
tiny models trained here from the project's configs, a few generated notes
(no figure asserted)."""

import importlib
import json
import sys

import pytest
from spacy.training.initialize import init_nlp
from spacy.util import load_config

from spacy_deid.corpus import Note, write_jsonl
from spacy_deid.synth import generate

from .conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
# Small enough to train in a second or two (sub-tags, EM and L-BFGS steps).
HMM_OVERRIDES = {
    "components.phi_hmm.model.n_subtags_o": 2,
    "components.phi_hmm.model.n_subtags_phi": 1,
    "components.phi_hmm.model.max_iterations": 2,
}
CRF_OVERRIDES = {"components.phi_crf.max_iterations": 3}


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("hmm_comparison")


@pytest.fixture(scope="module")
def notes_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("hmm_notes") / "notes.jsonl"
    write_jsonl(list(generate(6, seed=1, split="train")), path)
    return path


def train(config: str, notes_path, output, overrides) -> None:
    """`spacy train` in process: initialize (where these models train) and
    save as `model-best` of a training folder."""
    paths = {"paths.train": str(notes_path), "paths.dev": str(notes_path)}
    config = load_config(ROOT / "configs" / config, overrides={**paths, **overrides})
    nlp = init_nlp(config)
    output.mkdir(parents=True)
    nlp.to_disk(output / "model-best")


@pytest.fixture(scope="module")
def trained(tmp_path_factory, notes_path):
    root = tmp_path_factory.mktemp("hmm_models")
    train("hmm_en.cfg", notes_path, root / "hmm", HMM_OVERRIDES)
    skipchain = {**HMM_OVERRIDES, "components.phi_skipchain.n_iter": 5}
    train("hmm_skipchain_en.cfg", notes_path, root / "skipchain", skipchain)
    if importlib.util.find_spec("pycrfsuite") is not None:
        train("crf_en.cfg", notes_path, root / "crf", CRF_OVERRIDES)
    (root / "skipchain" / "train_time.json").write_text('{"seconds": 12.5}')
    return root


def test_the_table_has_a_row_per_given_model(bench, trained, notes_path, capsys):
    argv = ["--en-sets", f"tiny={notes_path}", "--es-dev", str(notes_path)]
    argv += ["--hmm-en", str(trained / "hmm")]
    argv += ["--skipchain-en", str(trained / "skipchain")]
    if (trained / "crf").is_dir():
        argv += ["--crf-en", str(trained / "crf")]
    argv += ["--json", str(trained / "table.json")]
    out = bench.main(argv)
    printed = capsys.readouterr()
    assert "MEDDOCAN dev" not in out["sets"]  # no Spanish model given
    rows = out["sets"]["tiny"]["rows"]
    expected = {"HMM-DP", "HMM-DP + skip-chain"}
    if (trained / "crf").is_dir():
        expected.add("feature CRF")
    assert set(rows) == expected
    assert rows["HMM-DP + skip-chain"]["components"] == ["phi_hmm", "phi_skipchain"]
    assert rows["HMM-DP + skip-chain"]["train_s"] == 12.5
    assert rows["HMM-DP"]["train_s"] is None
    for row in rows.values():
        assert 0.0 <= row["strict_f1"] <= 1.0
        assert set(row["category_token_f1"]) == set(bench.CATEGORIES)
    for name in expected:
        assert f"| {name} " in printed.out
    assert "phi_ner" not in printed.out
    assert " 12 s |" in printed.out and "n/a" in printed.out
    assert json.loads((trained / "table.json").read_text())["sets"]["tiny"]
    first_lines = [n.text.strip().splitlines()[0] for n in generate(6, seed=1)]
    assert not any(line in printed.out + printed.err for line in first_lines if line)


def test_a_patients_notes_run_together(bench):
    notes = [
        Note(id="a1", text="x", patient="p1"),
        Note(id="b1", text="x", patient="p2"),
        Note(id="a2", text="x", patient="p1"),
        Note(id="c", text="x"),
    ]
    assert bench.patient_order(notes) == [0, 2, 1, 3]


def test_en_sets_need_a_name(bench):
    assert bench.parse_args(["--en-sets", "test=t.jsonl"]).en_sets[0][0] == "test"
    with pytest.raises(SystemExit):
        bench.parse_args(["--en-sets", "t.jsonl"])


def test_timed_writes_the_wall_time_and_passes_the_status(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    timed = importlib.import_module("timed")
    out = tmp_path / "run" / "train_time.json"
    assert timed.run_timed(out, ["python", "-c", "import sys; sys.exit(3)"]) == 3
    record = json.loads(out.read_text())
    assert record["returncode"] == 3 and record["seconds"] >= 0.0
    assert timed.resolve(["python", "-V"])[0] == sys.executable
