"""The default PHI rule patterns, one module per family.

`default_patterns` is registered as the `spacy_misc` entry point
"spacy_deid.phi_patterns.v1", so a config can refer to it:

    [components.phi_rules.patterns]
    @misc = "spacy_deid.phi_patterns.v1"
    labels = ["DATE", "PHONE"]
"""

import copy
from typing import Dict, List, Optional

from ...labels import LABELS, normalize_label
from . import (
    ages,
    contact,
    dates,
    facilities,
    ids,
    locations,
    names,
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
}


def family_patterns(family: str) -> List[dict]:
    """Return a copy of one family's patterns.

    family (str): A key of `FAMILIES`, e.g. "dates".
    RETURNS (List[dict]): The pattern dicts.
    """
    if family not in FAMILIES:
        known = ", ".join(FAMILIES)
        raise ValueError(f"Unknown PHI pattern family '{family}'. Known: {known}")
    return copy.deepcopy(FAMILIES[family])


def default_patterns(
    labels: Optional[List[str]] = None, exclude: Optional[List[str]] = None
) -> List[dict]:
    """Return the default PHI patterns (registered as "spacy_deid.phi_patterns.v1").

    labels (Optional[List[str]]): Keep only patterns with these labels (and
        the NOT_PHI patterns, which never emit entities). None keeps all.
    exclude (Optional[List[str]]): Pattern ids to leave out, e.g.
        ["date.weekday"].
    RETURNS (List[dict]): JSON-serializable pattern dicts.
    """
    keep = None
    if labels is not None:
        keep = {normalize_label(label) for label in labels}
        unknown = sorted(keep - set(LABELS))
        if unknown:
            raise ValueError(f"Unknown PHI labels: {', '.join(unknown)}")
    skip = set(exclude or [])
    patterns = [p for family in FAMILIES.values() for p in family]
    all_ids = {p["id"] for p in patterns}
    if skip - all_ids:
        raise ValueError(f"Unknown pattern ids: {', '.join(sorted(skip - all_ids))}")
    return [
        copy.deepcopy(p)
        for p in patterns
        if p["id"] not in skip
        and (keep is None or p["label"] in keep or p["label"] == negatives.NOT_PHI)
    ]
