"""The default PHI rule patterns, one module per family.

`default_patterns` is registered as the `spacy_misc` entry point
"spacy_deid.phi_patterns.v1", so a config can refer to it:

    [components.phi_rules.patterns]
    @misc = "spacy_deid.phi_patterns.v1"
    labels = ["DATE", "PHONE"]

`families` picks pattern families by name (default: `DEFAULT_FAMILIES`, the
English families, so configs that don't set it keep their exact meaning). The
Spanish families ("dates_es", "ages_es", "contact_es", "ids_es", "names_es") are only used
when asked for:

    [components.phi_rules.patterns]
    @misc = "spacy_deid.phi_patterns.v1"
    families = ["dates_es", "ages_es", "contact_es", "ids_es", "names_es", "contact"]
"""

import copy
import json
from functools import lru_cache
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Tuple

from ...labels import LABELS, normalize_label
from . import (
    ages,
    ages_es,
    contact,
    contact_es,
    dates,
    dates_es,
    facilities,
    ids,
    ids_es,
    locations,
    names,
    names_es,
    negatives,
    social,
    usernames,
)

# Family name -> the module's PATTERNS, in a fixed order.
FAMILIES: Dict[str, List[dict]] = {
    "contact": contact.PATTERNS,
    "ids": ids.PATTERNS,
    "dates": dates.PATTERNS,
    "ages": ages.PATTERNS,
    "facilities": facilities.PATTERNS,
    "locations": locations.PATTERNS,
    "social": social.PATTERNS,
    "usernames": usernames.PATTERNS,
    "names": names.PATTERNS,
    "negatives": negatives.PATTERNS,
    "dates_es": dates_es.PATTERNS,
    "ages_es": ages_es.PATTERNS,
    "contact_es": contact_es.PATTERNS,
    "ids_es": ids_es.PATTERNS,
    "names_es": names_es.PATTERNS,
}
# The families of "spacy_deid.phi_patterns.v1" when `families` is not given:
# the English ones, in this order. Never change it (the name is versioned).
DEFAULT_FAMILIES: Tuple[str, ...] = (
    "contact",
    "ids",
    "dates",
    "ages",
    "facilities",
    "locations",
    "social",
    "usernames",
    "names",
    "negatives",
)


def family_patterns(family: str) -> List[dict]:
    """Return a copy of one family's patterns.

    family (str): A key of `FAMILIES`, e.g. "dates".
    RETURNS (List[dict]): The pattern dicts.
    """
    if family not in FAMILIES:
        known = ", ".join(FAMILIES)
        raise ValueError(f"Unknown PHI pattern family '{family}'. Known: {known}")
    return copy.deepcopy(FAMILIES[family])


def is_builtin(pattern: Any) -> bool:
    """Whether a pattern dict is one of the patterns of `FAMILIES`, unchanged:
    the tests check that those compile, so a ruler may compile them on first
    use (`matching.compile_pattern(lazy=True)`), while any other pattern is
    compiled, and its errors raised, when it is added.

    pattern (Any): A pattern dict.
    RETURNS (bool): Whether it is a built-in pattern.
    """
    try:
        return _canonical(pattern) in _builtin()
    except (TypeError, ValueError):  # not JSON data: not a built-in pattern
        return False


def _canonical(pattern: Any) -> str:
    return json.dumps(pattern, sort_keys=True)


@lru_cache(maxsize=1)
def _builtin() -> FrozenSet[str]:
    return frozenset(
        _canonical(pattern) for patterns in FAMILIES.values() for pattern in patterns
    )


def check_families(families: Iterable[str]) -> List[str]:
    """Validate a list of family names.

    families (Iterable[str]): Keys of `FAMILIES`, each at most once.
    RETURNS (List[str]): The names, in the given order.
    """
    if isinstance(families, str):
        raise ValueError("PHI pattern families must be a list of names")
    names = list(families)
    if not names:
        raise ValueError("PHI pattern families: give at least one family")
    unknown = [name for name in names if name not in FAMILIES]
    if unknown:
        known = ", ".join(FAMILIES)
        raise ValueError(
            f"Unknown PHI pattern families: {', '.join(map(str, unknown))}. "
            f"Known: {known}"
        )
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"PHI pattern families given twice: {', '.join(repeated)}")
    return names


def default_patterns(
    labels: Optional[List[str]] = None,
    exclude: Optional[List[str]] = None,
    families: Optional[List[str]] = None,
) -> List[dict]:
    """Return the default PHI patterns (registered as "spacy_deid.phi_patterns.v1").

    labels (Optional[List[str]]): Keep only patterns with these labels (and
        the NOT_PHI patterns, which never emit entities). None keeps all.
    exclude (Optional[List[str]]): Pattern ids to leave out, e.g.
        ["date.weekday"]; each must belong to one of the selected families.
    families (Optional[List[str]]): The families to use, in this order (keys
        of `FAMILIES`, e.g. ["dates_es", "ages_es", "contact"]). None uses
        `DEFAULT_FAMILIES` (the English families).
    RETURNS (List[dict]): JSON-serializable pattern dicts.
    """
    keep = None
    if labels is not None:
        keep = {normalize_label(label) for label in labels}
        unknown = sorted(keep - set(LABELS))
        if unknown:
            raise ValueError(f"Unknown PHI labels: {', '.join(unknown)}")
    selected = check_families(DEFAULT_FAMILIES if families is None else families)
    skip = set(exclude or [])
    patterns = [p for family in selected for p in FAMILIES[family]]
    all_ids = {p["id"] for p in patterns}
    if skip - all_ids:
        raise ValueError(f"Unknown pattern ids: {', '.join(sorted(skip - all_ids))}")
    return [
        copy.deepcopy(p)
        for p in patterns
        if p["id"] not in skip
        and (keep is None or p["label"] in keep or p["label"] == negatives.NOT_PHI)
    ]
