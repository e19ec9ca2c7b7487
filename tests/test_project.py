"""Smoke test of the `spacy project` workflow: a CI-sized run of `all`.

Tiny synthetic English corpus, a tiny invented MEDDOCAN-style Spanish corpus
(the real MEDDOCAN data is not needed), a few training steps: checks that every
step runs and writes what the next one needs, not the accuracy of the models.
"""

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from .conftest import ROOT

# Invented Spanish values (no real people or records).
NOMBRES = ["Lucía", "Mateo", "Carmen", "Javier", "Elena", "Andrés", "Rocío", "Tomás"]
APELLIDOS = ["Ferrán", "Quesada", "Olmedo", "Barrio", "Salcedo", "Iriarte", "Montoya"]
LUGARES = ["Zaragoza", "Cáceres", "Lugo", "Alicante", "Soria", "Huesca", "Getafe"]

Part = Tuple[str, str]  # (label or "", text)


def _note(rng: random.Random) -> List[Part]:
    paciente = f"{rng.choice(NOMBRES)} {rng.choice(APELLIDOS)} {rng.choice(APELLIDOS)}"
    medico = f"{rng.choice(NOMBRES)} {rng.choice(APELLIDOS)}"
    fecha = (
        f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(2010, 2019)}"
    )
    edad = f"{rng.randint(18, 90)} años"
    parts = [
        ("", "Nombre: "),
        ("NOMBRE_SUJETO_ASISTENCIA", paciente),
        ("", ".\nFecha de ingreso: "),
        ("FECHAS", fecha),
        ("", ".\nLocalidad: "),
        ("TERRITORIO", rng.choice(LUGARES)),
        ("", ".\n"),
    ]
    body = [
        [
            ("", "Paciente de "),
            ("EDAD_SUJETO_ASISTENCIA", edad),
            ("", " que acude a urgencias por dolor abdominal."),
        ],
        [
            ("", "Remitido desde "),
            ("TERRITORIO", rng.choice(LUGARES)),
            ("", " para estudio de anemia."),
        ],
        [("", "Sin antecedentes de interés. Tensión arterial normal.")],
        [
            ("", "Valorado en consulta por "),
            ("NOMBRE_PERSONAL_SANITARIO", medico),
            ("", " el "),
            ("FECHAS", fecha),
            ("", "."),
        ],
    ]
    rng.shuffle(body)
    for sentence in body[: rng.randint(2, 4)]:
        parts += sentence + [("", "\n")]
    return parts


def _record(note_id: str, parts: List[Part]) -> Dict:
    text, spans = "", []
    for label, chunk in parts:
        if label:
            spans.append(
                {"start": len(text), "end": len(text) + len(chunk), "label": label}
            )
        text += chunk
    return {"id": note_id, "text": text, "spans": spans}


def write_meddocan_style(directory: Path, n_train: int = 24, n_dev: int = 10) -> None:
    """Write an invented MEDDOCAN-style train.jsonl and dev.jsonl."""
    rng = random.Random(7)
    directory.mkdir(parents=True)
    for split, n in (("train", n_train), ("dev", n_dev)):
        with (directory / f"{split}.jsonl").open("w", encoding="utf-8") as f:
            for i in range(n):
                record = _record(f"{split}-{i:03d}", _note(rng))
                f.write(json.dumps(record, ensure_ascii=False) + "\n")


VARS = {
    "synth_train": 60,
    "synth_dev": 20,
    "max_steps": 20,
    "finetune_steps": 10,
    "meddocan_max_steps": 20,
    "eval_frequency": 10,
    "meddocan_dir": "../data/meddocan",
    "crf_train_notes": 30,
    "crf_max_iterations": 5,
    "hybrid_shuffles": 99,
}


def run_project(project: Path, target: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "spacy", "project", "run", target, str(project)]
    for key, value in VARS.items():
        cmd += [f"--vars.{key}", str(value)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=project)


def check_scores(path: Path) -> Dict:
    scores = json.loads(path.read_text())
    for key in ("strict", "relaxed", "token", "binary_token"):
        for scope in (scores, scores["hipaa"]):
            for avg in ("micro", "macro"):
                assert set(scope[key][avg]) >= {"precision", "recall", "f1"}
                for measure in ("precision", "recall", "f1"):
                    value = scope[key][avg][measure]
                    assert value is None or 0.0 <= value <= 1.0
    return scores


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("workflow")
    project = root / "project"
    project.mkdir()
    shutil.copy(ROOT / "project.yml", project / "project.yml")
    shutil.copytree(ROOT / "configs", project / "configs")
    shutil.copytree(ROOT / "benchmarks", project / "benchmarks")
    (project / "assets").mkdir()
    write_meddocan_style(root / "data" / "meddocan")
    proc = run_project(project, "all")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return project


