"""Disjoint value pools for the train, dev and test splits.

Every PHI value belongs to exactly one split, decided by a stable hash of its
case-folded text (blake2b, not Python's salted `hash`), so a value that the
train split produces never occurs in dev or test. Values drawn from curated
lists are filtered; values made by Faker or by shapes are drawn again until
they fall in the split's pool (`MAX_TRIES`), then a fallback that stays in the
pool takes over (a curated list filtered to the pool, or a deterministic
variation of the last draw). `split="all"` has no pools: every value is
allowed and each value is drawn exactly once, as before splits had pools.

Names are checked word by word (`Smith-Jones` needs `Smith`, `Jones` and the
whole in the pool), so a rendered name (`SMITH, John`, `J. Smith`) shares no
name word with another split; initials only (`J.M.S.`) are checked as letters.
"""

import hashlib
import re
from functools import lru_cache
from typing import Callable, List, Optional, Sequence, Tuple

POOLED_SPLITS = ("train", "dev", "test")
# Shares of the value space, in tenths: train keeps most of the variety.
SHARES: Tuple[Tuple[str, int], ...] = (("train", 6), ("dev", 2), ("test", 2))
MAX_TRIES = 60
# Name suffixes shared by every split: they are no value of anybody's name.
SHARED_WORDS = frozenset(("jr", "sr", "ii", "iii"))
_WORD = re.compile(r"\w+(?:['\u2019]\w+)*")
_DIGIT = re.compile(r"\d")


def pool_key(value: str) -> str:
    """The text a value is partitioned by: case-folded, spaces collapsed."""
    return " ".join(value.casefold().split())


@lru_cache(maxsize=1 << 17)
def split_of(value: str) -> str:
    """The split whose pool holds `value` (stable across runs and machines).

    value (str): A PHI value.
    RETURNS (str): "train", "dev" or "test".
    """
    digest = hashlib.blake2b(
        pool_key(value).encode("utf8"), digest_size=8, person=b"spacy-deid-pool"
    ).digest()
    bucket = int.from_bytes(digest, "big") % 10
    for split, share in SHARES:
        if bucket < share:
            return split
        bucket -= share
    raise AssertionError("shares must add up to 10")


def in_pool(value: str, split: str) -> bool:
    """Whether `value` may occur in `split` (always, for "all")."""
    return split not in POOLED_SPLITS or split_of(value) == split


def name_words(text: str) -> List[str]:
    """The words of a name (`O'Brien` is one word, `Smith-Jones` two)."""
    return _WORD.findall(text)


def name_in_pool(text: str, split: str) -> bool:
    """Whether a name value or a rendered name belongs to `split`.

    Every word of two or more characters (but `Jr`, `III`, ...) must be in the
    pool; a name without such a word (`J.M.S.`, `JS`, `JR`) is checked by its
    letters.
    """
    if split not in POOLED_SPLITS:
        return True
    words = [
        w for w in name_words(text) if len(w) > 1 and w.casefold() not in SHARED_WORDS
    ]
    if not words:
        letters = "".join(ch for ch in text if ch.isalpha())
        return not letters or in_pool(letters, split)
    return all(in_pool(w, split) for w in words)


@lru_cache(maxsize=None)
def _filtered(items: Tuple[str, ...], split: str, names: bool) -> Tuple[str, ...]:
    check = name_in_pool if names else in_pool
    return tuple(item for item in items if check(item, split))


def pooled(items: Sequence[str], split: str, names: bool = False) -> Sequence[str]:
    """The items of a curated list that belong to `split` (all, for "all").

    items (Sequence[str]): The list.
    split (str): The split.
    names (bool): Check word by word, as for names.
    RETURNS (Sequence[str]): The items in the split's pool, in list order.
    """
    if split not in POOLED_SPLITS:
        return items
    return _filtered(tuple(items), split, names)


def draw(
    make: Callable[[], str],
    split: str,
    check: Optional[Callable[[str, str], bool]] = None,
    fallback: Optional[Callable[[str], str]] = None,
) -> str:
    """Draw values until one is in the split's pool.

    make (Callable[[], str]): Draws one value (from the shared seeded rng).
    split (str): The split; "all" takes the first draw.
    check (Callable[[str, str], bool]): Pool test (default `in_pool`).
    fallback (Callable[[str], str]): After `MAX_TRIES` misses, makes a value
        in the pool from the last draw (default `vary`).
    RETURNS (str): A value in the pool.
    """
    value = make()
    if split not in POOLED_SPLITS:
        return value
    check = check or in_pool
    for _ in range(MAX_TRIES):
        if check(value, split):
            return value
        value = make()
    if fallback is not None:
        return fallback(value)
    return vary(value, split)


def vary(value: str, split: str, sep: str = "") -> str:
    """A deterministic variant of `value` in the split's pool.

    Rewrites its last (up to three) digits, else appends a number, so the
    shape of a phone number or an id is kept where it can be.
    """
    pos = [m.start() for m in _DIGIT.finditer(value)][-3:]
    chars = list(value)
    for n in range(10 ** len(pos)) if pos else ():
        digits = str(n).zfill(len(pos))
        for i, d in zip(pos, digits, strict=True):
            chars[i] = d
        candidate = "".join(chars)
        if in_pool(candidate, split):
            return candidate
    n = 1
    while not in_pool(f"{value}{sep}{n}", split):
        n += 1
    return f"{value}{sep}{n}"
