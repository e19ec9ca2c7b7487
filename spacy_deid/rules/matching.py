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
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple
from typing import Optional, Sequence, Tuple

from ..labels import LABELS, normalize_label
from . import precompiled
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
    """A pattern dict, checked, whose regexes are compiled on first use
    (`regex`, the context regexes, `scout`, `gate`): a pipeline compiles
    only the patterns its texts need, which is most of its load time saved
    on a few notes. Picklable (`re.Pattern` pickles)."""

    index: int
    id: str
    label: str
    source: str
    flags: int  # the flags given (`_FLAGS`), without the pattern's inline ones
    priority: int
    score: float
    validator: Optional[str]
    exclude_before_source: Optional[str]
    exclude_after_source: Optional[str]
    require_before_source: Optional[str]
    window: int
    phi_group: str = DEFAULT_PHI_GROUP
    # What has been compiled so far, by property name.
    _lazy: Dict[str, Any] = field(
        default_factory=dict, init=False, compare=False, repr=False, hash=False
    )

    def _get(self, name: str, make: Callable[[], Any]) -> Any:
        try:
            return self._lazy[name]
        except KeyError:
            return self._lazy.setdefault(name, make())

    @property
    def regex(self) -> "re.Pattern[str]":
        """The pattern's regex."""
        return self._get("regex", lambda: _compile(self.source, self.flags, self.id))

    @property
    def exclude_before(self) -> Optional["re.Pattern[str]"]:
        """A match is dropped if this finds text in the window before it."""
        return self._context("exclude_before", self.exclude_before_source)

    @property
    def exclude_after(self) -> Optional["re.Pattern[str]"]:
        """A match is dropped if this finds text in the window after it."""
        return self._context("exclude_after", self.exclude_after_source)

    @property
    def require_before(self) -> Optional["re.Pattern[str]"]:
        """A match is kept only if this finds text in the window before it."""
        return self._context("require_before", self.require_before_source)

    def _context(self, name: str, source: Optional[str]) -> Optional["re.Pattern[str]"]:
        if not source:
            return None
        return self._get(name, lambda: _compile(source, self.flags, self.id))

    @property
    def scout(self) -> Optional["re.Pattern[str]"]:
        """The regex's scout (`scout.py`), or None."""
        return self._get("scout", lambda: make_scout(self.regex))

    @property
    def gate(self) -> Optional[Gate]:
        """The regex's gate (`gate.py`), or None."""
        return self._get("gate", lambda: make_gate(self.regex))

    def check(self) -> "CompiledPattern":
        """Compile the regexes now, raising ValueError naming the pattern if
        one is invalid or lacks the named `phi_group`.

        RETURNS (CompiledPattern): The pattern itself.
        """
        regex = self.regex
        group = self.phi_group
        if group != DEFAULT_PHI_GROUP and group not in regex.groupindex:
            raise ValueError(
                f"PHI pattern '{self.id}' has no group named '{group}'"
            )
        for name in ("exclude_before", "exclude_after", "require_before"):
            getattr(self, name)
        return self


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


def _flag_value(flags: str) -> int:
    value = 0
    for flag in flags:
        value |= _FLAGS[flag]
    return value


def _compile(regex: str, flags: int, pid: str) -> "re.Pattern[str]":
    try:
        return precompiled.compile(regex, flags)
    except re.error as err:
        raise ValueError(
            f"PHI pattern '{pid}' is not a valid regex: {err.msg}"
        ) from None


def compile_pattern(
    pattern: PatternType, index: int, lazy: bool = False
) -> CompiledPattern:
    """Validate and compile one pattern dict.

    pattern (PatternType): The pattern dict.
    index (int): Its position, the last tie-breaker between candidates.
    lazy (bool): Compile its regexes on first use instead of now. Only for
        patterns known to compile (the built-in ones, checked by the tests):
        an invalid regex then raises when the pattern is first used, not here.
    RETURNS (CompiledPattern): The compiled pattern.
    """
    validate_pattern(pattern)
    compiled = CompiledPattern(
        index=index,
        id=pattern["id"],
        label=normalize_label(pattern["label"]),
        source=pattern["pattern"],
        flags=_flag_value(pattern.get("flags") or ""),
        priority=int(pattern.get("priority") or 0),
        score=1.0 if pattern.get("score") is None else float(pattern["score"]),
        validator=pattern.get("validator") or None,
        exclude_before_source=pattern.get("exclude_before") or None,
        exclude_after_source=pattern.get("exclude_after") or None,
        require_before_source=pattern.get("require_before") or None,
        window=int(pattern.get("context_window") or DEFAULT_WINDOW),
        phi_group=pattern.get("phi_group") or DEFAULT_PHI_GROUP,
    )
    return compiled if lazy else compiled.check()


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
        # The compiled flags add only the inline ones (the same for the same
        # source) and re.UNICODE (the same for every pattern).
        key = (pattern.source, pattern.flags)
        groups.setdefault(key, []).append(pattern)
    return list(groups.values())
