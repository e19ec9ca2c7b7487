"""Pure span-list logic of `phi_merge`: merge the PHI spans of several sources.

The functions work on `SourceSpan` tuples (token offsets, label, source key,
score) and return non-overlapping `MergedSpan` tuples in text order. They
never look at text, so they are easy to test and cannot leak PHI.

Ranking. `sources` lists the source keys in priority order. One span beats
another by, in turn: earlier source, longer span, earlier start, higher
score (None lowest), then label (alphabetical), so the result never depends
on the order of the input list.

Protected labels. Spans with a protected label are kept whole whatever the
strategy. Where protected spans overlap each other, the run becomes one span
covering all of them, labelled by its best-ranked span, so that no protected
token is lost. Other spans never overlap a protected span: "priority" without
`extend` and "vote" drop them, "union" and "priority" with `extend` keep the
parts outside the protected span (see the strategies).

Provenance. Each `MergedSpan` names the source of the span that gave its
label (`source`), the sorted keys of all sources with a span in its run
(`sources`), the highest non-None score of that run (`score`) and the run's
input indices (`members`). The run of an output span is the set of input
spans that overlap it, except under "vote", where it is the whole connected
run of overlapping spans that voted.
"""

from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..tagging.ents import overlap_runs

STRATEGIES = ("priority", "union", "vote")


class SourceSpan(NamedTuple):
    """A PHI span proposed by one source (token offsets, end exclusive)."""

    start: int
    end: int
    label: str
    source: str
    score: Optional[float] = None


class MergedSpan(NamedTuple):
    """An output span and its provenance."""

    start: int
    end: int
    label: str
    source: str
    sources: Tuple[str, ...]
    score: Optional[float]
    members: Tuple[int, ...]


@dataclass
class _Block:
    """A span being built: its extent and the input span giving its label."""

    start: int
    end: int
    head: int
    protected: bool = False


RankKey = Tuple[int, int, int, float, str]


def merge_sources(
    spans: Sequence[SourceSpan],
    sources: Sequence[str],
    *,
    strategy: str = "priority",
    min_votes: int = 2,
    protected: Iterable[str] = (),
    extend: bool = True,
) -> List[MergedSpan]:
    """Merge the spans of several sources with one strategy.

    spans (Sequence[SourceSpan]): The spans of all sources, in any order.
    sources (Sequence[str]): The source keys, highest priority first.
    strategy (str): "priority", "union" or "vote".
    min_votes (int): Distinct sources a run needs under "vote".
    protected (Iterable[str]): Labels kept whole whatever the strategy.
    extend (bool): Widen kept spans under "priority" (see `merge_priority`).
    RETURNS (List[MergedSpan]): Non-overlapping spans in text order.
    """
    if strategy == "priority":
        return merge_priority(spans, sources, protected=protected, extend=extend)
    if strategy == "union":
        return merge_union(spans, sources, protected=protected)
    if strategy == "vote":
        return merge_vote(spans, sources, min_votes=min_votes, protected=protected)
    raise ValueError(f"strategy must be one of {STRATEGIES}, not {strategy!r}")


def merge_priority(
    spans: Sequence[SourceSpan],
    sources: Sequence[str],
    *,
    protected: Iterable[str] = (),
    extend: bool = True,
) -> List[MergedSpan]:
    """The i2b2 hybrid policy: spans are taken in rank order (earlier source,
    then longer, then earlier) and a span overlapping one already taken loses.

    With `extend`, a losing span that reaches beyond the spans it overlaps is
    not lost: each stretch of it outside them widens the taken span it touches
    (the better-ranked one if it touches two; never a protected one), or
    becomes a span of its own with its own label if it touches only protected
    spans. Every token of every input span is then covered. Without `extend`
    the losing span is dropped.

    spans (Sequence[SourceSpan]): The spans of all sources.
    sources (Sequence[str]): The source keys, highest priority first.
    protected (Iterable[str]): Labels kept whole.
    extend (bool): Whether losing spans widen the spans that beat them.
    RETURNS (List[MergedSpan]): Non-overlapping spans in text order.
    """
    rank = _check_spans(spans, sources)
    keys = [_rank_key(span, rank) for span in spans]
    protected = set(protected)
    blocks = _protected_blocks(spans, keys, protected)
    starts = [block.start for block in blocks]
    others = [i for i, span in enumerate(spans) if span.label not in protected]
    for i in sorted(others, key=keys.__getitem__):
        span = spans[i]
        hits = _hits(blocks, starts, span.start, span.end)
        if not hits:
            pos = bisect_left(starts, span.start)
            blocks.insert(pos, _Block(span.start, span.end, i))
            starts.insert(pos, span.start)
        elif extend:
            _extend(blocks, starts, hits, i, span, keys)
    return _finish(spans, [(b.start, b.end, b.head) for b in blocks])


