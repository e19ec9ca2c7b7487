"""The `phi_merge` component: combine the PHI spans of several detectors.

Each source writes its spans to a span group (`phi_rules` to
`doc.spans["phi_rules"]`, `phi_ner` with `spans_key` set to
`doc.spans["phi_ner"]`, ...). `phi_merge` reads the groups named in
`sources` (highest priority first), merges them with one strategy (see
`spacy_deid.merge.strategies`) and writes the result to `doc.ents`.

Before merging, spans without a letter or digit are ignored (no surrogate
could differ from them), and with `drop_not_phi` so are spans all of whose
tokens are known non-PHI (`doc.spans["phi_not"]`), unless their label is
protected. A missing span group means "no spans from that source"; a span
without a label, or with a score that is not a number, is an error.

Provenance on each output span:
- `span._.phi_source`: the key of the source whose span gave the label
  (e.g. "phi_rules"; the key, not the detector's own finer value such as
  "rules:phone.us", because spaCy stores span extensions by character offsets,
  so spans of two sources at the same offsets share one value and the finer
  value cannot be attributed reliably);
- `span._.phi_sources`: the sorted keys of all sources with a span in its run;
- `span._.phi_score`: the highest non-None score in its run (None if none);
- `span._.phi_flags`: the sorted union of the run's `phi_flags` (e.g.
  "AGE_OVER_89", which `phi_surrogates` needs), None if none.
All values are read before any is written. Source spans at the same offsets
as an output span read the output's values afterwards (shared storage).
"""

import math
import numbers
from bisect import bisect_right
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..core.scorers import PHI_SCORE_WEIGHTS
from ..core.cfg_io import CfgSerializable
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, FLAGS, SCORES, SOURCE_ATTR
from ..core.extensions import SOURCES_ATTR, SPAN_GROUPS, install_extensions
from ..labels import NOT_PHI_KEY
from ..tagging.ents import spans_outside, token_mask, write_ents
from .strategies import STRATEGIES, MergedSpan, SourceSpan, merge_sources

install_extensions()

DEFAULT_SOURCES = ["phi_rules", "phi_ner"]
_BOOL_SETTINGS = ("extend", "drop_not_phi", "overwrite_ents")


@Language.factory(
    "phi_merge",
    # doc.ents is read with overwrite_ents = False.
    requires=[SPAN_GROUPS, SCORES, FLAGS, ENTS],
    assigns=[ENTS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SOURCES_ATTR, SCORES, FLAGS],
    default_config={
        "sources": DEFAULT_SOURCES,
        "strategy": "priority",
        "min_votes": 2,
        "protected_labels": [],
        "extend": True,
        "drop_not_phi": True,
        "overwrite_ents": True,
        "scorer": {"@scorers": "spacy_deid.phi_scorer.v1"},
    },
    default_score_weights=dict(PHI_SCORE_WEIGHTS),
)
def make_phi_merge(
    nlp: Language,
    name: str,
    sources: List[str],
    strategy: str,
    min_votes: int,
    protected_labels: List[str],
    extend: bool,
    drop_not_phi: bool,
    overwrite_ents: bool,
    scorer: Optional[Callable],
) -> "PhiMerger":
    """Create a PhiMerger (factory "phi_merge").

    sources (List[str]): `doc.spans` keys of the sources, highest priority
        first. A key missing from a doc means no spans from that source.
    strategy (str): "priority" (default): the i2b2 hybrid policy, a span of an
        earlier source beats overlapping spans of later sources, and within a
        source a longer, then earlier, span wins; "union": every token flagged
        by any source is PHI, each run of overlapping spans becomes one span
        labelled by the highest-priority source's longest span; "vote": a run
        of overlapping spans is kept only if `min_votes` distinct sources have
        a span in it, with the boundaries and labels of its highest-priority
        source.
    min_votes (int): Distinct sources a run needs under "vote" (1 to the
        number of sources). Default 2.
    protected_labels (List[str]): Spans with these labels, from any source,
        are kept whole whatever the strategy and win over overlapping spans
        (overlapping protected spans are joined into one). Default: none.
    extend (bool): Under "priority": True (default): a losing span that
        reaches beyond the spans that beat it widens them (keeping their
        label), so no flagged token is uncovered; False: it is dropped.
    drop_not_phi (bool): Ignore source spans all of whose tokens are in
        `doc.spans["phi_not"]`, except those with a protected label.
    overwrite_ents (bool): True (default): `doc.ents` becomes the merge
        result; False: earlier entities that overlap no merged span are kept
        beside it.
    scorer (Optional[Callable]): The scoring method.
    RETURNS (PhiMerger): The component.
    """
    return PhiMerger(
        name,
        sources=sources,
        strategy=strategy,
        min_votes=min_votes,
        protected_labels=protected_labels,
        extend=extend,
        drop_not_phi=drop_not_phi,
        overwrite_ents=overwrite_ents,
        scorer=scorer,
    )


