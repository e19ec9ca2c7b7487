"""Where a shipped pipeline comes from, for its meta.json: how the tagger was
trained (corpus file names and reader settings, seed, steps, weights digest),
its dev scores, and the digests of the files it was built from. Paths are
reduced to names: no build machine layout and no corpus contents."""

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import srsly
from spacy.language import Language
from spacy.util import load_config

HEADLINE_LEVELS = ("strict", "relaxed", "token", "binary_token")
HEADLINE_MEASURES = ("precision", "recall", "f1")


def training_record(
    ner_dir: Path,
    ner_nlp: Language,
    source_name: str,
    log: Optional[Path],
    corpus: str,
) -> Dict[str, Any]:
    """How the tagger was trained, for meta.json (no corpus contents).

    ner_dir (Path): The `spacy train` output.
    ner_nlp (Language): The loaded NER pipeline.
    source_name (str): Its phi_ner component.
    log (Optional[Path]): The training log.
    corpus (str): Describes the training corpus.
    RETURNS (Dict[str, Any]): The record.
    """
    config = load_config(ner_dir / "config.cfg", interpolate=True)
    training = config.get("training", {})
    steps = read_training_log(log) if log is not None else {}
    return {
        "corpus": corpus_record(config, corpus),
        "seed": config.get("system", {}).get("seed", training.get("seed")),
        "max_steps": training.get("max_steps"),
        "max_epochs": training.get("max_epochs"),
        "eval_frequency": training.get("eval_frequency"),
        "steps": steps.get("steps"),
        "best_step": steps.get("best_step"),
        "ner": {
            "source": display_path(ner_dir),
            "component": source_name,
            "labels": list(ner_nlp.get_pipe(source_name).labels),
            "config": file_record(ner_dir / "config.cfg"),
            "weights_sha256": sha256(ner_dir / source_name / "model"),
            "training_config": sanitize_config(config),
        },
        "ner_dev_scores": ner_nlp.meta.get("performance", {}),
    }


def corpus_record(config: Dict[str, Any], description: str) -> Dict[str, Any]:
    """The training corpus: description, file names and reader settings."""
    record: Dict[str, Any] = {"description": description}
    corpora = config.get("corpora", {})
    for split in ("train", "dev"):
        reader = dict(corpora.get(split, {}))
        path = reader.pop("path", None)
        record[split] = Path(path).name if path else None
        record[f"{split}_reader"] = reader
    return record


def sanitize_config(config: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of a config with file paths reduced to file names."""
    out: Dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, dict):
            out[key] = sanitize_config(value)
        elif isinstance(value, str) and ("/" in value or "\\" in value):
            out[key] = Path(value).name
        else:
            out[key] = value
    return out


def read_training_log(path: Path) -> Dict[str, Optional[int]]:
    """The number of steps run and the step of the best score, from a
    `spacy train` console log or a JSONL log (spacy.ConsoleLogger output_file).

    path (Path): The log.
    RETURNS (Dict[str, Optional[int]]): "steps" (the last step evaluated) and
        "best_step"; None when the log is missing or has no evaluations.
    """
    rows: List[Tuple[int, Tuple[float, ...]]] = []
    if not path.is_file():
        print(
            f"Warning: no training log at {path}; steps not recorded", file=sys.stderr
        )
        return {"steps": None, "best_step": None}
    row_re = re.compile(r"^\s*\d+\s+(\d+)\s+.*?(\d+(?:\.\d+)?)\s*$")
    for line in path.read_text(encoding="utf8", errors="replace").splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)
        if line.lstrip().startswith("{"):
            try:
                data = json.loads(line)
                rows.append((int(data["step"]), (float(data["score"]),)))
            except (ValueError, KeyError, TypeError):
                continue
        elif (match := row_re.match(line)) is not None:
            # The console SCORE is rounded to 2 decimals: break ties by the
            # first score column (E, #, one loss, then the scores).
            numbers = [float(x) for x in line.split()]
            first = numbers[3] if len(numbers) > 4 else 0.0
            rows.append((int(match.group(1)), (float(match.group(2)), first)))
    if not rows:
        return {"steps": None, "best_step": None}
    best = max(rows, key=lambda row: row[1])
    return {"steps": rows[-1][0], "best_step": best[0]}


def headline_scores(path: Path) -> Dict[str, Any]:
    """The headline scores of `spacy-deid evaluate --json`: micro precision,
    recall and F1 at each level, the label scheme and the leak rate.

    path (Path): The JSON file.
    RETURNS (Dict[str, Any]): The scores.
    """
    data = srsly.read_json(path)
    record: Dict[str, Any] = {
        "file": path.name,
        "labels": data.get("labels"),
        "notes": data.get("notes"),
    }
    for level in HEADLINE_LEVELS:
        try:
            micro = data[level]["micro"]
            record[level] = {key: micro[key] for key in HEADLINE_MEASURES}
        except (KeyError, TypeError):
            raise ValueError(
                f"{path} is not a `spacy-deid evaluate --json` result "
                f"(no {level} micro scores)"
            ) from None
    leak = data.get("leak", {}).get("overall", {})
    record["leak_rate"] = leak.get("rate")
    return record


def file_record(path: Path) -> Dict[str, str]:
    """A file's name and SHA-256."""
    return {"file": path.name, "sha256": sha256(path)}


def sha256(path: Path) -> str:
    """The SHA-256 hex digest of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def display_path(path: Path) -> str:
    """A path relative to the working directory when inside it, else its last
    two parts (no build machine layout in the shipped meta)."""
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(Path(*resolved.parts[-2:]))
