"""Case and accent folding: the one key every knowledge table is written and read with.

"Zürich", "ZURICH" and "zurich" fold to the same key, so a lookup finds a city
whatever the note's casing or the source's spelling. The build script keys the
tables with these functions too: change them and the tables must be rebuilt.
"""

import unicodedata

# Letters that NFKD does not split into a base letter and a combining mark.
_LETTERS = str.maketrans({
    "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ŀ": "l", "ŧ": "t",
    "æ": "ae", "œ": "oe", "þ": "th", "ð": "d", "ĳ": "ij",
    "\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'",
    "\u2010": "-", "\u2011": "-", "\u2013": "-",
})  # fmt: skip


def fold(text: str) -> str:
    """Fold a string for lookups: case-folded, accents removed, spaces collapsed.

    text (str): A token or a phrase ("Zürich", "New  Zealand").
    RETURNS (str): The key ("zurich", "new zealand").
    """
    text = text.casefold().translate(_LETTERS)
    if not text.isascii():
        text = "".join(
            c for c in unicodedata.normalize("NFKD", text)
            if not unicodedata.combining(c)
        )
    return " ".join(text.split())


def name_key(text: str) -> str:
    """The key of a person's name: folded, without apostrophes.

    The Census and SSA lists write names without punctuation ("OBRIEN").

    text (str): A name ("O'Brien").
    RETURNS (str): The key ("obrien").
    """
    return fold(text).replace("'", "")
