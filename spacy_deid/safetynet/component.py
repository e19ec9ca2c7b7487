"""The `phi_safety_net` component: a recall safety net for names in cue
positions that the detectors missed.

It runs after the detectors (`phi_rules`, `phi_ner`) and before
`phi_surrogates`. A token outside every entity and outside known non-PHI
(`doc.spans["phi_not"]`) becomes an entity when it sits in a cue position
and looks like a name (`guard.NameGuard`):

- after a clinician cue ("dr", "per", "d/w", "cc:", "attending", ...) or
  before an upper-case post-nominal ("MD", "DO"): DOCTOR;
- after a patient cue ("pt", "mrs"), a relative ("sis", "wife") or a
  sign-off at a line's end ("Thanks,"): PATIENT;
- a lone surname on either side of a sign-out arrow ("(ferraro -> lindgren)"),
  the other side a lone surname too or one word a detector found: DOCTOR;
- with the `state` and `city` classes on (off by default), a US state's full
  name that few people bear, standing alone, a state's code right after a
  city ("Rapid City, SD"), and a large city after "in", "from", "near" or
  "to" (`places.py`);
- with the `month` class on (off by default), a month's full name in title
  case standing free, "May" left out, and an abbreviation after a word that
  sets a time ("in Sept", `months.py`);
- with the `ward` class on (off by default), a floor number and a compass
  direction ("admitted to 4 West", `wards.py`);
- with the `facility` class on (off by default), a hospital's initials after
  "to", "from" or "at" ("transferred from QVH", `facilities.py`);
- with the `job` class on (off by default), a job after a work cue ("was
  working as a gaffer"), in brackets after a relative's name or before an
  employer ("vet tech at Quill Animal Clinic", `jobs.py`);
- with the `unit` class on (off by default), a unit that a header names
  after its hospital and a separator ("Mercy Hospital - Adult Acute Unit
  3B", `units.py`);
- with the `slash_date` class on (off by default), a month/day where a
  colon, a time word, brackets or a title mark a date and no score word
  stands near ("XR L foot 8/3:", "vs 8/7", `slash_dates.py`);
- with the `kin_age` class on (off by default), a number in brackets after
  a relative's name, the numbers after "ages" and an age after "dx"
  ("children Ishimwe (6)", "ages 14 and 9", "breast ca dx 49", `kin_ages.py`);
- with the `weekday` class on (off by default), a weekday right before a
  date or in brackets right after one ("Fri 13-Jan-2090", `weekdays.py`);
- with the `login` class on (off by default), a login made from the name of
  a person the doc names ("rkaleikini" and "Ronan Kaleikini", `logins.py`);
- with the `initials` class on (off by default), initials after a dash or
  slash that sign an entry ("No concerns. -KD", `initials.py`).

A name extends over further name-like words, middle initials and hyphenated
parts on its line ("per rn b. achebe" gives "b. achebe"); a name followed by
an eponym's head ("Foley catheter") is dropped. Existing entities are never
changed: the net only adds spans on free tokens, `span._.phi_source =
"safety_net:<cue class>"` and `span._.phi_score = score` (below the rules'
0.7, so `phi_consistency` does not spread them by default).
"""

from typing import Any, Dict, Iterable, List, Optional, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span

from ..core.cfg_io import CfgSerializable
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, SCORES, SOURCE_ATTR
from ..core.extensions import SPAN_GROUPS, install_extensions
from ..labels import LABEL_NAMES, NOT_PHI_KEY, normalize_label
from ..tagging.ents import first_free, token_mask, write_ents
from .cues import ARROW, CITY, CLINICIAN, CUE_CLASSES, PATIENT, RELATIVE
from .cues import FACILITY, JOB, KIN_AGE, MONTH, SIGN_OFF, SLASH_DATE, STATE, UNIT
from .cues import INITIALS, LOGIN, NICKNAME, PERSON_COLUMN, STAFF_COLUMN, WARD, WEEKDAY
from .cues import CueIndex, default_cues
from .finder import NameReader, after_cues, around_arrows, before_post_nominals
from .finder import sentence_subjects
from .guard import NameGuard
from .columns import find_name_columns
from .facilities import find_facilities
from .initials import find_initials
from .jobs import find_jobs
from .kin_ages import find_kin_ages
from .logins import find_logins
from .months import find_months
from .nicknames import find_nicknames
from .places import find_places, find_state_codes
from .slash_dates import find_slash_dates
from .units import find_units
from .weekdays import find_weekdays
from .wards import find_wards
from .words import DocWords