def merge_union(
    spans: Sequence[SourceSpan],
    sources: Sequence[str],
    *,
    protected: Iterable[str] = (),
) -> List[MergedSpan]:
    """Maximise recall: every token of every input span is PHI. Each connected
    run of overlapping spans becomes one span, labelled by the best-ranked
    span of the run (the highest-priority source's longest span). Protected
    spans are kept whole; the parts of other spans outside them form the runs.

    spans (Sequence[SourceSpan]): The spans of all sources.
    sources (Sequence[str]): The source keys, highest priority first.
    protected (Iterable[str]): Labels kept whole.
    RETURNS (List[MergedSpan]): Non-overlapping spans in text order.
    """
    rank = _check_spans(spans, sources)
    keys = [_rank_key(span, rank) for span in spans]
    protected = set(protected)
    blocks = _protected_blocks(spans, keys, protected)
    taken = [(b.start, b.end) for b in blocks]
    pieces: List[Tuple[int, int]] = []
    owners: List[int] = []
    for i, span in enumerate(spans):
        if span.label in protected:
            continue
        for piece in _clip(span.start, span.end, taken):
            pieces.append(piece)
            owners.append(i)
    out = [(b.start, b.end, b.head) for b in blocks]
    for run in overlap_runs(pieces):
        head = min((owners[j] for j in run), key=keys.__getitem__)
        start = min(pieces[j][0] for j in run)
        out.append((start, max(pieces[j][1] for j in run), head))
    return _finish(spans, out)


def merge_vote(
    spans: Sequence[SourceSpan],
    sources: Sequence[str],
    *,
    min_votes: int = 2,
    protected: Iterable[str] = (),
) -> List[MergedSpan]:
    """Keep a connected run of overlapping spans only if at least `min_votes`
    distinct sources have a span in it. Its output spans are those of the
    highest-priority source in the run (overlaps among them resolved by rank).
    Protected spans are kept whole, with no vote; other spans overlapping them
    are dropped and do not vote.

    spans (Sequence[SourceSpan]): The spans of all sources.
    sources (Sequence[str]): The source keys, highest priority first.
    min_votes (int): Distinct sources a run needs (>= 1).
    protected (Iterable[str]): Labels kept whole.
    RETURNS (List[MergedSpan]): Non-overlapping spans in text order.
    """
    if isinstance(min_votes, bool) or not isinstance(min_votes, int) or min_votes < 1:
        raise ValueError("min_votes must be an integer >= 1")
    rank = _check_spans(spans, sources)
    keys = [_rank_key(span, rank) for span in spans]
    protected = set(protected)
    blocks = _protected_blocks(spans, keys, protected)
    starts = [block.start for block in blocks]
    out: List[MergedSpan] = _finish(spans, [(b.start, b.end, b.head) for b in blocks])
    free = [
        i
        for i, span in enumerate(spans)
        if span.label not in protected
        and not _hits(blocks, starts, span.start, span.end)
    ]
    for run in overlap_runs([(spans[i].start, spans[i].end) for i in free]):
        members = tuple(sorted(free[j] for j in run))
        if len({spans[i].source for i in members}) < min_votes:
            continue
        top = min(rank[spans[i].source] for i in members)
        best = [i for i in members if rank[spans[i].source] == top]
        for head in _greedy(spans, sorted(best, key=keys.__getitem__)):
            span = spans[head]
            out.append(_merged(spans, span.start, span.end, head, members))
    return sorted(out, key=lambda m: m.start)


def _check_spans(spans: Sequence[SourceSpan], sources: Sequence[str]) -> Dict[str, int]:
    """Validate the spans; return the rank of each source key."""
    rank = {source: i for i, source in enumerate(sources)}
    if len(rank) != len(sources):
        raise ValueError("sources must not repeat a key")
    for i, span in enumerate(spans):
        if span.source not in rank:
            raise ValueError(f"span {i} comes from a source not in sources")
        if not 0 <= span.start < span.end:
            raise ValueError(f"span {i} has invalid offsets {span.start}-{span.end}")
        if not isinstance(span.label, str) or not span.label:
            raise ValueError(f"span {i} has no label")
    return rank


def _rank_key(span: SourceSpan, rank: Dict[str, int]) -> RankKey:
    """Sort key, best first: source priority, length, start, score, label."""
    score = -1.0 if span.score is None else float(span.score)
    return (rank[span.source], span.start - span.end, span.start, -score, span.label)


