"""Notes longer than the pipeline's `max_length`, in pieces of bounded size.

A note longer than `nlp.max_length` characters is not read as one doc (spaCy
refuses it, and memory would grow with the note). Instead:

1. **Find.** The note is cut into windows of at most `piece_chars(nlp)`
   characters that overlap by `OVERLAP` characters, each ending at the best
   boundary near its end: a blank line, else a sentence end, else a line
   break, else a space. Each window runs through the pipeline without
   `phi_surrogates`, in its own memory zone; its entities are kept with their
   flags and sources, in note offsets. A window keeps the entities that start
   in its own part (between the midpoints of its overlaps), so a PHI string
   cut by one window's edge is found whole by its neighbour.
2. **Replace.** The note is cut again at the midpoints of the overlaps, each
   cut moved past any entity it would split, into segments that do not
   overlap. Each segment becomes a doc with its entities; a component that
   spreads PHI strings across docs (`collect`/`mark`, as `phi_consistency`)
   marks there the strings it collected from every window, so a name found in
   the first piece is also found in the last. `phi_surrogates` replaces them:
   its surrogates are keyed by patient and string, so they agree across
   segments. Each segment is checked as a whole note is (`check_deidentified`)
   and the outputs are joined.

Memory is bounded by the window size, not by the note. A note no longer than
`max_length` never comes here: it is processed whole, as before.
"""

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..consistency.component import PhiStrings
from .check import FAILED_KEY, SURROGATES, DeidCheckError, check_deidentified

# Characters two windows share: PHI shorter than half of it is seen whole.
OVERLAP = 2_000
# The largest window: bounds a window's memory (its doc and the tagger's
# activations), whatever `max_length` is.
MAX_PIECE_CHARS = 200_000
# How far back from a window's end a boundary is looked for (share of it).
SEARCH_SHARE = 0.25
# Best boundaries first: a blank line, a sentence end, a line break, a space.
BOUNDARIES = (
    re.compile(r"\n[ \t]*\r?\n"),
    re.compile(r"[.!?][)\"']?[ \t\r\n]+"),
    re.compile(r"\n"),
    re.compile(r"[ \t]+"),
)


@dataclass(frozen=True)
class Found:
    """An entity found in a window, in note offsets."""

    start: int
    end: int
    label: str
    flags: Optional[Tuple[str, ...]]
    source: Optional[str]
    score: Optional[float]


def piece_chars(nlp: Language) -> int:
    """The size of a window: `nlp.max_length`, at most `MAX_PIECE_CHARS`."""
    return max(1, min(nlp.max_length, MAX_PIECE_CHARS))


def boundary_before(text: str, start: int, end: int) -> int:
    """The best cut at or before `end` and after `start`: the end of the last
    blank line, sentence end, line break or space in the last `SEARCH_SHARE`
    of the range; `end` if there is none.

    text (str): The note.
    start (int): The range's start.
    end (int): The range's end (exclusive), < len(text).
    RETURNS (int): The cut.
    """
    lowest = max(start + 1, end - int((end - start) * SEARCH_SHARE))
    for pattern in BOUNDARIES:
        last = None
        for match in pattern.finditer(text, lowest, end):
            last = match
        if last is not None and last.end() > start:
            return last.end()
    return end


