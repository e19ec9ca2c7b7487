"""Gates: run a pattern only on the lines where it can match.

Many patterns need a rare string somewhere in a match ("by trade", a
credential, a hospital word, ".com"), yet `finditer` tries them all over the
text. A gate finds those strings first, with one scan, and runs the pattern
only on the lines that hold one. The matches are exactly `finditer`'s over the
whole text when:

- the pattern is *line-bound*: no part of it that reads at or after a
  position it is tried at (what it consumes, its lookaheads) can match "\\r"
  or "\\n", and it has no `$` or `\\Z`. Every match then lies within one line,
  and whether the pattern matches at a position does not depend on anything
  after the line's end: with `endpos` there, a lookahead finds no character
  where the text has a line break, which it could not have matched either.
  Lookbehinds read the real text before the position (`re` keeps the string's
  start when given `pos`), so they may look across lines, as long as they hold
  no lookahead and no end anchor;
- every match holds one of the pattern's *required strings*, read off `re`'s
  parse tree (as RE2's prefilter does): a run of literal characters that any
  match, or one of its lookaheads, must contain, case-blind where the pattern
  is. Lookbehinds give none: they may lie on the line before.

A pattern that is not line-bound, can match the empty string, or whose
required strings are short (under 3 characters; 2 for upper-case letters
matched as written) gets no gate. A gate that finds hits on more than
`MAX_LINES` lines runs the pattern over the rest of the text instead.

Whether a gate saves time depends on how often its strings occur and on how
fast the pattern's scout already is, which the analysis cannot know. So each
gate times its first `2 * TRIALS` texts alternately with and without itself,
and then keeps the faster way (per process). The matches are the same
either way; only the time differs.
"""

import re
import time
from functools import lru_cache
from itertools import product
from typing import Iterator, List, Optional, Set, Tuple

from . import precompiled
from ._sre import ATOMIC, REPEATS, combine_flags, parse, sre
from .patterns._common import alternation
from .scout import finditer as scouted_finditer
from .scout import make_scout


MAX_LINES = 8
# Texts timed with and with no gate (each) before a gate decides if it pays.
TRIALS = 16
MIN_LENGTH = 3
# Largest set of strings a part of a pattern is expanded to.
MAX_STRINGS = 1024
_BREAKS = frozenset((10, 13))  # "\n", "\r"
_END_ANCHORS = (sre.AT_END, sre.AT_END_LINE, sre.AT_END_STRING)
# The line breaks ("\r", "\n") each category escape (\d \D \s \S \w \W)
# matches, as the parser writes them.
_CATEGORY_BREAKS = {
    sre.CATEGORY_DIGIT: frozenset(),
    sre.CATEGORY_NOT_DIGIT: _BREAKS,
    sre.CATEGORY_SPACE: _BREAKS,
    sre.CATEGORY_NOT_SPACE: frozenset(),
    sre.CATEGORY_WORD: frozenset(),
    sre.CATEGORY_NOT_WORD: _BREAKS,
}
# A required string: its text and whether it is matched case-blind.
Needle = Tuple[str, bool]
Needles = Set[Needle]


class Gate:
    """A pattern's gate: a regex (with its scout) for its required strings."""

    def __init__(self, needles: Needles) -> None:
        self.regex = precompiled.compile(_needle_regex(needles))
        self.scout = make_scout(self.regex)
        # Whether the gate saves time: None while on trial.
        self.pays: Optional[bool] = None
        self.trials = 0
        self._seconds = [0.0, 0.0]  # without, with the gate
        self._chars = [0, 0]

    def record(self, gated: bool, seconds: float, chars: int) -> None:
        """Count one trial; after `TRIALS` texts each way, decide whether the
        gate pays: whether it took less time per character."""
        self._seconds[gated] += seconds
        self._chars[gated] += chars
        self.trials += 1
        if self.trials >= 2 * TRIALS:
            per_char = [
                t / max(n, 1) for t, n in zip(self._seconds, self._chars, strict=True)
            ]
            self.pays = per_char[1] < per_char[0]

    def first(self, text: str, pos: int) -> int:
        """The start of the first required string at or after `pos`; -1 if none."""
        if self.scout is not None:
            hit = self.scout.search(text, pos)
        else:
            hit = self.regex.search(text, pos)
        return -1 if hit is None else hit.start()


