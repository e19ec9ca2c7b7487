"""Smoke test of the `spacy project` workflow on a tiny generated corpus."""

import json
import shutil
import subprocess
import sys

from .conftest import ROOT


def test_project_run_all(tmp_path):
    shutil.copy(ROOT / "project.yml", tmp_path / "project.yml")
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    (tmp_path / "assets").mkdir()
    cmd = [sys.executable, "-m", "spacy", "project", "run", "all", str(tmp_path)]
    cmd += ["--vars.synth_train", "30", "--vars.synth_dev", "15"]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (tmp_path / "corpus" / "synth_train.spacy").exists()
    assert (tmp_path / "training" / "en_rules" / "config.cfg").exists()
    scores = json.loads((tmp_path / "metrics" / "synth_dev_scores.json").read_text())
    for key in ("strict", "relaxed", "token", "binary_token"):
        for scope in (scores, scores["hipaa"]):
            for avg in ("micro", "macro"):
                assert set(scope[key][avg]) >= {"precision", "recall", "f1"}
    assert scores["binary_token"]["micro"]["precision"] > 0.8
