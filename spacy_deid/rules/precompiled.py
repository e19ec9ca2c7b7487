"""Regexes compiled when a pipeline is saved, read back when it loads.

On a pipeline's first note the rules compile the patterns the note needs and
read each one's parse tree for its scout and gate: about a second, most of it
`re` parsing long alternations in Python. `PhiRuler.write_regex_table` saves what
that work produced (`dumps`): the engine code `re` made of every regex, for this
interpreter's `_sre`, with the scouts' sources and the gates' strings.
`PhiRuler.from_disk` hands the saved table to `load`, and `compile`, `scout`
and `needles` answer from it where it has the regex.

The code itself is saved and read by `core/regex_code.py` (keyed by each
regex's text and flags, ignored when another Python made it); this module adds
the scouts and gates to the same table.
"""

from typing import Any, Dict, Iterable, Optional, Tuple

from ..core import regex_code
from ..core.regex_code import ENGINE, Key, available, code_of, compile

_SCOUTS: Dict[Key, Optional[str]] = {}
_NEEDLES: Dict[Key, Optional[Tuple[Tuple[str, bool], ...]]] = {}


def scout(pattern: str, flags: int) -> Tuple[bool, Optional[str]]:
    """The saved source of a regex's scout: (found, source or None)."""
    key = (pattern, flags)
    return (key in _SCOUTS, _SCOUTS.get(key))


def needles(pattern: str, flags: int) -> Tuple[bool, Any]:
    """The saved required strings of a regex: (found, needles or None)."""
    key = (pattern, flags)
    return (key in _NEEDLES, _NEEDLES.get(key))


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
    return regex_code.dumps(
        regexes,
        scouts=[[p, f, s] for (p, f), s in sorted(scouts.items())],
        needles=[
            [p, f, None if n is None else [list(x) for x in n]]
            for (p, f), n in sorted(needles.items())
        ],
    )


def load(data: bytes) -> bool:
    """Load a saved table into this process, if this engine made it.

    data (bytes): A table from `dumps`.
    RETURNS (bool): Whether it was used.
    """
    saved = regex_code.read(data)
    if saved is None:
        return False
    for pattern, flags, source in saved["scouts"]:
        _SCOUTS[(pattern, flags)] = source
    for pattern, flags, found in saved["needles"]:
        _NEEDLES[(pattern, flags)] = (
            None if found is None else tuple((text, bool(b)) for text, b in found)
        )
    return True


def clear() -> None:
    """Forget every loaded table (for tests)."""
    regex_code.clear()
    _SCOUTS.clear()
    _NEEDLES.clear()


__all__ = [
    "ENGINE",
    "Key",
    "available",
    "clear",
    "code_of",
    "compile",
    "needles",
    "scout",
    "dumps",
    "load",
]
