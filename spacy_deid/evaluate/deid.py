"""Predictions given as de-identification output.

`spacy-deid` de-identification output is JSONL `{"id", "text", "spans"}`
where `text` is the de-identified text and `spans` index the ORIGINAL text.
To evaluate it, take the text from the gold note and the spans from the
output; the output text is what the leak measure searches.
"""

from typing import Dict, Iterable, List, Optional, Tuple

from ..core.types import Note


def split_deid_output(
    gold: Iterable[Note], pred: Iterable[Note], force: bool = False
) -> Tuple[List[Note], Optional[Dict[str, str]]]:
    """Separate predicted spans from de-identified texts.

    A prediction counts as de-identification output when its text differs
    from the gold text of the same id (for any note), or when `force` is set.

    gold (Iterable[Note]): Gold notes.
    pred (Iterable[Note]): Predicted notes, possibly de-identification output.
    force (bool): Treat `pred` as de-identification output regardless.
    RETURNS (Tuple[List[Note], Optional[Dict[str, str]]]): Predicted notes
        carrying the gold text, and the de-identified text per note id (None
        if `pred` is not de-identification output).
    """
    gold_text = {note.id: note.text for note in gold}
    pred = list(pred)
    is_deid = force or any(
        note.id in gold_text and note.text != gold_text[note.id] for note in pred
    )
    if not is_deid:
        return pred, None
    deid_texts = {note.id: note.text for note in pred if note.id in gold_text}
    notes = [
        Note(n.id, gold_text.get(n.id, n.text), list(n.spans), n.patient, dict(n.meta))
        for n in pred
    ]
    return notes, deid_texts
