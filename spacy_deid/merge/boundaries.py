"""The `phi_boundaries` component: apply a corpus's span conventions to `doc.ents`.

Annotation guidelines differ on where a PHI span starts and ends, and a tagger
learns those conventions only approximately. This component applies two of
them to the final entities (after the detectors and any merge, before
`phi_surrogates`):

- `strip_prefixes`: per label, leading words (titles such as "Dr", "Doctora")
  that the guideline leaves outside the span; "Dr." and "Dr" both match. A
  span that would be left empty is kept as it is.
- `split_labels`: labels whose spans hold one place each. A span is cut at
  commas and semicolons, at dashes and slashes with whitespace on both sides
  (the separators are dropped), and where whitespace separates a number token
  from a word token: "Reocín 39539" becomes "Reocín" and "39539", "San
  Lucas, Coyoacan" becomes "San Lucas" and "Coyoacan", while glued forms
  ("E-18012", "Vitoria-Gasteiz") stay whole.

No token with a letter or digit is ever uncovered: stripped prefixes are
titles, and the dropped separators have none. Pieces keep the span's label,
`phi_source`, `phi_score` and `phi_flags`. The defaults change nothing; the
MEDDOCAN pipeline sets both from MEDDOCAN's train conventions (no TERRITORIO
span of MEDDOCAN train holds a comma or a postal code with a name, no name
span starts with a title).
"""

from typing import Any, Dict, List, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..core.cfg_io import CfgSerializable, is_str_list
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, FLAGS, SCORES, SOURCE_ATTR
from ..core.extensions import install_extensions
from ..tagging.ents import write_ents

install_extensions()

SEPARATORS = frozenset({",", ";", "-", "–", "—", "/"})
_COPIED = ("phi_source", "phi_score", "phi_flags")


@Language.factory(
    "phi_boundaries",
    # The extensions are read only to copy them to the trimmed spans.
    requires=[ENTS, SOURCE_ATTR, SCORES, FLAGS],
    assigns=[ENTS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES, FLAGS],
    default_config={"strip_prefixes": {}, "split_labels": []},
)
def make_phi_boundaries(
    nlp: Language,
    name: str,
    strip_prefixes: Dict[str, List[str]],
    split_labels: List[str],
) -> "PhiBoundaries":
    """Create a PhiBoundaries component (factory "phi_boundaries").

    strip_prefixes (Dict[str, List[str]]): Label -> leading words to strip
        (case-insensitive, with or without a final ".").
    split_labels (List[str]): Labels whose spans are cut at separators and
        between numbers and words.
    """
    return PhiBoundaries(name, strip_prefixes=strip_prefixes, split_labels=split_labels)


class PhiBoundaries(CfgSerializable):
    """Trim and split `doc.ents` by a corpus's span conventions."""

    def __init__(
        self,
        name: str = "phi_boundaries",
        *,
        strip_prefixes: Optional[Dict[str, List[str]]] = None,
        split_labels: Optional[List[str]] = None,
    ) -> None:
        self.name = name
        self.cfg: Dict[str, Any] = {
            "strip_prefixes": strip_prefixes or {},
            "split_labels": split_labels or [],
        }
        self._configure()

    def _configure(self) -> None:
        """Check the settings and precompute the folded prefixes."""
        check_config(self.cfg)
        self._prefixes = {
            label: {_fold(word) for word in words}
            for label, words in self.cfg["strip_prefixes"].items()
        }
        self._split = set(self.cfg["split_labels"])

    def __call__(self, doc: Doc) -> Doc:
        """Apply the conventions to `doc.ents`."""
        prefixes, split = self._prefixes, self._split
        if not doc.ents or not (prefixes or split):
            return doc
        ents: List[Span] = []
        for ent in doc.ents:
            spans = [_strip(ent, prefixes.get(ent.label_, set()))]
            if ent.label_ in split:
                spans = [piece for span in spans for piece in _split(span)]
            ents.extend(_copy_attrs(ent, span) for span in spans)
        write_ents(doc, ents, default="outside")
        return doc

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        merged = {**self.cfg, **cfg}
        check_config(merged)
        self.cfg = merged
        self._configure()


def check_config(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for settings of the wrong shape."""
    prefixes = cfg["strip_prefixes"]
    if not isinstance(prefixes, dict) or not all(
        isinstance(label, str) and is_str_list(words)
        for label, words in prefixes.items()
    ):
        raise ValueError("strip_prefixes must map labels to lists of words")
    if not is_str_list(cfg["split_labels"]):
        raise ValueError("split_labels must be a list of label strings")


def _fold(word: str) -> str:
    return word.lower().rstrip(".")


def _strip(span: Span, prefixes: set) -> Span:
    """Drop leading title tokens (and a "." token right after one)."""
    start = span.start
    doc = span.doc
    while start < span.end - 1 and _fold(doc[start].text) in prefixes:
        start += 1
        if start < span.end - 1 and doc[start].text == ".":
            start += 1
    rest = doc[start : span.end]
    if start == span.start or not any(c.isalnum() for c in rest.text):
        return span
    return Span(doc, start, span.end, label=span.label_)


def _split(span: Span) -> List[Span]:
    """Cut a span at separator tokens and between number and word tokens.
    Only cuts at whitespace count, so glued forms such as "E-18012" and
    "Vitoria-Gasteiz" stay whole."""
    pieces: List[Span] = []
    start: Optional[int] = None
    doc = span.doc
    for token in span:
        if _is_separator(token):
            if start is not None:
                pieces.append(Span(doc, start, token.i, label=span.label_))
            start = None
            continue
        prev = doc[token.i - 1] if token.i > span.start else None
        if start is not None and prev is not None and prev.whitespace_:
            if _kind(prev) != _kind(token):
                pieces.append(Span(doc, start, token.i, label=span.label_))
                start = None
        if start is None:
            start = token.i
    if start is not None:
        pieces.append(Span(doc, start, span.end, label=span.label_))
    pieces = [p for p in pieces if any(c.isalnum() for c in p.text)]
    return pieces if pieces else [span]


def _is_separator(token: Any) -> bool:
    """A comma or semicolon, or a dash or slash with whitespace on both sides
    (" - ", not the hyphen of "Vitoria-Gasteiz")."""
    if token.text in (",", ";"):
        return True
    if token.text not in SEPARATORS or token.i == 0:
        return False
    return bool(token.whitespace_) and bool(token.doc[token.i - 1].whitespace_)


def _kind(token: Any) -> str:
    """ "number" for a token of digits, else "word"."""
    return "number" if token.text.isdigit() else "word"


def _copy_attrs(source: Span, target: Span) -> Span:
    """Give a trimmed or split piece its entity's extension values."""
    if (target.start, target.end) != (source.start, source.end):
        for attr in _COPIED:
            setattr(target._, attr, getattr(source._, attr))
    return target


__all__ = ["PhiBoundaries", "make_phi_boundaries", "check_config", "SEPARATORS"]
