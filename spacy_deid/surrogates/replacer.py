"""The `phi_surrogates` component: replace PHI spans in the text.

It reads the PHI spans (`doc.ents`, or `doc.spans[spans_key]`), builds the
de-identified text and writes `doc._.deidentified`, `doc._.offset_map` and
`span._.surrogate`. The doc itself is not changed.

Modes: "surrogate" (realistic, consistent values derived from a secret key),
"redact" (a mask such as "[**]" or "[{label}]") and "tag" ("[DATE]").

With `label_map` (a map name from `spacy_deid.labels.maps`, e.g.
"meddocan2i2b2"), spans keep their own label (tags and masks show it) but
surrogates and date shifting follow the mapped i2b2 subcategory; a span whose
label maps to nothing is masked (`redact_mask`) in surrogate mode. `locale`
picks the Faker locale of names, places and companies (e.g. "es_ES").
"""

import datetime
import logging
import os
import re
import sys
import warnings
from pathlib import Path
from typing import (
    Any,
    Dict,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Tuple,
    Union,
)

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import ensure_path

from ..core.cfg_io import load_overrides, without
from ..labels.maps import LabelMap, apply, get_label_map
from ..core.extensions import DEIDENTIFIED, ENTS, FLAGS, OFFSET_MAP, PATIENT
from ..core.extensions import SPAN_GROUPS, SURROGATE, get_patient
from ..core.extensions import install_extensions
from ..labels import normalize_label
from .dates import date_language, date_references, date_strings
from .generators import (
    AGE_OVER_89_TEXT,
    NameContext,
    SurrogateGenerator,
    check_locale,
    name_context,
)
from .keys import (
    SOURCE_EPHEMERAL,
    SOURCE_SET,
    derive_seed,
    generate_key,
    key_from_env,
    parse_key,
)
from .reveal import reveals
from .readable import (
    WORD_LABELS,
    is_one_lower_word,
    one_lower_word,
    with_article_fixes,
)
from .offsets import apply_replacements
from ..tagging.ents import overlap_runs

logger = logging.getLogger(__name__)

MODES = ("surrogate", "redact", "tag")
MAX_ATTEMPTS = 10
EPHEMERAL_KEY_WARNING = (
    "spacy-deid: no secret key (set_key(), SPACY_DEID_KEY_FILE or "
    "SPACY_DEID_KEY): surrogates and date shifts use a random key and are only "
    "consistent within this run."
)
# Shown once per process, whatever the number of components.
_EPHEMERAL_WARNED = False
# Frames in these packages are skipped, so the warning points at the code that
# called the pipeline (or at no file at all, e.g. from the CLI).
_INTERNAL_DIRS = tuple(
    os.path.dirname(module.__file__) + os.sep
    for module in (sys.modules["spacy"], sys.modules["spacy_deid"])
    if getattr(module, "__file__", None)
)
_INTERNAL_PACKAGES = tuple(
    os.sep + name + os.sep for name in ("thinc", "typer", "click", "importlib")
) + (os.sep + "runpy.py", "<frozen ")


class EphemeralKeyWarning(UserWarning):
    """Surrogates use a random per-run key."""


DEFAULT_CONFIG: Dict[str, Any] = {
    "mode": "surrogate",
    "redact_mask": "[**]",
    "tag_format": "[{label}]",
    "date_shift_min": 1,
    "date_shift_max": 365,
    "keep_ages_under_90": True,
    "spans_key": None,
    "label_map": None,
    "locale": "en_US",
}


@Language.factory(
    "phi_surrogates",
    # doc.spans is read instead of doc.ents with spans_key set.
    requires=[ENTS, SPAN_GROUPS, FLAGS, PATIENT],
    assigns=[DEIDENTIFIED, OFFSET_MAP, SURROGATE],
    default_config=DEFAULT_CONFIG,
)
def make_phi_surrogates(
    nlp: Language,
    name: str,
    mode: str,
    redact_mask: str,
    tag_format: str,
    date_shift_min: int,
    date_shift_max: int,
    keep_ages_under_90: bool,
    spans_key: Optional[str],
    label_map: Optional[str],
    locale: str,
) -> "PhiSurrogates":
    """Create a `phi_surrogates` component (see `PhiSurrogates`)."""
    return PhiSurrogates(
        nlp,
        name,
        mode=mode,
        redact_mask=redact_mask,
        tag_format=tag_format,
        date_shift_min=date_shift_min,
        date_shift_max=date_shift_max,
        keep_ages_under_90=keep_ages_under_90,
        spans_key=spans_key,
        label_map=label_map,
        locale=locale,
    )


