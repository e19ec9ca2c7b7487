"""Helpers shared by the pattern family modules.

A pattern is a plain dict (JSON-serializable):

    {"id": "phone.us_paren", "label": "PHONE", "pattern": "<regex>",
     "flags": "", "priority": 70, "validator": None, "score": 0.95,
     "exclude_before": None, "exclude_after": None, "require_before": None,
     "context_window": 30, "phi_group": "phi"}

If the regex has a named group `phi` (or the group that `phi_group` names),
only that group is the PHI span; the rest of the match is required context (a
cue such as `MRN:`). Patterns that find several PHI types in one shape ("Boston,
MA 02114": a city, a state, a ZIP) share one regex and name different groups:
the ruler then runs that regex once for all of them. `exclude_before`
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

# Characters outside ASCII that case-blind matching pairs with an ASCII
# letter (checked against `re` over all of Unicode in the tests).
FOLD_EXTRA = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}

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


# A lower-case name of one to four words in sign-out shorthand ("norbu",
# "kessler", "deer park"), shortest first, that no article, possessive or
# "home"/"work" begins; the group `name` (read by `lower_facility`).
_LOWER_WORD = (
    r"(?!(?:the|a|an|his|her|their|our|my|your|this|that|home|work)\b)"
    r"[a-z]+(?:-[a-z]+)?"
)
LOWER_NAME = r"(?P<name>" + _LOWER_WORD + r"(?:[ \t]+" + _LOWER_WORD + r"){0,3}?)"


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
    phi_group: str = "phi",
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
        "phi_group": phi_group,
    }


def alternation(words: Iterable[str], ignore_case: bool = False) -> str:
    """A non-capturing alternation, longest first so that `Sept` beats `Sep`.

    Words are regex fragments. Where each starts with a plain ASCII letter or
    digit, they are grouped by that character (`M(?:arch|ay)`): `re` tests a
    branch that starts with a literal or a set against the next character
    before entering it, so a position costs one test per group, not one entry
    per word. The words that can match at a position are tried in the same
    order as in the flat alternation, so the matches are the same.

    words (Iterable[str]): The alternatives (regex fragments).
    ignore_case (bool): Match case-blind, like `(?i:...)` around the flat
        alternation; the group's first character becomes a set of its case
        variants, so the test before entering still applies.
    RETURNS (str): The regex.
    """
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    groups = _first_char_groups(ordered)
    if groups is None:
        body = "|".join(ordered)
        return ("(?i:" if ignore_case else "(?:") + body + ")"
    parts = [_group_regex(group, ignore_case) for group in groups.values()]
    return "(?:" + "|".join(parts) + ")"


def _first_char_groups(ordered: List[str]) -> Optional[Dict[str, List[str]]]:
    """The words by their first character, case-folded, in order; None if a
    word does not start with a plain ASCII letter or digit (one that is not
    quantified)."""
    groups: Dict[str, List[str]] = {}
    for word in ordered:
        if not word or not (word[0].isascii() and word[0].isalnum()):
            return None
        if word[1:2] and word[1] in "?*+{" or _has_top_level_bar(word):
            return None
        groups.setdefault(word[0].lower(), []).append(word)
    return groups


def _has_top_level_bar(fragment: str) -> bool:
    """Whether a regex fragment has a `|` outside any group or set."""
    depth, in_set, i = 0, False, 0
    while i < len(fragment):
        char = fragment[i]
        if char == "\\":
            i += 1
        elif in_set:
            in_set = char != "]"
        elif char == "[":
            in_set = True
            if fragment[i + 1 : i + 2] == "^":
                i += 1
            if fragment[i + 1 : i + 2] == "]":
                i += 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
        i += 1
    return False


def _group_regex(group: List[str], ignore_case: bool) -> str:
    """One group of `alternation`: its first character, then the rests."""
    firsts = {word[0] for word in group}
    if ignore_case:
        first = case_variants(group[0][0])
        return first + "(?i:" + "|".join(word[1:] for word in group) + ")"
    if len(firsts) > 1:  # "Cat", "cow": keep the words whole, in order
        return "(?:" + "|".join(group) + ")"
    return group[0][0] + "(?:" + "|".join(word[1:] for word in group) + ")"


def case_folds(char: str, ascii_only: bool = False) -> str:
    """The characters that an ASCII character matches case-blind: "kK\u212a"
    (the Kelvin sign), "iI\u0130\u0131"; an uncased one, itself.

    ascii_only (bool): As under `re.ASCII`: the two ASCII cases only.
    """
    lower = char.lower()
    if lower == lower.upper():
        return char
    extra = "" if ascii_only else FOLD_EXTRA.get(lower, "")
    return lower + lower.upper() + extra


def case_variants(char: str) -> str:
    """A set of the characters that match an ASCII letter or digit case-blind:
    `[kK\u212a]`, `[iI\u0130\u0131]`; a digit itself."""
    folds = case_folds(char)
    return folds if len(folds) == 1 else "[" + folds + "]"


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
