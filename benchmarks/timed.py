"""Run a command and write its wall time to a JSON file (training time for the
comparison tables).

    python benchmarks/timed.py OUT.json COMMAND [ARGS ...]

Writes `{"seconds": ..., "command": [...], "returncode": ...}` to OUT.json
(parent folders made) and exits with the command's status. A leading
`python` runs with this interpreter, as `spacy project run` does.
`benchmarks/hmm_comparison.py` reads the file from a model's training folder.
"""

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence

FILE_NAME = "train_time.json"


def resolve(command: Sequence[str]) -> List[str]:
    """The command, with a leading `python` as this interpreter."""
    args = list(command)
    if args and args[0] in ("python", "python3"):
        args[0] = sys.executable
    return args


def run_timed(out: Path, command: Sequence[str]) -> int:
    """Run the command and write its wall time to `out`.

    out (Path): The JSON file to write.
    command (Sequence[str]): The command and its arguments.
    RETURNS (int): The command's exit status.
    """
    args = resolve(command)
    start = time.perf_counter()
    returncode = subprocess.call(args)
    seconds = time.perf_counter() - start
    record = {"seconds": round(seconds, 3), "command": list(command)}
    record["returncode"] = returncode
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return returncode


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2:
        sys.exit("usage: python benchmarks/timed.py OUT.json COMMAND [ARGS ...]")
    sys.exit(run_timed(Path(args[0]), args[1:]))


if __name__ == "__main__":
    main()
