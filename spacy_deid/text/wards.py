"""Wards named by a floor number and a compass direction ("4 West"),
shared by `phi_relabel` and `phi_safety_net`."""

DIRECTIONS = frozenset(
    word for word in ("North", "South", "East", "West") for word in (word, word.upper())
)
# Words before a number that make it part of an address ("Apt 4 North").
ADDRESS_WORDS = frozenset(("apt", "apartment", "suite", "ste", "unit", "#", "no"))


def is_ward(number: str, direction: str, before: str = "", after: str = "") -> bool:
    """Whether a number and the word after it name a ward: one or two digits
    and a compass direction in title or upper case, with no address word
    before it and no title-case word after it ("40 South Harbor Road").

    number (str): The number's text.
    direction (str): The next word's text.
    before (str): The word before the number on its line ("" if none).
    after (str): The word after the direction on its line ("" if none).
    RETURNS (bool): True for a ward.
    """
    if not (number.isdigit() and len(number) <= 2) or direction not in DIRECTIONS:
        return False
    if before.lower().rstrip(".") in ADDRESS_WORDS:
        return False
    return not (after[:1].isupper() and after.isalpha())
