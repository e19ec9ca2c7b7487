"""Names in a table's column that `phi_safety_net` adds where no detector
found them: the cells under a header that names people ("BY", "INIT",
"TCHR", "USER NAME") in a table whose columns are aligned by runs of spaces
or tabs. A flowsheet's initials ("RM", "TM") are medical abbreviations too and
a teacher's surname alone in a school log has no cue of its own; the header
is the cue.

A header line has three cells or more, none with a digit, each of at most
three words, and at least half of them in capitals or one title-case word
("TIME  MEDICATION  DOSE  INIT", "Notified  Relationship  Method  By"). The
rows below it, up to a blank line, give a cell where one starts inside the
header's column. A cell is taken when it is a person's initials (two or three
capitals, no credential) or a name (capitalised words that pass
`NameGuard.is_name` after a strong cue; initials with periods allowed): "Mendes", "P. Okwuosa",
"Villaseñor". Staff columns give `staff_column` candidates, columns of other
people (teachers, callers) `person_column` ones.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from ..knowledge.credentials import is_credential
from .cues import PERSON_COLUMN, STAFF_COLUMN
from .finder import Candidate
from .guard import NameGuard
from .words import DocWords

# Header cells (lower case) and the kind of people their cells name.
HEADERS: Dict[str, str] = {
    **{
        header: STAFF_COLUMN
        for header in (
            "by", "init", "inits", "initials", "staff", "nurse", "provider",
            "clinician", "witness", "user name", "entered by", "signed by",
            "given by", "done by", "checked by", "verified by", "performed by",
        )
    },
    **{header: PERSON_COLUMN for header in ("tchr", "teacher", "caller")},
}  # fmt: skip
_FIRST_WORDS = frozenset(header.split()[0] for header in HEADERS)
_GAP = re.compile(r"\t+| {2,}")
_INITIALS = re.compile(r"[A-Z]{2,3}")
_INITIAL = re.compile(r"[A-Z]\.")
_MIN_CELLS = 3
_MAX_HEADER_WORDS = 3
_MAX_ROWS = 60
# A row's cell may start this many characters left of its header's column.
_SLACK = 2

Cell = Tuple[int, int, str]  # start and end column in the line, text


def find_name_columns(
    words: DocWords, taken: Sequence[bool], doc: Doc, guard: NameGuard
) -> List[Candidate]:
    """Names and initials in the columns of people, on free words.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc.
    guard (NameGuard): Tells name-like words.
    RETURNS (List[Candidate]): The cells found, in word positions.
    """
    heads = (w.index for w in words.words if w.text.lower() in _FIRST_WORDS)
    if not any(_may_head(doc, index) for index in heads):
        return []  # most notes: no need to read the doc's text
    found: List[Candidate] = []
    for start, end, kind in _column_cells(doc.text):
        span = doc.char_span(start, end, alignment_mode="strict")
        if span is None or any(taken[t.i] for t in span):
            continue
        if not _is_person_cell(span.text, kind, guard):
            continue
        first, last = words.position(span.start), words.position(span.end - 1)
        if first is not None and last is not None:
            found.append((first, last + 1, kind))
    return found


def _may_head(doc: Doc, index: int) -> bool:
    """Whether a header's first word may open a header cell: after a run of
    spaces, a tab or a line break, or at the doc's start."""
    return index == 0 or doc[index - 1].is_space


def _column_cells(text: str) -> Iterator[Tuple[int, int, str]]:
    """(start, end, kind) character offsets of the cells under each header
    of people in the text's tables."""
    lines = _lines(text)
    for i, (_, line) in enumerate(lines):
        cells = _cells(line)
        if not _is_header_line(cells):
            continue
        for k, (col, _, cell) in enumerate(cells):
            kind = HEADERS.get(" ".join(cell.lower().split()))
            if kind is None:
                continue
            right = cells[k + 1][0] if k + 1 < len(cells) else None
            for row_offset, row in lines[i + 1 : i + 1 + _MAX_ROWS]:
                if not row.strip():
                    break
                found = _cell_at(_cells(row), col, right)
                if found is not None:
                    yield row_offset + found[0], row_offset + found[1], kind


def _lines(text: str) -> List[Tuple[int, str]]:
    """The text's lines with their start offsets."""
    lines = []
    offset = 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    return lines


def _cells(line: str) -> List[Cell]:
    """A line's cells: the runs of text between runs of 2+ spaces or tabs."""
    cells = []
    start = len(line) - len(line.lstrip())
    for gap in _GAP.finditer(line, start):
        if gap.start() > start:
            cells.append((start, gap.start(), line[start : gap.start()]))
        start = gap.end()
    end = len(line.rstrip())
    if end > start:
        cells.append((start, end, line[start:end]))
    return cells


def _is_header_line(cells: List[Cell]) -> bool:
    """Three cells or more, no digit, short cells, half of them in capitals
    or one title-case word."""
    if len(cells) < _MIN_CELLS:
        return False
    texts = [cell for _, _, cell in cells]
    if any(c.isdigit() for text in texts for c in text):
        return False
    if any(len(text.split()) > _MAX_HEADER_WORDS for text in texts):
        return False
    headed = sum(text.isupper() or (" " not in text and text.istitle()) for text in texts)
    return 2 * headed >= len(texts)


def _cell_at(cells: List[Cell], col: int, right: Optional[int]) -> Optional[Cell]:
    """The row's cell that starts inside the header's column, if any."""
    for start, end, text in cells:
        if col - _SLACK <= start and (right is None or start < right - 1):
            return start, end, text
    return None


def _is_person_cell(text: str, kind: str, guard: NameGuard) -> bool:
    """Initials of staff, or a name of one to three words."""
    if _INITIALS.fullmatch(text):
        return kind == STAFF_COLUMN and not is_credential(text)
    parts = text.replace(",", " ").split()
    if not 1 <= len(parts) <= 3:
        return False
    names = [part for part in parts if not _INITIAL.fullmatch(part)]
    return bool(names) and all(
        part[:1].isupper() and guard.is_name(part, strong=True) for part in names
    )
