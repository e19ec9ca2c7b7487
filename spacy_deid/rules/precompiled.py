"""Regexes compiled when a pipeline is saved, read back when it loads.

On a pipeline's first note the rules compile the patterns the note needs and
read each one's parse tree for its scout and gate: about a second, most of it
`re` parsing long alternations in Python. `PhiRuler.write_regex_table` saves what
that work produced (`dumps`): the engine code `re` made of every regex, for this
interpreter's `_sre`, with the scouts' sources and the gates' strings.
`PhiRuler.from_disk` hands the saved table to `load`, and `compile`, `scout`
and `needles` answer from it where it has the regex.

Each entry is keyed by the regex's text and flags, so it can only stand in
for the very regex it was made from, and `compile` returns a pattern equal to
`re.compile`'s (`re.Pattern` compares the code). A table saved by another
Python (another `_sre.MAGIC`, code size or byte order) is ignored, and the
regexes are then compiled as before.
"""

import lzma
import re
import sys
from array import array
from typing import Any, Dict, Iterable, List, Optional, Tuple

import srsly

from ._sre import sre_compile, sre_parse

try:  # CPython
    import _sre
except ImportError:  # pragma: no cover
    _sre = None  # type: ignore[assignment]

Key = Tuple[str, int]
# What `re._compiler.compile` hands `_sre.compile` after the pattern text.
Code = Tuple[int, List[int], int, Dict[str, int], Tuple[Optional[str], ...]]
# The same as loaded: the code as bytes (a list of ints would take about 10
# times the memory), made a list when its regex is compiled.
Saved = Tuple[int, bytes, int, Dict[str, int], Tuple[Optional[str], ...]]

ENGINE = (
    []
    if _sre is None
    else [list(sys.version_info[:2]), _sre.MAGIC, _sre.CODESIZE, sys.byteorder]
)
# The array type whose items are as wide as the engine's code words.
_ARRAY_TYPE = next(
    (t for t in "HIL" if array(t).itemsize == getattr(_sre, "CODESIZE", 0)), ""
)

_CODE: Dict[Key, Saved] = {}
_SCOUTS: Dict[Key, Optional[str]] = {}
_NEEDLES: Dict[Key, Optional[Tuple[Tuple[str, bool], ...]]] = {}


def available() -> bool:
    """Whether this interpreter's regex engine takes saved code."""
    return bool(ENGINE) and bool(_ARRAY_TYPE)


def compile(pattern: str, flags: int = 0) -> "re.Pattern[str]":
    """`re.compile(pattern, flags)`, from the saved code where there is some.

    pattern (str): The regex.
    flags (int): Its flags.
    RETURNS (re.Pattern[str]): The compiled regex.
    """
    code = _CODE.get((pattern, flags))
    if code is None:
        return re.compile(pattern, flags)
    all_flags, packed, groups, groupindex, indexgroup = code
    ops = array(_ARRAY_TYPE, packed).tolist()
    return _sre.compile(pattern, all_flags, ops, groups, groupindex, indexgroup)


def scout(pattern: str, flags: int) -> Tuple[bool, Optional[str]]:
    """The saved source of a regex's scout: (found, source or None)."""
    key = (pattern, flags)
    return (key in _SCOUTS, _SCOUTS.get(key))


def needles(pattern: str, flags: int) -> Tuple[bool, Any]:
    """The saved required strings of a regex: (found, needles or None)."""
    key = (pattern, flags)
    return (key in _NEEDLES, _NEEDLES.get(key))


def code_of(pattern: str, flags: int) -> Code:
    """What `re` compiles a regex into (as `re._compiler.compile` does).

    pattern (str): The regex.
    flags (int): Its flags.
    RETURNS (Code): The arguments of `_sre.compile` after the pattern.
    """
    tree = sre_parse.parse(pattern, flags)
    ops = sre_compile._code(tree, flags)
    groupindex = dict(tree.state.groupdict)
    indexgroup: List[Optional[str]] = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        flags | tree.state.flags,
        ops,
        tree.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def dumps(
    regexes: Iterable[Key],
    scouts: Dict[Key, Optional[str]],
    needles: Dict[Key, Any],
) -> bytes:
    """A table to save: the code of the regexes, and the scouts and needles,
    as xz-compressed msgpack (the texts repeat: about 75 KB for 350 regexes).

    regexes (Iterable[Key]): (text, flags) of every regex to save.
    scouts (Dict[Key, Optional[str]]): Scout sources (None: no scout).
    needles (Dict[Key, Any]): Gate strings (None: no gate).
    RETURNS (bytes): The table.
    """
    entries = []
    for pattern, flags in sorted(set(regexes)):
        all_flags, ops, groups, groupindex, indexgroup = code_of(pattern, flags)
        packed = array(_ARRAY_TYPE, ops).tobytes()
        entries.append(
            [pattern, flags, all_flags, packed, groups, groupindex, list(indexgroup)]
        )
    table = {
        "engine": ENGINE,
        "code": entries,
        "scouts": [[p, f, s] for (p, f), s in sorted(scouts.items())],
        "needles": [
            [p, f, None if n is None else [list(x) for x in n]]
            for (p, f), n in sorted(needles.items())
        ],
    }
    return lzma.compress(srsly.msgpack_dumps(table))


def load(data: bytes) -> bool:
    """Load a saved table into this process, if this engine made it.

    data (bytes): A table from `dumps`.
    RETURNS (bool): Whether it was used.
    """
    if not available():
        return False
    try:
        saved = srsly.msgpack_loads(lzma.decompress(data))
    except (lzma.LZMAError, ValueError):
        return False  # damaged: every regex is compiled as usual
    if not isinstance(saved, dict) or saved.get("engine") != ENGINE:
        return False
    for entry in saved["code"]:
        pattern, flags, all_flags, packed, groups, groupindex, indexgroup = entry
        code = (all_flags, bytes(packed), groups, dict(groupindex), tuple(indexgroup))
        _CODE[(pattern, flags)] = code
    for pattern, flags, source in saved["scouts"]:
        _SCOUTS[(pattern, flags)] = source
    for pattern, flags, found in saved["needles"]:
        _NEEDLES[(pattern, flags)] = (
            None if found is None else tuple((text, bool(b)) for text, b in found)
        )
    return True


def clear() -> None:
    """Forget every loaded table (for tests)."""
    _CODE.clear()
    _SCOUTS.clear()
    _NEEDLES.clear()


__all__ = [
    "available",
    "clear",
    "code_of",
    "compile",
    "needles",
    "scout",
    "dumps",
    "load",
]
