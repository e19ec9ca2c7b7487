"""Every code example in README.md and docs/*.md runs as written.

The rules the documentation follows:

- A block fenced ```python is run, exactly as written. The blocks of one page
  share one namespace and one working directory, in page order, as a reader
  who pastes them one after the other would run them (the README's `as_tuples`
  block uses the `nlp` of the block before it). Each page starts in a fresh
  temporary directory holding what its blocks read: `examples/notes.jsonl`
  (the repository's fictional notes) and `deid.key` (written by the package's
  own `spacy-deid keygen`). A page whose blocks use `spark` also gets a
  `SparkSession` under the same conditions as `tests/test_spark.py` (skipped,
  with the reason, without pyspark, pyarrow or Java) and a Parquet folder
  `notes/` of the example notes with the columns the page names.
- A block that can only be illustrative (it needs Databricks' `dbutils`, a
  cluster, or files a reader has and we do not) is not fenced as ```python:
  use ```text.
- An ```ini block holding a whole config (an `[nlp]` section) must build a
  pipeline with `spacy.util.load_model_from_config`.
- Every `spacy-deid COMMAND` line of a ```bash block names a command of the
  CLI (the commands `spacy-deid --help` lists).

Parametrized by page and block index, so a failure names the block.
"""

import contextlib
import io
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

from .conftest import ROOT
from .extras import need

# pyspark warns that it does not fully support pandas 3 (as in test_spark.py).
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
USES_SPARK = re.compile(r"\bspark\.")


def code_blocks(page: Path, language: str) -> List[str]:
    """The blocks of one language in a page, in order.

    page (Path): A Markdown file.
    language (str): The fence's info string, e.g. "python".
    RETURNS (List[str]): The blocks' code.
    """
    text = page.read_text(encoding="utf-8")
    return [m.group(2) for m in FENCE.finditer(text) if m.group(1) == language]


def block_ids(language: str) -> List[Tuple[Path, int]]:
    return [
        (page, i) for page in PAGES for i in range(len(code_blocks(page, language)))
    ]


def _name(case: Tuple[Path, int]) -> str:
    return f"{case[0].relative_to(ROOT)}[{case[1]}]"


@dataclass
class PageRun:
    """One page's shared state: working directory, namespace, blocks run."""

    workdir: Path
    namespace: Dict[str, Any] = field(default_factory=dict)
    done: int = 0
    failed: Optional[int] = None
    spark: Any = None
    spark_env: Any = None


def _make_key(path: Path) -> None:
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    result = CliRunner().invoke(app, ["keygen", str(path)])
    assert result.exit_code == 0, result.output


def _notes() -> List[Dict[str, Any]]:
    path = ROOT / "examples" / "notes.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _start_spark(run: PageRun) -> None:
    """A local[2] session as `tests/test_spark.py` makes it, and `notes/`."""
    need("pyspark")
    need("pyarrow")
    from .test_spark import local_session, spark_workers_python

    env = spark_workers_python()
    env.__enter__()
    run.spark_env = env
    session = local_session("spacy-deid-docs")
    run.spark = session
    # Spark resolves a relative path against its file system's working
    # directory, not Python's: point it at the page's directory.
    _spark_workdir(session, run.workdir)
    rows = [
        (n["id"], n["patient"], n["text"], f"2067-09-{10 + i:02d}")
        for i, n in enumerate(_notes())
    ]
    schema = "note_id string, patient_id string, note_text string, note_date string"
    session.createDataFrame(rows, schema).write.parquet(str(run.workdir / "notes"))
    run.namespace["spark"] = session


def _spark_workdir(session: Any, path: Path) -> None:
    jvm = session.sparkContext._jvm
    conf = session.sparkContext._jsc.hadoopConfiguration()
    local = jvm.org.apache.hadoop.fs.FileSystem.getLocal(conf)
    local.setWorkingDirectory(jvm.org.apache.hadoop.fs.Path(str(path)))


def _stop(run: PageRun) -> None:
    if run.spark is not None:
        _spark_workdir(run.spark, Path.cwd())
        run.spark.stop()
    if run.spark_env is not None:
        run.spark_env.__exit__(None, None, None)
    shutil.rmtree(run.workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def page_runs():
    runs: Dict[Path, PageRun] = {}
    yield runs
    for run in runs.values():
        _stop(run)


def _page_run(runs: Dict[Path, PageRun], page: Path) -> PageRun:
    if page not in runs:
        workdir = Path(tempfile.mkdtemp(prefix="docs-"))
        (workdir / "examples").mkdir()
        shutil.copy(ROOT / "examples" / "notes.jsonl", workdir / "examples")
        _make_key(workdir / "deid.key")
        runs[page] = PageRun(workdir, {"__name__": "__docs__"})
    return runs[page]


def _exec(run: PageRun, code: str, label: str) -> None:
    previous = os.getcwd()
    os.chdir(run.workdir)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, label, "exec"), run.namespace)
    finally:
        os.chdir(previous)


@pytest.mark.parametrize("case", block_ids("python"), ids=_name)
def test_python_block_runs(case, page_runs):
    page, index = case
    blocks = code_blocks(page, "python")
    run = _page_run(page_runs, page)
    if run.spark is None and any(USES_SPARK.search(b) for b in blocks[: index + 1]):
        _start_spark(run)
    # The page's earlier blocks run first, so one block can be run alone (-k).
    while run.done <= index:
        i = run.done
        if run.failed is not None:
            pytest.fail(f"{_name((page, run.failed))} failed, so this block cannot run")
        try:
            _exec(run, blocks[i], _name((page, i)))
        except BaseException:
            run.failed = i
            raise
        run.done = i + 1


@pytest.mark.parametrize("case", block_ids("ini"), ids=_name)
def test_ini_config_builds(case):
    from spacy.util import load_config_from_str, load_model_from_config

    page, index = case
    text = code_blocks(page, "ini")[index]
    if not re.search(r"^\[nlp\]", text, re.M):
        pytest.skip("a fragment of a config, not a whole one")
    nlp = load_model_from_config(load_config_from_str(text), auto_fill=True)
    assert nlp.pipe_names


@pytest.fixture(scope="module")
def cli_commands() -> set:
    import typer

    from spacy_deid.cli import app

    group = typer.main.get_command(app)
    return set(group.commands)


@pytest.mark.parametrize("case", block_ids("bash"), ids=_name)
def test_bash_block_names_real_commands(case, cli_commands):
    page, index = case
    text = code_blocks(page, "bash")[index]
    used = re.findall(r"(?:^|[;&|]\s*)spacy-deid\s+([\w-]+)", text, re.M)
    unknown = sorted(set(used) - cli_commands)
    assert not unknown, f"not spacy-deid commands: {unknown}"


def test_the_rules_find_blocks():
    assert block_ids("python") and block_ids("bash")
    assert code_blocks(ROOT / "README.md", "python")
