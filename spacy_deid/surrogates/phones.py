"""Phone and fax surrogates: valid North American numbers in the original's
shape, and the seed value that makes two spellings of a number agree."""

import random
import re
import string
from typing import List

from .shapes import kept_positions, normalize_alnum, replace_char, shape_replace

PHONE_KEEP_WORDS = {"ext", "x", "tel", "fax", "ph", "phone", "pager", "beeper", "cell"}

_PHONE_EXT_RE = re.compile(r"(?i)(?<![a-z])(?:extension|ext|x)\.?(?=\s*\d)")


def phone_surrogate(text: str, rng: random.Random) -> str:
    """A valid North American number in the same shape.

    The area code and exchange start with 2-9 and are never N11 or 555, so the
    surrogate looks like a real number (it may be someone's; we do not use
    the fictional 555-01XX range, which would make surrogates stand out from
    any real number a detector missed). A leading "+1"/"1" country code is
    kept, other digits (and an extension, after "x"/"ext") keep their
    shape, and letters are replaced (but for PHONE_KEEP_WORDS). Numbers that
    are not 7, 10 or 1+10 digits are replaced by shape.
    """
    ext = _PHONE_EXT_RE.search(text)
    main, tail = (text[: ext.start()], text[ext.start() :]) if ext else (text, "")
    positions = [i for i, char in enumerate(main) if char.isdigit()]
    digits = [main[i] for i in positions]
    keep = 1 if len(digits) == 11 and digits[0] == "1" else 0
    national = len(digits) - keep
    if national in (7, 10):
        codes = 1 if national == 7 else 2
        new = [d for _ in range(codes) for d in _nanp_code(rng)]
        new += [rng.choice(string.digits) for _ in range(4)]
    else:
        new = [rng.choice(string.digits) for _ in range(national)]
    new = digits[:keep] + new
    chars = list(main)
    for i, digit in zip(positions, new, strict=True):
        chars[i] = digit
    # Letters in a detected number are replaced too, but for words such as
    # "tel" (a span that runs over a name must not keep it).
    kept = kept_positions(main, PHONE_KEEP_WORDS)
    for i, char in enumerate(main):
        if char.isalpha() and i not in kept:
            chars[i] = replace_char(char, rng)
    return "".join(chars) + shape_replace(tail, rng, keep_words=PHONE_KEEP_WORDS)


def _nanp_code(rng: random.Random) -> List[str]:
    """Three digits NXX, N in 2-9, not N11 and not 555."""
    while True:
        code = [
            rng.choice("23456789"),
            rng.choice(string.digits),
            rng.choice(string.digits),
        ]
        joined = "".join(code)
        if joined[1:] != "11" and joined != "555":
            return code


def phone_value(text: str) -> str:
    """The seed value of a phone number: its national digits and extension,
    so "+1 617 555 1234" and "(617) 555-1234" get the same surrogate digits."""
    ext = _PHONE_EXT_RE.search(text)
    main, tail = (text[: ext.start()], text[ext.start() :]) if ext else (text, "")
    digits = "".join(char for char in main if char.isdigit())
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    return digits + ("x" + normalize_alnum(tail) if tail else "")
