"""Whether a surrogate gives its original away (a surrogate that does is
never used)."""

import re


def reveals(original: str, surrogate: str) -> bool:
    """Whether a surrogate gives the original away: equal to it, or (for an
    original of 3+ letters or digits) holding it as a whole word, ignoring
    case (e.g. "engineer" -> "Engineer, civil")."""
    if surrogate.casefold() == original.casefold():
        return True
    if sum(char.isalnum() for char in original) < 3:
        return False
    if original.isascii() and surrogate.isascii():
        return _holds_word(surrogate.lower(), original.lower())
    # Outside ASCII, case-blind matching has more than lower-casing (the
    # Kelvin sign matches "k"): leave it to `re`.
    pattern = r"(?<!\w)" + re.escape(original) + r"(?!\w)"
    return re.search(pattern, surrogate, re.IGNORECASE) is not None


def _holds_word(text: str, word: str) -> bool:
    r"""Whether `word` occurs in `text` with no word character (letter, digit,
    "_") right before or after it: `re.search(r"(?<!\w)" + re.escape(word) +
    r"(?!\w)", text)` for ASCII strings, without compiling a regex per word."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if not (start and _is_word_char(text[start - 1])) and not (
            end < len(text) and _is_word_char(text[end])
        ):
            return True
        start = text.find(word, start + 1)
    return False


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"
