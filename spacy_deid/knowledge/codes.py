"""Everything the tables know about a token, packed into one small integer.

A tagger wants a fixed, small description of each token's knowledge: four
frequency buckets (surname, given name, place population, English word use;
3 bits each) and `FLAGS` (1 bit each). `code_of(text)` packs what `lookup`
answers; `unpack` gives the buckets and flags back.
"""

import math
from typing import Tuple

from .lookup import Knowledge, lookup

BUCKETS = 6  # per count: none, <1e3, 1e3, 1e4, 1e5, >=1e6; per zipf: none, <3 .. >=6
BUCKET_BITS = 3
COUNTS = ("surname", "given", "place", "word")
FLAGS = (
    "common_word", "drug", "country", "country_code", "state", "state_code",
    "county", "name_over_word", "place_over_word", "female_given",
)  # fmt: skip


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


def code_of(text: str) -> int:
    """The code of a token or phrase (`pack(lookup(text))`).

    text (str): A token ("Smith").
    RETURNS (int): Its code; `UNKNOWN` for a token no table holds.
    """
    return pack(lookup(text))