install_extensions()

SOURCE = "safety_net"
_CLASS_RANK = {kind: i for i, kind in enumerate(CUE_CLASSES)}
DEFAULT_LABELS: Dict[str, str] = {
    CLINICIAN: "DOCTOR",
    PATIENT: "PATIENT",
    RELATIVE: "PATIENT",
    SIGN_OFF: "DOCTOR",
    ARROW: "DOCTOR",
}
DEFAULT_CONFIG: Dict[str, Any] = {
    "labels": DEFAULT_LABELS,
    "max_word_zipf": 4.0,
    "min_name_count": 100,
    "min_strong_name_count": 1000,
    "max_unseen_zipf": 2.0,
    "lower_unseen": False,
    "lower_after_title": False,
    "surname_after_cue": False,
    "extra_words": [],
    "score": 0.5,
    "spans_key": None,
    "min_city_population": 500000,
    "max_place_bearers": 5000,
}


@Language.factory(
    "phi_safety_net",
    requires=[ENTS, SPAN_GROUPS],
    assigns=[ENTS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES, SPAN_GROUPS],
    default_config=DEFAULT_CONFIG,
)
def make_phi_safety_net(
    nlp: Language,
    name: str,
    labels: Dict[str, Optional[str]],
    max_word_zipf: float,
    min_name_count: int,
    min_strong_name_count: int,
    max_unseen_zipf: float,
    lower_unseen: bool,
    lower_after_title: bool,
    surname_after_cue: bool,
    extra_words: List[str],
    score: float,
    spans_key: Optional[str],
    min_city_population: int,
    max_place_bearers: int,
) -> "PhiSafetyNet":
    """Create a PhiSafetyNet component (factory "phi_safety_net").

    labels (Dict[str, str]): PHI label per cue class ("clinician",
        "patient", "relative", "sign_off", "arrow", "state", "city", "month",
        "ward", "facility", "job"); a class mapped to null (or left out) is
        off.
    max_word_zipf (float): A word at least this frequent (zipf) is ordinary:
        a name only after a strong cue, title-cased ("wife June").
    min_name_count (int): People bearing a name (Census surname plus SSA
        given) for it to be a known name.
    min_strong_name_count (int): People bearing an ordinary word for it to
        be a name after a strong cue.
    max_unseen_zipf (float): A word no name table knows is an unseen name
        only below this frequency (and title-cased, after a weak cue).
    lower_unseen (bool): After a clinician cue ("per", "d/w"), a word in
        lower case is an unseen name when no table knows it even as a word,
        it has five letters or more and it is no misspelling of a common
        word ("per turci", not "per pateint").
    lower_after_title (bool): After a clinician title ("dr", "doctor"), a
        word in lower case that is also an ordinary word is a name when at
        least `min_strong_name_count` people bear it as a surname and it is
        not one of the most common words ("dr mills", not "dr said").
    surname_after_cue (bool): After another clinician cue ("d/w", "rn",
        "per"; not "cc:", also the chief complaint), an ordinary word in lower
        or title case is a name when at least `min_strong_name_count` people
        bear it as a surname and English uses it not much more as a word
        than as a name ("d/w bell", "Gross by Ford"; not "d/w staff").
    extra_words (List[str]): More words that are never names.
    score (float): The `phi_score` of the spans added.
    spans_key (Optional[str]): Also store the added spans in this span group.
    min_city_population (int): People living in a city for its name after
        "in" to be a place (the `city` class).
    max_place_bearers (int): A state's or city's name that more people bear
        as a surname or given name is left alone ("Georgia", "Houston").
    """
    return PhiSafetyNet(
        name,
        stop_words=nlp.Defaults.stop_words,
        labels=labels,
        max_word_zipf=max_word_zipf,
        min_name_count=min_name_count,
        min_strong_name_count=min_strong_name_count,
        max_unseen_zipf=max_unseen_zipf,
        lower_unseen=lower_unseen,
        lower_after_title=lower_after_title,
        surname_after_cue=surname_after_cue,
        extra_words=extra_words,
        score=score,
        spans_key=spans_key,
        min_city_population=min_city_population,
        max_place_bearers=max_place_bearers,
    )


