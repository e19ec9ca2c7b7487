"""Validation of known PHI items: `[{"text": str, "label": str}, ...]`.

Error messages name the item's position and the field, never its text or
label (a swapped item would put a name in the label).
"""

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
