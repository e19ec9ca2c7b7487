"""One way to write PHI spans into `doc.ents`, used by every component.

Every component that writes entities decides in two steps: which of the
earlier entities stay and which of its own spans are written (a *filter*),
then writes them (`write_ents`). The filters work on token offsets only and
never read note text.

- `overlap_runs`: connected runs of overlapping intervals (the sweep behind
  every filter that joins overlapping spans);
- `merge_ents`: a tagger's spans against earlier entities (`phi_ner`,
  `phi_crf`: keep the earlier ones, or overwrite all but protected labels);
- `first_free`: greedy choice of candidates in rank order over free tokens
  (`phi_rules`, `phi_consistency`);
- `replaced_tokens`: the earlier entities a choice leaves whole, and the
  leftover tokens of those it cuts (`phi_rules` with `overwrite_ents`);
- `union_runs`: overlapping spans joined into one, labelled by the longest
  of its new spans (`phi_known`);
- `write_ents`: `doc.set_ents` with the spans in doc order.

The filters are also registered in `spacy.registry.misc`, in the manner of
spaCy's SpanRuler `ents_filter` (`spacy.first_longest_spans_filter.v1`,
`spacy.prioritize_new_ents_filter.v1`): each takes the earlier entities and
the new spans and returns the spans to write.
"""

from typing import Callable, Iterable, List, Optional, Sequence, Set, Tuple

import numpy as np
from spacy.tokens import Doc, Span
from spacy.util import registry

from ..knowledge import lookup

EntsFilter = Callable[[Iterable[Span], Iterable[Span]], List[Span]]
_MAX_ABBREVIATION = 4  # capitals of a cue such as "MRN" or "SSN"


def overlap_runs(intervals: Sequence[Tuple[int, int]]) -> List[List[int]]:
    """Group intervals into connected runs of overlapping ones. Intervals that
    only touch (one ends where the next starts) are in different runs.

    intervals (Sequence[Tuple[int, int]]): (start, end) pairs, end exclusive.
    RETURNS (List[List[int]]): Indices per run, each run ordered by (start,
        end, index), runs in text order.
    """
    order = sorted(range(len(intervals)), key=lambda i: intervals[i])
    runs: List[List[int]] = []
    end = None
    for i in order:
        start, stop = intervals[i]
        if end is None or start >= end:
            runs.append([])
            end = stop
        runs[-1].append(i)
        end = max(end, stop)
    return runs


def token_mask(n: int, spans: Iterable[Span]) -> np.ndarray:
    """Boolean (n,) array: True on the tokens covered by spans.

    n (int): The number of tokens.
    spans (Iterable[Span]): The spans.
    RETURNS (ndarray): The mask.
    """
    mask = np.zeros(n, dtype=bool)
    for span in spans:
        mask[span.start : span.end] = True
    return mask


def spans_outside(spans: List[Span], mask: np.ndarray) -> List[Span]:
    """The spans that cover no masked token.

    spans (List[Span]): The spans.
    mask (ndarray): Boolean per token (see `token_mask`).
    RETURNS (List[Span]): The spans outside the mask, in input order.
    """
    return [s for s in spans if not mask[s.start : s.end].any()]


