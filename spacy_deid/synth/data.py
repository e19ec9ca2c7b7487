"""Curated lists shipped in `data/` (loaded once)."""

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Tuple

DATA_DIR = Path(__file__).parent / "data"


def _lines(name: str) -> List[str]:
    text = (DATA_DIR / name).read_text(encoding="utf8")
    return [line.strip() for line in text.splitlines() if line.strip()]


@lru_cache(maxsize=None)
def lines(name: str) -> Tuple[str, ...]:
    """Non-empty lines of a text file in `data/`."""
    return tuple(_lines(name))


@lru_cache(maxsize=None)
def load_json(name: str) -> Any:
    """A JSON file in `data/`."""
    return json.loads((DATA_DIR / name).read_text(encoding="utf8"))


@lru_cache(maxsize=None)
def cities() -> Tuple[Tuple[str, str, str], ...]:
    """(city, state abbreviation, ZIP prefix) triples."""
    return tuple(tuple(line.split("|")) for line in lines("cities.txt"))  # type: ignore


@lru_cache(maxsize=None)
def states() -> Dict[str, str]:
    """State abbreviation -> state name."""
    return dict(line.split("|") for line in lines("states.txt"))  # type: ignore


def clinical(key: str) -> List[Any]:
    """A list from `clinical.json` (conditions, drugs, labs, ...)."""
    return load_json("clinical.json")[key]
