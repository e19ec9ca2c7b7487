"""Known non-PHI that looks like PHI: pain and strength scores ("pain 2/10",
"motor 4/5") read as dates by a model, and the time of day and UTC offset of
an ISO 8601 date-time ("2067-03-05T14:22:10+05:30"), which a model reads as a
user name or an e-mail; the date itself is a DATE (patterns/dates.py).

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

# The time after an ISO date: "T14:22", "T14:22:10.5Z", " 14:22:10-08:00".
_ISO_TIME = (
    r"\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+\-]\d{2}(?::?\d{2})?)?"
    r"(?![\w:])"
)

PATTERNS: List[dict] = [
    make_pattern(
        "not_phi.score",
        NOT_PHI,
        _SCORE_WORD + r"[^\r\n]{0,60}?" + _FRACTION,
        priority=PRIO_NOT_PHI,
        score=1.0,
    ),
    make_pattern(
        "not_phi.iso_time",
        NOT_PHI,
        r"(?<!\d)\d{4}-\d{2}-\d{2}(?:T|[ \t](?=\d{2}:\d{2}:))(?P<phi>" + _ISO_TIME + ")",
        priority=PRIO_NOT_PHI,
        score=1.0,
    ),
]