def _needle_regex(needles: Needles) -> str:
    """An alternation of the strings, the case-blind ones case-blind, grouped
    by first character by `patterns._common.alternation`, so that `re` tests a
    group's first character before entering it."""
    parts = []
    for blind in (False, True):
        words = [re.escape(text) for text, b in needles if b == blind]
        if words:
            parts.append(alternation(words, ignore_case=blind))
    return "|".join(parts)


def make_gate(regex: "re.Pattern[str]") -> Optional[Gate]:
    """The gate of a compiled pattern, or None where it has none.

    regex (re.Pattern[str]): The pattern.
    RETURNS (Optional[Gate]): Its gate.
    """
    if not isinstance(regex.pattern, str):
        return None
    needles = _needles(regex.pattern, regex.flags)
    return None if needles is None else Gate(set(needles))


def required_strings(pattern: str, flags: int) -> Optional[Tuple[Needle, ...]]:
    """The required strings of a regex (None: it gets no gate), as its gate
    reads them; for the saved regex table (`precompiled.py`).

    pattern (str): The regex.
    flags (int): Its flags, as compiled.
    RETURNS (Optional[Tuple[Needle, ...]]): The strings.
    """
    return _needles(pattern, flags)


@lru_cache(maxsize=1024)
def _needles(pattern: str, flags: int) -> Optional[Tuple[Needle, ...]]:
    """The required strings of a line-bound pattern, if all are long enough."""
    saved, found = precompiled.needles(pattern, flags)
    if saved:
        return found
    try:
        tree = parse(pattern, flags)
    except (re.error, RecursionError):
        return None
    flags_in_force = tree.state.flags
    if flags_in_force & re.LOCALE or tree.getwidth()[0] == 0:
        return None
    try:
        if not _ahead_ok(tree.data, flags_in_force):
            return None
        exact, required = _strings(tree.data, flags_in_force)
    except RecursionError:
        return None
    needles = _best([required, exact])
    if needles is None or not all(_long_enough(n) for n in needles):
        return None
    return tuple(sorted(needles))


def finditer(
    regex: "re.Pattern[str]",
    scout: Optional["re.Pattern[str]"],
    gate: Optional[Gate],
    text: str,
) -> Iterator["re.Match[str]"]:
    """`regex.finditer(text)`, through the gate and the scout if there are.
    The matches are the same with and without the gate; while the gate is on
    trial (`Gate.pays` None) texts are timed both ways in turn.

    regex (re.Pattern[str]): The pattern.
    scout (Optional[re.Pattern[str]]): Its scout (`scout.make_scout`).
    gate (Optional[Gate]): Its gate (`make_gate`).
    text (str): The text.
    RETURNS (Iterator[re.Match[str]]): The matches of `regex`, in order.
    """
    if gate is None or gate.pays is False:
        return scouted_finditer(regex, scout, text)
    if gate.pays:
        return gated_finditer(regex, scout, gate, text)
    gated = gate.trials % 2 == 1
    start = time.perf_counter()
    if gated:
        matches = list(gated_finditer(regex, scout, gate, text))
    else:
        matches = list(scouted_finditer(regex, scout, text))
    gate.record(gated, time.perf_counter() - start, len(text))
    return iter(matches)


def gated_finditer(
    regex: "re.Pattern[str]", scout: Optional["re.Pattern[str]"], gate: Gate, text: str
) -> Iterator["re.Match[str]"]:
    """`regex.finditer(text)` on the lines where the gate finds a required
    string, then on the rest of the text after `MAX_LINES` lines."""
    pos, lines = 0, 0
    while pos <= len(text):
        hit = gate.first(text, pos)
        if hit < 0:
            return
        start = max(text.rfind("\n", 0, hit), text.rfind("\r", 0, hit)) + 1
        lines += 1
        if lines > MAX_LINES:
            yield from scouted_finditer(regex, scout, text, start)
            return
        end = _line_end(text, hit)
        yield from scouted_finditer(regex, scout, text, start, end)
        pos = end + 1


