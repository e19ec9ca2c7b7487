"""Token-level view of spans for the token and binary-token measures.

Tokens are maximal runs of word characters or single punctuation/symbol
characters of the gold text (`\\w+|[^\\w\\s]`), independent of any spaCy
tokenizer so that systems with different tokenizers are comparable. A token
takes the label of a span that overlaps it by at least one character; when
several do, the longest span wins (ties: the earliest).
"""

import bisect
import re
from typing import Iterable, List, Optional, Tuple

from ..core.types import PhiSpan

TOKEN_RE = re.compile(r"\w+|[^\w\s]")


def tokenize(text: str) -> List[Tuple[int, int]]:
    """Character offsets of the evaluation tokens of a text.

    RETURNS (List[Tuple[int, int]]): (start, end) per token, in order.
    """
    return [m.span() for m in TOKEN_RE.finditer(text)]


def token_labels(
    tokens: List[Tuple[int, int]], spans: Iterable[PhiSpan]
) -> List[Optional[str]]:
    """Label of each token (None: not PHI).

    tokens (List[Tuple[int, int]]): From `tokenize`.
    spans (Iterable[PhiSpan]): The spans.
    RETURNS (List[Optional[str]]): One label or None per token.
    """
    labels: List[Optional[str]] = [None] * len(tokens)
    ends = [end for _, end in tokens]
    starts = [start for start, _ in tokens]
    # Shortest first, so that the longest span is written last and wins.
    order = sorted(spans, key=lambda s: (s.end - s.start, -s.start), reverse=False)
    for span in order:
        first = bisect.bisect_right(ends, span.start)
        last = bisect.bisect_left(starts, span.end)
        for i in range(first, last):
            labels[i] = span.label
    return labels
