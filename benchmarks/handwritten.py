"""Hand-written English notes with gold PHI, written outside the synthetic
note generator, as a corpus for the benchmarks.

    python benchmarks/handwritten.py OUT.jsonl [--source FILE | --other-hands]

`data/handwritten_en.txt` holds 48 short notes of kinds and phrasings the
generator does not produce (nursing, telephone, radiology, pathology, EMS,
psychiatry, genetics, pharmacy, home visits, a portal message, a secure
chat, ...), in an inline markup that is easy to edit by hand: a line
"=== ID" starts a note and "[[LABEL|text]]" marks a PHI span with its i2b2
2014 subcategory label. This script writes them as corpus JSONL
(`{"id", "text", "spans"}`), e.g. for `throughput.py --gold OUT.jsonl` or
`accuracy_speed.py --en-dev OUT.jsonl`.

The notes are few (about 660 gold PHI tokens) and written by one developer
who knows the generator, so they are a check on how far the generated-note
figures carry over, not a benchmark of their own: differences of a few
points between systems are within their noise.

`data/other_hands_en.txt` (`--other-hands`) holds 208 longer notes in the
same markup (10,763 gold spans), written by twenty-six writers who never saw
this code, each given eight note kinds (dermatology, dialysis run sheets,
device clinics, sleep studies, correctional sick call, fertility, EEG,
release of information logs, tumor boards, methadone clinics, organ
donation, code blue records, ICU handoffs, transfer center logs, TB contact
investigations, competency evaluations, chaplaincy, genetic counselling
pedigrees, EMS run sheets, school nurse logs, EHR audit trails, biobank
logs, court letters, poison control calls, ...) and the annotation
conventions of `../shared/data/en_notes`.
"""

import argparse
import re
import sys
from pathlib import Path
from typing import List, Optional, Sequence

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "data" / "handwritten_en.txt"
OTHER_HANDS = HERE / "data" / "other_hands_en.txt"
NOTE_START = "=== "
SPAN = re.compile(r"\[\[([A-Z_]+)\|([^\[\]|]+)\]\]")


class MarkupError(ValueError):
    """The markup is malformed; the message names the note id."""


def parse_note(note_id: str, marked: str):
    """One note's text and gold spans from its marked-up text.

    note_id (str): The note id, for error messages.
    marked (str): The text with [[LABEL|text]] spans.
    RETURNS (Note): The note.
    """
    from spacy_deid.core.types import Note, PhiSpan
    from spacy_deid.labels import LABELS

    parts: List[str] = []
    spans: List[PhiSpan] = []
    length = last = 0
    for match in SPAN.finditer(marked):
        label, surface = match.group(1), match.group(2)
        if label not in LABELS:
            raise MarkupError(f"note {note_id}: unknown label {label}")
        before = marked[last : match.start()]
        parts += [before, surface]
        start = length + len(before)
        spans.append(PhiSpan(start, start + len(surface), label))
        length = start + len(surface)
        last = match.end()
    parts.append(marked[last:])
    text = "".join(parts)
    if "[[" in text or "]]" in text:
        raise MarkupError(f"note {note_id}: unclosed or malformed [[...]] markup")
    return Note(note_id, text, spans)


def parse_markup(source: str):
    """Every note of a markup file, in order.

    source (str): The file's text.
    RETURNS (List[Note]): The notes.
    """
    notes = []
    note_id: Optional[str] = None
    lines: List[str] = []
    for line in source.splitlines():
        if line.startswith(NOTE_START):
            if note_id is not None:
                notes.append(parse_note(note_id, "\n".join(lines).strip("\n")))
            note_id, lines = line[len(NOTE_START) :].strip(), []
        elif note_id is not None:
            lines.append(line)
        elif line.strip() and not line.startswith("#"):
            raise MarkupError("text before the first '=== ID' line")
    if note_id is not None:
        notes.append(parse_note(note_id, "\n".join(lines).strip("\n")))
    ids = [note.id for note in notes]
    if len(set(ids)) != len(ids) or not all(ids):
        raise MarkupError("note ids must be unique and non-empty")
    return notes


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("output", type=Path, help="Corpus JSONL to write")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--source", type=Path, default=SOURCE)
    source.add_argument(
        "--other-hands", action="store_true", help=f"Read {OTHER_HANDS.name}"
    )
    args = parser.parse_args(argv)
    from spacy_deid.corpus import write_jsonl

    path = OTHER_HANDS if args.other_hands else args.source
    notes = parse_markup(path.read_text(encoding="utf-8"))
    write_jsonl(notes, args.output)
    n_spans = sum(len(note.spans) for note in notes)
    print(f"Wrote {len(notes)} notes, {n_spans} gold spans, to {args.output}")


if __name__ == "__main__":
    main(sys.argv[1:])
