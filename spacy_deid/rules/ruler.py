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
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    List,
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
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, FLAGS, SCORES, SOURCE_ATTR
from ..core.extensions import SPAN_GROUPS, install_extensions
from ..tagging.ents import first_free, replaced_tokens, write_ents
from ..labels import LABELS, NOT_PHI_KEY, normalize_label
from . import matching, precompiled
from .gate import Gate, required_strings
from .matching import Candidate, CompiledPattern, PatternType, compile_pattern
from .matching import share_matches, validate_pattern
from .patterns import is_builtin
from .patterns.negatives import NOT_PHI
from .prefilter import Prefilter, Source
from .scout import make_scout

install_extensions()

DEFAULT_SPANS_KEY = "phi_rules"
SOURCE_PREFIX = "rules:"
# The saved regex table in a component directory (`precompiled.py`).
REGEX_TABLE = "regex_code.xz"


@Language.factory(
    "phi_rules",
    requires=[ENTS],
    assigns=[ENTS, SPAN_GROUPS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES, FLAGS],
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
        self._regex_table: Optional[bytes] = None
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
        """Compile default + user patterns, keeping only the emitted labels.
        The built-in patterns (`patterns.is_builtin`) are compiled on first
        use, so that a pipeline compiles only what its texts need (the
        prefilter rules most patterns out of most texts); any other pattern
        is compiled now, so that its errors are raised here."""
        compiled = []
        seen: Set[str] = set()
        keep = self.cfg["labels"]
        for i, pattern in enumerate(self._default_patterns + self._user_patterns):
            rule = compile_pattern(pattern, i, lazy=is_builtin(pattern))
            if rule.id in seen:
                raise ValueError(f"Duplicate PHI pattern id '{rule.id}'")
            seen.add(rule.id)
            if keep is None or rule.label in keep or rule.label == NOT_PHI:
                compiled.append(rule)
        self._compiled = compiled
        self._sharing = share_matches(compiled)
        sources = [Source(rules[0].source, rules[0].flags) for rules in self._sharing]
        self._prefilter = Prefilter(sources) if self.cfg["prefilter"] else None

    def build_prefilter(self) -> None:
        """Build the prefilter's database now instead of in the background
        (`prefilter.py`): before forking worker processes, which then share
        it. Does nothing without a prefilter or Hyperscan."""
        if self._prefilter is not None:
            self._prefilter.build()

    def regex_table(self) -> bytes:
        """Compile every pattern with its scout and gate, and return what that
        produced (`precompiled.dumps`), for `write_regex_table`. Takes a few
        seconds.

        RETURNS (bytes): The table.
        """
        regexes: Set[precompiled.Key] = set()
        scouts: Dict[precompiled.Key, Optional[str]] = {}
        needles: Dict[precompiled.Key, Any] = {}
        for rule in self._compiled:
            regexes.add((rule.source, rule.flags))
            for source in (
                rule.exclude_before_source,
                rule.exclude_after_source,
                rule.require_before_source,
            ):
                if source:
                    regexes.add((source, rule.flags))
            _add_scout(rule.regex, regexes, scouts)
            key = (rule.regex.pattern, rule.regex.flags)
            needles[key] = required_strings(*key)
            if needles[key] is not None:
                gate = Gate(set(needles[key]))
                regexes.add((gate.regex.pattern, 0))
                _add_scout(gate.regex, regexes, scouts)
        return precompiled.dumps(regexes, scouts, needles)

    def write_regex_table(self, path: Union[str, Path]) -> None:
        """Save `regex_table` as regex_code.xz in a component directory,
        so that loading it compiles no built-in regex (`precompiled.py`).

        path (Union[str, Path]): The component's directory.
        """
        data = self.regex_table()
        (ensure_path(path) / REGEX_TABLE).write_bytes(data)
        self._regex_table = data

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
                found += matching.find_candidates(text, rules[0])
                continue
            matches = list(matching.find_matches(text, rules[0]))
            for rule in rules:
                found += matching.find_candidates(text, rule, matches)
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
        kept, outside = replaced_tokens(doc, existing, [span for span, _ in chosen])
        write_ents(
            doc, [span for span, _ in chosen], outside=outside, default="unmodified"
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
        taken = None if self.overwrite_ents else existing
        n = len(spans[0][0].doc) if spans else 0
        picked = first_free([(s.start, s.end) for s, _ in spans], taken, n)
        chosen = [spans[i] for i in picked]
        return sorted(chosen, key=lambda item: item[0].start)

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
            "regex_code": lambda p: self._write_saved_table(p.with_suffix(".xz")),
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
            "regex_code": lambda p: self._read_table(p.with_suffix(".xz")),
        }
        util.from_disk(path, deserializers, exclude)
        return self

    def _write_saved_table(self, path: Path) -> None:
        """Save the regex table read at load time again (computing one takes
        seconds: `write_regex_table` does that)."""
        if self._regex_table is not None:
            path.write_bytes(self._regex_table)

    def _read_table(self, path: Path) -> None:
        """Give `precompiled` the saved regex table, if there is one."""
        if path.exists():
            data = path.read_bytes()
            if precompiled.load(data):
                self._regex_table = data

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


def _add_scout(
    regex: "re.Pattern[str]",
    regexes: Set[precompiled.Key],
    scouts: Dict[precompiled.Key, Optional[str]],
) -> None:
    """Record a regex's scout source and the scout's own regex."""
    scout = make_scout(regex)
    scouts[(regex.pattern, regex.flags)] = None if scout is None else scout.pattern
    if scout is not None:
        regexes.add((scout.pattern, regex.flags))
