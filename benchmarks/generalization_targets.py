"""The English generalization targets: each figure, its target, PASS or FAIL.

    python benchmarks/generalization_targets.py \
        --en-notes ../shared/data/en_notes/docs.jsonl --test en_test.jsonl \
        [--model en] [--key-file KEY] [--keep DIR]

For each gold set it runs the commands a user would (`spacy-deid run` in tag
mode and in surrogate mode with one fixed key, then `spacy-deid evaluate` and
`spacy-deid audit`, each with `--json`) and prints strict micro F1, binary
PHI-token precision and recall and the share of gold PHI strings left
verbatim in the surrogate output, then the targets:

- `en_notes` (notes written outside this repository): bin-tok R >= 0.98,
  P >= 0.92, strict F1 >= 0.85, leaked <= 1%;
- the generator's test split (`spacy-deid synth 500 en_test.jsonl --seed 3
  --split test`): bin-tok R >= 0.99, strict F1 >= 0.90.

The key is generated for the run unless `--key-file` gives one (the leak
figure then varies a little from run to run: a surrogate can happen to
equal another gold string). `--keep DIR` keeps the runs' files there.
Only figures are printed, never note text. MEDDOCAN and speed targets are
printed by `accuracy_speed.py` and `throughput.py`.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence


class Target(NamedTuple):
    """One target: the set, the figure's name, and its bound."""

    data: str
    figure: str
    bound: float
    at_most: bool = False


TARGETS: List[Target] = [
    Target("en_notes", "bin_tok_r", 0.98),
    Target("en_notes", "bin_tok_p", 0.92),
    Target("en_notes", "strict_f1", 0.85),
    Target("en_notes", "leaked", 0.01, at_most=True),
    Target("test", "bin_tok_r", 0.99),
    Target("test", "strict_f1", 0.90),
]


def cli() -> List[str]:
    """The `spacy-deid` command of this interpreter's environment."""
    exe = Path(sys.executable).parent / "spacy-deid"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "spacy_deid.cli"]


def run(args: Sequence[str]) -> None:
    """Run one command; on failure name it, without its output (note text
    never reaches the console)."""
    done = subprocess.run(list(args), capture_output=True, text=True)
    if done.returncode not in (0, 4):  # audit exits 4 when anything leaked
        raise SystemExit(f"failed ({done.returncode}): {' '.join(args[:3])} ...")


def write_inputs(gold: Path, out: Path) -> None:
    """The gold notes' ids and texts: no gold spans, and no patient ids, so
    that `phi_consistency` works note by note as in the published figures
    (with the test split's patient ids it spreads names across notes)."""
    with gold.open(encoding="utf-8") as src, out.open("w", encoding="utf-8") as dst:
        for line in src:
            if line.strip():
                record = json.loads(line)
                dst.write(json.dumps({"id": record["id"], "text": record["text"]}) + "\n")


def measure(gold: Path, model: str, key: Path, folder: Path) -> Dict[str, float]:
    """Tag, de-identify, evaluate and audit one gold set."""
    base = cli()
    notes, tagged, deid = folder / "in.jsonl", folder / "tag.jsonl", folder / "sur.jsonl"
    scores, leaks = folder / "eval.json", folder / "audit.json"
    write_inputs(gold, notes)
    common = ["--model", model, "--no-progress"]
    run(base + ["run", str(notes), str(tagged), "--mode", "tag"] + common)
    run(
        base
        + ["run", str(notes), str(deid), "--mode", "surrogate", "--key-file", str(key)]
        + common
    )
    run(base + ["evaluate", str(gold), str(tagged), "--json", str(scores)])
    run(base + ["audit", str(gold), str(deid), "--json", str(leaks)])
    return figures(json.loads(scores.read_text()), json.loads(leaks.read_text()))


def figures(scores: Dict, leaks: Dict) -> Dict[str, float]:
    """The figures of the targets from `evaluate --json` and `audit --json`."""
    strict = scores["strict"]["micro"]
    binary = scores["binary_token"]["micro"]
    return {
        "strict_f1": strict["f1"],
        "bin_tok_p": binary["precision"],
        "bin_tok_r": binary["recall"],
        "leaked": leaks["overall"]["rate"],
    }


def verdicts(results: Dict[str, Dict[str, float]]) -> List[str]:
    """One line per target whose set was measured: figure, bound, PASS/FAIL."""
    lines = []
    for target in TARGETS:
        if target.data not in results:
            continue
        value = results[target.data][target.figure]
        ok = value <= target.bound if target.at_most else value >= target.bound
        sign = "<=" if target.at_most else ">="
        lines.append(
            f"{target.data:9} {target.figure:10} {value:.4f} {sign} {target.bound:.2f}"
            f"  {'PASS' if ok else 'FAIL'}"
        )
    return lines


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--en-notes", type=Path, help="en_notes gold JSONL")
    parser.add_argument("--test", type=Path, help="the generator's test split")
    parser.add_argument("--model", default="en")
    parser.add_argument("--key-file", type=Path, help="surrogate key (else a new one)")
    parser.add_argument("--keep", type=Path, help="keep the runs' files here")
    args = parser.parse_args(argv)
    sets = {"en_notes": args.en_notes, "test": args.test}
    sets = {name: path for name, path in sets.items() if path is not None}
    if not sets:
        parser.error("give --en-notes, --test or both")
    with tempfile.TemporaryDirectory(prefix="targets-") as tmp:
        root = args.keep or Path(tmp)
        key = args.key_file
        if key is None:
            key = root / "key.hex"
            root.mkdir(parents=True, exist_ok=True)
            run(cli() + ["keygen", str(key)])
        results = {}
        for name, gold in sets.items():
            folder = root / name
            folder.mkdir(parents=True, exist_ok=True)
            results[name] = measure(gold, args.model, key, folder)
    print(f"{'set':9} {'strict_f1':>9} {'bin_tok_p':>9} {'bin_tok_r':>9} {'leaked':>7}")
    for name, values in results.items():
        print(
            f"{name:9} {values['strict_f1']:9.4f} {values['bin_tok_p']:9.4f} "
            f"{values['bin_tok_r']:9.4f} {values['leaked']:7.2%}"
        )
    print()
    print("\n".join(verdicts(results)))


if __name__ == "__main__":
    main()
