"""Gold BILUO tags as the trained taggers (`phi_crf`, `phi_hmm`) read them:
missing tags, labels a tagger keeps, label lists in a config."""

from typing import Any, List, Optional, Set

# A token whose gold tag is unknown (spaCy's "-", or none at all).
MISSING_TAGS = (None, "", "-")


def known_tag(tag: Optional[str], keep: Optional[Set[str]]) -> Optional[str]:
    """The gold tag, or None if it is missing or its label is not kept.

    tag (Optional[str]): A BILUO tag ("B-DATE", "O") or a missing one.
    keep (Optional[Set[str]]): The labels the tagger learns; None: all.
    RETURNS (Optional[str]): The tag to learn, or None.
    """
    if tag in MISSING_TAGS or tag == "O" or keep is None:
        return tag
    return tag if tag[2:] in keep else None


def label_list(labels: Any, name: str) -> List[str]:
    """Validate a config's list of label strings (not a string).

    labels (Any): The setting's value.
    name (str): The setting's name, for the error message.
    RETURNS (List[str]): The labels.
    """
    if isinstance(labels, str) or not all(isinstance(x, str) for x in labels):
        raise ValueError(f"{name} must be a list of label strings")
    for label in labels:
        if not label or not label.isprintable() or any(c.isspace() for c in label):
            raise ValueError(f"{name}: {label!r} is empty or has spaces")
    return list(labels)
