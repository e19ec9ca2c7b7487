"""Token-level views of spans: the i2b2 2014 token measures and the
whole-text token measures.

`token` and `binary_token` (the defaults of `evaluate_notes`) follow the
i2b2 2014 evaluation script (EvaluateTokenizedPHI, Stubbs, Kotfila & Uzuner
2015), so that figures compare with published ones:
- each span's own text is cut into runs of `[A-Za-z0-9]` (punctuation,
  whitespace and non-ASCII letters separate tokens and are never tokens);
- a token is (label, start, end) in the note; binary tokens drop the label;
- gold and predicted tokens are sets per note: TP = both, FP = predicted
  only, FN = gold only. A span stretched over punctuation or whitespace makes
  the same tokens; a span cut inside a word makes a different token (one FP
  and one FN); a relabelled span makes its tokens FPs and FNs (binary: TPs).

`text_token` and `binary_text_token` tokenize the whole gold text instead
(`\\w+|[^\\w\\s]`: punctuation counts), independent of any spaCy tokenizer.
A token takes the label of a span that overlaps it by at least one
character; when several do, the longest span wins (ties: the earliest).
A token partly covered by a prediction counts as found, which makes
`binary_text_token` recall the share of PHI tokens touched by a prediction.
"""

import bisect
import re
from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Set, Tuple

from ..core.types import PhiSpan
from .metrics import Counts

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
# The i2b2 2014 script's tokens: ASCII letters and digits only.
I2B2_TOKEN_RE = re.compile(r"[A-Za-z0-9]+")

LabelledToken = Tuple[str, int, int]


def tokenize(text: str) -> List[Tuple[int, int]]:
    """Character offsets of the whole-text evaluation tokens of a text.

    RETURNS (List[Tuple[int, int]]): (start, end) per token, in order.
    """
    return [m.span() for m in TOKEN_RE.finditer(text)]


def token_labels(
    tokens: List[Tuple[int, int]], spans: Iterable[PhiSpan]
) -> List[Optional[str]]:
    """Label of each whole-text token (None: not PHI).

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


def span_tokens(text: str, spans: Iterable[PhiSpan]) -> Set[LabelledToken]:
    """The i2b2 2014 tokens of some spans: the `[A-Za-z0-9]` runs of each
    span's own text, with the span's label and note offsets.

    text (str): The note text the spans index.
    spans (Iterable[PhiSpan]): The spans.
    RETURNS (Set[LabelledToken]): (label, start, end) per token.
    """
    tokens = set()
    for span in spans:
        for match in I2B2_TOKEN_RE.finditer(text, span.start, span.end):
            tokens.add((span.label, match.start(), match.end()))
    return tokens


def i2b2_token_counts(
    gold: Set[LabelledToken], pred: Set[LabelledToken]
) -> Dict[str, Counts]:
    """Typed i2b2 2014 token counts per label: a TP counts for its label, an
    FP for the predicted label, an FN for the gold label.

    gold (Set[LabelledToken]): From `span_tokens` on the gold spans.
    pred (Set[LabelledToken]): From `span_tokens` on the predicted spans.
    RETURNS (Dict[str, Counts]): Counts per label.
    """
    counts: Dict[str, Counts] = defaultdict(Counts)
    for label, _, _ in gold & pred:
        counts[label].tp += 1
    for label, _, _ in pred - gold:
        counts[label].fp += 1
    for label, _, _ in gold - pred:
        counts[label].fn += 1
    return counts


def i2b2_binary_token_counts(
    gold: Set[LabelledToken], pred: Set[LabelledToken]
) -> Counts:
    """Binary i2b2 2014 token counts: tokens compared by offsets only.

    gold (Set[LabelledToken]): From `span_tokens` on the gold spans.
    pred (Set[LabelledToken]): From `span_tokens` on the predicted spans.
    RETURNS (Counts): The counts.
    """
    gold_at = {(start, end) for _, start, end in gold}
    pred_at = {(start, end) for _, start, end in pred}
    both = len(gold_at & pred_at)
    return Counts(tp=both, fp=len(pred_at) - both, fn=len(gold_at) - both)
