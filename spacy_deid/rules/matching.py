"""The patterns of `phi_rules`, compiled, and how they match a text.

A pattern is a dict (see `spacy_deid.rules.patterns._common`); it is checked
(`validate_pattern`) and compiled once (`compile_pattern`). A compiled pattern
runs through its gate (`gate.py`: only on the lines that hold a string every
match needs) and its scout (`scout.py`: only at the characters a match can
start with) where it has them: the same matches as `finditer`
(`find_matches`). `find_candidates` applies a pattern's context exclusions
and validator to its matches; `share_matches` groups the patterns that share
a regex, whose matches are then found once.
"""

import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional
from typing import Sequence, Tuple

from ..labels import LABELS, normalize_label
from .gate import Gate, finditer as gated_finditer, make_gate
from .patterns._common import DEFAULT_WINDOW
from .patterns.negatives import NOT_PHI
from .scout import make_scout
from .validators import VALIDATORS, get_validator

PatternType = Dict[str, Any]
_REQUIRED_KEYS = ("id", "label", "pattern")
_KNOWN_KEYS = {
    "id",
    "label",
    "pattern",
    "flags",
    "priority",
    "validator",
    "score",
    "exclude_before",
    "exclude_after",
    "require_before",
    "context_window",
    "phi_group",
}
_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
# The named group that holds the PHI, unless a pattern names another.
DEFAULT_PHI_GROUP = "phi"



@dataclass(frozen=True)
class CompiledPattern:
    """A pattern dict compiled once (picklable: `re.Pattern` pickles)."""

    index: int
    id: str
    label: str
    regex: "re.Pattern[str]"
    priority: int
    score: float
    validator: Optional[str]
    exclude_before: Optional["re.Pattern[str]"]
    exclude_after: Optional["re.Pattern[str]"]
    require_before: Optional["re.Pattern[str]"]
    window: int
    scout: Optional["re.Pattern[str]"] = None
    gate: Optional[Gate] = None
    phi_group: str = DEFAULT_PHI_GROUP


class Candidate(NamedTuple):
    """A regex hit that passed its validator and exclusions."""

    start_char: int
    end_char: int
    pattern: CompiledPattern
    flags: Tuple[str, ...]

    def rank(self) -> Tuple[int, int, int, int]:
        """Sort key: higher priority, then longer, then earlier, then pattern order."""
        length = self.end_char - self.start_char
        return (-self.pattern.priority, -length, self.start_char, self.pattern.index)


def validate_pattern(pattern: PatternType) -> None:
    """Check one pattern dict; raise ValueError naming the pattern id if invalid.

    pattern (PatternType): The pattern dict.
    """
    if not isinstance(pattern, dict):
        raise ValueError("A PHI pattern must be a dict")
    pid = pattern.get("id", "<no id>")
    missing = [key for key in _REQUIRED_KEYS if not pattern.get(key)]
    if missing:
        raise ValueError(f"PHI pattern '{pid}' lacks {', '.join(missing)}")
    unknown = sorted(set(pattern) - _KNOWN_KEYS)
    if unknown:
        raise ValueError(f"PHI pattern '{pid}' has unknown keys {', '.join(unknown)}")
    if pattern["label"] != NOT_PHI and normalize_label(pattern["label"]) not in LABELS:
        raise ValueError(f"PHI pattern '{pid}' has an unknown label")
    if any(flag not in _FLAGS for flag in pattern.get("flags") or ""):
        raise ValueError(
            f"PHI pattern '{pid}' has unknown flags; use {''.join(_FLAGS)}"
        )
    if pattern.get("validator") and pattern["validator"] not in VALIDATORS:
        raise ValueError(f"PHI pattern '{pid}' has an unknown validator")


def _compile(regex: str, flags: str, pid: str) -> "re.Pattern[str]":
    value = 0
    for flag in flags:
        value |= _FLAGS[flag]
    try:
        return re.compile(regex, value)
    except re.error as err:
        raise ValueError(
            f"PHI pattern '{pid}' is not a valid regex: {err.msg}"
        ) from None