class PhiMerger(CfgSerializable, Pipe):
    """Merge the PHI spans of several sources into `doc.ents`. No model."""

    def __init__(
        self,
        name: str = "phi_merge",
        *,
        sources: Iterable[str] = tuple(DEFAULT_SOURCES),
        strategy: str = "priority",
        min_votes: int = 2,
        protected_labels: Iterable[str] = (),
        extend: bool = True,
        drop_not_phi: bool = True,
        overwrite_ents: bool = True,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize the component (settings as in `make_phi_merge`).

        name (str): The component name.
        sources (Iterable[str]): Span group keys, highest priority first.
        strategy (str): "priority", "union" or "vote".
        min_votes (int): Distinct sources a run needs under "vote".
        protected_labels (Iterable[str]): Labels kept whole.
        extend (bool): Whether losing spans widen the winners ("priority").
        drop_not_phi (bool): Whether to ignore spans inside known non-PHI.
        overwrite_ents (bool): Whether the result replaces `doc.ents`.
        scorer (Optional[Callable]): The scoring method.
        """
        install_extensions()
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "sources": _str_list(sources, "sources"),
            "strategy": strategy,
            "min_votes": min_votes,
            "protected_labels": _str_list(protected_labels, "protected_labels"),
            "extend": extend,
            "drop_not_phi": drop_not_phi,
            "overwrite_ents": overwrite_ents,
        }
        check_config(self.cfg)

    @property
    def sources(self) -> Tuple[str, ...]:
        """RETURNS (Tuple[str, ...]): The source keys, highest priority first."""
        return tuple(self.cfg["sources"])

    @property
    def strategy(self) -> str:
        """RETURNS (str): The merge strategy."""
        return self.cfg["strategy"]

    def __call__(self, doc: Doc) -> Doc:
        """Merge the sources' spans of a doc into `doc.ents`. Errors are
        raised (the doc is never returned as if it had been merged).

        doc (Doc): The doc, with the sources' span groups.
        RETURNS (Doc): The same doc.
        """
        spans, flags = self.source_spans(doc)
        merged = [m for m in self.merge(spans) if _has_alnum(doc, m.start, m.end)]
        self.set_annotations(doc, merged, flags)
        return doc

    def merge(self, spans: List[SourceSpan]) -> List[MergedSpan]:
        """Merge source spans with the configured strategy.

        spans (List[SourceSpan]): From `source_spans`.
        RETURNS (List[MergedSpan]): Non-overlapping spans in text order.
        """
        return merge_sources(
            spans,
            self.cfg["sources"],
            strategy=self.cfg["strategy"],
            min_votes=self.cfg["min_votes"],
            protected=self.cfg["protected_labels"],
            extend=self.cfg["extend"],
        )

    def source_spans(self, doc: Doc) -> Tuple[List[SourceSpan], List[List[str]]]:
        """Read the spans of the configured sources, dropping those without a
        letter or digit and (with `drop_not_phi`) those inside known non-PHI.

        doc (Doc): The doc.
        RETURNS (Tuple[List[SourceSpan], List[List[str]]]): The spans and the
            `phi_flags` of each.
        """
        protected = set(self.cfg["protected_labels"])
        vetoed = _not_phi_runs(doc) if self.cfg["drop_not_phi"] else []
        spans: List[SourceSpan] = []
        flags: List[List[str]] = []
        for key in self.cfg["sources"]:
            if key not in doc.spans:
                continue
            for i, span in enumerate(doc.spans[key]):
                if not span.label_:
                    raise ValueError(
                        f"'{self.name}': span {i} of source '{key}' (tokens "
                        f"{span.start}-{span.end}) has no label"
                    )
                if not _has_alnum(doc, span.start, span.end):
                    continue
                if span.label_ not in protected and _inside(vetoed, span):
                    continue
                score = _score(span._.phi_score, self.name, key, i)
                spans.append(SourceSpan(span.start, span.end, span.label_, key, score))
                flags.append(_flags(span._.phi_flags))
        return spans, flags

    def set_annotations(
        self, doc: Doc, merged: List[MergedSpan], flags: List[List[str]]
    ) -> None:
        """Write the merged spans to `doc.ents` (per `overwrite_ents`) and
        their provenance to the span extensions.

        doc (Doc): The doc.
        merged (List[MergedSpan]): From `merge`.
        flags (List[List[str]]): The `phi_flags` of the source spans.
        """
        new = [Span(doc, m.start, m.end, label=m.label) for m in merged]
        kept: List[Span] = []
        if not self.cfg["overwrite_ents"]:
            kept = spans_outside(list(doc.ents), token_mask(len(doc), new))
        write_ents(doc, kept + new, default="outside")
        for span, m in zip(new, merged, strict=True):
            run_flags = sorted({flag for i in m.members for flag in flags[i]})
            span._.phi_source = m.source
            span._.phi_sources = list(m.sources)
            span._.phi_score = m.score
            span._.phi_flags = run_flags or None

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
    ) -> None:
        """Nothing to initialize (no model, no data).

        get_examples (Optional[Callable]): Ignored.
        nlp (Optional[Language]): Ignored.
        """

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        """Take stored settings (missing ones keep their current value)."""
        new = {**self.cfg, **cfg}
        check_config(new)
        self.cfg = new


def check_config(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for an invalid `phi_merge` setting.

    cfg (Dict[str, Any]): The settings.
    """
    sources = _str_list(cfg["sources"], "sources")
    if not sources or not all(sources):
        raise ValueError("phi_merge sources must be a non-empty list of keys")
    if len(set(sources)) != len(sources):
        raise ValueError("phi_merge sources must not repeat a key")
    if NOT_PHI_KEY in sources:
        raise ValueError(f"'{NOT_PHI_KEY}' holds non-PHI and cannot be a source")
    if cfg["strategy"] not in STRATEGIES:
        raise ValueError(
            f"phi_merge strategy must be one of {STRATEGIES}, not {cfg['strategy']!r}"
        )
    votes = cfg["min_votes"]
    if isinstance(votes, bool) or not isinstance(votes, int) or votes < 1:
        raise ValueError("phi_merge min_votes must be an integer >= 1")
    if cfg["strategy"] == "vote" and votes > len(sources):
        raise ValueError(
            f"phi_merge min_votes ({votes}) exceeds the number of sources "
            f"({len(sources)}): only protected spans could be kept"
        )
    _str_list(cfg["protected_labels"], "protected_labels")
    for setting in _BOOL_SETTINGS:
        if not isinstance(cfg[setting], bool):
            raise ValueError(f"phi_merge {setting} must be true or false")


def _str_list(values: Any, setting: str) -> List[str]:
    """A list of strings (not a single string)."""
    if isinstance(values, str) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"phi_merge {setting} must be a list of strings")
    return list(values)


