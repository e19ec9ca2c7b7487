"""Fictional notes and helpers for the evaluation tests."""

from spacy_deid.core.types import Note, PhiSpan

TEXT = "Pt John Smith seen 2020-01-02 at Mercy Hospital by Dr Ann Lee."


def span(surface: str, label: str, text: str = TEXT, dstart: int = 0, dend: int = 0):
    """A span over the first occurrence of `surface`, optionally shifted."""
    start = text.index(surface)
    return PhiSpan(start + dstart, start + len(surface) + dend, label)


def gold_spans():
    return [
        span("John Smith", "PATIENT"),
        span("2020-01-02", "DATE"),
        span("Mercy Hospital", "HOSPITAL"),
        span("Ann Lee", "DOCTOR"),
    ]


def note(spans, note_id: str = "n1", text: str = TEXT) -> Note:
    return Note(note_id, text, list(spans))
