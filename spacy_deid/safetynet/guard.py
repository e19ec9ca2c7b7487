"""The precision guard of `phi_safety_net`: is a token after a cue a name?

A missed name is a privacy breach, but a net that tags every word after
"pt" or "per" would replace half of each note. A token is *name-like* when
its shape is a word's and the knowledge tables (`knowledge.lookup`) know it
as a name more than as an ordinary word, or know it not at all (an unseen
rare name). Ordinary words, drug names, clinical words, date words and units
never are, except that an ordinary word which is also a frequent name is a
name after a strong cue when written like one ("wife June", "Thanks, Bo").
"""

import re
from typing import FrozenSet, Iterable, Tuple

from ..knowledge import Knowledge, lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from ..knowledge.conditions import is_condition_word
from ..rules.lexicons.clinical import EPONYM_HEADS
from ..text.datenames import MONTHS, WEEKDAYS

# Clinical shorthand that the tables do not know and that is written after
# "pt" or "per" as often as a name is.
CLINICAL_WORDS: Tuple[str, ...] = (
    "afebrile",
    "ambulating",
    "ambulatory",
    "tachycardic",
    "bradycardic",
    "hypotensive",
    "hypertensive",
    "intubated",
    "extubated",
    "npo",
    "ortho",
    "neuro",
    "cards",
    "renal",
    "onc",
    "psych",
    "tolerating",
    "vanc",
    "zosyn",
    "pcp",
    # Consult services' shorthand ("per endo"), some of them surnames too.
    "endo",
    "derm",
    "uro",
    "pulm",
    "heme",
    "nephro",
    "gyn",
    "nsgy",
    "rheum",
    "ptx",
    # Shorthand that train's notes write after cues ("re: dispo", "FHx").
    "dispo",
    "etoh",
    "tmax",
    "afib",
    "fhx",
    "hgb",
    "alb",
    "trop",
    # Latin after "per" ("per diem", "per annum"), which 1,000+ bear as names.
    "diem",
    "annum",
    "capita",
)
UNITS: Tuple[str, ...] = (
    "mg",
    "mcg",
    "ml",
    "kg",
    "cm",
    "mm",
    "meq",
    "mmol",
    "units",
    "hr",
    "hrs",
    "min",
    "mins",
    "sec",
    "bpm",
)
MONTH_ABBREVIATIONS: Tuple[str, ...] = (
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
)
WEEKDAY_ABBREVIATIONS: Tuple[str, ...] = (
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
)

# Shorter lower-case words that nothing knows are mostly clinical
# shorthand ("pulm", "neph").
_MIN_UNSEEN_LENGTH = 5
# Words this common are no surname after "dr" even in lower case ("dr said").
_MAX_TITLED_LOWER_ZIPF = 5.5
# After a clinician cue, an ordinary word used at most this much more as a
# word than as a name (zipf) may be a surname: "d/w bell" (0.7), "per
# mills" (0.5), not "d/w staff" (3.2) or "spoke with blood bank" (2.8).
_MAX_CUED_WORD_OVER_NAME = 1.5
# A word one slip away from a word this common is taken as its misspelling.
_MISSPELT_ZIPF = 3.0
# People bearing a lower-case ordinary word as a given name for it to be a
# name after a strong cue ("wife peg").
_LOWER_GIVEN_BEARERS = 500
# A lower-case word whose stem is a word this common is that word inflected
# ("verbalized" from "verbalize"), not a name.
_STEM_ZIPF = 2.0
# Inflection endings and what the stem gets back ("carried" -> "carry").
_INFLECTIONS = (
    ("ied", "y"), ("ed", ""), ("ed", "e"), ("d", ""), ("ing", ""), ("ing", "e"),
    ("es", ""), ("s", ""),
)  # fmt: skip
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(r"^[^\W\d_]+(?:['\u2019-][^\W\d_]+)*$")
_INITIAL = re.compile(r"^[^\W\d_]\.?$")


