"""Known non-PHI that looks like PHI: pain and strength scores ("pain 2/10",
"motor 4/5") read as dates by a model.

These patterns have the label `NOT_PHI`. They never become entities: the
ruler writes them to `doc.spans["phi_not"]`, where a later `phi_ner` drops
model spans that lie inside one. They have the lowest priority, so a PHI rule
candidate overlapping one always wins ("pain since 2/10" stays a date).
"""

from typing import List

from ._common import PRIO_NOT_PHI, make_pattern

NOT_PHI = "NOT_PHI"

# A score word, up to 60 characters of the same line, then "N/10" or "N/5".
_SCORE_WORD = (
    r"(?i:\b(?:pain|score|scale|rated|severity|intensity|strength|motor|power"
    r"|grade)\b)"
)
_FRACTION = r"(?<![\d/.\-])(?P<phi>(?:10|\d)/(?:10|5))(?![\d/]|[.\-]\d)"

PATTERNS: List[dict] = [
    make_pattern(
        "not_phi.score",
        NOT_PHI,
        _SCORE_WORD + r"[^\r\n]{0,60}?" + _FRACTION,
        priority=PRIO_NOT_PHI,
        score=1.0,
    ),
]
