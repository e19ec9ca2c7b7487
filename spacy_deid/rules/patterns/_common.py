"""Helpers shared by the pattern family modules.

A pattern is a plain dict (JSON-serializable):

    {"id": "phone.us_paren", "label": "PHONE", "pattern": "<regex>",
     "flags": "", "priority": 70, "validator": None, "score": 0.95,
     "exclude_before": None, "exclude_after": None, "require_before": None,
     "context_window": 30}

If the regex has a named group `phi`, only that group is the PHI span; the
rest of the match is required context (a cue such as `MRN:`). `exclude_before`
and `exclude_after` are regexes searched in a window of `context_window`
characters before / after the PHI span; a hit rejects the candidate.
`require_before` is searched in the same window before the span and must hit.
Anchor them with `END` / `^` to require adjacency (`END`, not `$`: see the
line-ending fragments below). `require_before` is a faster
way to write a cue than putting it in front of the regex: the regex then scans
for the rarer value shape ("March", "2067") instead of trying the cue words at
every position.
"""

import re
from typing import Dict, Iterable, List, Optional

# Priorities: higher wins an overlap. Cue-based patterns beat bare shapes.
PRIO_CONTACT_STRONG = 90  # e-mail, URL with scheme
PRIO_CUED = 85  # an explicit cue: "MRN:", "Fax:", "SSN", "NPI" ...
PRIO_CUED_WEAK = 80  # a phone cue before a short number
PRIO_SHAPE = 70  # a distinctive shape without cue: 416-943-8331, SSN
PRIO_SHAPE_WEAK = 60  # IPs, bare domains, checksum-only IDs
PRIO_DATE = 50
PRIO_AGE = 50
PRIO_FACILITY = 45  # a hospital name beats a city or an employer inside it
PRIO_LOCATION = 40
PRIO_SOCIAL = 38  # employer and profession after a cue
PRIO_NAME = 30
PRIO_NOT_PHI = 0  # known non-PHI (patterns/negatives.py): any PHI rule wins

DEFAULT_WINDOW = 30

# Line endings. Notes arrive with "\n", "\r\n" or a lone "\r" (old exports),
# so no pattern may rely on "\n", on `$` or on `^` with the "m" flag (Python
# only knows "\n" there). Use these fragments instead; in-line whitespace is
# `[ \t]` (or `[^\S\r\n]`), which never crosses a line.
NL = r"(?:\r\n|[\r\n])"  # one line break
EOL = r"(?![^\r\n])"  # at the end of a line or of the text (`$` with "m")
BOL = r"(?<![^\r\n])"  # at the start of a line or of the text (`^` with "m")
NOT_NL = r"[^\r\n]"  # any character on the same line
# The end of a context window, optionally after one line break: `$` without
# "m" for any line ending. Anchor `require_before` / `exclude_before` with it.
END = NL + r"?\Z"

# Separator between a cue word and its value: spaces, ':', '#', '-', '=',
# optionally "no.", "number", "num", "is".
# Quotes are allowed for JSON-ish logs: "mrn": "1234567".
CUE_SEP = r"(?:[ \t]*(?:[:#=\-\"']|(?i:no\b\.?|number\b|num\b|nbr\b|is\b))){0,4}[ \t]*"


def make_pattern(
    id: str,
    label: str,
    pattern: str,
    *,
    priority: int,
    score: float = 0.9,
    flags: str = "",
    validator: Optional[str] = None,
    exclude_before: Optional[str] = None,
    exclude_after: Optional[str] = None,
    require_before: Optional[str] = None,
    context_window: int = DEFAULT_WINDOW,
) -> Dict:
    """Build one pattern dict; all keys are always present.

    RETURNS (Dict): The pattern data.
    """
    return {
        "id": id,
        "label": label,
        "pattern": pattern,
        "flags": flags,
        "priority": priority,
        "validator": validator,
        "score": score,
        "exclude_before": exclude_before,
        "exclude_after": exclude_after,
        "require_before": require_before,
        "context_window": context_window,
    }


def alternation(words: Iterable[str]) -> str:
    """A non-capturing alternation, longest first so that `Sept` beats `Sep`."""
    return "(?:" + "|".join(sorted(set(words), key=lambda w: (-len(w), w))) + ")"


def word_trie(words: Iterable[str]) -> str:
    """A non-capturing group that matches the same strings as
    `alternation(words)`, built as a trie of literal words (escaped): one
    branch per next character, so the regex engine tries a few branches per
    position instead of every word. A word that is a prefix of another is an
    optional end, tried after the longer words, as in `alternation`. Under
    case-insensitive matching two branches may match the same text, so the
    order may differ: use it where only whether a word matches counts, e.g.
    in a lookahead."""
    return "(?:" + _trie_node(sorted(set(words))) + ")"


def _trie_node(suffixes: List[str]) -> str:
    """The regex of a trie node: the alternation of its branches, optional
    when a word ends here."""
    branches: Dict[str, List[str]] = {}
    for suffix in suffixes:
        if suffix:
            branches.setdefault(suffix[0], []).append(suffix[1:])
    parts = [re.escape(char) + _trie_node(rest) for char, rest in branches.items()]
    if "" in suffixes:
        return "(?:" + "|".join(parts) + ")?" if parts else ""
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


def title_and_upper(words: Iterable[str]) -> List[str]:
    """`["March"]` -> `["March", "MARCH"]`: case-sensitive but not case-blind."""
    out: List[str] = []
    for word in words:
        out.extend([word, word.upper()])
    return out
