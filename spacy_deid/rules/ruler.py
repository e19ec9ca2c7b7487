"""The `phi_rules` component: regex patterns for PHI, run over `doc.text`.

Modelled on spacy/pipeline/span_ruler.py. Patterns are data (see
`spacy_deid.rules.patterns._common`); the default patterns come from the
config (`@misc = "spacy_deid.phi_patterns.v1"`), so only user-added patterns
are serialized and a shipped pipeline never drifts from the code.

Patterns carry i2b2 labels. With `label_map` (a map name from
`spacy_deid.labels.maps`, e.g. "i2b22meddocan") the emitted spans get
the mapped labels instead, so the rules can feed a pipeline in another label
scheme (MEDDOCAN); NOT_PHI spans are never mapped.

A pattern runs through its gate (`gate.py`: only on the lines that hold a
string every match needs) and its scout (`scout.py`: only at the characters a
match can start with) where it has them: the same matches as `finditer`.
With Hyperscan installed, a prefilter (`prefilter.py`) first rules out, in
one scan of the text, the patterns that cannot match it (once the ruler has
seen enough text for that to pay).
"""

import re
from dataclasses import dataclass
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Set,
    Tuple,
    Union,
)

import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import SimpleFrozenList, ensure_path

from ..core.cfg_io import load_overrides, without
from ..labels.maps import LABEL_MAP_NAMES, LabelMap, apply, get_label_map
from ..core.extensions import install_extensions
from ..labels import LABELS, NOT_PHI_KEY, normalize_label
from .patterns._common import DEFAULT_WINDOW
from .patterns.negatives import NOT_PHI
from .gate import Gate, finditer as gated_finditer, make_gate
from .prefilter import Prefilter
from .scout import make_scout
from .validators import VALIDATORS, get_validator

install_extensions()

DEFAULT_SPANS_KEY = "phi_rules"
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
SOURCE_PREFIX = "rules:"
# The named group that holds the PHI, unless a pattern names another.
DEFAULT_PHI_GROUP = "phi"


@Language.factory(
    "phi_rules",
    assigns=["doc.ents", "doc.spans"],
    default_config={
        "patterns": {"@misc": "spacy_deid.phi_patterns.v1"},
        "labels": None,
        "overwrite_ents": False,
        "spans_key": DEFAULT_SPANS_KEY,
        "label_map": None,
        "prefilter": True,
        "scorer": None,
    },
)
def make_phi_rules(
    nlp: Language,
    name: str,
    patterns: List[PatternType],
    labels: Optional[List[str]],
    overwrite_ents: bool,
    spans_key: Optional[str],
    label_map: Optional[str],
    prefilter: bool,
    scorer: Optional[Callable],
) -> "PhiRuler":
    """Create a PhiRuler (factory "phi_rules").

    patterns (List[PatternType]): The default patterns, normally from
        "spacy_deid.phi_patterns.v1".
    labels (Optional[List[str]]): Emit only patterns with these i2b2 labels
        (checked before `label_map`); None emits all.
    overwrite_ents (bool): Whether rule spans replace overlapping entities set
        by earlier components.
    spans_key (Optional[str]): Key in doc.spans for all accepted candidates,
        overlapping ones included. None writes no span group.
    label_map (Optional[str]): Name of a label map (`LABEL_MAP_NAMES`, e.g.
        "i2b22meddocan") applied to the label of every emitted span; spans
        whose label maps to None are dropped. None keeps the i2b2 labels.
    prefilter (bool): Whether to rule out, with one Hyperscan scan per text,
        the patterns that cannot match it (`prefilter.py`). The same output
        either way; without Hyperscan installed it has no effect.
    scorer (Optional[Callable]): The scoring method.
    """
    return PhiRuler(
        name,
        patterns=patterns,
        labels=labels,
        overwrite_ents=overwrite_ents,
        spans_key=spans_key,
        label_map=label_map,
        prefilter=prefilter,
        scorer=scorer,
    )


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