def merge_ents(
    existing: List[Span],
    spans: List[Span],
    *,
    overwrite: bool,
    protected: Iterable[str] = (),
    grow: bool = False,
) -> Tuple[List[Span], List[Span]]:
    """Decide which earlier entities and a tagger's spans end up in `doc.ents`.

    overwrite = False: every earlier entity is kept and a new span is written
    only if it overlaps none. overwrite = True: earlier entities with a
    protected label are kept and new spans overlapping them are dropped;
    another earlier entity gives way to overlapping new spans that cover
    all of its tokens; where they cover only part of it, the run of overlapping
    spans becomes one span with the earlier entity's label (so a shorter model
    span never uncovers PHI a rule found). With `grow`, a new span that
    overlaps a protected entity keeps its other tokens: with the entity's
    label, the two become one span, a new one (the rule's "May" in the
    tagger's "May. 8th 2100"), where that adds a token with a digit and
    overlaps no other earlier entity; with an unprotected label, its tokens
    outside the entity that name something stay as a span of its own (the
    name of a name and an age tagged as one span, not the entity's cue
    word). Neither list may overlap itself; the result does
    not overlap.

    existing (List[Span]): Entities set by earlier components.
    spans (List[Span]): The new spans.
    overwrite (bool): The `overwrite_ents` setting.
    protected (Iterable[str]): The `protected_labels` setting.
    grow (bool): The `grow_protected` setting.
    RETURNS (Tuple[List[Span], List[Span]]): Earlier entities to keep and new
        spans to write, each in its input order.
    """
    n = max([s.end for s in existing + spans], default=0)
    if not overwrite:
        return existing, spans_outside(spans, token_mask(n, existing))
    protected = set(protected)
    kept = [e for e in existing if e.label_ in protected]
    others = [e for e in existing if e.label_ not in protected]
    new: List[Span] = []
    if grow:
        kept, new, rest = _grown(kept, spans, token_mask(n, others), protected)
        spans = spans + rest
    free = spans_outside(spans, token_mask(n, kept + new))
    for rules, models in _overlap_groups(others, free):
        if not models:
            kept.extend(rules)
        elif not rules or _covers(models, rules):
            new.extend(models)
        else:
            new.append(_union(rules, models))
    return sorted(kept, key=_start), sorted(new, key=_start)


def _grown(
    protected: List[Span], spans: List[Span], others: np.ndarray, labels: Set[str]
) -> Tuple[List[Span], List[Span], List[Span]]:
    """The protected entities that stay as they are, the unions of one with
    the new spans of its label that overlap it and reach past it, and the
    pieces outside them of the new spans of unprotected labels (`labels`
    are the protected ones) that overlap them (`merge_ents` with `grow`):
    a name tagged with its age keeps the name, while "block" of an ID tagged
    with its cue word is the tagger's overreach. `others` masks the other
    earlier entities, which no union may overlap."""
    kept: List[Span] = []
    grown: List[Span] = []
    rest: List[Span] = []
    for rules, models in _overlap_groups(protected, spans):
        if not rules:
            continue  # new spans alone: `merge_ents` writes them
        named = [span for span in models if span.label_ not in labels]
        rest.extend(_pieces_outside(named, rules))
        one_label = len({s.label_ for s in rules + models}) == 1
        union = _union(rules, models) if models and one_label else None
        if union is not None:
            union = _alnum_edges(union, rules[0].start, rules[-1].end)
        if union is None or others[union.start : union.end].any():
            kept.extend(rules)
        elif not _adds_digits(union, rules):
            # Nothing to grow (the new spans lie inside), or only words: a
            # rule cut short leaves digits out (a year, a number before its
            # extension); words the tagger adds are more often its own error.
            kept.extend(rules)
        else:
            grown.append(union)
    return kept, grown, rest


def _pieces_outside(models: List[Span], rules: List[Span]) -> List[Span]:
    """The runs of tokens outside `rules` of each model span whose label is
    none of theirs, less edges without letters or digits."""
    labels = {rule.label_ for rule in rules}
    inside = _indices(rules)
    pieces: List[Span] = []
    for span in models:
        if span.label_ in labels:
            continue
        start = span.start
        for i in range(span.start, span.end + 1):
            if i < span.end and i not in inside:
                continue
            if i > start:
                piece = _alnum_edges(Span(span.doc, start, i, label=span.label_))
                if len(piece) and _names_something(piece):
                    pieces.append(piece)
            start = i + 1
    return pieces


def _names_something(piece: Span) -> bool:
    """Whether a piece holds a word of two letters or more that is no common
    English word nor an abbreviation of up to four capitals: a name
    ("nowakowski" of "nowakowski 75yF"), not the cue of the entity it was
    cut from ("Room", "VIN", "block")."""
    return any(
        token.is_alpha
        and len(token) >= 2
        and not (token.is_upper and len(token) <= _MAX_ABBREVIATION)
        and not lookup(token.text).is_common_word
        for token in piece
    )


def _adds_digits(union: Span, rules: List[Span]) -> bool:
    """Whether a union holds a token with a digit outside its earlier spans."""
    inside = _indices(rules)
    return any(t.i not in inside and any(c.isdigit() for c in t.text) for t in union)