def _line_end(text: str, pos: int) -> int:
    """The position of the first line break at or after `pos`, or the end."""
    ends = [end for end in (text.find("\n", pos), text.find("\r", pos)) if end >= 0]
    return min(ends) if ends else len(text)


def _long_enough(needle: Needle) -> bool:
    text, blind = needle
    if len(text) >= MIN_LENGTH:
        return True
    return (
        len(text) == MIN_LENGTH - 1 and not blind and text.isalpha() and text.isupper()
    )


# Line-bound analysis


def _ahead_ok(data: list, flags: int) -> bool:
    """Whether a sequence read at or after the position it is tried at cannot
    match a line break and has no end anchor."""
    for op, av in data:
        if op is sre.LITERAL:
            if av in _BREAKS:
                return False
        elif op is sre.IN:
            if _set_breaks(av):
                return False
        elif op is sre.AT:
            if av in _END_ANCHORS:
                return False
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            direction, sub = av
            ok = _behind_ok(sub.data) if direction < 0 else _ahead_ok(sub.data, flags)
            if not ok:
                return False
        elif op is sre.SUBPATTERN:
            _, add_flags, del_flags, sub = av
            scoped = combine_flags(flags, add_flags, del_flags)
            if not _ahead_ok(sub.data, scoped):
                return False
        elif op is sre.BRANCH:
            if not all(_ahead_ok(alt.data, flags) for alt in av[1]):
                return False
        elif op in REPEATS:
            if not _ahead_ok(av[2].data, flags):
                return False
        elif ATOMIC is not None and op is ATOMIC:
            if not _ahead_ok(av.data, flags):
                return False
        elif op is not sre.GROUPREF:  # a group's own text: checked there
            return False  # NOT_LITERAL, ANY, conditionals, ...: may match "\n"
    return True


def _behind_ok(data: list) -> bool:
    """Whether a lookbehind reads only the text before its position: no
    lookahead and no end anchor anywhere in it."""
    for op, av in data:
        if op is sre.AT and av in _END_ANCHORS:
            return False
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            if av[0] >= 0 or not _behind_ok(av[1].data):
                return False
        elif op is sre.SUBPATTERN:
            if not _behind_ok(av[3].data):
                return False
        elif op is sre.BRANCH:
            if not all(_behind_ok(alt.data) for alt in av[1]):
                return False
        elif op in REPEATS:
            if not _behind_ok(av[2].data):
                return False
        elif ATOMIC is not None and op is ATOMIC:
            if not _behind_ok(av.data):
                return False
    return True


def _set_breaks(items: list) -> bool:
    """Whether a character set (`IN` items) matches "\\r" or "\\n"."""
    negate = any(op is sre.NEGATE for op, _ in items)
    found: Set[int] = set()
    for op, av in items:
        if op is sre.LITERAL:
            found |= _BREAKS & {av}
        elif op is sre.RANGE:
            found |= {code for code in _BREAKS if av[0] <= code <= av[1]}
        elif op is sre.CATEGORY:
            if av not in _CATEGORY_BREAKS:
                return True
            found |= _CATEGORY_BREAKS[av]
        elif op is not sre.NEGATE:
            return True
    return found != _BREAKS if negate else bool(found)


# Required strings


def _strings(data: list, flags: int) -> Tuple[Optional[Needles], Optional[Needles]]:
    """For a sequence: the set of all strings it matches (None: too many or
    unknown), and a set of strings one of which any match holds (None: none
    known)."""
    run: Optional[Needles] = {("", False)}
    candidates: List[Optional[Needles]] = []
    exact = True
    for op, av in data:
        node_exact, node_required = _node(op, av, flags)
        candidates.append(node_required)
        joined = _join(run, node_exact) if run is not None else None
        if joined is None:
            candidates.append(run)
            exact = False
            run = node_exact
        else:
            run = joined
    candidates.append(run)
    return (run if exact else None), _best(candidates)


