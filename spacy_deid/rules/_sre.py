"""`re`'s parser and its node types, which the scouts and the gates read
(`re._parser` and friends since Python 3.11, `sre_parse` before)."""

from functools import lru_cache

try:  # Python 3.11+
    from re import _compiler as sre_compile
    from re import _constants as sre
    from re import _parser as sre_parse
except ImportError:  # Python 3.10
    import sre_compile  # type: ignore[no-redef]
    import sre_constants as sre  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

# Repeat nodes: greedy, lazy and (3.11+) possessive.
REPEATS = tuple(
    op
    for op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None))
    if op is not None
)
ATOMIC = getattr(sre, "ATOMIC_GROUP", None)  # (?>...), 3.11+
# The escape of each category a set can hold, as the parser writes them.
CATEGORY_ESCAPES = {
    sre.CATEGORY_DIGIT: r"\d",
    sre.CATEGORY_NOT_DIGIT: r"\D",
    sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S",
    sre.CATEGORY_WORD: r"\w",
    sre.CATEGORY_NOT_WORD: r"\W",
}


@lru_cache(maxsize=8)
def parse(pattern: str, flags: int) -> "sre_parse.SubPattern":
    """The parse tree of a pattern, shared by its scout and gate, which are
    built one after the other (parsing a long pattern takes longer than
    compiling it); both are cached themselves, so only the last few trees
    are kept (all of them would be about 450,000 objects for the collector
    to walk). Callers only read it."""
    return sre_parse.parse(pattern, flags)


def combine_flags(flags: int, add_flags: int, del_flags: int) -> int:
    """The flags inside a group `(?add-del:...)`."""
    return sre_compile._combine_flags(flags, add_flags, del_flags)


__all__ = ["ATOMIC", "CATEGORY_ESCAPES", "REPEATS", "combine_flags", "parse", "sre"]