class Originals(NamedTuple):
    """A doc's original PHI strings, lower case, that no surrogate may read as
    (a state's surrogate that is another state of the note, a shifted date
    that is another date of it) or hold as words (an organisation's surrogate
    "Smith, Harrowgate and Quillon" where "Smith" is a name of the note): such a
    surrogate would write an original back into the output."""

    texts: FrozenSet[str]
    # `dates.date_strings` of the DATE spans, and the other spans that are
    # numbers of two or more digits ("14" of "bed 14")
    dates: FrozenSet[str]
    words: Optional["re.Pattern[str]"]  # the texts with letters, as whole words

    @classmethod
    def of(
        cls, spans: List[Span], labels: List[Optional[str]], lang: str
    ) -> "Originals":
        """The strings of the doc's spans (`labels`: their surrogate labels)."""
        dated = (
            span.text
            for span, label in zip(spans, labels, strict=True)
            if label is not None and normalize_label(label) == "DATE"
        )
        texts = frozenset(span.text.casefold() for span in spans)
        numbers = {text for text in texts if text.isdigit() and len(text) >= 2}
        return cls(texts, date_strings(dated, lang) | numbers, _whole_words(texts))

    def reads_as(self, new: str, text: str) -> bool:
        """Whether `new`, the surrogate of `text`, is another original or
        holds one as whole words."""
        folded = new.casefold()
        if folded == text.casefold():
            return False
        if folded in self.texts:
            return True
        return self.words is not None and self.words.search(folded) is not None


def _whole_words(texts: FrozenSet[str]) -> Optional["re.Pattern[str]"]:
    """One pattern for the texts of 3 or more letters, each as a whole word
    sequence (the leak measure's matching), or None if there are none."""
    worded = [text for text in texts if sum(char.isalpha() for char in text) >= 3]
    if not worded:
        return None
    options = "|".join(
        re.escape(text) for text in sorted(worded, key=len, reverse=True)
    )
    return re.compile(r"(?<!\w)(?:" + options + r")(?!\w)")