class PhiSafetyNet(CfgSerializable, Pipe):
    """Add names in cue positions that no detector found (see the module
    docstring)."""

    def __init__(
        self,
        name: str = "phi_safety_net",
        *,
        stop_words: Iterable[str] = (),
        labels: Optional[Dict[str, Optional[str]]] = None,
        max_word_zipf: float = 4.0,
        min_name_count: int = 100,
        min_strong_name_count: int = 1000,
        max_unseen_zipf: float = 2.0,
        lower_unseen: bool = False,
        lower_after_title: bool = False,
        surname_after_cue: bool = False,
        extra_words: Iterable[str] = (),
        score: float = 0.5,
        spans_key: Optional[str] = None,
        min_city_population: int = 500000,
        max_place_bearers: int = 5000,
    ) -> None:
        """Initialize the component; the settings are those of
        `make_phi_safety_net`, plus the language's stop words (ordinary)."""
        install_extensions()
        self.name = name
        self._stop_words = frozenset(stop_words)
        self.cfg: Dict[str, Any] = {
            "labels": dict(DEFAULT_LABELS if labels is None else labels),
            "max_word_zipf": max_word_zipf,
            "min_name_count": min_name_count,
            "min_strong_name_count": min_strong_name_count,
            "max_unseen_zipf": max_unseen_zipf,
            "lower_unseen": lower_unseen,
            "lower_after_title": lower_after_title,
            "surname_after_cue": surname_after_cue,
            "extra_words": list(extra_words),
            "score": score,
            "spans_key": spans_key,
            "min_city_population": min_city_population,
            "max_place_bearers": max_place_bearers,
        }
        self._configure()

    def _configure(self) -> None:
        """Check the cfg and build the guard and cue index from it."""
        self.cfg["labels"] = _check_labels(self.cfg["labels"])
        _check_numbers(self.cfg)
        self.guard = NameGuard(
            max_word_zipf=self.cfg["max_word_zipf"],
            min_name_count=self.cfg["min_name_count"],
            min_strong_name_count=self.cfg["min_strong_name_count"],
            max_unseen_zipf=self.cfg["max_unseen_zipf"],
            lower_unseen=self.cfg["lower_unseen"],
            lower_after_title=self.cfg["lower_after_title"],
            surname_after_cue=self.cfg["surname_after_cue"],
            stop_words=self._stop_words,
            extra_words=self.cfg["extra_words"],
        )
        self._labels = {k: v for k, v in self.cfg["labels"].items() if v}
        self.cues = CueIndex(c for c in default_cues() if c.kind in self._labels)

    def __call__(self, doc: Doc) -> Doc:
        """Add the names found in cue positions to `doc.ents`.

        doc (Doc): The doc, with the detectors' `doc.ents`.
        RETURNS (Doc): The same doc.
        """
        error_handler = self.get_error_handler()
        try:
            self.mark(doc)
            return doc
        except Exception as e:
            error_handler(self.name, self, [doc], e)
            return doc

    def mark(self, doc: Doc) -> List[Span]:
        """Add the names found in cue positions; errors are raised.

        doc (Doc): The doc.
        RETURNS (List[Span]): The added entities.
        """
        if doc._.deidentified is not None:
            raise ValueError(
                "phi_safety_net: the doc is already de-identified "
                "(doc._.deidentified is set); run it before phi_surrogates"
            )
        found = self.find(doc)
        if not found:
            return []
        spans = [span for span, _ in found]
        write_ents(doc, spans, default="unmodified")
        for span, kind in found:
            span._.phi_source = f"{SOURCE}:{kind}"
            span._.phi_score = self.cfg["score"]
        key = self.cfg["spans_key"]
        if key is not None:
            doc.spans[key] = list(doc.spans.get(key, [])) + spans
        return spans

    def find(self, doc: Doc) -> List[Tuple[Span, str]]:
        """The spans to add, without changing the doc: longest first over
        tokens outside entities and known non-PHI.

        doc (Doc): The doc.
        RETURNS (List[Tuple[Span, str]]): New spans and their cue classes,
            in doc order.
        """
        if not len(doc):
            return []
        taken = token_mask(
            len(doc), list(doc.ents) + list(doc.spans.get(NOT_PHI_KEY, ()))
        )
        words = DocWords(doc)
        taken_flags = taken.tolist()
        reader = NameReader(words, taken_flags, self.guard)
        labels = self._labels
        found = after_cues(words, reader, self.cues)
        if CLINICIAN in labels:
            found += before_post_nominals(words, reader)
        if PATIENT in labels:
            found += sentence_subjects(words, reader)
        if ARROW in labels:
            found += around_arrows(words, reader)
        places = [kind for kind in (STATE, CITY) if kind in labels]
        if places:
            found += find_places(
                words,
                taken_flags,
                places,
                self.cfg["min_city_population"],
                self.cfg["max_place_bearers"],
            )
        if STATE in labels and labels.get(CITY):
            found += find_state_codes(words, taken_flags, doc, labels[CITY])
        if MONTH in labels:
            found += find_months(words, taken_flags)
        if SLASH_DATE in labels:
            found += find_slash_dates(words, taken_flags)
        if KIN_AGE in labels and labels.get(RELATIVE):
            found += find_kin_ages(words, taken_flags, doc, labels[RELATIVE])
        if WEEKDAY in labels:
            found += find_weekdays(words, taken_flags, doc, labels[WEEKDAY])
        persons = frozenset(
            labels[kind] for kind in (CLINICIAN, PATIENT, RELATIVE) if labels.get(kind)
        )
        if LOGIN in labels:
            found += find_logins(words, taken_flags, doc, persons)
        if NICKNAME in labels:
            found += find_nicknames(words, taken_flags, doc, persons | {labels[NICKNAME]})
        if INITIALS in labels:
            found += find_initials(words, taken_flags)
        if STAFF_COLUMN in labels or PERSON_COLUMN in labels:
            found += find_name_columns(words, taken_flags, doc, self.guard)
        if WARD in labels:
            found += find_wards(words, taken_flags)
        if FACILITY in labels:
            found += find_facilities(words, taken_flags)
        if JOB in labels:
            workplaces = ("ORGANIZATION", labels.get(FACILITY, "HOSPITAL"))
            found += find_jobs(words, taken_flags, doc, labels.get(RELATIVE, ""), workplaces)
        if UNIT in labels:
            found += find_units(words, taken_flags, doc, labels.get(FACILITY, "HOSPITAL"))
        intervals = sorted(
            {
                (words.words[s].index, words.words[e - 1].index + 1, kind)
                for s, e, kind in found
                if kind in labels
            },
            # Two cue classes can find the same words ("-- Ana RN": a
            # sign-off and a clinician): the earlier class of CUE_CLASSES
            # wins, whatever the set's order.
            key=lambda c: (c[0] - c[1], c[0], _CLASS_RANK.get(c[2], len(CUE_CLASSES))),
        )
        chosen = first_free([c[:2] for c in intervals], doc.ents, len(doc))
        spans = [
            (Span(doc, s, e, label=labels[kind]), kind)
            for s, e, kind in (intervals[i] for i in chosen)
        ]
        return sorted(spans, key=lambda found: found[0].start)

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        self.cfg.update(cfg)
        self._configure()