class PhiRuler(Pipe):
    """Find PHI with regex patterns over `doc.text` and set `doc.ents`.

    Candidates pass their validator and exclusions; overlaps are resolved by
    priority, then length, then start. All accepted candidates go to
    `doc.spans[spans_key]`, the non-overlapping winners to `doc.ents`, with
    their labels mapped by `label_map` if one is set.
    """

    def __init__(
        self,
        name: str = "phi_rules",
        *,
        patterns: Optional[Sequence[PatternType]] = None,
        labels: Optional[Iterable[str]] = None,
        overwrite_ents: bool = False,
        spans_key: Optional[str] = DEFAULT_SPANS_KEY,
        label_map: Optional[str] = None,
        prefilter: bool = True,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize the ruler.

        name (str): Component name.
        patterns (Optional[Sequence[PatternType]]): Default patterns (from the
            config; not serialized).
        labels (Optional[Iterable[str]]): Emit only these labels.
        overwrite_ents (bool): Let rule spans replace overlapping entities.
        spans_key (Optional[str]): doc.spans key for all candidates, or None.
        label_map (Optional[str]): Label map name applied to emitted labels.
        prefilter (bool): Rule out patterns with Hyperscan where installed.
        scorer (Optional[Callable]): The scoring method.
        """
        install_extensions()
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "labels": self._check_labels(labels),
            "overwrite_ents": bool(overwrite_ents),
            "spans_key": spans_key,
            "label_map": self._check_label_map(label_map),
            "prefilter": bool(prefilter),
        }
        self._label_map: Optional[LabelMap] = get_label_map(label_map)
        self._default_patterns: List[PatternType] = [dict(p) for p in patterns or []]
        self._user_patterns: List[PatternType] = []
        self._compiled: List[CompiledPattern] = []
        # The patterns grouped by regex: each group's matches are found once.
        self._sharing: List[List[CompiledPattern]] = []
        # Rules out the groups that cannot match a text (None: not asked for).
        self._prefilter: Optional[Prefilter] = None
        self._compile_all()

    @staticmethod
    def _check_labels(labels: Optional[Iterable[str]]) -> Optional[List[str]]:
        if labels is None:
            return None
        names = [normalize_label(label) for label in labels]
        unknown = sorted(set(names) - set(LABELS))
        if unknown:
            raise ValueError(f"Unknown PHI labels: {', '.join(unknown)}")
        return names

    @staticmethod
    def _check_label_map(label_map: Optional[str]) -> Optional[str]:
        """Validate a label map name (None: no mapping)."""
        if label_map is None:
            return None
        if not isinstance(label_map, str):
            raise ValueError("phi_rules: label_map must be a label map name or null")
        if label_map not in LABEL_MAP_NAMES:
            known = ", ".join(LABEL_MAP_NAMES)
            raise ValueError(
                f"phi_rules: unknown label map '{label_map}'. Known: {known}"
            )
        return label_map

    def map_label(self, label: str, text: str = "") -> Optional[str]:
        """The label a rule span is emitted with under `label_map`.

        label (str): The pattern's label (i2b2 subcategory, or NOT_PHI).
        text (str): The span's text (some maps look at it).
        RETURNS (Optional[str]): The emitted label; None drops the span.
        """
        if label == NOT_PHI:
            return label
        return apply(label, self._label_map, text)

    def _compile_all(self) -> None:
        """Compile default + user patterns, keeping only the emitted labels."""
        compiled = []
        seen: Set[str] = set()
        keep = self.cfg["labels"]
        for i, pattern in enumerate(self._default_patterns + self._user_patterns):
            rule = compile_pattern(pattern, i)
            if rule.id in seen:
                raise ValueError(f"Duplicate PHI pattern id '{rule.id}'")
            seen.add(rule.id)
            if keep is None or rule.label in keep or rule.label == NOT_PHI:
                compiled.append(rule)
        self._compiled = compiled
        self._sharing = share_matches(compiled)
        self._prefilter = (
            Prefilter([rules[0].regex for rules in self._sharing])
            if self.cfg["prefilter"]
            else None
        )

    def build_prefilter(self) -> None:
        """Build the prefilter's database now instead of in the background
        (`prefilter.py`): before forking worker processes, which then share
        it. Does nothing without a prefilter or Hyperscan."""
        if self._prefilter is not None:
            self._prefilter.build()

    @property
    def overwrite_ents(self) -> bool:
        """Whether rule spans replace overlapping existing entities."""
        return self.cfg["overwrite_ents"]

    @property
    def spans_key(self) -> Optional[str]:
        """Key of doc.spans for all accepted candidates."""
        return self.cfg["spans_key"]

    @property
    def key(self) -> Optional[str]:
        """Alias of spans_key, as in SpanRuler."""
        return self.spans_key

    @property
    def label_map(self) -> Optional[str]:
        """The name of the label map applied to emitted labels, or None."""
        return self.cfg["label_map"]

    @property
    def labels(self) -> Tuple[str, ...]:
        """The labels this ruler can emit (after `label_map`).

        RETURNS (Tuple[str, ...]): Sorted labels.
        """
        mapped = (self.map_label(r.label) for r in self._compiled if r.label != NOT_PHI)
        return tuple(sorted({label for label in mapped if label is not None}))

    @property
    def patterns(self) -> List[PatternType]:
        """All patterns: the defaults, then the user-added ones."""
        return self._default_patterns + self._user_patterns

    @property
    def user_patterns(self) -> List[PatternType]:
        """The user-added patterns (the only ones that are serialized)."""
        return list(self._user_patterns)

    @property
    def pattern_ids(self) -> Tuple[str, ...]:
        """The ids of the active (label-filtered) patterns, in order."""
        return tuple(rule.id for rule in self._compiled)

    def __len__(self) -> int:
        return len(self._compiled)

    def __contains__(self, pattern_id: str) -> bool:
        return pattern_id in self.pattern_ids

    def add_patterns(self, patterns: Iterable[PatternType]) -> None:
        """Add user patterns; they are validated and compiled at once.

        patterns (Iterable[PatternType]): Pattern dicts.
        """
        new = [dict(p) for p in patterns]
        for pattern in new:
            validate_pattern(pattern)
        previous = self._user_patterns
        self._user_patterns = previous + new
        try:
            self._compile_all()
        except ValueError:
            self._user_patterns = previous
            self._compile_all()
            raise

    def clear(self) -> None:
        """Remove all user-added patterns (the defaults stay)."""
        self._user_patterns = []
        self._compile_all()

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
        patterns: Optional[Iterable[PatternType]] = None,
    ) -> None:
        """Reset the user patterns and add `patterns`, e.g. from
        `[initialize.components.phi_rules.patterns]` with
        `@readers = "srsly.read_jsonl.v1"`.

        get_examples (Optional[Callable]): Ignored.
        nlp (Optional[Language]): Ignored.
        patterns (Optional[Iterable[PatternType]]): User patterns.
        """
        self.clear()
        if patterns is not None:
            self.add_patterns(list(patterns))

    def __call__(self, doc: Doc) -> Doc:
        """Find PHI in a doc and set `doc.ents` and `doc.spans[spans_key]`.

        doc (Doc): The doc.
        RETURNS (Doc): The same doc, annotated.
        """
        error_handler = self.get_error_handler()
        try:
            self.set_annotations(doc, self.match(doc))
            return doc
        except Exception as e:
            error_handler(self.name, self, [doc], e)
            return doc

    def match(self, doc: Doc) -> List[Candidate]:
        """Return all accepted candidates in a doc, in text order.

        doc (Doc): The doc.
        RETURNS (List[Candidate]): The candidates.
        """
        text = doc.text
        if not text.strip():
            return []
        may_match = self._prefilter.may_match(text) if self._prefilter else None
        found = []
        for index, rules in enumerate(self._sharing):
            if may_match is not None and index not in may_match:
                continue
            if len(rules) == 1:
                found += find_candidates(text, rules[0])
                continue
            matches = list(find_matches(text, rules[0]))
            for rule in rules:
                found += find_candidates(text, rule, matches)
        return sorted(found, key=lambda c: (c.start_char, c.end_char, c.pattern.index))

    def set_annotations(self, doc: Doc, candidates: List[Candidate]) -> None:
        """Write the candidates to doc.spans and the winners to doc.ents.

        doc (Doc): The doc.
        candidates (List[Candidate]): From `match`.
        """
        spans = self._to_spans(doc, candidates)
        existing = list(doc.ents)
        chosen = self._select(spans, existing)
        doc.spans[NOT_PHI_KEY] = [s for s, _ in chosen if s.label_ == NOT_PHI]
        chosen = [(s, c) for s, c in chosen if s.label_ != NOT_PHI]
        spans = [(s, c) for s, c in spans if s.label_ != NOT_PHI]
        kept, outside = self._merge(doc, existing, chosen)
        doc.set_ents(
            [span for span, _ in chosen], outside=outside, default="unmodified"
        )
        if self.spans_key is not None:
            group = sorted(
                (span for span, _ in spans), key=lambda s: (s.start, s.end, s.label_)
            )
            doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=group)
        # Extension values are keyed by character offsets only, so set the
        # losers first and the winners last; never touch an entity we kept.
        protected = {(e.start_char, e.end_char) for e in kept}
        winners = {id(span) for span, _ in chosen}
        ordered = [s for s in spans if id(s[0]) not in winners] + chosen
        for span, cand in ordered:
            if (span.start_char, span.end_char) not in protected:
                _set_extensions(span, cand)

    def _to_spans(
        self, doc: Doc, candidates: List[Candidate]
    ) -> List[Tuple[Span, Candidate]]:
        """Map candidates to token spans with their emitted labels (after
        `label_map`; a label mapped to None drops the candidate); keep the
        best candidate per (start, end, label)."""
        best: Dict[Tuple[int, int, str], Tuple[Span, Candidate]] = {}
        for cand in sorted(candidates, key=Candidate.rank):
            span = doc.char_span(
                cand.start_char, cand.end_char, alignment_mode="expand"
            )
            if span is None or len(span) == 0:
                continue
            label = self.map_label(cand.pattern.label, span.text)
            if label is None:
                continue
            span = Span(doc, span.start, span.end, label=label)
            key = (span.start, span.end, label)
            if key not in best:
                best[key] = (span, cand)
        return sorted(best.values(), key=lambda item: item[1].rank())

    def _select(
        self, spans: List[Tuple[Span, Candidate]], existing: List[Span]
    ) -> List[Tuple[Span, Candidate]]:
        """Greedy non-overlapping selection in rank order. Without
        overwrite_ents, tokens of existing entities are taken already."""
        occupied: Set[int] = set()
        if not self.overwrite_ents:
            for ent in existing:
                occupied.update(range(ent.start, ent.end))
        chosen = []
        for span, cand in spans:
            tokens = range(span.start, span.end)
            if any(i in occupied for i in tokens):
                continue
            occupied.update(tokens)
            chosen.append((span, cand))
        return sorted(chosen, key=lambda item: item[0].start)

    def _merge(
        self, doc: Doc, existing: List[Span], chosen: List[Tuple[Span, Candidate]]
    ) -> Tuple[List[Span], List[Span]]:
        """Return the existing entities that stay, and the leftover tokens of
        replaced entities (set to O) as single-token spans."""
        covered: Set[int] = set()
        for span, _ in chosen:
            covered.update(range(span.start, span.end))
        kept, outside = [], []
        for ent in existing:
            if not any(i in covered for i in range(ent.start, ent.end)):
                kept.append(ent)
                continue
            outside.extend(
                doc[i : i + 1] for i in range(ent.start, ent.end) if i not in covered
            )
        return kept, outside

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the cfg and the user-added patterns.

        RETURNS (bytes): The serialized component.
        """
        serializers = {
            "cfg": lambda: srsly.json_dumps(self.cfg),
            "patterns": lambda: srsly.json_dumps(self._user_patterns),
        }
        return util.to_bytes(serializers, exclude)

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "PhiRuler":
        """Load the cfg and the user-added patterns from bytes.

        bytes_data (bytes): Data from `to_bytes`.
        RETURNS (PhiRuler): The ruler.
        """
        deserializers = {
            "cfg": lambda b: self._load_cfg(srsly.json_loads(b)),
            "patterns": lambda b: self._load_patterns(srsly.json_loads(b)),
        }
        util.from_bytes(bytes_data, deserializers, exclude)
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> None:
        """Save the cfg, the user-added patterns (patterns.jsonl) and the
        prefilter's database (prefilter.hs, with Hyperscan; building it takes
        about 2 s if it is not yet built).

        path (Union[str, Path]): A directory.
        """
        path = ensure_path(path)
        serializers = {
            "cfg": lambda p: srsly.write_json(p, self.cfg),
            "patterns": lambda p: srsly.write_jsonl(
                p.with_suffix(".jsonl"), self._user_patterns
            ),
            "prefilter": lambda p: self._write_prefilter(p.with_suffix(".hs")),
        }
        util.to_disk(path, serializers, exclude)

    def _write_prefilter(self, path: Path) -> None:
        """Save the prefilter's database (built now if it is not yet), so
        that loading needs no build; none without Hyperscan."""
        data = self._prefilter.to_bytes() if self._prefilter else None
        if data is not None:
            path.write_bytes(data)
        elif path.exists():
            path.unlink()

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "PhiRuler":
        """Load the cfg (except the settings given when the pipeline is
        loaded: `cfg_io.load_overrides`), the user-added patterns and the
        prefilter's database from a directory.

        path (Union[str, Path]): A directory written by `to_disk`.
        RETURNS (PhiRuler): The ruler.
        """
        path = ensure_path(path)
        overrides = load_overrides(path, self.cfg)
        deserializers = {
            "cfg": lambda p: (
                self._load_cfg(without(srsly.read_json(p), overrides))
                if p.exists()
                else None
            ),
            "patterns": lambda p: self._load_patterns(
                srsly.read_jsonl(p.with_suffix(".jsonl"))
                if p.with_suffix(".jsonl").exists()
                else []
            ),
            "prefilter": lambda p: self._read_prefilter(p.with_suffix(".hs")),
        }
        util.from_disk(path, deserializers, exclude)
        return self

    def _read_prefilter(self, path: Path) -> None:
        """Give the prefilter the saved database (`Prefilter.use_saved`: used
        only if it matches the patterns loaded)."""
        if self._prefilter is not None and path.exists():
            self._prefilter.use_saved(path.read_bytes())

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        # Validate before applying, so that a bad cfg leaves the ruler as it
        # was. A cfg saved before `label_map` existed lacks the key: the
        # current value (from the config, default None) stays.
        merged = {**self.cfg, **cfg}
        merged["labels"] = self._check_labels(merged.get("labels"))
        merged["label_map"] = self._check_label_map(merged.get("label_map"))
        merged["prefilter"] = bool(merged.get("prefilter", True))
        self.cfg = merged
        self._label_map = get_label_map(merged["label_map"])
        self._compile_all()

    def _load_patterns(self, patterns: Iterable[PatternType]) -> None:
        self._user_patterns = []
        self.add_patterns(list(patterns))


def _set_extensions(span: Span, cand: Candidate) -> None:
    span._.phi_source = SOURCE_PREFIX + cand.pattern.id
    span._.phi_score = cand.pattern.score
    span._.phi_flags = list(cand.flags) or None