def _has_alnum(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens [start, end) contain a letter or digit."""
    return any(c.isalnum() for token in doc[start:end] for c in token.text)


def _score(value: Any, name: str, key: str, index: int) -> Optional[float]:
    """A source span's score as a float (None if unset or NaN)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(
            f"'{name}': span {index} of source '{key}' has a phi_score that is "
            "not a number"
        )
    value = float(value)
    return None if math.isnan(value) else value


def _flags(value: Any) -> List[str]:
    """A source span's `phi_flags` as a list of strings."""
    if not value:
        return []
    if isinstance(value, str):
        return [value]
    return [str(flag) for flag in value]


def _not_phi_runs(doc: Doc) -> List[Tuple[int, int]]:
    """The token runs covered by `doc.spans["phi_not"]` (sorted, joined where
    they overlap or touch)."""
    if NOT_PHI_KEY not in doc.spans:
        return []
    runs: List[Tuple[int, int]] = []
    for start, end in sorted((s.start, s.end) for s in doc.spans[NOT_PHI_KEY]):
        if runs and start <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(runs[-1][1], end))
        elif start < end:
            runs.append((start, end))
    return runs


def _inside(runs: List[Tuple[int, int]], span: Span) -> bool:
    """Whether every token of the span is in one of the (sorted) runs."""
    i = bisect_right(runs, (span.start, len(span.doc) + 1)) - 1
    return i >= 0 and runs[i][1] >= span.end