def compile_pattern(pattern: PatternType, index: int) -> CompiledPattern:
    """Validate and compile one pattern dict.

    pattern (PatternType): The pattern dict.
    index (int): Its position, the last tie-breaker between candidates.
    RETURNS (CompiledPattern): The compiled pattern.
    """
    validate_pattern(pattern)
    pid = pattern["id"]
    flags = pattern.get("flags") or ""
    before, after = pattern.get("exclude_before"), pattern.get("exclude_after")
    required = pattern.get("require_before")
    regex = _compile(pattern["pattern"], flags, pid)
    phi_group = pattern.get("phi_group") or DEFAULT_PHI_GROUP
    if phi_group != DEFAULT_PHI_GROUP and phi_group not in regex.groupindex:
        raise ValueError(f"PHI pattern '{pid}' has no group named '{phi_group}'")
    return CompiledPattern(
        index=index,
        id=pid,
        label=normalize_label(pattern["label"]),
        regex=regex,
        priority=int(pattern.get("priority") or 0),
        score=1.0 if pattern.get("score") is None else float(pattern["score"]),
        validator=pattern.get("validator") or None,
        exclude_before=_compile(before, flags, pid) if before else None,
        exclude_after=_compile(after, flags, pid) if after else None,
        require_before=_compile(required, flags, pid) if required else None,
        window=int(pattern.get("context_window") or DEFAULT_WINDOW),
        scout=make_scout(regex),
        gate=make_gate(regex),
        phi_group=phi_group,
    )


def _phi_offsets(
    match: "re.Match[str]", group: str = DEFAULT_PHI_GROUP
) -> Optional[Tuple[int, int]]:
    """The PHI span of a match: its `group` if the pattern has it, else the
    whole match, without surrounding whitespace. None if empty."""
    if group in match.re.groupindex:
        start, end = match.span(group)
        if start < 0:
            return None
    else:
        start, end = match.span()
    text = match.string
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _context_ok(text: str, start: int, end: int, pattern: CompiledPattern) -> bool:
    """Check the exclude/require regexes on the windows around a PHI span."""
    before = text[max(0, start - pattern.window) : start]
    after = text[end : end + pattern.window]
    if pattern.require_before is not None and not pattern.require_before.search(before):
        return False
    if pattern.exclude_before is not None and pattern.exclude_before.search(before):
        return False
    if pattern.exclude_after is not None and pattern.exclude_after.search(after):
        return False
    return True


def find_matches(text: str, pattern: CompiledPattern) -> Iterator["re.Match[str]"]:
    """The matches of a pattern's regex over a text (`finditer`'s, found
    through the pattern's gate and scout).

    text (str): The text, normally `doc.text`.
    pattern (CompiledPattern): The pattern.
    RETURNS (Iterator[re.Match[str]]): The matches, in text order.
    """
    return gated_finditer(pattern.regex, pattern.scout, pattern.gate, text)


def find_candidates(
    text: str,
    pattern: CompiledPattern,
    matches: Optional[Iterable["re.Match[str]"]] = None,
) -> List[Candidate]:
    """Run one compiled pattern over a text, applying exclusions and validator.

    text (str): The text, normally `doc.text`.
    pattern (CompiledPattern): The pattern.
    matches (Optional[Iterable[re.Match[str]]]): The regex's matches over the
        text, if already found (for patterns that share a regex); None: find
        them.
    RETURNS (List[Candidate]): The accepted hits, in text order.
    """
    validator = get_validator(pattern.validator) if pattern.validator else None
    if matches is None:
        matches = find_matches(text, pattern)
    found = []
    for match in matches:
        offsets = _phi_offsets(match, pattern.phi_group)
        if offsets is None:
            continue
        start, end = offsets
        if not _context_ok(text, start, end, pattern):
            continue
        flags: List[str] = []
        if validator is not None:
            result = validator(match, offsets)
            if result is None:
                continue
            flags = result
        found.append(Candidate(start, end, pattern, tuple(flags)))
    return found


def share_matches(patterns: Sequence[CompiledPattern]) -> List[List[CompiledPattern]]:
    """Group patterns whose regexes are the same (source and flags), in
    order of first appearance: their matches over a text are the same, so
    `PhiRuler.match` finds them once per group. Patterns that mark different
    groups of one regex as PHI (`phi_group`) share this way.

    patterns (Sequence[CompiledPattern]): The patterns.
    RETURNS (List[List[CompiledPattern]]): The groups.
    """
    groups: Dict[Tuple[str, int], List[CompiledPattern]] = {}
    for pattern in patterns:
        key = (pattern.regex.pattern, pattern.regex.flags)
        groups.setdefault(key, []).append(pattern)
    return list(groups.values())
