"""Template families: named groups of frames, some withheld for dev or test."""

from dataclasses import dataclass
from typing import Dict, List


@dataclass(frozen=True)
class Family:
    """A phrasing family: alternative frames for one section or sentence slot.

    id (str): Globally unique id, `kind.section.name`.
    frames (List[str]): Grammar frames (see `grammar.py`).
    dev (bool): Withheld from the train and test splits, used by dev.
    test (bool): Withheld from the train and dev splits, used by test.
    """

    id: str
    frames: tuple
    dev: bool = False
    test: bool = False

    @property
    def train(self) -> bool:
        """Whether the train split may use the family."""
        return not (self.dev or self.test)


REGISTRY: Dict[str, Family] = {}


def fam(fid: str, *frames: str, dev: bool = False, test: bool = False) -> Family:
    """Define and register a family."""
    if fid in REGISTRY:
        raise ValueError(f"duplicate family id {fid}")
    if dev and test:
        raise ValueError(f"family {fid} cannot be withheld for both dev and test")
    family = Family(fid, tuple(frames), dev, test)
    REGISTRY[fid] = family
    return family


def group(*families: Family) -> List[Family]:
    """A choice point between families (a list, for readability)."""
    return list(families)


def withheld_ids() -> List[str]:
    """Ids of all dev-only families."""
    return sorted(fid for fid, f in REGISTRY.items() if f.dev)


def test_ids() -> List[str]:
    """Ids of all test-only families."""
    return sorted(fid for fid, f in REGISTRY.items() if f.test)