def _node(
    op: object, av: object, flags: int
) -> Tuple[Optional[Needles], Optional[Needles]]:
    """`_strings` for one parse-tree node."""
    blind = bool(flags & re.IGNORECASE)
    if op is sre.LITERAL:
        return {_char(av, blind)}, None  # type: ignore[arg-type]
    if op is sre.IN:
        return _set_strings(av, blind), None  # type: ignore[arg-type]
    if op in (sre.AT, sre.ASSERT_NOT):
        return {("", False)}, None
    if op is sre.ASSERT:
        direction, sub = av  # type: ignore[misc]
        if direction < 0:
            return {("", False)}, None
        exact, required = _strings(sub.data, flags)
        return {("", False)}, _best([required, exact])
    if op is sre.SUBPATTERN:
        _, add_flags, del_flags, sub = av  # type: ignore[misc]
        return _strings(sub.data, combine_flags(flags, add_flags, del_flags))
    if op is sre.BRANCH:
        return _branch(av[1], flags)  # type: ignore[index]
    if op in REPEATS:
        low, high, sub = av  # type: ignore[misc]
        exact, required = _strings(sub.data, flags)
        required = _best([required, exact]) if low >= 1 else None
        if exact is not None and (low, high) == (0, 1):
            return exact | {("", False)}, required
        if exact is not None and low == high and low <= 3:
            repeated: Optional[Needles] = {("", False)}
            for _ in range(low):
                repeated = _join(repeated, exact) if repeated is not None else None
            return repeated, required
        return None, required
    if ATOMIC is not None and op is ATOMIC:
        return _strings(av.data, flags)  # type: ignore[attr-defined]
    return None, None


def _branch(
    alternatives: list, flags: int
) -> Tuple[Optional[Needles], Optional[Needles]]:
    exact: Optional[Needles] = set()
    required: Optional[Needles] = set()
    for alternative in alternatives:
        alt_exact, alt_required = _strings(alternative.data, flags)
        if exact is not None and alt_exact is not None:
            exact |= alt_exact
            exact = exact if len(exact) <= MAX_STRINGS else None
        else:
            exact = None
        best = _best([alt_required, alt_exact])
        required = None if best is None or required is None else required | best
    return exact, required


def _char(code: int, blind: bool) -> Needle:
    """A literal character, case-blind only if it has cases."""
    char = chr(code)
    return char, blind and char.lower() != char.upper()


def _set_strings(items: list, blind: bool) -> Optional[Needles]:
    """The characters of a small set without categories or negation."""
    chars: Needles = set()
    for op, av in items:
        if op is sre.LITERAL:
            chars.add(_char(av, blind))
        elif op is sre.RANGE and av[1] - av[0] < 16:
            chars.update(_char(code, blind) for code in range(av[0], av[1] + 1))
        else:
            return None
    return chars


def _join(left: Needles, right: Optional[Needles]) -> Optional[Needles]:
    """All concatenations, or None if there are too many."""
    if right is None or len(left) * len(right) > MAX_STRINGS:
        return None
    return {_concat(a, b) for a, b in product(left, right)}


def _concat(a: Needle, b: Needle) -> Needle:
    """Two strings in a row: case-blind if either is. (Never lower-cased:
    "\u0130".lower() is two characters, which `(?i:...)` would not match.)"""
    return a[0] + b[0], a[1] or b[1]


def _best(candidates: List[Optional[Needles]]) -> Optional[Needles]:
    """The most selective candidate: the longest shortest string, then the
    fewest strings. Sets with an empty string require nothing."""
    usable = [c for c in candidates if c and all(text for text, _ in c)]
    if not usable:
        return None
    return max(usable, key=lambda c: (min(_weight(n) for n in c), -len(c)))


def _weight(needle: Needle) -> int:
    text, blind = needle
    return len(text) + (0 if blind else 1)
