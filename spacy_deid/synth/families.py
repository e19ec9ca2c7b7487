"""Template families: named groups of frames, some withheld for the dev split."""

from dataclasses import dataclass
from typing import Dict, List


@dataclass(frozen=True)
class Family:
    """A phrasing family: alternative frames for one section or sentence slot.

    id (str): Globally unique id, `kind.section.name`.
    frames (List[str]): Grammar frames (see `grammar.py`).
    dev (bool): Withheld from the train split, used by the dev split.
    """

    id: str
    frames: tuple
    dev: bool = False


REGISTRY: Dict[str, Family] = {}


def fam(fid: str, *frames: str, dev: bool = False) -> Family:
    """Define and register a family."""
    if fid in REGISTRY:
        raise ValueError(f"duplicate family id {fid}")
    family = Family(fid, tuple(frames), dev)
    REGISTRY[fid] = family
    return family


def group(*families: Family) -> List[Family]:
    """A choice point between families (a list, for readability)."""
    return list(families)


def withheld_ids() -> List[str]:
    """Ids of all dev-only families."""
    return sorted(fid for fid, f in REGISTRY.items() if f.dev)
