"""Every table's row for every key, as flat columns that load in a tenth of a second.

Reading the six gzip TSV tables into dicts takes a second or more, paid by every
process that asks `lookup` anything: the tagger's knowledge features, the safety
net. `columns.bin.gz` holds the same facts, precomputed from the shipped tables
(no download): the sorted 64-bit hashes of all keys and, per key, one column per
field (surname and given-name counts, population and country of the largest
place, region kinds, word frequency, drug kind). Loading is one decompression
and a few `array.frombytes`; a key is found by bisection on the hashes.
`python -m spacy_deid.knowledge.columns` rewrites the file after a table
changes (the build script does), and a test fails while it is stale.
"""

import gzip
import hashlib
import json
import sys
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

from .tables import DATA_DIR, LOOKUP_TABLES, load

COLUMNS_PATH = DATA_DIR / "columns.bin.gz"
# Region kinds, one bit each in the "regions" column.
REGION_KINDS = ("country", "country_code", "state", "state_code", "county")
DRUG_KINDS = ("", "brand", "generic", "combination")
# (column, array typecode): counts fit 32 bits, centibels and indexes 16, bits 8.
FIELDS = (
    ("surname", "I"), ("given_female", "I"), ("given_male", "I"),
    ("population", "I"), ("country", "H"), ("words", "H"), ("regions", "B"),
    ("drug", "B"),
)  # fmt: skip


class Row(NamedTuple):
    """One key's facts (zeros when a table does not hold it)."""

    surname: int = 0
    given_female: int = 0
    given_male: int = 0
    population: int = 0
    country: str = ""
    words: int = 0
    regions: Tuple[str, ...] = ()
    drug: str = ""


EMPTY = Row()


class Columns:
    """The loaded columns: key hashes, one array per field, country codes."""

    def __init__(self, hashes: array, columns: Dict[str, array], countries: List[str]):
        self.hashes = hashes
        self.columns = columns
        self.countries = countries

    def row(self, key: str) -> Row:
        """The facts of one folded key (`EMPTY` when no table holds it)."""
        h = key_hash(key)
        i = bisect_left(self.hashes, h)
        if i == len(self.hashes) or self.hashes[i] != h:
            return EMPTY
        c = self.columns
        bits = c["regions"][i]
        return Row(
            surname=c["surname"][i],
            given_female=c["given_female"][i],
            given_male=c["given_male"][i],
            population=c["population"][i],
            country=self.countries[c["country"][i]],
            words=c["words"][i],
            regions=tuple(k for n, k in enumerate(REGION_KINDS) if bits >> n & 1),
            drug=DRUG_KINDS[c["drug"][i]],
        )


_LOADED: Dict[str, Columns] = {}
_DEFAULT_KEY = str(COLUMNS_PATH)


def key_hash(key: str) -> int:
    """A stable 64-bit hash of a folded key (not Python's salted `hash`)."""
    digest = hashlib.blake2b(key.encode("utf8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def load_columns(path: Optional[Path] = None) -> Columns:
    """The shipped columns, read once per process.

    path (Optional[Path]): Another file (tests).
    RETURNS (Columns): The loaded columns.
    """
    # Called for every lookup: no Path object on the way to the cached one.
    key = _DEFAULT_KEY if path is None else str(path)
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _LOADED[key] = _read(Path(key))
    return loaded


def _read(path: Path) -> Columns:
    data = gzip.decompress(path.read_bytes())
    header_size = int.from_bytes(data[:4], "little")
    header = json.loads(data[4 : 4 + header_size])
    n, offset = header["n"], 4 + header_size
    arrays = {}
    for name, typecode in (("hashes", "Q"),) + FIELDS:
        values = array(typecode)
        size = n * values.itemsize
        values.frombytes(data[offset : offset + size])
        if sys.byteorder == "big":  # the file is little-endian everywhere
            values.byteswap()
        arrays[name] = values
        offset += size
    hashes = arrays.pop("hashes")
    return Columns(hashes, arrays, header["countries"])


def table_rows() -> Dict[str, Row]:
    """Every key of every shipped table with its facts, from the tables."""
    tables = {name: load(name) for name in LOOKUP_TABLES}
    keys = set().union(*tables.values())
    rows = {}
    for key in keys:
        given = tables["given"].get(key, (0, 0))
        place = tables["places"].get(key, (0, ""))
        rows[key] = Row(
            surname=tables["surnames"].get(key, 0),
            given_female=given[0],
            given_male=given[1],
            population=place[0],
            country=place[1],
            words=tables["words"].get(key, 0),
            regions=tuple(k for k in REGION_KINDS if k in _kinds(tables, key)),
            drug=tables["drugs"].get(key, ""),
        )
    return rows


def _kinds(tables: Dict[str, Dict], key: str) -> set:
    return {kind for kind, _ in tables["regions"].get(key, ())}


def write_columns(path: Path = COLUMNS_PATH) -> int:
    """Write the columns file from the shipped tables (same tables, same bytes).

    path (Path): The `.bin.gz` file to write.
    RETURNS (int): The number of keys written.
    """
    rows = table_rows()
    by_hash = sorted((key_hash(key), row) for key, row in rows.items())
    if len({h for h, _ in by_hash}) != len(by_hash):
        raise ValueError("two knowledge keys share a 64-bit hash")
    countries = [""] + sorted({row.country for row in rows.values()} - {""})
    index = {code: i for i, code in enumerate(countries)}
    arrays = [array("Q", (h for h, _ in by_hash))]
    for name, typecode in FIELDS:
        arrays.append(array(typecode, (_encode(name, row, index) for _, row in by_hash)))
    header = json.dumps({"n": len(by_hash), "countries": countries}).encode("utf8")
    body = len(header).to_bytes(4, "little") + header
    for values in arrays:
        if sys.byteorder == "big":
            values.byteswap()
        body += values.tobytes()
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as file:
            file.write(body)
    _LOADED.pop(str(path), None)
    return len(by_hash)


def _encode(name: str, row: Row, countries: Dict[str, int]) -> int:
    if name == "country":
        return countries[row.country]
    if name == "regions":
        return sum(1 << n for n, kind in enumerate(REGION_KINDS) if kind in row.regions)
    if name == "drug":
        return DRUG_KINDS.index(row.drug)
    return getattr(row, name)


if __name__ == "__main__":
    print(f"{write_columns()} keys written to {COLUMNS_PATH}")