def _indices(spans: List[Span]) -> Set[int]:
    """The token indices that the spans cover."""
    return {i for span in spans for i in range(span.start, span.end)}


def _alnum_edges(
    span: Span, first: Optional[int] = None, last: Optional[int] = None
) -> Span:
    """A span without its edge tokens that hold no letter or digit ("·"),
    outside the tokens `first` to `last` (end exclusive), which stay."""
    start, end = span.start, span.end
    first = end if first is None else first
    last = start if last is None else last
    doc = span.doc
    while start < first and not any(c.isalnum() for c in doc[start].text):
        start += 1
    while end > max(last, start) and not any(c.isalnum() for c in doc[end - 1].text):
        end -= 1
    if (start, end) == (span.start, span.end):
        return span
    return Span(doc, start, end, label=span.label_)


def _covers(models: List[Span], rules: List[Span]) -> bool:
    """Whether the new spans cover every token of the earlier ones (work in
    proportion to the spans, not to the doc: this runs once per overlap)."""
    covered = {i for span in models for i in range(span.start, span.end)}
    return all(i in covered for span in rules for i in range(span.start, span.end))


def _start(span: Span) -> int:
    return span.start


def _overlap_groups(
    rules: List[Span], models: List[Span]
) -> List[Tuple[List[Span], List[Span]]]:
    """Group two span lists (neither overlapping itself) into connected runs
    of overlapping spans: (earlier spans, new spans) per run."""
    spans = rules + models
    groups: List[Tuple[List[Span], List[Span]]] = []
    for run in overlap_runs([(s.start, s.end) for s in spans]):
        groups.append(([], []))
        for i in run:
            groups[-1][int(i >= len(rules))].append(spans[i])
    return groups


def _union(rules: List[Span], models: List[Span]) -> Span:
    """One span over a run of overlapping earlier and new spans, labelled
    like its longest earlier span: the model only partly covers an earlier
    entity, so neither alone may be trusted to cover all of the PHI."""
    spans = rules + models
    label = max(rules, key=len).label_
    doc = rules[0].doc
    start = min(s.start for s in spans)
    return Span(doc, start, max(s.end for s in spans), label=label)


def first_free(
    intervals: Sequence[Tuple[int, int]], taken: Optional[Iterable[Span]], n: int
) -> List[int]:
    """Greedy choice in the given (rank) order: an interval is chosen when
    none of its tokens is taken by an earlier choice or by `taken`.

    intervals (Sequence[Tuple[int, int]]): (start, end) token offsets, best
        first.
    taken (Optional[Iterable[Span]]): Spans whose tokens are taken already.
    n (int): The number of tokens in the doc.
    RETURNS (List[int]): The indices chosen, in choice order.
    """
    occupied = token_mask(n, taken or ())
    chosen = []
    for i, (start, end) in enumerate(intervals):
        if occupied[start:end].any():
            continue
        occupied[start:end] = True
        chosen.append(i)
    return chosen


def replaced_tokens(
    doc: Doc, existing: List[Span], chosen: List[Span]
) -> Tuple[List[Span], List[Span]]:
    """The earlier entities that no chosen span overlaps, and the leftover
    tokens of the others (to be set to O) as single-token spans.

    doc (Doc): The doc.
    existing (List[Span]): Entities set by earlier components.
    chosen (List[Span]): The spans that replace what they overlap.
    RETURNS (Tuple[List[Span], List[Span]]): Kept entities, leftover tokens.
    """
    covered = token_mask(len(doc), chosen)
    kept, outside = [], []
    for ent in existing:
        if not covered[ent.start : ent.end].any():
            kept.append(ent)
            continue
        outside.extend(
            doc[i : i + 1] for i in range(ent.start, ent.end) if not covered[i]
        )
    return kept, outside


