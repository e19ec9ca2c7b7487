"""Offset map helpers: build the output text and map offsets both ways.

An offset map is a list of `[in_start, in_end, out_start, out_end]` entries,
one per replaced region, sorted and non-overlapping. Text outside the regions
is copied unchanged, so offsets outside them move by the summed length
difference of the regions before them.
"""

from bisect import bisect_right
from typing import List, Sequence, Tuple

OffsetMap = List[List[int]]
_IN_START, _IN_END, _OUT_START, _OUT_END = 0, 1, 2, 3


def apply_replacements(
    text: str, replacements: Sequence[Tuple[int, int, str]]
) -> Tuple[str, OffsetMap]:
    """Replace character ranges and record where each one ends up.

    text (str): The input text.
    replacements (Sequence[Tuple[int, int, str]]): Sorted, non-overlapping
        (start, end, new_text) triples.
    RETURNS (Tuple[str, OffsetMap]): The output text and the offset map.
    """
    pieces: List[str] = []
    offset_map: OffsetMap = []
    prev_end = 0
    out_len = 0
    for start, end, new_text in replacements:
        if start < prev_end or end < start:
            raise ValueError("Replacements must be sorted and must not overlap.")
        pieces.append(text[prev_end:start])
        out_len += start - prev_end
        offset_map.append([start, end, out_len, out_len + len(new_text)])
        pieces.append(new_text)
        out_len += len(new_text)
        prev_end = end
    pieces.append(text[prev_end:])
    return "".join(pieces), offset_map


def map_in_to_out(offset_map: OffsetMap, offset: int, side: str = "left") -> int:
    """Map an input character offset to the output text.

    offset_map (OffsetMap): The doc's `doc._.offset_map`.
    offset (int): An offset in the input text.
    side (str): For an offset strictly inside a replaced region: "left" gives
        the region's output start, "right" its output end.
    RETURNS (int): The output offset.
    """
    return _map(offset_map, offset, side, _IN_START, _IN_END, _OUT_START, _OUT_END)


def map_out_to_in(offset_map: OffsetMap, offset: int, side: str = "left") -> int:
    """Map an output character offset back to the input text.

    offset_map (OffsetMap): The doc's `doc._.offset_map`.
    offset (int): An offset in the output (de-identified) text.
    side (str): For an offset strictly inside a replaced region: "left" gives
        the region's input start, "right" its input end.
    RETURNS (int): The input offset.
    """
    return _map(offset_map, offset, side, _OUT_START, _OUT_END, _IN_START, _IN_END)


def map_span_in_to_out(offset_map: OffsetMap, start: int, end: int) -> Tuple[int, int]:
    """Map an input character span to the smallest output span covering it.

    RETURNS (Tuple[int, int]): The output (start, end).
    """
    out_start = map_in_to_out(offset_map, start, "left")
    return out_start, max(out_start, map_in_to_out(offset_map, end, "right"))


def map_span_out_to_in(offset_map: OffsetMap, start: int, end: int) -> Tuple[int, int]:
    """Map an output character span to the smallest input span covering it.

    RETURNS (Tuple[int, int]): The input (start, end).
    """
    in_start = map_out_to_in(offset_map, start, "left")
    return in_start, max(in_start, map_out_to_in(offset_map, end, "right"))


def _map(
    offset_map: OffsetMap,
    offset: int,
    side: str,
    src_start: int,
    src_end: int,
    dst_start: int,
    dst_end: int,
) -> int:
    if side not in ("left", "right"):
        raise ValueError("side must be 'left' or 'right'")
    if offset < 0:
        raise ValueError("Offsets must be non-negative.")
    starts = [entry[src_start] for entry in offset_map]
    # Last region starting at or before the offset.
    i = bisect_right(starts, offset) - 1
    if i < 0:
        return offset
    entry = offset_map[i]
    if offset == entry[src_start]:
        return entry[dst_start]
    if offset < entry[src_end]:
        return entry[dst_start] if side == "left" else entry[dst_end]
    return entry[dst_end] + (offset - entry[src_end])
