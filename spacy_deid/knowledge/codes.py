"""Everything the tables know about a key, packed into one small integer.

A tagger needs the knowledge of every token it reads, and reading the six
tables into dicts takes a second or more at start-up. `codes.bin.gz` holds the
answer for every key of every table, precomputed: a sorted array of 64-bit key
hashes and the packed code of each, loaded as two flat arrays in milliseconds
and searched by bisection. It is derived from the shipped tables (no download):
`python -m spacy_deid.knowledge.codes` rebuilds it after a table changes, and
a test fails while it is stale.

A code packs four frequency buckets (surname, given name, place population,
English word use; 3 bits each) and `FLAGS` (1 bit each).
"""

import gzip
import hashlib
import math
import sys
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import Dict, Iterable, Optional, Tuple

from .fold import fold, name_key
from .lookup import Knowledge, lookup
from .tables import DATA_DIR, TABLES, load

CODES_PATH = DATA_DIR / "codes.bin.gz"
BUCKETS = 6  # per count: none, <1e3, 1e3, 1e4, 1e5, >=1e6; per zipf: none, <3 .. >=6
BUCKET_BITS = 3
COUNTS = ("surname", "given", "place", "word")
FLAGS = (
    "common_word", "drug", "country", "country_code", "state", "state_code",
    "county", "name_over_word", "place_over_word", "female_given",
)  # fmt: skip
_CODES: Dict[str, Tuple[array, array]] = {}


def count_bucket(count: int) -> int:
    """A count's bucket: 0 for none, 1 below 1,000, then one per power of ten."""
    if count <= 0:
        return 0
    return min(max(int(math.log10(count)) - 1, 1), BUCKETS - 1)


def zipf_bucket(zipf: float) -> int:
    """A zipf frequency's bucket: 0 for unknown, 1 below 3, ... 5 for >= 6."""
    if zipf <= 0:
        return 0
    return min(max(int(zipf) - 1, 1), BUCKETS - 1)


def pack(k: Knowledge) -> int:
    """The code of what `lookup` answered.

    k (Knowledge): The knowledge of one key.
    RETURNS (int): The buckets and flags packed (`unpack` reverses it).
    """
    buckets = (
        count_bucket(k.surname_count),
        count_bucket(k.given_count),
        count_bucket(k.place_population),
        zipf_bucket(k.word_zipf),
    )
    flags = (
        k.is_common_word,
        k.is_drug,
        k.is_country,
        k.is_country_code,
        k.is_state,
        k.is_state_code,
        k.is_county,
        k.name_zipf > k.word_zipf,
        k.place_zipf > k.word_zipf,
        2 * k.given_female > k.given_count > 0,
    )
    code = 0
    for i, value in enumerate(buckets):
        code |= value << (i * BUCKET_BITS)
    start = len(COUNTS) * BUCKET_BITS
    for i, flag in enumerate(flags):
        code |= int(flag) << (start + i)
    return code


def unpack(code: int) -> Tuple[Tuple[int, ...], Tuple[bool, ...]]:
    """The buckets (in `COUNTS` order) and flags (in `FLAGS` order) of a code."""
    mask = (1 << BUCKET_BITS) - 1
    buckets = tuple((code >> (i * BUCKET_BITS)) & mask for i in range(len(COUNTS)))
    start = len(COUNTS) * BUCKET_BITS
    flags = tuple(bool(code >> (start + i) & 1) for i in range(len(FLAGS)))
    return buckets, flags


UNKNOWN = pack(Knowledge())


def key_hash(key: str) -> int:
    """A stable 64-bit hash of a folded key (not Python's salted `hash`)."""
    digest = hashlib.blake2b(key.encode("utf8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def code_of(text: str) -> int:
    """The code of a token or phrase, from the precomputed file.

    Keyed by `fold(text)`; a key no table holds falls back to the name key
    (`O'Brien` -> `obrien`), else `UNKNOWN`.

    text (str): A token ("Smith").
    RETURNS (int): Its code.
    """
    hashes, codes = load_codes()
    key = fold(text)
    for candidate in (key, name_key(text)) if "'" in key else (key,):
        h = key_hash(candidate)
        i = bisect_left(hashes, h)
        if i < len(hashes) and hashes[i] == h:
            return codes[i]
    return UNKNOWN


def load_codes(path: Optional[Path] = None) -> Tuple[array, array]:
    """The sorted key hashes and their codes, read once per process."""
    path = Path(path or CODES_PATH)
    loaded = _CODES.get(str(path))
    if loaded is None:
        data = gzip.decompress(path.read_bytes())
        n = len(data) // 12
        hashes, codes = array("Q"), array("I")
        hashes.frombytes(data[: 8 * n])
        codes.frombytes(data[8 * n :])
        if sys.byteorder == "big":
            hashes.byteswap()
            codes.byteswap()
        loaded = _CODES[str(path)] = (hashes, codes)
    return loaded


def all_keys() -> Iterable[str]:
    """Every key of every shipped table."""
    keys = set()
    for name in TABLES:
        keys.update(load(name))
    return sorted(keys)


def write_codes(path: Path = CODES_PATH) -> int:
    """Write the code file from the shipped tables (same tables, same bytes).

    path (Path): The `.bin.gz` file to write.
    RETURNS (int): The number of keys written.
    """
    pairs = sorted((key_hash(key), pack(lookup(key))) for key in all_keys())
    hashes = array("Q", (h for h, _ in pairs))
    if len(set(hashes)) != len(hashes):
        raise ValueError("two knowledge keys share a 64-bit hash")
    codes = array("I", (c for _, c in pairs))
    if sys.byteorder == "big":  # the file is little-endian everywhere
        hashes.byteswap()
        codes.byteswap()
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(hashes.tobytes() + codes.tobytes())
    _CODES.pop(str(path), None)
    return len(pairs)


if __name__ == "__main__":
    print(f"{write_codes()} keys written to {CODES_PATH}")
