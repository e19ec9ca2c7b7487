"""Values drawn from the real-world knowledge tables (`spacy_deid.knowledge`).

The curated lists and Faker's locales give the generator a small closed world
(about a hundred cities, Faker's few thousand names), which a tagger memorises.
These samplers draw from the shipped tables instead: 160,000 Census surnames,
60,000 SSA given names, 70,000 GeoNames places, the world's countries and the
US counties. Each draw is weighted by the square root of its count, so common
values stay common while rare ones (the names a tagger has never seen) still
occur. Every table is filtered to the split's pool (`pools.py`), so the splits
stay disjoint.
"""

import bisect
from functools import lru_cache
from itertools import accumulate
from random import Random
from typing import Dict, Sequence, Tuple

from ..knowledge.tables import load
from .pools import in_pool, name_in_pool

Weighted = Tuple[Tuple[str, ...], Tuple[float, ...]]
# Places above this population are cities; below it (in the US) towns.
TOWN_POPULATION = 60_000
_MIN_WORLD_CITY = 20_000


def display(key: str, acronyms: bool = False) -> str:
    """A folded table key as a name is written: `mcallen` -> `McAllen`,
    `new zealand` -> `New Zealand`; with `acronyms`, `uk` -> `UK`."""
    if acronyms and (len(key) <= 3 or "." in key) and " " not in key:
        return key.upper()
    words = []
    for word in key.split(" "):
        if word in ("of", "and", "the", "de", "la", "del", "da"):
            words.append(word)
        elif word.startswith("mc") and len(word) > 3:
            words.append("Mc" + word[2:].capitalize())
        else:
            words.append("-".join(part.capitalize() for part in word.split("-")))
    out = " ".join(words)
    return out[0].upper() + out[1:]


def _weighted(items: Dict[str, float]) -> Weighted:
    keys = tuple(sorted(items))
    return keys, tuple(accumulate(items[k] ** 0.5 for k in keys))


def _pick(rng: Random, table: Weighted) -> str:
    keys, cum = table
    if not keys:
        raise ValueError("no value of this kind in the split's pool")
    return keys[bisect.bisect_right(cum, rng.random() * cum[-1])]


@lru_cache(maxsize=None)
def _surnames(split: str) -> Weighted:
    rows = load("surnames")
    return _weighted(
        {k: c for k, c in rows.items() if k.isalpha() and name_in_pool(k, split)}
    )


@lru_cache(maxsize=None)
def _given(split: str, sex: str) -> Weighted:
    col = 0 if sex == "F" else 1
    rows = load("given")
    return _weighted(
        {
            k: c[col]
            for k, c in rows.items()
            if c[col] >= 30 and len(k) > 1 and k.isalpha() and name_in_pool(k, split)
        }
    )


@lru_cache(maxsize=None)
def _country_names() -> Dict[str, str]:
    """ISO alpha-2 code -> the longest name the regions table gives it."""
    names: Dict[str, str] = {}
    for key, kinds in load("regions").items():
        for kind, code in kinds:
            if kind == "country" and len(key) > len(names.get(code, "")):
                names[code] = key
    return names


@lru_cache(maxsize=None)
def _world_cities(split: str) -> Weighted:
    countries = _country_names()
    return _weighted(
        {
            k: pop
            for k, (pop, code) in load("places").items()
            if code != "US"
            and code in countries
            and pop >= _MIN_WORLD_CITY
            and _plain(k)
            and in_pool(k, split)
        }
    )


@lru_cache(maxsize=None)
def _us_towns(split: str) -> Weighted:
    return _weighted(
        {
            k: pop
            for k, (pop, code) in load("places").items()
            if code == "US"
            and pop < TOWN_POPULATION
            and _plain(k)
            and in_pool(k, split)
        }
    )


@lru_cache(maxsize=None)
def _countries(split: str) -> Tuple[str, ...]:
    return tuple(
        sorted(
            key
            for key, kinds in load("regions").items()
            if any(kind == "country" for kind, _ in kinds) and in_pool(key, split)
        )
    )


@lru_cache(maxsize=None)
def _counties(split: str) -> Tuple[str, ...]:
    return tuple(
        sorted(
            key
            for key, kinds in load("regions").items()
            if any(kind == "county" for kind, _ in kinds)
            and _plain(key)
            and in_pool(key, split)
        )
    )


def _initials(key: str) -> bool:
    """A name of at most three letters, dots aside (`usa`, `u.s.`)."""
    return " " not in key and len(key.replace(".", "")) <= 3


def _plain(key: str) -> bool:
    """Letters, spaces and hyphens only (no `'a'ala`, no digits)."""
    return all(ch.isalpha() or ch in " -" for ch in key)


def surname(rng: Random, split: str) -> str:
    """A Census surname, as written (`Nakamura`, `McGillivray`)."""
    return display(_pick(rng, _surnames(split)))


def given_name(rng: Random, split: str, sex: str) -> str:
    """An SSA given name of a sex ("F" or "M"), as written."""
    return display(_pick(rng, _given(split, sex)))


def world_city(rng: Random, split: str) -> Tuple[str, str]:
    """A city outside the US (20,000 people or more) and its country's name
    ("" where that name belongs to another split's pool)."""
    key = _pick(rng, _world_cities(split))
    name = _country_names()[load("places")[key][1]]
    return display(key), display(name, True) if in_pool(name, split) else ""


def us_town(rng: Random, split: str) -> str:
    """A US place of fewer than 60,000 people."""
    return display(_pick(rng, _us_towns(split)))


def country(rng: Random, split: str) -> str:
    """A country's name or common alias (`New Zealand`, `UK`)."""
    return display(rng.choice(_countries(split)), acronyms=True)


# The country the notes are written in: "moved to the US".
HOME_CODE = "US"


@lru_cache(maxsize=None)
def home_country_forms(split: str) -> Tuple[str, ...]:
    """The forms of the home country's name that follow "the", in the split's
    pool: its ISO code and the regions table's initials and "United ..." names
    (not a name such as "America", which takes no article)."""
    keys = [
        key
        for key, kinds in load("regions").items()
        if ("country", HOME_CODE) in kinds
        and (_initials(key) or key.startswith("united "))
    ]
    forms = {HOME_CODE} | {display(key, acronyms=True) for key in keys}
    return tuple(sorted(form for form in forms if in_pool(form, split)))


def county(rng: Random, split: str) -> str:
    """A US county's name without "County" (`Brazos`-like)."""
    return display(rng.choice(_counties(split)))


def sizes(split: str) -> Dict[str, int]:
    """How many values of each kind the split's pool holds (for docs and tests)."""
    tables: Dict[str, Sequence] = {
        "surnames": _surnames(split)[0],
        "given_female": _given(split, "F")[0],
        "given_male": _given(split, "M")[0],
        "world_cities": _world_cities(split)[0],
        "us_towns": _us_towns(split)[0],
        "countries": _countries(split),
        "counties": _counties(split),
    }
    return {name: len(values) for name, values in tables.items()}
