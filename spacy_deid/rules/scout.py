"""Scouts: find a pattern's matches without trying it at every position.

Python's `re` skips ahead to candidate positions only when a pattern starts
with a literal or a character set. Most PHI patterns start with a lookbehind,
`\\b` or an alternation of cue words, so `finditer` tries them at every
character, about 30 ns each; with ~100 patterns that was most of the ruler's
time.

A scout is `[S](?<=(?=P)[\\s\\S])`: the set S of characters a match of P can
start with, then (looking back over that character) P itself as a lookahead.
`re` jumps from one character of S to the next in C, and the scout matches
at exactly the positions where P matches. `finditer` below then takes, left to
right, each such position at or after the end of the previous match and
matches P there: the same matches, with the same groups, as `P.finditer`.

S is read off P's parse tree (`re`'s own parser) and is never too small:
anything the analysis does not know (a negated set, `.`, a backreference,
a case-blind letter outside ASCII, ...) gives no scout, and the pattern runs
as before. So do patterns that can match the empty string, verbose ones, and
those where S holds every lower-case ASCII letter (a scout gains nothing).
"""

import re
from functools import lru_cache
from typing import Iterator, List, Optional, Set, Tuple

from . import precompiled
from ._sre import ATOMIC, CATEGORY_ESCAPES, REPEATS, combine_flags, parse, sre
from .patterns._common import case_folds


_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
# An item of S: a character, a (low, high) range, or a category escape.
Item = Tuple[str, object]


class _Unknown(Exception):
    """The analysis cannot bound the first character."""


def make_scout(regex: "re.Pattern[str]") -> Optional["re.Pattern[str]"]:
    """The scout of a compiled pattern, or None where it has none.

    regex (re.Pattern[str]): The pattern.
    RETURNS (Optional[re.Pattern[str]]): The scout.
    """
    if not isinstance(regex.pattern, str):
        return None
    return _scout(regex.pattern, regex.flags)


@lru_cache(maxsize=1024)
def _scout(pattern: str, flags: int) -> Optional["re.Pattern[str]"]:
    """`make_scout`, once per process for each pattern: parsing a pattern
    and compiling its scout take longer than compiling it (which `re`
    caches)."""
    saved, source = precompiled.scout(pattern, flags)
    if saved:
        return None if source is None else precompiled.compile(source, flags)
    try:
        tree = parse(pattern, flags)
        flags_in_force = tree.state.flags  # with the pattern's inline flags
        if flags_in_force & (re.VERBOSE | re.LOCALE):
            return None
        items, nullable = _first(tree.data, flags_in_force)
        if nullable or not items:
            return None
        first = _char_class(items)
        if re.fullmatch(first + "+", "abcdefghijklmnopqrstuvwxyz"):
            return None
        # S holds the case variants itself; `re` skips ahead only with a set
        # that is not case-blind.
        first = "(?-i:" + first + ")" if flags_in_force & re.IGNORECASE else first
        return precompiled.compile(first + r"(?<=(?=" + pattern + r")[\s\S])", flags)
    except (_Unknown, re.error, RecursionError):
        return None


def finditer(
    regex: "re.Pattern[str]",
    scout: Optional["re.Pattern[str]"],
    text: str,
    pos: int = 0,
    endpos: Optional[int] = None,
) -> Iterator["re.Match[str]"]:
    """`regex.finditer(text, pos, endpos)`, through the scout if there is one.

    regex (re.Pattern[str]): The pattern.
    scout (Optional[re.Pattern[str]]): Its scout, from `make_scout`.
    text (str): The text.
    pos (int): Where to start, as in `re.Pattern.finditer`.
    endpos (Optional[int]): Where the text ends for the pattern; None: its end.
    YIELDS (re.Match[str]): The matches of `regex`, in order.
    """
    endpos = len(text) if endpos is None else endpos
    if scout is None:
        yield from regex.finditer(text, pos, endpos)
        return
    end = pos
    for hit in scout.finditer(text, pos, endpos):
        start = hit.start()
        if start < end:
            continue
        match = regex.match(text, start, endpos)
        if match is None:  # cannot happen: the scout checked this position
            raise RuntimeError("a PHI pattern's scout disagrees with the pattern")
        end = match.end()
        yield match


def _first(data: list, flags: int) -> Tuple[List[Item], bool]:
    """The items of S for a sequence of parse-tree nodes, and whether the
    sequence can match the empty string."""
    items: List[Item] = []
    for op, av in data:
        if op in _ZERO_WIDTH:
            continue
        if op is sre.SUBPATTERN:
            _, add_flags, del_flags, sub = av
            scoped = combine_flags(flags, add_flags, del_flags)
            found, nullable = _first(sub.data, scoped)
        elif op is sre.BRANCH:
            found, nullable = [], False
            for alternative in av[1]:
                alt_items, alt_nullable = _first(alternative.data, flags)
                found += alt_items
                nullable = nullable or alt_nullable
        elif op in REPEATS:
            low, _, sub = av
            found, nullable = _first(sub.data, flags)
            nullable = nullable or low == 0
        elif ATOMIC is not None and op is ATOMIC:
            found, nullable = _first(av.data, flags)
        else:
            found, nullable = _char_items(op, av, flags), False
        items += found
        if not nullable:
            return items, False
    return items, True


def _char_items(op: object, av: object, flags: int) -> List[Item]:
    """The items of S for one character-consuming node."""
    if op is sre.LITERAL:
        return [("char", code) for code in _case_variants(av, flags)]  # type: ignore[arg-type]
    if op is not sre.IN:
        raise _Unknown
    items: List[Item] = []
    for item_op, item_av in av:  # type: ignore[attr-defined]
        if item_op is sre.LITERAL:
            items += [("char", code) for code in _case_variants(item_av, flags)]
        elif item_op is sre.RANGE and not flags & re.IGNORECASE:
            items.append(("range", item_av))
        elif item_op is sre.RANGE:
            low, high = item_av
            for code in range(low, high + 1):
                items += [("char", c) for c in _case_variants(code, flags)]
        elif item_op is sre.CATEGORY and item_av in CATEGORY_ESCAPES:
            items.append(("category", item_av))
        else:
            raise _Unknown
    return items


def _case_variants(code: int, flags: int) -> Set[int]:
    """The characters a literal matches: itself, or under IGNORECASE its
    case variants (for ASCII; other cased characters are unknown)."""
    char = chr(code)
    if not flags & re.IGNORECASE or char.lower() == char.upper():
        if not char.isascii() and flags & re.IGNORECASE:
            raise _Unknown
        return {code}
    if not char.isascii():
        raise _Unknown
    return {ord(variant) for variant in case_folds(char, bool(flags & re.ASCII))}


def _char_class(items: List[Item]) -> str:
    """A character class of the items."""
    parts = set()
    for kind, value in items:
        if kind == "char":
            parts.add("\\U%08x" % value)
        elif kind == "range":
            parts.add("\\U%08x-\\U%08x" % value)  # type: ignore[str-format]
        else:
            parts.add(CATEGORY_ESCAPES[value])
    return "[" + "".join(sorted(parts)) + "]"