class PhiSurrogates:
    """Replace PHI spans with surrogates, masks or tags.

    The secret key comes from `set_key()`, else the SPACY_DEID_KEY_FILE or
    SPACY_DEID_KEY environment variables, else a random key made at
    construction (one EphemeralKeyWarning at first use). The key is never
    serialized by `to_disk`/`to_bytes`, but it survives pickling, so
    `nlp.pipe(n_process=N)` uses the same key in every worker.
    """

    def __init__(
        self,
        nlp: Optional[Language] = None,
        name: str = "phi_surrogates",
        *,
        mode: str = "surrogate",
        redact_mask: str = "[**]",
        tag_format: str = "[{label}]",
        date_shift_min: int = 1,
        date_shift_max: int = 365,
        keep_ages_under_90: bool = True,
        spans_key: Optional[str] = None,
        label_map: Optional[str] = None,
        locale: str = "en_US",
    ) -> None:
        """Initialize the component.

        nlp (Optional[Language]): The pipeline; its `lang` sets the date
            language ("es": day first, Spanish month names; else English).
        name (str): The component name.
        mode (str): "surrogate", "redact" or "tag".
        redact_mask (str): The mask in redact mode (and the fail-closed
            fallback); "{label}" is replaced by the label.
        tag_format (str): The tag in tag mode; "{label}" is replaced.
        date_shift_min (int): Smallest date shift in days (>= 1).
        date_shift_max (int): Largest date shift in days.
        keep_ages_under_90 (bool): Keep ages <= 89 in surrogate mode.
        spans_key (Optional[str]): Read `doc.spans[spans_key]`; None: doc.ents.
        label_map (Optional[str]): Name of a label map (`get_label_map`) from
            the spans' labels to the i2b2 subcategories used for surrogates
            and date shifting; None: the labels are used as they are.
        locale (str): Faker locale of the realistic surrogates.
        """
        install_extensions()
        self.name = name
        # Dates are read and written in the text's language (nlp.lang).
        self.date_lang = date_language(nlp.lang if nlp is not None else "en")
        self.cfg: Dict[str, Any] = {
            "mode": mode,
            "redact_mask": redact_mask,
            "tag_format": tag_format,
            "date_shift_min": date_shift_min,
            "date_shift_max": date_shift_max,
            "keep_ages_under_90": keep_ages_under_90,
            "spans_key": spans_key,
            "label_map": label_map,
            "locale": locale,
        }
        validate_config(self.cfg)
        key, source = key_from_env()
        if key is None:
            key, source = generate_key(), SOURCE_EPHEMERAL
        self._key_source = source
        self._warned = False
        self._set_key(key)

    @property
    def key_source(self) -> str:
        """Where the key came from: "set_key", "env:...", or "ephemeral"."""
        return self._key_source

    def set_key(self, key: Union[bytes, str]) -> None:
        """Use this secret key, e.g. `read_key_file(path)` or the raw contents
        of the CLI's --key-file (both give the same key, see `parse_key`).

        key (Union[bytes, str]): At least 16 bytes (or hex text).
        """
        self._set_key(parse_key(key))
        self._key_source = SOURCE_SET

    def _set_key(self, key: bytes) -> None:
        self._key = key
        self._label_map: Optional[LabelMap] = get_label_map(self.cfg["label_map"])
        self._generator = SurrogateGenerator(
            key,
            keep_ages_under_90=self.cfg["keep_ages_under_90"],
            locale=self.cfg["locale"],
            date_lang=self.date_lang,
        )

    def surrogate_label(self, label: str, text: str = "") -> Optional[str]:
        """The label that surrogates and date shifting use for a span: its
        own, or its image under `label_map` (None: no equivalent).

        label (str): The span's label.
        text (str): The span's text (some maps look at it).
        RETURNS (Optional[str]): The label for the generator, or None.
        """
        return apply(label, self._label_map, text)

    def __call__(self, doc: Doc) -> Doc:
        """Write `doc._.deidentified`, `doc._.offset_map`, `span._.surrogate`.

        doc (Doc): The doc, with PHI spans in doc.ents or doc.spans.
        RETURNS (Doc): The same doc.
        """
        self._warn_if_ephemeral()
        regions = replacement_regions(self._get_spans(doc))
        surrogate_mode = self.cfg["mode"] == "surrogate"
        patient = get_patient(doc) if surrogate_mode else ""
        shift = self.date_shift(patient) if surrogate_mode else 0
        spans = [span for _, _, span, _ in regions]
        labels = [self.surrogate_label(span.label_, span.text) for span in spans]
        references = (
            date_references(spans, labels, self.date_lang)
            if surrogate_mode
            else [None] * len(spans)
        )
        originals = (
            Originals.of(spans, labels, self.date_lang) if surrogate_mode else None
        )
        names = name_context(
            span.text
            for span, label in zip(spans, labels, strict=True)
            if label is not None and normalize_label(label) in ("PATIENT", "DOCTOR")
        )
        cache: Dict[Tuple[str, str], str] = {}
        replacements = []
        for (start, end, span, members), label, reference in zip(
            regions, labels, references, strict=True
        ):
            new = self._replace(
                span,
                members,
                patient,
                shift,
                cache,
                reference=reference,
                names=names,
                label=label,
                originals=originals,
            )
            replacements.append((start, end, new))
            for member in members:
                if member.start_char == start and member.end_char == end:
                    member._.surrogate = new
        source = doc.text
        if surrogate_mode:
            replacements = with_article_fixes(source, replacements)
        text, offset_map = apply_replacements(source, replacements)
        doc._.deidentified = text
        doc._.offset_map = offset_map
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Process a stream of docs.

        stream (Iterable[Doc]): The docs.
        batch_size (int): Unused.
        YIELDS (Doc): The processed docs.
        """
        for doc in stream:
            yield self(doc)

    def date_shift(self, patient: str) -> int:
        """The patient's date shift in days: +/- [date_shift_min,
        date_shift_max], never a multiple of 7 (so weekdays change) nor 365 or
        366 days when the range allows it.

        patient (str): The patient id.
        RETURNS (int): The shift.
        """
        low, high = self.cfg["date_shift_min"], self.cfg["date_shift_max"]
        seed = derive_seed(self._key, "v1", "DATE_SHIFT", patient)
        size = seed % (high - low + 1) + low
        # Avoid multiples of 7 (weekdays would not change) and whole years
        # (a date without a year would come out unchanged and be bumped,
        # breaking its interval with the patient's other dates).
        allowed = [n for n in range(low, high + 1) if n % 7 and n not in (365, 366)]
        if allowed and size not in allowed:
            size = min(allowed, key=lambda n: (abs(n - size), -n))
        sign = 1 if (seed >> 128) % 2 else -1
        return sign * size

    def surrogate(
        self, label: str, text: str, patient: str = "", flags: Iterable[str] = ()
    ) -> str:
        """The replacement for one string, as `__call__` would make it.

        label (str): The PHI label.
        text (str): The original text.
        patient (str): The patient id.
        flags (Iterable[str]): PHI flags such as "AGE_OVER_89".
        RETURNS (str): The replacement.
        """
        shift = self.date_shift(patient) if self.cfg["mode"] == "surrogate" else 0
        target = self.surrogate_label(label, text)
        return self._make(label, text, patient, shift, list(flags), target=target)

    def _replace(
        self,
        span: Span,
        members: List[Span],
        patient: str,
        shift: int,
        cache: Dict[Tuple[str, str], str],
        reference: Optional[datetime.date] = None,
        names: Optional[NameContext] = None,
        label: Optional[str] = None,
        originals: Optional["Originals"] = None,
    ) -> str:
        flags = sorted({flag for m in members for flag in (m._.phi_flags or ())})
        extra = "\x00".join([",".join(flags), str(reference)])
        cache_key = (span.label_, span.text + "\x00" + extra)
        if cache_key not in cache:
            cache[cache_key] = self._make(
                span.label_,
                span.text,
                patient,
                shift,
                flags,
                reference=reference,
                names=names,
                target=label,
                originals=originals,
            )
        return cache[cache_key]

    def _make(
        self,
        label: str,
        text: str,
        patient: str,
        shift: int,
        flags: List[str],
        reference: Optional[datetime.date] = None,
        names: Optional[NameContext] = None,
        target: Optional[str] = None,
        originals: Optional["Originals"] = None,
    ) -> str:
        """The replacement: a tag or mask with the span's own `label`, or a
        surrogate for the `target` label (None: masked)."""
        mode = self.cfg["mode"]
        if mode == "tag":
            return self.cfg["tag_format"].replace("{label}", label)
        mask = self.cfg["redact_mask"].replace("{label}", label)
        if mode == "redact" or target is None:
            return mask
        try:
            return self._surrogate(
                target,
                text,
                patient,
                shift,
                flags,
                reference=reference,
                names=names,
                originals=originals,
            )
        except Exception as err:  # fail closed, never fall back to the text
            logger.warning(
                "phi_surrogates: could not build a %s surrogate (%s); redacted.",
                target,
                type(err).__name__,
            )
            return mask

    def _surrogate(
        self,
        label: str,
        text: str,
        patient: str,
        shift: int,
        flags: List[str],
        reference: Optional[datetime.date] = None,
        names: Optional[NameContext] = None,
        originals: Optional["Originals"] = None,
    ) -> str:
        generator = self._generator
        if label == "AGE":
            if generator.keeps_age(text, flags):
                return text
            new = generator.generate(
                label, text, patient, date_shift=shift, flags=flags
            )
            if new == AGE_OVER_89_TEXT or new.casefold() != text.casefold():
                return new
        # A single lower-case word (often a common word tagged by mistake)
        # stays one lower-case word, so the sentence still reads.
        one_word = normalize_label(label) in WORD_LABELS and is_one_lower_word(text)
        fallback: Optional[str] = None
        for attempt in range(MAX_ATTEMPTS):
            new = generator.generate(
                label,
                text,
                patient,
                date_shift=shift,
                flags=flags,
                attempt=attempt,
                reference=reference,
                names=names,
                dates=originals.dates if originals else frozenset(),
            )
            if one_word:
                new = one_lower_word(new) or new
            if reveals(text, new):
                continue
            if (
                normalize_label(label) == "DATE"
                or not originals
                or not originals.reads_as(new, text)
            ):
                return new
            fallback = fallback or new
        if fallback is not None:
            return fallback
        raise ValueError("Every derived surrogate revealed the original.")

    def _get_spans(self, doc: Doc) -> List[Span]:
        key = self.cfg["spans_key"]
        if key is None:
            return list(doc.ents)
        if key not in doc.spans:
            return []
        return list(doc.spans[key])

    def _warn_if_ephemeral(self) -> None:
        global _EPHEMERAL_WARNED
        if self._warned or self.cfg["mode"] != "surrogate":
            return
        if self._key_source == SOURCE_EPHEMERAL:
            self._warned = True
            if _EPHEMERAL_WARNED:
                return
            _EPHEMERAL_WARNED = True
            warnings.warn(
                EPHEMERAL_KEY_WARNING, EphemeralKeyWarning, stacklevel=_caller_level()
            )

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        """Serialize the settings (never the key).

        RETURNS (bytes): The serialized component.
        """
        return srsly.msgpack_dumps({"cfg": self.cfg})

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()
    ) -> "PhiSurrogates":
        """Load the settings; the key is kept as it is.

        RETURNS (PhiSurrogates): The component.
        """
        self._load_cfg(srsly.msgpack_loads(bytes_data)["cfg"])
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> None:
        """Write the settings to `path/cfg` (never the key).

        path (Union[str, Path]): A directory.
        """
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "cfg", self.cfg)

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> "PhiSurrogates":
        """Load the settings from `path/cfg`, except those given when the
        pipeline is loaded (`cfg_io.load_overrides`); the key is kept as it is.

        RETURNS (PhiSurrogates): The component.
        """
        cfg_path = ensure_path(path) / "cfg"
        if cfg_path.exists():
            overrides = load_overrides(path, self.cfg)
            self._load_cfg(without(srsly.read_json(cfg_path), overrides))
        return self

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        new_cfg = dict(self.cfg)
        new_cfg.update({k: v for k, v in cfg.items() if k in DEFAULT_CONFIG})
        validate_config(new_cfg)
        self.cfg = new_cfg
        self._set_key(self._key)


def reset_ephemeral_warning() -> None:
    """Let the next keyless component warn again (for tests)."""
    global _EPHEMERAL_WARNED
    _EPHEMERAL_WARNED = False


def _caller_level() -> int:
    """The `stacklevel` of the first frame outside spaCy, spacy-deid and the
    CLI machinery: the user's call to the pipeline. When there is none (the
    CLI), a level past the stack, so no source file or line is printed."""
    frame = sys._getframe(1)  # _warn_if_ephemeral
    level = 1
    while frame is not None:
        filename = frame.f_code.co_filename
        internal = filename.startswith(_INTERNAL_DIRS) or any(
            part in filename for part in _INTERNAL_PACKAGES
        )
        if not internal:
            return level
        frame = frame.f_back
        level += 1
    return level + 1


def validate_config(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for an invalid setting.

    cfg (Dict[str, Any]): The component settings.
    """
    if cfg["mode"] not in MODES:
        raise ValueError(f"phi_surrogates: mode must be one of {MODES}")
    low, high = cfg["date_shift_min"], cfg["date_shift_max"]
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high):
        raise ValueError(
            "phi_surrogates: need integers 1 <= date_shift_min <= date_shift_max"
        )
    for setting in ("redact_mask", "tag_format"):
        if not isinstance(cfg[setting], str):
            raise ValueError(f"phi_surrogates: {setting} must be a string")
    label_map = cfg["label_map"]
    if label_map is not None and not isinstance(label_map, str):
        raise ValueError("phi_surrogates: label_map must be a label map name or null")
    try:
        get_label_map(label_map)
        check_locale(cfg["locale"])
    except ValueError as error:
        raise ValueError(f"phi_surrogates: {error}") from None


def replacement_regions(
    spans: Iterable[Span],
) -> List[Tuple[int, int, Span, List[Span]]]:
    """Join overlapping spans into regions replaced as a whole.

    A region takes the label of its longest span (over-redacting rather than
    leaving part of an identifier).

    spans (Iterable[Span]): The PHI spans.
    RETURNS (List[Tuple[int, int, Span, List[Span]]]): (start_char, end_char,
        span used for the label and text, member spans), sorted.
    """
    ordered = sorted(
        (span for span in spans if span.text.strip()),
        key=lambda span: (span.start_char, -span.end_char),
    )
    runs = overlap_runs([(span.start_char, span.end_char) for span in ordered])
    # Members in (start, longest first) order: the first is the fallback.
    groups = [[ordered[i] for i in sorted(run)] for run in runs]
    regions = []
    for members in groups:
        start = min(member.start_char for member in members)
        stop = max(member.end_char for member in members)
        longest = max(members, key=lambda member: len(member.text))
        if (longest.start_char, longest.end_char) != (start, stop):
            longest = longest.doc.char_span(start, stop, label=longest.label_)
            if longest is None:
                longest = members[0]
        regions.append((start, stop, longest, members))
    return regions