def test_project_corpora(project):
    for name, n in (("synth_train", 60), ("synth_dev", 20)):
        lines = (project / "assets" / f"{name}.jsonl").read_text().splitlines()
        assert len(lines) == n
    train_ids = {
        json.loads(line)["id"]
        for line in (project / "assets" / "synth_train.jsonl").read_text().splitlines()
    }
    dev_ids = {
        json.loads(line)["id"]
        for line in (project / "assets" / "synth_dev.jsonl").read_text().splitlines()
    }
    assert not train_ids & dev_ids


def test_project_rules(project):
    assert (project / "training" / "en_rules" / "config.cfg").exists()
    scores = check_scores(project / "metrics" / "synth_dev_scores.json")
    assert scores["binary_token"]["micro"]["precision"] > 0.8


@pytest.mark.parametrize(
    "ner,pipeline,metrics,labels",
    [
        ("ner_en", "deid_en", "en_dev_scores.json", {"DATE"}),
        (
            "ner_meddocan",
            "deid_es",
            "meddocan_dev_scores.json",
            {
                "NOMBRE_SUJETO_ASISTENCIA",
                "FECHAS",
                "TERRITORIO",
                "EDAD_SUJETO_ASISTENCIA",
            },
        ),
    ],
)
def test_project_trained(project, ner, pipeline, metrics, labels):
    import spacy

    training = project / "training"
    assert (training / f"{ner}.cfg").exists()
    for model in ("model-best", "model-last"):
        assert (training / ner / model / "phi_ner").is_dir()
    for directory in (pipeline, f"{pipeline}_scored"):
        nlp = spacy.load(training / directory)
        assert "phi_ner" in nlp.pipe_names
        assert "phi_surrogates" in nlp.pipe_names
        assert labels <= set(nlp.get_pipe("phi_ner").labels)
    check_scores(project / "metrics" / metrics)
    if ner == "ner_en":  # the hand-written notes outside the generator
        scores = check_scores(project / "metrics" / "en_handwritten_scores.json")
        assert scores["binary_token"]["micro"]["recall"] > 0.0


def test_project_finetuned(project):
    import spacy

    nlp = spacy.load(project / "training" / "ner_en_ft" / "model-best")
    trained = spacy.load(project / "training" / "ner_en" / "model-best")
    assert nlp.get_pipe("phi_ner").labels == trained.get_pipe("phi_ner").labels
    assert (project / "training" / "ner_en_ft" / "train_log.jsonl").exists()


@pytest.mark.parametrize("package", ["en_deid", "es_deid_meddocan"])
def test_project_packages(project, package):
    import spacy

    root = project / "packages" / f"{package}-0.1.0"
    meta = json.loads((root / "meta.json").read_text())
    assert any(req.startswith("spacy-deid") for req in meta["requirements"])
    assert list((root / "dist").glob(f"{package}-0.1.0.tar.gz"))
    nlp = spacy.load(root / package / f"{package}-0.1.0")
    assert "phi_ner" in nlp.pipe_names


def test_project_hybrid_table(project):
    for model in ("crf_en", "crf_meddocan"):
        assert (project / "training" / model / "model-best" / "phi_crf").is_dir()
        timing = project / "training" / model / "train_time.json"
        assert json.loads(timing.read_text())["seconds"] > 0
    table = json.loads((project / "metrics" / "hybrid_table.json").read_text())
    for lang in ("en", "es"):
        scores = table[lang]["scores"]
        assert {"rules", "phi_ner", "phi_crf", "merge union"} <= set(scores)
        assert "merge vote + consistency" in scores
        assert all(0.0 <= row["strict_f1"] <= 1.0 for row in scores.values())
        assert all(0.0 < test["strict_f1_p"] <= 1.0 for test in table[lang]["tests"])


def test_project_rerun_skips(project):
    proc = run_project(project, "all")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for name in (
        "synth",
        "train-en",
        "assemble-en",
        "evaluate-en",
        "train-meddocan",
        "assemble-es",
        "evaluate-meddocan",
    ):
        assert f"Skipping '{name}'" in proc.stdout, name
