"""A tiny template grammar: `<a|b>` alternatives, `[opt]`, `{slot}` fillers.

A frame like `"{pt_ref} is a {age_phrase} <man|gentleman>[ with {pmh}]."`
expands into many phrasings. A backslash escapes the next character; a `|`
outside `<...>` is literal and a stray `>` or `]` is an error.
"""

from functools import lru_cache
from typing import List, Tuple, Union

# Node kinds: ("t", text), ("s", slot), ("a", [seq, ...]), ("o", seq)
Node = Tuple[str, object]
Seq = List[Node]


class TemplateError(ValueError):
    """A malformed template string."""


def _parse_seq(src: str, i: int, stops: str) -> Tuple[Seq, int]:
    seq: Seq = []
    buf: List[str] = []

    def flush() -> None:
        if buf:
            seq.append(("t", "".join(buf)))
            buf.clear()

    while i < len(src):
        ch = src[i]
        if ch in stops:
            break
        if ch == "\\" and i + 1 < len(src):
            buf.append(src[i + 1])
            i += 2
        elif ch == "{":
            end = src.index("}", i)
            flush()
            seq.append(("s", src[i + 1 : end]))
            i = end + 1
        elif ch == "<":
            flush()
            alts: List[Seq] = []
            i += 1
            while True:
                sub, i = _parse_seq(src, i, "|>")
                alts.append(sub)
                if i >= len(src):
                    raise TemplateError(f"unclosed '<' in {src!r}")
                if src[i] == ">":
                    i += 1
                    break
                i += 1
            seq.append(("a", alts))
        elif ch == "[":
            flush()
            sub, i = _parse_seq(src, i + 1, "]")
            if i >= len(src):
                raise TemplateError(f"unclosed '[' in {src!r}")
            seq.append(("o", sub))
            i += 1
        else:
            buf.append(ch)
            i += 1
    flush()
    return seq, i


@lru_cache(maxsize=None)
def parse(src: str) -> Seq:
    """Parse a template string (cached)."""
    seq, i = _parse_seq(src, 0, ">]")
    if i != len(src):
        raise TemplateError(f"unexpected {src[i]!r} in {src!r}")
    return seq


def _count(seq: Seq) -> int:
    total = 1
    for kind, val in seq:
        if kind == "a":
            total *= sum(_count(s) for s in val)  # type: ignore[union-attr]
        elif kind == "o":
            total *= _count(val) + 1  # type: ignore[arg-type]
    return total


def count_phrasings(src: Union[str, List[str]]) -> int:
    """Number of distinct surface frames (slot fillers not counted)."""
    if isinstance(src, list):
        return sum(count_phrasings(s) for s in src)
    return _count(parse(src))
