"""Start-up time of `spacy-deid run` on one note: the whole command, and
where one fresh process spends it.

    python benchmarks/startup.py [--model en] [--repeat 5] [--no-breakdown]

1. **Whole command.** Runs `spacy-deid run ONE.jsonl OUT.jsonl -k KEY
   --no-progress --model MODEL` on one generated note (`synth.generate(1,
   seed=7)`) as a subprocess `--repeat` times and prints the median wall time
   and the range. The target (issue 26) is at most 1.5 s.
2. **Breakdown of one fresh process** (a child process of this script): the
   imports (`spacy`, `spacy_deid`, `spacy_deid.cli` as the command imports
   it), opening the pipeline as the CLI does (`run.pipeline.open_pipeline`):
   the `Language` with its vocab and tokenizer, each component's creation
   and `from_disk`, the tokenizer cache's warm-up, the surrogate mode and
   key; then the first note and a second one through each component (the
   first note pays for what is compiled on first use).

Figures depend on the machine and its load: run it, read it, don't assert on
it. Never prints note text.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

START = time.perf_counter()
TARGET_S = 1.5


def write_inputs(folder: Path) -> None:
    """One generated note (ONE.jsonl), a second one (TWO.jsonl) and a key."""
    from spacy_deid.surrogates.keys import generate_key
    from spacy_deid.synth import generate

    first, second = list(generate(2, seed=7, split="all"))
    for name, note in (("one.jsonl", first), ("two.jsonl", second)):
        record = {"id": note.id, "text": note.text}
        (folder / name).write_text(json.dumps(record) + "\n", encoding="utf8")
    (folder / "key.hex").write_text(generate_key().hex() + "\n")


def whole_command(folder: Path, model: str, repeat: int) -> List[float]:
    """Wall seconds of `spacy-deid run` on one note, `repeat` times."""
    exe = Path(sys.executable).parent / "spacy-deid"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "spacy_deid.cli"]
    times = []
    for i in range(repeat):
        out = folder / f"out{i}.jsonl"
        args = command + ["run", str(folder / "one.jsonl"), str(out)]
        args += ["-k", str(folder / "key.hex"), "--no-progress", "--model", model]
        start = time.perf_counter()
        done = subprocess.run(args, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"spacy-deid run failed (exit {done.returncode})")
        out.unlink()
    return times


def breakdown(folder: Path, model: str) -> Dict[str, Any]:
    """Run the breakdown in a fresh child process; its timings."""
    args = [sys.executable, __file__, "--child", str(folder), "--model", model]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the breakdown process failed (exit {done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def child(folder: Path, model: str) -> None:
    """The breakdown: prints one JSON line of (step, seconds) pairs."""
    steps: List[List[Any]] = []
    mark = [START]

    def step(name: str) -> None:
        now = time.perf_counter()
        steps.append([name, now - mark[0]])
        mark[0] = now

    import spacy  # noqa: F401

    step("import spacy")
    import spacy_deid

    step("import spacy_deid")
    import spacy_deid.cli  # noqa: F401

    step("import spacy_deid.cli (every command)")
    from spacy.language import Language

    from spacy_deid.run import pipeline as run_pipeline
    from spacy_deid.text import tokenizer_cache

    step("import run.pipeline")
    inner: List[List[Any]] = []
    timed(Language, "__init__", "Language(): vocab + tokenizer", inner)
    timed(Language, "create_pipe", "create {name}", inner, name_arg=True)
    timed(Language, "from_disk", "from_disk (all)", inner)
    timed(tokenizer_cache, "warm_up", "tokenizer cache warm-up", inner)
    if hasattr(spacy_deid, "warm_up"):
        timed(spacy_deid, "warm_up", "tokenizer cache warm-up", inner)
    key = folder / "key.hex"
    nlp = run_pipeline.open_pipeline(model, "surrogate", key_file=key)
    step("open_pipeline (load, mode, key)")
    text = json.loads((folder / "one.jsonl").read_text())["text"]
    second = json.loads((folder / "two.jsonl").read_text())["text"]
    notes: List[List[Any]] = []
    for label, note in (("first note", text), ("second note", second)):
        t0 = time.perf_counter()
        doc = nlp.make_doc(note)
        notes.append([f"{label}: tokenizer", time.perf_counter() - t0])
        for name, proc in nlp.pipeline:
            t0 = time.perf_counter()
            doc = proc(doc)
            notes.append([f"{label}: {name}", time.perf_counter() - t0])
    step("first and second note")
    print(json.dumps({"steps": steps, "inner": inner, "notes": notes}))


def timed(owner: Any, attr: str, label: str, out: List, name_arg: bool = False) -> None:
    """Wrap `owner.attr` so that each call's seconds go to `out`."""
    original = getattr(owner, attr)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            name = label
            if name_arg:
                name = label.format(name=args[1] if len(args) > 1 else "?")
            out.append([name, time.perf_counter() - t0])

    def creating(*args: Any, **kwargs: Any) -> Any:
        pipe = wrapper(*args, **kwargs)
        if hasattr(pipe, "from_disk"):  # time this component's from_disk too
            try:
                timed(pipe, "from_disk", f"{args[1]}.from_disk", out)
            except (AttributeError, TypeError):  # a compiled class
                pass
        return pipe

    setattr(owner, attr, creating if name_arg else wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="en")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-breakdown", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child), args.model)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_inputs(folder)
        times = whole_command(folder, args.model, args.repeat)
        median = statistics.median(times)
        verdict = "PASS" if median <= TARGET_S else "FAIL"
        print(f"spacy-deid run, one note, --model {args.model}, {len(times)} runs")
        print(
            f"  median {median:.2f} s, range {min(times):.2f}-{max(times):.2f} s "
            f"(target <= {TARGET_S} s: {verdict})"
        )
        if args.no_breakdown:
            return
        result = breakdown(folder, args.model)
    print(f"One fresh process (cpus: {os.cpu_count()}), seconds:")
    for name, seconds in result["steps"]:
        print(f"  {seconds:7.3f}  {name}")
        if name.startswith("open_pipeline"):
            for inner, inner_s in result["inner"]:
                print(f"    {inner_s:7.3f}  {inner}")
        if name.startswith("first and second"):
            for inner, inner_s in result["notes"]:
                print(f"    {inner_s:7.3f}  {inner}")
    total = sum(seconds for _, seconds in result["steps"])
    print(f"  {total:7.3f}  total (after the interpreter's own start)")


if __name__ == "__main__":
    main()
