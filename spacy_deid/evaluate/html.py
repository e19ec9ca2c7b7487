"""HTML report for error review: each note with gold and predicted PHI.

The report necessarily contains note text and PHI: write it only where the
user asks for it. Rendered with displaCy (`style="ent"`, `manual=True`) and
the colours of `labels.PHI_COLORS`. Overlapping spans are reduced to the
longest for display only.
"""

import html
from typing import Dict, Iterable, List, Tuple

from spacy import displacy

from ..core.types import Note, PhiSpan
from ..labels.maps import to_coarse
from ..labels import PHI_COLORS, labels_in_category
from .scoring import pair_notes, relabel
from .taxonomy import Taxonomy

_STYLE = (
    "body{font-family:sans-serif;margin:2em}"
    ".cols{display:flex;gap:2em}.cols>div{flex:1;min-width:0}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
    ".ok{color:#2a7d2a}.bad{color:#b00020}"
)


def _display_spans(spans: Iterable[PhiSpan]) -> List[Dict[str, object]]:
    kept: List[PhiSpan] = []
    for span in sorted(set(spans), key=lambda s: (-(s.end - s.start), s.start)):
        if not any(span.start < k.end and k.start < span.end for k in kept):
            kept.append(span)
    return [{"start": s.start, "end": s.end, "label": s.label} for s in sorted(kept)]


def _colors(labels: Iterable[str]) -> Dict[str, str]:
    """PHI_COLORS, plus the category colour for other labels (e.g. MEDDOCAN)."""
    colors = dict(PHI_COLORS)
    for label in labels:
        coarse = to_coarse(label)
        members = labels_in_category(coarse) if coarse else []
        if label not in colors and members:
            colors[label] = PHI_COLORS[members[0]]
    return colors


def _render(text: str, spans: Iterable[PhiSpan], title: str) -> str:
    spans = list(spans)
    doc = {"text": text, "ents": _display_spans(spans), "title": title}
    colors = _colors({s.label for s in spans})
    return displacy.render(
        doc,
        style="ent",
        manual=True,
        page=False,
        jupyter=False,
        options={"colors": colors},
    )


def _error_table(gold: List[PhiSpan], pred: List[PhiSpan]) -> Tuple[str, int]:
    taxonomy = Taxonomy()
    taxonomy.add(gold, pred)
    totals = taxonomy.to_dict()["totals"]
    errors = sum(n for kind, n in totals.items() if kind != "exact")
    cells = "".join(
        f"<td class='{'ok' if k == 'exact' else 'bad' if n else ''}'>{k}: {n}</td>"
        for k, n in totals.items()
    )
    return f"<table><tr>{cells}</tr></table>", errors


def render_html(
    gold: Iterable[Note],
    pred: Iterable[Note],
    only_errors: bool = False,
    labels: str = "subcategory",
) -> str:
    """An HTML page showing every note with gold and predicted PHI side by side.

    gold (Iterable[Note]): Gold notes.
    pred (Iterable[Note]): Predicted notes (spans index the gold text).
    only_errors (bool): Show only notes with at least one error.
    labels (str): "subcategory" or "category".
    RETURNS (str): A complete HTML document (contains note text).
    """
    pairs, _ = pair_notes(gold, pred)
    parts = []
    for note, pred_spans in pairs:
        g, p = relabel(note.spans, labels), relabel(pred_spans, labels)
        table, errors = _error_table(g, p)
        if only_errors and not errors:
            continue
        parts.append(
            f"<section><h2>{html.escape(note.id)}</h2>{table}<div class='cols'>"
            f"<div>{_render(note.text, g, 'Gold')}</div>"
            f"<div>{_render(note.text, p, 'Predicted')}</div></div></section>"
        )
    body = "\n".join(parts) or "<p>No notes to show.</p>"
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>spacy-deid evaluation</title><style>{_STYLE}</style></head>"
        f"<body><h1>spacy-deid evaluation</h1>{body}</body></html>\n"
    )
