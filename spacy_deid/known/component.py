"""The `phi_known` component: mark identifiers known from the structured record.

Health-data engineers often know a patient's identifiers (name, MRN, birth
date, address, phone) from the structured record. `phi_known` marks every
occurrence of them, including the simple variants described in
`spacy_deid.known.variants`, in `doc.ents`.

The known items of a doc are `[{"text": str, "label": str}, ...]`, read from
`doc._.known_phi`, else from the `nlp.pipe(..., as_tuples=True)` context key
"known_phi" (the runner passes them there). Matches are snapped to token
boundaries (`alignment_mode="expand"`, so more rather than less is marked).

Known spans win over earlier entities: an entity that overlaps a known span
is merged with it into one span with the known label, so that no token an
earlier component marked is unmarked. Entities that overlap no known span
stay as they are. Merged spans get `span._.phi_source = "known"` and
`span._.phi_score = 1.0`.

Put it after the detectors and before `phi_surrogates`; the runner
(`spacy_deid.run.runner.deidentify_items`) adds it there when a pipeline has none.
"""

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span

from ..core.cfg_io import CfgSerializable
from ..labels.maps import apply, get_label_map
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, FLAGS, KNOWN_PHI, SCORES
from ..core.extensions import SOURCE_ATTR, SPAN_GROUPS, install_extensions
from ..tagging.ents import union_runs, write_ents
from .items import KnownItem, validate_known
from .names import MIN_PART_LENGTH
from .variants import KnownMatch, compile_known

install_extensions()

SOURCE = "known"
CONTEXT_KEY = "known_phi"

DEFAULT_CONFIG: Dict[str, Any] = {
    "labels": None,
    "label_map": None,
    "min_part_length": MIN_PART_LENGTH,
    "spans_key": None,
}


@Language.factory(
    "phi_known",
    requires=[ENTS, KNOWN_PHI, FLAGS],
    assigns=[ENTS, SPAN_GROUPS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES, FLAGS],
    default_config=DEFAULT_CONFIG,
)
def make_phi_known(
    nlp: Language,
    name: str,
    labels: Optional[List[str]],
    label_map: Optional[str],
    min_part_length: int,
    spans_key: Optional[str],
) -> "KnownPhiMarker":
    """Create a KnownPhiMarker (factory "phi_known").

    labels (Optional[List[str]]): Accept only known items with these labels
        (as given, before `label_map`; a doc with any other label fails, so
        that it is rejected by the runner); None accepts any non-empty label.
    label_map (Optional[str]): A label map name (`spacy_deid.labels.maps`,
        e.g. "i2b22meddocan") applied to the items' labels, so
        that spans carry the pipeline's labels; a label the map drops keeps
        its own. None: labels as given.
    min_part_length (int): Fewest letters of a first or last name searched
        alone (default 3); 0 searches name words only within full names.
    spans_key (Optional[str]): Also write every raw match (before merging)
        to `doc.spans[spans_key]`; None writes no span group.
    """
    return KnownPhiMarker(
        name,
        labels=labels,
        label_map=label_map,
        min_part_length=min_part_length,
        spans_key=spans_key,
    )


def doc_known_phi(doc: Doc) -> Any:
    """The known items of a doc: `doc._.known_phi`, else the pipe context's
    "known_phi" key, else None (unvalidated)."""
    install_extensions()
    known = doc._.known_phi
    if known is None:
        context = getattr(doc, "_context", None)
        if isinstance(context, dict):
            known = context.get(CONTEXT_KEY)
    return known


def mark_known_phi(
    doc: Doc,
    known: Sequence[KnownItem],
    *,
    labels: Optional[Iterable[str]] = None,
    label_map: Optional[str] = None,
    min_part_length: int = MIN_PART_LENGTH,
    spans_key: Optional[str] = None,
) -> Doc:
    """Mark every occurrence of the known items in `doc.ents` (see the module
    docstring for the merge with existing entities).

    doc (Doc): The doc.
    known (Sequence[KnownItem]): [{"text": str, "label": str}, ...] (a list
        or tuple; anything else raises a KnownPhiError, a ValueError).
    labels (Optional[Iterable[str]]): Accept only these labels.
    label_map (Optional[str]): Label map name applied to the items' labels.
    min_part_length (int): Fewest letters of a name word searched alone.
    spans_key (Optional[str]): doc.spans key for the raw matches, or None.
    RETURNS (Doc): The same doc.
    """
    install_extensions()
    items = validate_known(known, labels)
    if not items:
        return doc
    mapping = get_label_map(label_map)
    if mapping is not None:
        items = [_mapped(item, mapping) for item in items]
    matches = compile_known(items, min_part_length).find(doc.text)
    spans = _to_spans(doc, matches)
    if spans_key is not None:
        doc.spans[spans_key] = spans
    if spans:
        merge_known_spans(doc, spans)
    return doc