def union_runs(
    existing: List[Span], spans: List[Span]
) -> List[Tuple[Span, List[Span]]]:
    """Join each connected run of overlapping spans that holds a new span into
    one span, labelled by the longest new span of the run (of equal length,
    the earliest); runs of earlier entities alone are left out.

    existing (List[Span]): Entities set by earlier components.
    spans (List[Span]): The new spans (may overlap).
    RETURNS (List[Tuple[Span, List[Span]]]): Each joined span, with the
        earlier entities it absorbed, in text order.
    """
    every = spans + existing
    n_new = len(spans)
    joined: List[Tuple[Span, List[Span]]] = []
    for run in overlap_runs([(span.start, span.end) for span in every]):
        if not any(i < n_new for i in run):
            continue
        members = [every[i] for i in run]
        label = max((every[i] for i in run if i < n_new), key=_length).label_
        start = min(span.start for span in members)
        end = max(span.end for span in members)
        old = [every[i] for i in run if i >= n_new]
        joined.append((Span(members[0].doc, start, end, label=label), old))
    return joined


def _length(span: Span) -> Tuple[int, int]:
    """Longest first; of equal length, the earliest."""
    return (span.end_char - span.start_char, -span.start_char)


def write_ents(
    doc: Doc,
    spans: Iterable[Span],
    *,
    default: str = "outside",
    outside: Optional[List[Span]] = None,
) -> None:
    """Set `doc.ents` to the spans, in doc order.

    doc (Doc): The doc.
    spans (Iterable[Span]): Non-overlapping spans.
    default (str): What happens to the other tokens (`Doc.set_ents`):
        "outside" sets them to O (the spans are then all of `doc.ents`);
        "unmodified" leaves them, and the entities on them, as they were.
    outside (Optional[List[Span]]): Spans whose tokens are set to O.
    """
    ordered = sorted(spans, key=_start)
    if outside is None:
        doc.set_ents(ordered, default=default)
    else:
        doc.set_ents(ordered, outside=outside, default=default)


def keep_existing_ents_filter(
    entities: Iterable[Span], spans: Iterable[Span]
) -> List[Span]:
    """Keep every earlier entity; add the new spans that overlap none.

    entities (Iterable[Span]): The earlier entities.
    spans (Iterable[Span]): The new spans (not overlapping each other).
    RETURNS (List[Span]): The spans to write, in doc order.
    """
    kept, new = merge_ents(list(entities), list(spans), overwrite=False)
    return sorted(kept + new, key=_start)


class OverwriteEntsFilter:
    """New spans win over earlier entities, except those with a protected
    label (`merge_ents` with overwrite). A class, so that it pickles."""

    def __init__(self, protected_labels: Iterable[str] = ()) -> None:
        self.protected_labels = list(protected_labels)

    def __call__(self, entities: Iterable[Span], spans: Iterable[Span]) -> List[Span]:
        kept, new = merge_ents(
            list(entities),
            list(spans),
            overwrite=True,
            protected=self.protected_labels,
        )
        return sorted(kept + new, key=_start)


def union_ents_filter(entities: Iterable[Span], spans: Iterable[Span]) -> List[Span]:
    """Join each run of overlapping spans that holds a new span into one
    (`union_runs`); keep the earlier entities no new span overlaps.

    entities (Iterable[Span]): The earlier entities.
    spans (Iterable[Span]): The new spans (may overlap).
    RETURNS (List[Span]): The spans to write, in doc order.
    """
    existing = list(entities)
    joined = union_runs(existing, list(spans))
    absorbed = {id(ent) for _, old in joined for ent in old}
    kept = [ent for ent in existing if id(ent) not in absorbed]
    return sorted(kept + [span for span, _ in joined], key=_start)


@registry.misc("spacy_deid.keep_existing_ents_filter.v1")
def make_keep_existing_ents_filter() -> EntsFilter:
    """Registered `keep_existing_ents_filter` (earlier entities win).

    RETURNS (EntsFilter): The filter.
    """
    return keep_existing_ents_filter


@registry.misc("spacy_deid.overwrite_ents_filter.v1")
def make_overwrite_ents_filter(protected_labels: Sequence[str] = ()) -> EntsFilter:
    """Registered `OverwriteEntsFilter` (new spans win, but not over the
    protected labels).

    protected_labels (Sequence[str]): Labels of earlier entities that always win.
    RETURNS (EntsFilter): The filter.
    """
    return OverwriteEntsFilter(protected_labels)


@registry.misc("spacy_deid.union_ents_filter.v1")
def make_union_ents_filter() -> EntsFilter:
    """Registered `union_ents_filter` (overlaps are joined).

    RETURNS (EntsFilter): The filter.
    """
    return union_ents_filter
