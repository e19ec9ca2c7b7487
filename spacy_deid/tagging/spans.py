"""From decoded BILUO tags to PHI spans: what every BILUO tagger (`phi_ner`,
`phi_crf`) does the same way after decoding.

- `biluo_spans`: legal tag ids -> spans, without spans that have no letter or
  digit (no surrogate could differ from them);
- `drop_not_phi`: without spans inside known non-PHI found by the rules
  (`doc.spans["phi_not"]`, e.g. the "2/10" of a pain score);
- `check_thresholds` / `threshold_of`: the per-label minimum `phi_score`
  setting ("*" for labels without their own);
- `bias_emissions`: the `recall_bias` setting, added to every non-"O" score.
"""

import math
from numbers import Real
from typing import Any, Dict, List, Sequence

import numpy as np
from spacy.tokens import Doc, Span

from ..labels import NOT_PHI_KEY

ANY_LABEL = "*"


def biluo_spans(doc: Doc, tag_ids: np.ndarray, tag_names: List[str]) -> List[Span]:
    """Turn legal BILUO tag ids into spans, leaving out spans without a letter
    or digit (punctuation, whitespace).

    doc (Doc): The doc the tags belong to.
    tag_ids (ndarray): One tag id per token, a legal BILUO sequence.
    tag_names (List[str]): The tag names ("O", "B-DATE", ...).
    RETURNS (List[Span]): The spans, in doc order.
    """
    prefixes = np.array([tag[0] for tag in tag_names])[tag_ids]
    starts = np.flatnonzero((prefixes == "B") | (prefixes == "U")).tolist()
    ends = (np.flatnonzero((prefixes == "L") | (prefixes == "U")) + 1).tolist()
    spans = [
        Span(doc, start, end, label=tag_names[tag_ids[start]][2:])
        for start, end in zip(starts, ends, strict=True)
    ]
    return [span for span in spans if any(c.isalnum() for c in span.text)]


def drop_not_phi(doc: Doc, spans: List[Span]) -> List[Span]:
    """The spans that do not lie wholly inside known non-PHI found by the
    rules (`doc.spans["phi_not"]`)."""
    if NOT_PHI_KEY not in doc.spans or not len(doc.spans[NOT_PHI_KEY]):
        return spans
    inside = np.zeros(len(doc) + 1, dtype=bool)
    for span in doc.spans[NOT_PHI_KEY]:
        inside[span.start : span.end] = True
    return [s for s in spans if not inside[s.start : s.end].all()]


def check_thresholds(thresholds: Any, labels: Sequence[str] = ()) -> Dict[str, float]:
    """A dict of label (or "*") -> number in [0, 1], as floats; with labels
    given (after initialization), every key must be one of them or "*"."""
    if not isinstance(thresholds, dict):
        raise ValueError("thresholds must be a dict of label -> minimum phi_score")
    checked: Dict[str, float] = {}
    for key, value in thresholds.items():
        if not isinstance(key, str) or not key:
            raise ValueError("thresholds keys must be label strings or '*'")
        if isinstance(value, bool) or not isinstance(value, Real):
            raise ValueError(f"thresholds['{key}'] must be a number in [0, 1]")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"thresholds['{key}'] must be in [0, 1]")
        checked[key] = float(value)
    unknown = sorted(set(checked) - set(labels) - {ANY_LABEL}) if labels else []
    if unknown:
        raise ValueError(
            f"thresholds has labels the component does not predict: "
            f"{', '.join(unknown)} (known: {', '.join(labels)}, or '*')"
        )
    return checked


def threshold_of(thresholds: Dict[str, float], label: str) -> float:
    """The minimum `phi_score` of a label: its own, else "*", else 0."""
    return thresholds.get(label, thresholds.get(ANY_LABEL, 0.0))


def check_recall_bias(bias: Any) -> float:
    """A finite number (not a bool), as a float."""
    if isinstance(bias, bool) or not isinstance(bias, Real):
        raise ValueError(f"recall_bias must be a number, not {type(bias).__name__}")
    if not math.isfinite(bias):
        raise ValueError("recall_bias must be finite")
    return float(bias)


def bias_emissions(emissions: np.ndarray, bias: float) -> np.ndarray:
    """Add `bias` to the scores of every tag but "O" (tag 0).

    emissions (ndarray): Scores (..., K), "O" first.
    bias (float): The recall bias (validated: a finite number).
    RETURNS (ndarray): New float64 scores, or the input when bias is 0.
    """
    bias = check_recall_bias(bias)
    if bias == 0.0:
        return emissions
    biased = np.array(emissions, dtype="f8")
    biased[..., 1:] += bias
    return biased
