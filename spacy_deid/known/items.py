"""Validation of known PHI items: `[{"text": str, "label": str}, ...]`, and
of the record and patient ids they are given for.

Error messages name the item's position and the field, never its text or
label (a swapped item would put a name in the label).
"""

import json
import math
from typing import Any, Dict, Iterable, List, Optional

from ..labels import normalize_label

KnownItem = Dict[str, str]

# Longest known text accepted (an address is far shorter); longer values are
# almost certainly not an identifier and would make huge patterns.
MAX_TEXT_LENGTH = 500
# Fewest letters or digits of a known text: one character would match
# everywhere.
MIN_ALNUM = 2


class KnownPhiError(ValueError):
    """Known PHI items of the wrong shape. Messages never hold text."""


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def validate_item(item: Any, index: int) -> KnownItem:
    """Check one known item and normalise it.

    item (Any): Should be {"text": str, "label": str}; other keys are ignored.
    index (int): The item's position, for error messages.
    RETURNS (KnownItem): {"text": stripped text, "label": normalised label}.
    """
    where = f"known_phi[{index}]"
    if not isinstance(item, dict):
        raise KnownPhiError(f"{where} is {_type_name(item)}, not an object")
    for key in ("text", "label"):
        if key not in item:
            raise KnownPhiError(f"{where} has no '{key}'")
        if not isinstance(item[key], str):
            kind = _type_name(item[key])
            raise KnownPhiError(f"{where}: '{key}' is {kind}, not a string")
    text, label = item["text"].strip(), normalize_label(item["label"])
    if not label:
        raise KnownPhiError(f"{where}: 'label' is empty")
    if len(text) > MAX_TEXT_LENGTH:
        raise KnownPhiError(
            f"{where}: 'text' is longer than {MAX_TEXT_LENGTH} characters"
        )
    if sum(char.isalnum() for char in text) < MIN_ALNUM:
        raise KnownPhiError(
            f"{where}: 'text' has fewer than {MIN_ALNUM} letters or digits"
        )
    return {"text": text, "label": label}


def validate_known(
    known: Any, labels: Optional[Iterable[str]] = None
) -> List[KnownItem]:
    """Check a list of known items.

    known (Any): A list of {"text", "label"} dicts, or None (no items).
    labels (Optional[Iterable[str]]): Accept only these labels (normalised);
        None accepts any non-empty label.
    RETURNS (List[KnownItem]): The normalised items.
    """
    if known is None:
        return []
    if not isinstance(known, (list, tuple)):
        raise KnownPhiError(f"known_phi is {_type_name(known)}, not a list")
    items = [validate_item(item, i) for i, item in enumerate(known)]
    if labels is not None:
        allowed = {normalize_label(label) for label in labels}
        for i, item in enumerate(items):
            if item["label"] not in allowed:
                raise KnownPhiError(
                    f"known_phi[{i}]: label not accepted by this pipeline"
                )
    return items


def parse_known(value: Any, detail: bool = False) -> Any:
    """Known PHI given as a list or as JSON text (a table cell, an Arrow
    string column), not yet validated (see `validate_known`).

    value (Any): A list, JSON text or None.
    detail (bool): Say where the JSON is broken (position only, never text).
    RETURNS (Any): The list (or whatever the JSON holds).
    """
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError as error:
        where = f" ({error.msg} at column {error.colno})" if detail else ""
        raise KnownPhiError(f"known_phi is not valid JSON{where}") from None


def as_id(value: Any, table: bool = False) -> Optional[str]:
    """A record or patient id as a string: a string or an integer (a bool is
    neither). From a table cell also an integral float (pandas turns integer
    columns with nulls into floats), and a blank string counts as missing.

    value (Any): The raw id.
    table (bool): Read it as a table cell.
    RETURNS (Optional[str]): The id, or None when missing or unusable.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return None if table and not value.strip() else str(value)
    if isinstance(value, int):
        return str(value)
    if table and isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() else None
    return None