def is_word_shaped(text: str) -> bool:
    """Letters, with apostrophes or hyphens inside ("O'Neill", "Abu-Bakr")."""
    return _WORD.match(text) is not None


def date_words() -> FrozenSet[str]:
    """Month and weekday names and their abbreviations, lower case."""
    names = [word.lower() for word in MONTHS + WEEKDAYS]
    return frozenset(names + list(MONTH_ABBREVIATIONS + WEEKDAY_ABBREVIATIONS))


def one_slip(word: str) -> Iterable[str]:
    """The strings one deletion, swap of neighbours, substitution or
    insertion of a letter away from a lower-case word."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for left, right in splits:
        if right:
            yield left + right[1:]
            for c in _LETTERS:
                yield left + c + right[1:]
        if len(right) > 1:
            yield left + right[1] + right[0] + right[2:]
        for c in _LETTERS:
            yield left + c + right


def is_misspelling(word: str) -> bool:
    """Whether a lower-case word is one slip away from a common English
    word ("pateint", "caled")."""
    return any(
        lookup(other).word_zipf >= _MISSPELT_ZIPF
        for other in one_slip(word)
        if other != word
    )


def is_inflection(word: str) -> bool:
    """Whether a lower-case word is a common English word inflected
    ("verbalized", "carried"): a stem of four letters or more that is a
    word used at least `_STEM_ZIPF` ("ahmed" is no "ahm" inflected)."""
    for ending, back in _INFLECTIONS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            if lookup(word[: -len(ending)] + back).word_zipf >= _STEM_ZIPF:
                return True
    return False


def is_initial(text: str) -> bool:
    """One letter, with or without its period ("B", "b.")."""
    return bool(_INITIAL.match(text))


def is_titled(text: str) -> bool:
    """Written like a name: a capital, then not all capitals ("June",
    "McKay"), or all capitals but longer than an abbreviation ("BRANDWIJK")."""
    return text[:1].isupper() and (not text.isupper() or len(text) > 4)


class NameGuard:
    """Decides whether a token is name-like (see the module docstring)."""

    def __init__(
        self,
        *,
        max_word_zipf: float,
        min_name_count: int,
        min_strong_name_count: int,
        max_unseen_zipf: float,
        lower_unseen: bool = False,
        lower_after_title: bool = False,
        surname_after_cue: bool = False,
        stop_words: Iterable[str] = (),
        extra_words: Iterable[str] = (),
    ) -> None:
        """Initialize the guard.

        max_word_zipf (float): A token this frequent as a word is ordinary.
        min_name_count (int): People with the name (surname or given) for it
            to count as a known name.
        min_strong_name_count (int): People with the name for an ordinary
            word to be a name after a strong cue.
        max_unseen_zipf (float): A token no name table knows is an unseen
            name only below this word frequency.
        lower_unseen (bool): After a clinician cue, a lower-case word that no
            table knows, not even as a word, may be an unseen name.
        lower_after_title (bool): After a clinician title ("dr"), a
            lower-case ordinary word that is a frequent surname is a name
            ("dr mills").
        surname_after_cue (bool): After a clinician cue ("d/w", "rn"), an
            ordinary word in lower or title case that is a frequent surname
            and is used not much more as a word than as a name is a name
            ("d/w bell", "Gross by Ford").
        stop_words (Iterable[str]): The language's stop words (ordinary).
        extra_words (Iterable[str]): More words that are never names.
        """
        self.max_word_zipf = max_word_zipf
        self.min_name_count = min_name_count
        self.min_strong_name_count = min_strong_name_count
        self.max_unseen_zipf = max_unseen_zipf
        self.lower_unseen = lower_unseen
        self.lower_after_title = lower_after_title
        self.surname_after_cue = surname_after_cue
        self.stop_words = frozenset(word.lower() for word in stop_words)
        self.date_words = date_words()
        self.never = frozenset(
            list(CLINICAL_WORDS) + list(UNITS) + [w.lower() for w in extra_words]
        )
        self.heads = frozenset(EPONYM_HEADS)

    def is_name(
        self,
        text: str,
        *,
        strong: bool = False,
        allow_caps: bool = False,
        surname: bool = False,
        clinician: bool = False,
        naming_cue: bool = False,
        capitals: bool = False,
    ) -> bool:
        """Whether a token may be a name in its position.

        text (str): The token.
        strong (bool): After a strong cue (a title, a relative, a sign-off).
        allow_caps (bool): After a clinician title ("Dr"): upper-case
            abbreviations of 2-4 letters allowed, and with `lower_after_title`
            lower-case frequent surnames.
        surname (bool): Only a known surname will do (sign-out arrows).
        clinician (bool): After a clinician cue ("per"): with `lower_unseen`,
            a lower-case word that no table knows, not even as a word, and
            that is no misspelling of a common word is a name ("per turci").
        naming_cue (bool): After a clinician cue that seldom opens anything
            but a name ("d/w", "rn", "per"; not "cc:", the chief complaint): with
            `surname_after_cue`, a frequent surname that English uses not
            much more as a word is a name ("d/w bell").
        capitals (bool): The cue is written in capitals: after a strong one
            ("COUSIN BEN", "TECH BILL"), a capitals word of 2-4 letters is a
            name if it is a frequent given name and no medical abbreviation.
        RETURNS (bool): Whether it is name-like.
        """
        if len(text) < 2 or not is_word_shaped(text):
            return False
        lower = text.lower()
        if lower in self.never:
            return False
        if text.isupper() and len(text) <= 4 and not allow_caps:
            return capitals and strong and self._short_capitals_name(text, lower)
        known = lookup(text)
        if known.is_drug:
            return False
        people = (
            known.surname_count if surname else known.surname_count + known.given_count
        )
        if (people < self.min_name_count or text.islower()) and is_condition_word(lower):
            # "re: Osteonecrosis", "Father: colon ca" (not "Burkitt", whom many
            # bear, nor "Colon" written as a name).
            return False
        if self._is_ordinary(lower, known):
            if allow_caps and self._surname_after_title(text, lower, known):
                return True
            if naming_cue and self._surname_after_cue(text, lower, known):
                return True
            if strong and self._lower_given_name(text, known):
                return True
            return strong and is_titled(text) and people >= self.min_strong_name_count
        if people >= self.min_name_count:
            return True
        if surname or known.place_population:
            return False
        # Unseen: no table knows it as a name, and it is rare as a word.
        if known.word_zipf >= self.max_unseen_zipf:
            return False
        if is_titled(text):
            return True
        if strong:
            return not (text.islower() and is_inflection(lower))
        return clinician and self.lower_unseen and self._unseen_lower(lower, known)

    def _lower_given_name(self, text: str, known: Knowledge) -> bool:
        """A lower-case word that hundreds bear as a given name and that
        English uses less than `max_word_zipf`, after a strong cue ("wife
        peg", "son minh"; not "wife at", "son car", "wife will"): on 8,000
        train notes and a dev draw every such word after a relative is a name.
        """
        return (
            text.islower()
            and known.given_count >= _LOWER_GIVEN_BEARERS
            and known.word_zipf < self.max_word_zipf
            and not is_inflection(text)
        )

    def _short_capitals_name(self, text: str, lower: str) -> bool:
        """A short capitals word that many bear as a given name and that is
        no medical abbreviation, stop word or date word ("BEN", "DAWN"; not
        "AT", "ST", "ED"). In all-capitals text such a name has no other
        mark: on 8,000 train notes every such word after a strong cue in
        capitals lies in a gold name (37 after relatives, 89 after titles,
        roles and "NICKNAME")."""
        if lower in self.stop_words or lower in self.date_words:
            return False
        known = lookup(text)
        return (
            known.given_count >= self.min_strong_name_count
            and not known.is_drug
            and not is_medical_abbreviation(text)
        )

    def _surname_after_cue(self, text: str, lower: str, known: Knowledge) -> bool:
        """With `surname_after_cue`: a frequent surname in lower or title case,
        no stop word or date word, that English uses not much more as a word
        than as a name ("d/w bell", "Gross by Ford"; not "d/w staff")."""
        return (
            self.surname_after_cue
            and (text.islower() or is_titled(text))
            and known.surname_count >= self.min_strong_name_count
            and known.word_zipf - known.name_zipf < _MAX_CUED_WORD_OVER_NAME
            and lower not in self.stop_words
            and lower not in self.date_words
        )

    def _surname_after_title(self, text: str, lower: str, known: Knowledge) -> bool:
        """With `lower_after_title`: a lower-case frequent surname that is no
        stop word, date word or very common word ("dr mills")."""
        return (
            self.lower_after_title
            and text.islower()
            and known.surname_count >= self.min_strong_name_count
            and known.word_zipf < _MAX_TITLED_LOWER_ZIPF
            and lower not in self.stop_words
            and lower not in self.date_words
        )

    def _unseen_lower(self, lower: str, known: Knowledge) -> bool:
        """A lower-case word of five letters or more that no table knows and
        that is not one slip away from a common word ("pateint")."""
        return (
            known.word_zipf == 0
            and len(lower) >= _MIN_UNSEEN_LENGTH
            and not is_misspelling(lower)
            and not is_inflection(lower)
        )

    def is_first_name_word(self, text: str) -> bool:
        """A frequent name that is also a frequent word but not an ordinary
        one ("Steve", "Grant"): a name's first word when a name word follows."""
        if len(text) < 2 or not is_word_shaped(text) or text.isupper():
            return False
        lower = text.lower()
        if lower in self.never or lower in self.stop_words or lower in self.date_words:
            return False
        known = lookup(text)
        people = known.surname_count + known.given_count
        return (
            not known.is_drug
            and not known.is_common_word
            and people >= self.min_strong_name_count
        )

    def continues(self, previous: str, text: str) -> bool:
        """Whether a word goes on a name whose last word is `previous`: a
        name-like word, or after a known given name a frequent surname that
        is also a word or an unseen word in any case ("gabriel woods")."""
        if self.is_name(text):
            return True
        if not is_word_shaped(text) or len(text) < 2:
            return False
        lower = text.lower()
        if lower in self.never or lower in self.stop_words or lower in self.date_words:
            return False
        if lookup(previous).given_count < self.min_name_count:
            return False
        known = lookup(text)
        if known.is_drug:
            return False
        if known.surname_count >= self.min_strong_name_count:
            return True
        unseen = not (
            known.surname_count or known.given_count or known.place_population
        )
        return unseen and known.word_zipf < self.max_unseen_zipf

    def _is_ordinary(self, lower: str, known: Knowledge) -> bool:
        """An ordinary word: common, frequent (and used more as a word than
        its name counts explain: "mills", not "williams"), a stop word or a
        date word."""
        return (
            known.is_common_word
            or (
                known.word_zipf >= self.max_word_zipf
                and known.word_zipf > known.name_zipf
            )
            or lower in self.stop_words
            or lower in self.date_words
        )

    def is_drug_phrase(self, cue: Tuple[str, ...], text: str) -> bool:
        """Whether a cue word and the name after it are a drug ("MS Contin")."""
        return len(cue) == 1 and lookup(f"{cue[0]} {text}").is_drug

    def is_head(self, text: str) -> bool:
        """Whether a word after a name makes it an eponym: an eponym's head
        ("catheter") or a lower-case diagnosis word ("cardiomyopathy")."""
        return text.lower() in self.heads or (text.islower() and is_condition_word(text))