def _protected_blocks(
    spans: Sequence[SourceSpan], keys: List[RankKey], protected: set
) -> List[_Block]:
    """One block per connected run of protected spans, labelled by the best
    ranked span of the run, in text order."""
    chosen = [i for i, span in enumerate(spans) if span.label in protected]
    blocks = []
    for run in overlap_runs([(spans[i].start, spans[i].end) for i in chosen]):
        members = [chosen[j] for j in run]
        head = min(members, key=keys.__getitem__)
        start = min(spans[i].start for i in members)
        end = max(spans[i].end for i in members)
        blocks.append(_Block(start, end, head, protected=True))
    return blocks


def _hits(blocks: List[_Block], starts: List[int], start: int, end: int) -> range:
    """Indices of the (disjoint, sorted) blocks overlapping [start, end)."""
    first = bisect_right(starts, start) - 1
    if first < 0 or blocks[first].end <= start:
        first += 1
    return range(first, bisect_left(starts, end))


def _extend(
    blocks: List[_Block],
    starts: List[int],
    hits: range,
    index: int,
    span: SourceSpan,
    keys: List[RankKey],
) -> None:
    """Give each stretch of `span` outside the blocks it overlaps to a
    touching unprotected block among them, or make it a block of its own."""
    grow: List[Tuple[int, int, int]] = []
    new: List[_Block] = []
    cursor, left = span.start, None
    for b in hits:
        block = blocks[b]
        if block.start > cursor:
            target = _target(blocks, keys, left, b)
            if target is None:
                new.append(_Block(cursor, block.start, index))
            else:
                grow.append((target, cursor, block.start))
        cursor, left = max(cursor, block.end), b
    if cursor < span.end:
        target = _target(blocks, keys, left, None)
        if target is None:
            new.append(_Block(cursor, span.end, index))
        else:
            grow.append((target, cursor, span.end))
    for b, start, end in grow:
        blocks[b].start = min(blocks[b].start, start)
        blocks[b].end = max(blocks[b].end, end)
        starts[b] = blocks[b].start
    for block in new:
        pos = bisect_left(starts, block.start)
        blocks.insert(pos, block)
        insort(starts, block.start)


def _target(
    blocks: List[_Block],
    keys: List[RankKey],
    left: Optional[int],
    right: Optional[int],
) -> Optional[int]:
    """The better-ranked unprotected block of the two (None if neither)."""
    options = [b for b in (left, right) if b is not None and not blocks[b].protected]
    if not options:
        return None
    return min(options, key=lambda b: keys[blocks[b].head])


def _clip(start: int, end: int, taken: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """The parts of [start, end) outside the sorted, disjoint `taken`."""
    pieces = []
    first = bisect_right(taken, (start, float("inf"))) - 1
    cursor = start
    for t_start, t_end in taken[max(first, 0) :]:
        if t_start >= end:
            break
        if t_end <= cursor:
            continue
        if t_start > cursor:
            pieces.append((cursor, t_start))
        cursor = max(cursor, t_end)
    if cursor < end:
        pieces.append((cursor, end))
    return pieces


def _greedy(spans: Sequence[SourceSpan], ranked: List[int]) -> List[int]:
    """Take spans in the given order, skipping those overlapping one taken."""
    taken: List[int] = []
    for i in ranked:
        span = spans[i]
        if all(span.end <= spans[j].start or spans[j].end <= span.start for j in taken):
            taken.append(i)
    return taken


def _finish(
    spans: Sequence[SourceSpan], out: List[Tuple[int, int, int]]
) -> List[MergedSpan]:
    """Build the output, in text order, from (start, end, head) triples; the
    run of each output span is the input spans overlapping it."""
    out = sorted(out)
    ends = [end for _, end, _ in out]
    members: List[List[int]] = [[] for _ in out]
    for i, span in enumerate(spans):
        j = bisect_right(ends, span.start)
        while j < len(out) and out[j][0] < span.end:
            members[j].append(i)
            j += 1
    return [
        _merged(spans, start, end, head, tuple(found))
        for (start, end, head), found in zip(out, members, strict=True)
    ]


def _merged(
    spans: Sequence[SourceSpan],
    start: int,
    end: int,
    head: int,
    members: Tuple[int, ...],
) -> MergedSpan:
    """One output span with the provenance of its run."""
    scores = [spans[i].score for i in members if spans[i].score is not None]
    return MergedSpan(
        start=start,
        end=end,
        label=spans[head].label,
        source=spans[head].source,
        sources=tuple(sorted({spans[i].source for i in members})),
        score=max(scores) if scores else None,
        members=members,
    )