def _mapped(item: KnownItem, mapping: Any) -> KnownItem:
    """An item with its label mapped; a label the map drops is kept."""
    label = apply(item["label"], mapping, item["text"]) or item["label"]
    return {"text": item["text"], "label": label}


def _to_spans(doc: Doc, matches: List[KnownMatch]) -> List[Span]:
    """Token spans of the matches (expanded to token boundaries)."""
    spans = []
    for match in matches:
        span = doc.char_span(
            match.start, match.end, label=match.label, alignment_mode="expand"
        )
        if span is not None and len(span) > 0:
            spans.append(span)
    return spans


def merge_known_spans(doc: Doc, known: List[Span]) -> None:
    """Write known spans to `doc.ents`: overlapping known spans and the
    entities they overlap become one span with the label of the longest
    known span in it (`ents.union_runs`); other entities are kept.

    doc (Doc): The doc.
    known (List[Span]): Known spans (may overlap).
    """
    merged = union_runs(list(doc.ents), known)
    write_ents(doc, [span for span, _ in merged], default="unmodified")
    for span, old in merged:
        flags = sorted({flag for ent in old for flag in ent._.phi_flags or []})
        span._.phi_source = SOURCE
        span._.phi_score = 1.0
        span._.phi_flags = flags or None


class KnownPhiMarker(CfgSerializable, Pipe):
    """Mark known PHI (identifiers from the structured record) in doc.ents.

    No model: the items come with each doc (`doc._.known_phi` or the pipe
    context). A doc whose items are malformed raises a ValueError (to the
    pipeline's error handler), so it is never passed on as if it were clean.
    """

    def __init__(
        self,
        name: str = "phi_known",
        *,
        labels: Optional[Iterable[str]] = None,
        label_map: Optional[str] = None,
        min_part_length: int = MIN_PART_LENGTH,
        spans_key: Optional[str] = None,
    ) -> None:
        """Initialize the component.

        name (str): Component name.
        labels (Optional[Iterable[str]]): Accepted labels; None: any.
        label_map (Optional[str]): Label map name for the items' labels.
        min_part_length (int): Fewest letters of a name word searched alone.
        spans_key (Optional[str]): doc.spans key for the raw matches, or None.
        """
        install_extensions()
        self.name = name
        self.cfg: Dict[str, Any] = {
            "labels": list(labels) if labels is not None else None,
            "label_map": label_map,
            "min_part_length": min_part_length,
            "spans_key": spans_key,
        }
        validate_config(self.cfg)

    def __call__(self, doc: Doc) -> Doc:
        """Mark the doc's known PHI.

        doc (Doc): The doc.
        RETURNS (Doc): The same doc.
        """
        error_handler = self.get_error_handler()
        try:
            known = doc_known_phi(doc)
            if known is None:
                return doc
            return mark_known_phi(
                doc,
                known,
                labels=self.cfg["labels"],
                label_map=self.cfg["label_map"],
                min_part_length=self.cfg["min_part_length"],
                spans_key=self.cfg["spans_key"],
            )
        except Exception as e:
            error_handler(self.name, self, [doc], e)
            return doc

    def initialize(
        self, get_examples: Optional[Callable] = None, *, nlp: Any = None
    ) -> None:
        """Nothing to initialize (no model, no data)."""

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        new = {**self.cfg, **cfg}
        validate_config(new)
        self.cfg = new


def validate_config(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for a bad `phi_known` cfg.

    cfg (Dict[str, Any]): The cfg.
    """
    labels = cfg["labels"]
    if labels is not None and (
        not isinstance(labels, list)
        or not all(isinstance(label, str) and label.strip() for label in labels)
    ):
        raise ValueError("phi_known: labels must be null or a list of labels")
    if cfg["label_map"] is not None:
        if not isinstance(cfg["label_map"], str):
            raise ValueError("phi_known: label_map must be a label map name or null")
        get_label_map(cfg["label_map"])
    part = cfg["min_part_length"]
    if isinstance(part, bool) or not isinstance(part, int) or part < 0:
        raise ValueError("phi_known: min_part_length must be an integer >= 0")
    key = cfg["spans_key"]
    if key is not None and (not isinstance(key, str) or not key):
        raise ValueError("phi_known: spans_key must be a non-empty string or null")
