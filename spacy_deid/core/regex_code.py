"""Regexes compiled when a package or pipeline is built, read back when it loads.

`re` spends most of a long alternation's compile time in Python: parsing it,
then optimising its character sets. What that work produces is the engine code
that `_sre.compile` takes. `dumps` saves that code for a list of regexes;
`load` reads it back, and `compile` then builds those regexes from it in
microseconds instead of compiling them.

Each entry is keyed by the regex's text and flags, so it can only stand in
for the very regex it was made from, and `compile` returns a pattern equal to
`re.compile`'s (`re.Pattern` compares the code). A table saved by another
Python (another `_sre.MAGIC`, code size or byte order) is ignored, and the
regexes are then compiled as usual. The clinical tokenizer and the rules
(`rules/precompiled.py`) both read their tables through this module.
"""

import lzma
import re
import sys
from array import array
from typing import Any, Dict, Iterable, List, Optional, Tuple

import srsly

try:  # Python 3.11+
    from re import _compiler as sre_compile
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover  (Python 3.10)
    import sre_compile  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

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


def code_entries(regexes: Iterable[Key]) -> List[List[Any]]:
    """The saved form of the regexes' code, in text order: one list per regex
    (text, flags, all flags, packed code, groups, group index, index group).

    regexes (Iterable[Key]): (text, flags) of every regex to save.
    RETURNS (List[List[Any]]): The entries.
    """
    entries = []
    for pattern, flags in sorted(set(regexes)):
        all_flags, ops, groups, groupindex, indexgroup = code_of(pattern, flags)
        packed = array(_ARRAY_TYPE, ops).tobytes()
        entries.append(
            [pattern, flags, all_flags, packed, groups, groupindex, list(indexgroup)]
        )
    return entries


def add_entries(entries: Iterable[List[Any]]) -> None:
    """Make saved entries (from `code_entries`) available to `compile`.

    entries (Iterable[List[Any]]): The entries, as read back.
    """
    for entry in entries:
        pattern, flags, all_flags, packed, groups, groupindex, indexgroup = entry
        code = (all_flags, bytes(packed), groups, dict(groupindex), tuple(indexgroup))
        _CODE[(pattern, flags)] = code


def _checked_entry(entry: Any) -> List[Any]:
    """A saved entry of the right shape, or a ValueError."""
    if not isinstance(entry, (list, tuple)) or len(entry) != 7:
        raise ValueError("not a regex code entry")
    return list(entry)


def dumps(regexes: Iterable[Key], **extra: Any) -> bytes:
    """A table to save: the engine, the code of the regexes and any extra
    fields, as xz-compressed msgpack.

    regexes (Iterable[Key]): (text, flags) of every regex to save.
    extra: More msgpack-able fields, for `read` to hand back.
    RETURNS (bytes): The table.
    """
    table = {"engine": ENGINE, "code": code_entries(regexes), **extra}
    return lzma.compress(srsly.msgpack_dumps(table))


def read(data: bytes) -> Optional[Dict[str, Any]]:
    """Read a saved table and make its code available to `compile`, if this
    engine made it.

    data (bytes): A table from `dumps`.
    RETURNS (Optional[Dict[str, Any]]): The table (with its extra fields), or
        None when it was not used.
    """
    if not available():
        return None
    try:
        saved = srsly.msgpack_loads(lzma.decompress(data))
        if not isinstance(saved, dict) or saved.get("engine") != ENGINE:
            return None
        entries = [_checked_entry(entry) for entry in saved["code"]]
    except (lzma.LZMAError, ValueError, KeyError, TypeError):
        return None  # damaged: every regex is compiled as usual
    add_entries(entries)
    return saved


def clear() -> None:
    """Forget every loaded entry (for tests)."""
    _CODE.clear()


__all__ = [
    "ENGINE",
    "Key",
    "add_entries",
    "available",
    "clear",
    "code_entries",
    "code_of",
    "compile",
    "dumps",
    "read",
]