def windows(text: str, size: int, overlap: int = OVERLAP) -> List[Tuple[int, int]]:
    """Windows (start, end) of at most `size` characters covering `text`,
    each sharing at least `min(overlap, size // 4)` characters with the next.

    text (str): The note.
    size (int): The largest window.
    overlap (int): Characters two neighbours share.
    RETURNS (List[Tuple[int, int]]): The windows, in order.
    """
    overlap = min(overlap, size // 4)
    out: List[Tuple[int, int]] = []
    start = 0
    while True:
        end = len(text) if start + size >= len(text) else start + size
        if end < len(text):
            end = boundary_before(text, start + overlap + 1, end)
        out.append((start, end))
        if end >= len(text):
            return out
        start = _next_start(text, start, end - overlap)


def _next_start(text: str, start: int, highest: int) -> int:
    """The next window's start: just after the last space or line break at or
    before `highest` (so that it starts at a word and the windows share at
    least the overlap), else `highest`."""
    space = max(text.rfind(c, start + 1, highest + 1) for c in " \t\n\r")
    return space + 1 if space > start else highest


def own_parts(bounds: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """Each window's own part: from the midpoint of its overlap with the
    previous window to the midpoint of its overlap with the next."""
    mids = [(bounds[i + 1][0] + bounds[i][1]) // 2 for i in range(len(bounds) - 1)]
    starts = [0] + mids
    ends = mids + [bounds[-1][1]]
    return list(zip(starts, ends, strict=True))


def found_in(doc: Doc, offset: int) -> List[Found]:
    """The doc's entities in note offsets."""
    return [
        Found(
            ent.start_char + offset,
            ent.end_char + offset,
            ent.label_,
            tuple(ent._.phi_flags) if ent._.phi_flags else None,
            ent._.phi_source,
            ent._.phi_score,
        )
        for ent in doc.ents
    ]


def resolve(found: List[Found]) -> List[Found]:
    """Non-overlapping entities: where two overlap, the longer one wins
    (ties: the earlier), and the loser's characters outside it are lost only
    when a third entity covers them; its extent is kept when it sticks out,
    so no character found as PHI is left out."""
    out: List[Found] = []
    for item in sorted(found, key=lambda f: (f.start, -(f.end - f.start))):
        if out and item.start < out[-1].end:
            last = out[-1]
            winner = last if last.end - last.start >= item.end - item.start else item
            out[-1] = Found(
                last.start,
                max(last.end, item.end),
                winner.label,
                winner.flags,
                winner.source,
                winner.score,
            )
            continue
        out.append(item)
    return out


def segment_cuts(
    text: str, parts: List[Tuple[int, int]], found: List[Found]
) -> List[int]:
    """Where to cut the note into segments: the ends of the windows' own
    parts, each moved past any entity it would split."""
    cuts = []
    for _, end in parts[:-1]:
        cut = end
        for item in found:
            if item.start < cut < item.end:
                cut = item.end
        if not cuts or cut > cuts[-1]:
            cuts.append(cut)
    return [c for c in cuts if 0 < c < len(text)]


def _cross_doc_markers(nlp: Language) -> List[Any]:
    """Active components before `phi_surrogates` that spread PHI strings
    across docs (`collect` and `mark`, as `phi_consistency`)."""
    return [
        pipe
        for name, pipe in nlp.pipeline
        if name != SURROGATES
        and callable(getattr(pipe, "collect", None))
        and callable(getattr(pipe, "mark", None))
    ]


def find(
    nlp: Language, text: str, context: Dict[str, Any], strings: Dict[int, Any]
) -> List[Found]:
    """Step 1: the entities of every window, resolved, in note offsets.

    nlp (Language): The pipeline (ends with `phi_surrogates`, left out here).
    text (str): The note.
    context (Dict[str, Any]): The pipe context of the note (patient, known PHI).
    strings (Dict[int, Any]): Per cross-doc marker (by `id`), its strings,
        collected from every window (updated).
    RETURNS (List[Found]): The entities.
    """
    bounds = windows(text, piece_chars(nlp))
    markers = _cross_doc_markers(nlp)
    found: List[Found] = []
    for (start, end), (own_start, own_end) in zip(
        bounds, own_parts(bounds), strict=True
    ):
        with nlp.memory_zone():
            pairs = list(
                nlp.pipe(
                    [(text[start:end], context)], as_tuples=True, disable=[SURROGATES]
                )
            )
            if not pairs or pairs[0][0].user_data.get(FAILED_KEY):
                raise DeidCheckError("a component failed on a piece of a long note")
            doc = pairs[0][0]
            for marker in markers:
                marker.collect(doc, strings[id(marker)])
            found.extend(
                item
                for item in found_in(doc, start)
                if own_start <= item.start < own_end
            )
    return resolve(found)


def _segment_doc(
    nlp: Language, text: str, start: int, found: List[Found], patient: str
) -> Doc:
    """A segment's doc with its entities (expanded to token boundaries)."""
    doc = nlp.make_doc(text)
    doc._.patient = patient
    spans: List[Span] = []
    for item in found:
        span = doc.char_span(
            item.start - start,
            item.end - start,
            label=item.label,
            alignment_mode="expand",
        )
        if span is None or (spans and span.start < spans[-1].end):
            raise DeidCheckError(
                f"a {item.label} span of a long note could not be placed"
            )
        spans.append(span)
    doc.set_ents(spans, default="outside")
    for span, item in zip(spans, found, strict=True):
        span._.phi_flags = list(item.flags) if item.flags else None
        span._.phi_source = item.source
        span._.phi_score = item.score
    return doc


def replace(
    nlp: Language,
    text: str,
    found: List[Found],
    patient: str,
    strings: Dict[int, Any],
    kept: Callable[[Span], bool],
) -> Iterator[Tuple[int, str, List[Span], List[List[int]]]]:
    """Step 2: each segment de-identified and checked: (segment start, its
    output, its entities, its offset map)."""
    bounds = windows(text, piece_chars(nlp))
    cuts = [0] + segment_cuts(text, own_parts(bounds), found) + [len(text)]
    markers = _cross_doc_markers(nlp)
    surrogates = nlp.get_pipe(SURROGATES)
    for start, end in zip(cuts[:-1], cuts[1:], strict=True):
        inside = [f for f in found if start <= f.start and f.end <= end]
        with nlp.memory_zone():
            doc = _segment_doc(nlp, text[start:end], start, inside, patient)
            for marker in markers:
                marker.mark(doc, strings[id(marker)])
            doc = surrogates(doc)
            out = check_deidentified(doc, doc.ents, text[start:end], kept)
            yield start, out, list(doc.ents), [list(r) for r in doc._.offset_map]


def new_strings(nlp: Language) -> Dict[int, Any]:
    """Empty string collections for the pipeline's cross-doc markers."""
    return {id(marker): PhiStrings() for marker in _cross_doc_markers(nlp)}