def _check_labels(labels: Any) -> Dict[str, Optional[str]]:
    """Validate the cue class -> label map and normalise the labels (None or
    "" switches a class off)."""
    if not isinstance(labels, dict):
        raise ValueError("phi_safety_net: labels must map cue classes to labels")
    unknown = set(labels) - set(CUE_CLASSES)
    if unknown:
        raise ValueError(
            f"phi_safety_net: unknown cue classes {sorted(unknown)}; "
            f"expected some of {CUE_CLASSES}"
        )
    normal = {
        kind: normalize_label(str(label)) if label else None
        for kind, label in labels.items()
    }
    bad = sorted(
        label for label in normal.values() if label and label not in LABEL_NAMES
    )
    if bad:
        raise ValueError(f"phi_safety_net: unknown labels {bad}")
    return normal


def _check_numbers(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for a bad threshold or word list."""
    for key in ("max_word_zipf", "max_unseen_zipf", "score"):
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"phi_safety_net: {key} must be a number")
    for key in (
        "min_name_count",
        "min_strong_name_count",
        "min_city_population",
        "max_place_bearers",
    ):
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"phi_safety_net: {key} must be an integer >= 0")
    for key in ("lower_unseen", "lower_after_title", "surname_after_cue"):
        if not isinstance(cfg[key], bool):
            raise ValueError(f"phi_safety_net: {key} must be true or false")
    words = cfg["extra_words"]
    if isinstance(words, str) or not all(isinstance(w, str) for w in words):
        raise ValueError("phi_safety_net: extra_words must be a list of words")
