"""A relative's age in brackets after the name ("Kids: Anselm (9), Tove (6)",
"dau Lanh (now 5)"), shared by `phi_relabel` and `phi_safety_net`."""

from typing import AbstractSet

from spacy.tokens import Doc

# Words in the brackets before the age ("(now 5)", "(age 4)").
AGE_WORDS = frozenset({"now", "age", "aged"})
# Tokens looked at before the name for a kin word ("siblings Andrew (16), Tove
# (6) and Jo (3)": a list of names and ages after it).
MAX_KIN_TOKENS = 16
_SENTENCE_ENDS = frozenset((".", ";", "!", "?"))


def bracketed_kin_age(
    doc: Doc,
    start: int,
    end: int,
    persons: AbstractSet[str],
    kin_words: AbstractSet[str],
) -> bool:
    """Whether the tokens `start:end` are a number of one or two digits in
    brackets right after a person's name, with a kin word before the name in
    its clause and line: "Kids: Anselm (9)" gives an age, "sick list: Maury
    (19)" a bed.

    doc (Doc): The doc, with the detectors' entities.
    start (int): The number's first token.
    end (int): The token after the number.
    persons (AbstractSet[str]): Labels of people's names.
    kin_words (AbstractSet[str]): Kin words, in lower case without a
        trailing ":", "." or "#" ("kids", "dau").
    RETURNS (bool): True for such an age.
    """
    text = doc[start:end].text
    if not (text.isdigit() and len(text) <= 2):
        return False
    opening = start - 1
    if opening > 0 and doc[opening].lower_ in AGE_WORDS:
        opening -= 1  # "(now 5)"
    if opening < 1 or end >= len(doc):
        return False
    if doc[opening].text != "(" or doc[end].text != ")":
        return False
    name = doc[opening - 1]
    if name.ent_type_ not in persons:
        return False
    first = name.i
    while first > 0 and doc[first].ent_iob_ == "I":
        first -= 1
    for i in range(first - 1, max(-1, first - 1 - MAX_KIN_TOKENS), -1):
        token = doc[i]
        if "\n" in token.text or token.text in _SENTENCE_ENDS:
            return False
        if token.lower_.rstrip(":.#") in kin_words:
            return True
    return False
