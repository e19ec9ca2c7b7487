"""Span shapes that are no PHI whatever label a detector gave them.

A tagger trained on generated notes meets clinical notation it never saw and
names it: "148 mg/dL" a clinician, "20 lb" an age, "20/25" (visual acuity) a
date, "Sublocade" a surname, "MA" after "Ana Ruiz," a state. `phi_relabel`
uses these tests to drop such spans (see its settings) and to cut a
credential off the end of a name span ("Oriel Vantongeren, CNM").
"""

import re
from http import HTTPStatus
from typing import Callable, List, Optional, Tuple

from spacy.lang.char_classes import LIST_UNITS
from spacy.tokens import Doc, Span, Token

from ..knowledge import COMMON_WORD_ZIPF, fold, load, lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from ..knowledge.credentials import is_credential
from ..knowledge.occupations import is_known_job, is_occupation_word
from ..knowledge.specialties import is_specialty_word
from ..rules.lexicons.clinical import EPONYM_HEADS, before_eponym_head
from ..rules.lexicons.facilities import HOSPITAL_ABBRS
from ..rules.patterns.dates import HOLIDAY_WORDS
from ..rules.validators import MAX_YEAR, MIN_BARE_YEAR
from ..text.datenames import MONTH_ABBRS, MONTHS, WEEKDAY_ABBRS, WEEKDAYS
from ..text.modals import MODALS, takes_base_form
from ..text.titles import DOCUMENT_WORDS
from ..knowledge.particles import NAME_PARTICLES

# spaCy's units of measure (km, mg, lb, ...) and the clinical ones it lacks:
# the laboratory's base units with their SI prefixes ("pg", "nmol", "mIU",
# "cGy", "uL"), and a few others. Case matters: "L" is litres. Left out: units
# that are also words or the sex after an age ("in", "t", "m" in "67 m"), and
# the one-capital magnitudes.
_SI_PREFIXES = ("", "p", "n", "µ", "u", "m", "c", "d", "k")
_LAB_BASES = ("g", "L", "mol", "Eq", "U", "IU", "Gy")
# "Fr" is the French catheter scale ("16 Fr Foley").
_CLINICAL_UNITS = ("mcg", "mmHg", "bpm", "kPa", "Fr")
_AMBIGUOUS = ("in", "t", "m", "T", "G", "M", "K")
UNITS = (
    (frozenset(LIST_UNITS) - frozenset(_AMBIGUOUS))
    | frozenset(p + b for p in _SI_PREFIXES for b in _LAB_BASES)
    | frozenset(_CLINICAL_UNITS)
)
# Units, and dose and measure units as all-capitals notes write them ("80
# MG", "5 ML"); other units in capitals read as words ("DM", "HA", "NG").
_UNITS_AND_CAPS = UNITS | frozenset(
    unit.upper() for unit in ("mg", "mcg", "mL", "kg", "mEq", "mmol", "mmHg", "lb")
)
# A ratio unit: "mg/dL", "mL/kg/h" (the first part a unit; "y/o" is none).
_RATIO_UNIT = re.compile(r"^([A-Za-zµ]{1,4})(?:/[A-Za-z0-9.²³µ]{1,5})+$")
_FRACTION = re.compile(r"^(\d{1,2})/(\d{1,2})$")
# Gestational ages: "33 2/7" (weeks and sevenths), "26w3d", "35wk 1d".
_GA_SEVENTHS = re.compile(r"(?:^|\s|-)(\d{2})\s+[0-6]/7(?:\s*(?:wk|wks|weeks?))?$")
_GA_DAYS = re.compile(r"^(\d{2})\s*w(?:ks?)?\s*\+?[0-6]\s*d$", re.IGNORECASE)
_SEVENTHS = re.compile(r"^[0-6]/7$")
# Gravida and para ("G2P1", "G3P2012", "G1 P0"): an obstetric history.
_GRAVIDA_PARA = re.compile(r"^G\s*\d{1,2}\s*P\s*\d{1,4}$")
_WEEK_WORDS = frozenset(("w", "wk", "wks", "week", "weeks"))
_GA_WEEKS = range(20, 45)
# Marks of source code in a run of non-space characters.
_CODE_MARKS = re.compile(
    r"::|->|\(\)|\$\{|\b(?:self|this)\.\w|[A-Za-z0-9]_[A-Za-z]|\b[a-z]+[A-Z]\w*\("
)
_MEMBER = re.compile(r"(?:self|this)\.[A-Za-z_]")
# Separators of key=value fields in a log line ("user=ann;action=sign_note"):
# a field's value is no piece of the code marks of another field.
_FIELD_SEPARATORS = frozenset((";", "&", "|"))
# Month, weekday and season names and their abbreviations, and the one-word
# holidays of the date rules (which match them capitalised only), lower case.
_DATE_WORDS = HOLIDAY_WORDS | frozenset(
    [name.lower() for name in MONTHS + WEEKDAYS + MONTH_ABBRS + WEEKDAY_ABBRS]
    + ["weds"]
    + ["spring", "summer", "fall", "autumn", "winter"]
    + ["day", "days", "eve", "night", "week", "weekend", "month", "year", "years"]
)
# Words for a length of time: a date span of these alone dates nothing.
_PERIOD_WORDS = frozenset(
    ("day", "days", "night", "nights", "week", "weeks", "weekend", "weekends")
    + ("month", "months", "year", "years")
)
# Every lower-case word that is a date in train is a calendar word, a holiday
# or an abbreviation of one ("tues", "lent"); other words this common that the
# tagger calls a date ("zero", "lazy") are not.
_DATE_WORD_ZIPF = 4.0
# A number of years after one of these lasted that long ("for 34 years",
# "x 1 yr", "> 1 year"); an age is "34 years old".
_DURATION_CUES = frozenset(
    ("for", "x", "×", ">", "<", "≥", "≤", ">=", "<=", "over", "past", "last", "within")
)
_YEAR_WORDS = frozenset(("y", "yr", "yrs", "year", "years"))
# A room or bed code ("338-L", "12-G"): one capital letter joined to a number
# by a hyphen is no unit. In train every such code is a room.
_ROOM_CODE = re.compile(r"\d-[A-Z]\b")
# Marks a span may carry at its edges around a language's name ("Tigrinya;").
_EDGE_MARKS = " \t.,;:()\"'"


def is_unit(text: str) -> bool:
    """Whether a token is a unit of measure ("kg", "mmHg", "mg/dL").

    text (str): The token's text.
    RETURNS (bool): True for a unit.
    """
    if text in _UNITS_AND_CAPS:
        return True
    ratio = _RATIO_UNIT.match(text)
    return ratio is not None and ratio.group(1) in _UNITS_AND_CAPS


# A room or bed ("19", "1191B", "08a") and an age ("49yF", "85") of a
# sign-out list entry.
_ENTRY_ROOM = re.compile(r"\d{1,5}[A-Za-z]?")
_ENTRY_AGE = re.compile(r"\d{1,3}(?:yo?|y/o)?[FMfm]?")


def is_list_entry(span: Span) -> bool:
    """Whether a span is the name of a sign-out list entry: a room or an age
    in brackets after it ("laws (19)", "palm (1191B)", "waters (85yo M)"), or
    a bed number before it, maybe with a colon, and an age after it ("952
    pool 27yo F", "bed 23: pool 94ym")."""
    doc = span.doc
    end = span.end
    if end + 1 < len(doc) and doc[end].text == "(":
        after = doc[end + 1].text
        return bool(_ENTRY_ROOM.fullmatch(after) or _ENTRY_AGE.fullmatch(after))
    before = span.start - 1
    while before >= 0 and doc[before].is_space:
        before -= 1
    if before > 0 and doc[before].text == ":":
        before -= 1
    if before < 0 or not _ENTRY_ROOM.fullmatch(doc[before].text):
        return False
    return end < len(doc) and _ENTRY_AGE.fullmatch(doc[end].text) is not None


# Words before a room or bed number: "RM 8g" is a room, not eight grams.
_ROOM_CUES = frozenset(("rm", "room", "bed", "bay"))


def _after_room_cue(span: Span) -> bool:
    """Whether a room cue comes right before a span, past a "#" or ":"."""
    i = span.start - 1
    doc = span.doc
    while i >= 0 and (doc[i].is_space or doc[i].text in ("#", ":")):
        i -= 1
    return i >= 0 and doc[i].lower_ in _ROOM_CUES


# Routes of a drug written after its dose ("80 MG SQ", "40 mg po").
_ROUTES = frozenset(("sq", "sc", "subq", "po", "iv", "im", "pr", "sl", "inh"))


def is_quantity(span: Span) -> bool:
    """Whether a span is a number with its unit ("20 lb", "148 mg/dL").

    The unit may be the span's last token or the token right after it.

    span (Span): The entity.
    RETURNS (bool): True if the span holds a number, nothing but numbers and
        units (and a drug's route after them), and a unit ends it or follows
        it, and no room cue is before it ("RM 8g").
    """
    words = [t for t in span if not t.is_punct]
    if len(words) > 2 and words[-1].lower_ in _ROUTES and is_unit(words[-2].text):
        words = words[:-1]  # a dose and its route: "80 MG SQ"
    if not words or not words[0].like_num or _ROOM_CODE.search(span.text):
        return False
    if not all(t.like_num or is_unit(t.text) for t in words):
        return False
    if _after_room_cue(span):
        return False
    if is_unit(words[-1].text):
        return True
    after = span.doc[span.end] if span.end < len(span.doc) else None
    return after is not None and is_unit(after.text)


def is_non_date_fraction(span: Span) -> bool:
    """Whether a span is "a/b" that is no date either way ("20/25", "0/5").

    span (Span): The entity.
    RETURNS (bool): True for such a fraction (scores, visual acuity).
    """
    match = _FRACTION.match(span.text)
    if match is None:
        return False
    first, second = int(match.group(1)), int(match.group(2))
    month_first = 1 <= first <= 12  # "3/14", and "09/80" (month and year)
    day_first = 1 <= second <= 12 and 1 <= first <= 31  # "20/5"
    return not (month_first or day_first)


def is_gestational_age(span: Span) -> bool:
    """Whether a span is a gestational age: weeks and days ("33 2/7",
    "26w3d", "PMA 35 3/7"), or "5/7" right after a number of weeks ("ex-30
    5/7") or right before "wk"; or a gravida and para count ("G2P1").

    span (Span): The entity.
    RETURNS (bool): True for a gestational age (20 to 44 weeks) or an
        obstetric history.
    """
    text = span.text
    if _GRAVIDA_PARA.match(text):
        return True
    match = _GA_SEVENTHS.search(text) or _GA_DAYS.match(text)
    if match is not None:
        return int(match.group(1)) in _GA_WEEKS
    if not _SEVENTHS.match(text):
        return False
    doc = span.doc
    before = doc[span.start - 1].text if span.start > 0 else ""
    after = doc[span.end].lower_ if span.end < len(doc) else ""
    weeks = re.search(r"(?:^|\D)(\d{2})$", before)
    return (
        weeks is not None and int(weeks.group(1)) in _GA_WEEKS
    ) or after in _WEEK_WORDS


# Units of a length of time: a number or a range of numbers before one is how
# long ("2-3 weeks", "12 days"), not when; no train date span is one.
_TIME_UNITS = frozenset(
    ("day", "days", "week", "weeks", "wk", "wks", "month", "months", "mo", "mos")
    + ("year", "years", "yr", "yrs", "hour", "hours", "hr", "hrs")
    + ("minute", "minutes", "min", "mins")
)
_NUMBER_OR_RANGE = re.compile(r"\d{1,3}(?:\s*(?:-|\u2013|to)\s*\d{1,3})?")


def is_length_of_time(span: Span) -> bool:
    """Whether a span is a number or a range of numbers right before a unit
    of time ("2-3" in "in 2-3 weeks", "12" in "x 12 days").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if span.end >= len(span.doc) or not _NUMBER_OR_RANGE.fullmatch(span.text):
        return False
    return span.doc[span.end].lower_.rstrip(".") in _TIME_UNITS


def is_no_date(span: Span) -> bool:
    """Whether a date-labelled span is no date: wordless (`is_wordless_date`)
    or a length of time (`is_length_of_time`).

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    return is_wordless_date(span) or is_length_of_time(span)


def is_wordless_date(span: Span) -> bool:
    """Whether a date-labelled span holds nothing a date is written with: no
    digit, no month, weekday, season or other calendar word, and only very
    common lower-case English words or abbreviations of 2 or 3 capitals
    ("OD", "clear", "would"), or only words for a length of time ("day",
    "weeks": no train span is one). Capitalised words are kept (holidays), and
    so are lower-case words less common than `_DATE_WORD_ZIPF`.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    words = [t for t in span if not t.is_punct and not t.is_space]
    text = span.text.lower().rstrip(".")
    if words and all(t.lower_.rstrip(".") in _PERIOD_WORDS for t in words):
        return True  # "day" in "post-op day 3": no date of anything
    if not words or any(c.isdigit() for c in text) or text in _DATE_WORDS:
        return False
    for token in words:
        word = token.text.rstrip(".")
        if not token.is_alpha or word.lower() in _DATE_WORDS:
            return False
        if word.isupper() and len(word) <= 3:
            continue
        k = lookup(word)
        if not (word.islower() and k.is_common_word and k.word_zipf >= _DATE_WORD_ZIPF):
            return False
    return True


def is_duration(span: Span) -> bool:
    """Whether an age-labelled span is how long something lasted: a number
    with a duration word before it and a year word after it, not followed by
    "old" ("for 34 years", "x 1 yr", "> 1 year"; not "for a 34 year old").

    span (Span): The entity (the number, with or without its year word).
    RETURNS (bool): True for such a span.
    """
    doc = span.doc
    number = span[0]
    if not number.like_num or number.i == 0 or number.i + 1 >= len(doc):
        return False
    unit = doc[number.i + 1]
    if unit.lower_ not in _YEAR_WORDS or span.end > unit.i + 1:
        return False
    if unit.i + 1 < len(doc) and doc[unit.i + 1].lower_ in ("old", "of"):
        return False
    return doc[number.i - 1].lower_ in _DURATION_CUES


# A score out of ten ("7/10", "7-8/10"): pain, urges, anxiety. As a date
# it would be a month and day, so only a score word right before it, or an
# arrow to or from another score ("6/10 -> 3/10"), makes it one.
_SCORE = re.compile(r"(?:\d{1,2}\s*[-\u2013]\s*)?(\d{1,2})/10")
_SCORE_WORDS = frozenset(
    ("pain", "score", "scale", "rated", "rates", "rating", "severity", "intensity")
    + ("nrs", "vas", "urge", "urges", "anxiety", "mood")
    + ("stress", "nausea", "fatigue", "dyspnea", "itch", "itching")
)
_ARROWS = frozenset(("->", "\u2192", "=>", "-->"))
_SEASONS = frozenset(("spring", "summer", "fall", "autumn", "winter"))
# Words before a season's name that make it an event, not a date ("admitted
# for fall", "s/p fall", "mechanical fall"): no such season of 8,000 train
# notes is a gold date.
_EVENT_CUES = frozenset(
    (
        "for", "c/o", "s/p", "developed", "with", "after", "from", "mechanical",
        "recurrent", "risk", "prior", "sustained", "witnessed", "unwitnessed",
        "ground", "level", "no", "had", "a",
    )
)  # fmt: skip
_PERCENT = re.compile(r"\d{1,3}(?:\.\d)?%?")


def is_season_event(span: Span) -> bool:
    """Whether a date-labelled span is a season's name used for an event: an
    event cue before it ("admitted for fall", "s/p fall") or a lower-case word
    other than "and" or "or" after it ("fall precautions", "the fall was").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if len(span) != 1 or span[0].lower_ not in _SEASONS:
        return False
    before = _word_before(span.doc, span.start)
    if before is not None and before.lower_ in _EVENT_CUES:
        return True
    after = _word_at(span.doc, span.end)
    return (
        after is not None
        and after.is_alpha
        and after.is_lower
        and after.lower_ not in ("and", "or")
    )


def is_saturation(span: Span) -> bool:
    """Whether a date-labelled span is "sat" (oxygen saturation, not
    Saturday) before a percentage ("O2 sat 97% RA"): no such "sat" of 8,000
    train notes is a gold date.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    after = _after_sat(span)
    if after is None or not _PERCENT.fullmatch(after.text):
        return False
    doc = span.doc
    return after.text.endswith("%") or (
        after.i + 1 < len(doc) and doc[after.i + 1].text == "%"
    )


# Words after the past tense of "sit" ("sat in chair", "sat up").
SIT_AFTER = frozenset(
    {"in", "on", "up", "down", "with", "beside", "near", "by", "outside",
     "quietly", "still", "upright", "alone", "there"}
)  # fmt: skip
# Words before a weekday ("on sat in clinic", "until sat").
WEEKDAY_BEFORE = frozenset(
    {"on", "until", "till", "thru", "through", "by", "next", "last", "this",
     "every", "from", "since", "before", "after", "each"}
)  # fmt: skip


def is_sat_verb(span: Span) -> bool:
    """Whether a date-labelled span is a lower-case "sat" that is the verb
    ("pt sat in chair", "the cat sat on the mat"): a word of `SIT_AFTER`
    follows on its line, none of `WEEKDAY_BEFORE` comes before, and no
    number follows ("on sat in clinic", "sat in 2 weeks" are weekdays). No
    gold date of 8,000 train notes is such a "sat"; "at" is left out ("sat
    at 3pm" is a weekday there).

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    after = _after_sat(span)
    if span[0].text != "sat" or after is None or after.lower_ not in SIT_AFTER:
        return False
    doc = span.doc
    following = _word_at(doc, after.i + 1)
    if following is not None and any(c.isdigit() for c in following.text):
        return False
    before = word_at(doc, span.start - 1, step=-1)
    return before is None or doc[before].lower_ not in WEEKDAY_BEFORE


# Pieces of technical text that no name, place, firm or date holds: a key
# chord ("Ctrl+V"), a command-line flag after a word ("docker run -p") and a
# pair of numbers no clock reads ("80:443").
_KEY_CHORD = re.compile(r"(?i)\b(?:ctrl|alt|shift|cmd|command|option|fn|win)\+\w")
_CLI_FLAG = re.compile(r"\s--?[a-z][a-z0-9-]*(?![\w'])")
_NUMBER_PAIR = re.compile(r"\b\d{1,5}:(\d{2,5})\b")
# An HTTP status with its standard reason phrase, as Python's `http` module
# lists them ("404 Not Found", "HTTP/1.1 503 Service Unavailable").
_HTTP_STATUS = re.compile(
    r"(?i)(?:HTTP(?:/\d(?:\.\d)?)?\s+)?(?:"
    + "|".join(re.escape(f"{s.value} {s.phrase}") for s in HTTPStatus)
    + r")"
)


def is_technical(span: Span) -> bool:
    """Whether a span holds a key chord, a command-line flag after a word or
    a pair of numbers whose second is no minute ("Open Port 80:443"), or is
    an HTTP status ("404 Not Found"); no gold span of 11,000 generated notes
    (train and dev) holds one.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    text = span.text
    if _KEY_CHORD.search(text) or _CLI_FLAG.search(text):
        return True
    if _HTTP_STATUS.fullmatch(text.strip()):
        return True
    return any(int(m.group(1)) > 59 for m in _NUMBER_PAIR.finditer(text))


def _after_sat(span: Span) -> Optional[Token]:
    """The word after a span that is "sat" alone (any case), on its line."""
    if len(span) != 1 or span[0].lower_ != "sat":
        return None
    return _word_at(span.doc, span.end)


def word_at(doc: Doc, i: int, step: int = 1) -> Optional[int]:
    """The first token from `i` on, in the direction of `step`, that is no
    space within the line; None at the text's edge or a line break."""
    while 0 <= i < len(doc) and doc[i].is_space:
        if "\n" in doc[i].text:
            return None
        i += step
    return i if 0 <= i < len(doc) else None


def _word_at(doc: Doc, i: int) -> Optional[Token]:
    """The token `word_at` finds after `i`, or None."""
    found = word_at(doc, i)
    return None if found is None else doc[found]


def is_score(span: Span) -> bool:
    """Whether a date-labelled span is a score out of ten: "N/10" (N at most
    10) after a score word ("pain 7/10", "Urges 4/10"), joined by an arrow to
    another such score ("6/10 -> 3/10"), or with a score word a few words
    before it in its sentence and a colon or "is" right before it ("Pain
    reassessed after sertraline: 2/10"; not "pain clinic on 2/10"). Every
    "N/10" date in train has none of these.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    match = _SCORE.fullmatch(span.text)
    if match is None or int(match.group(1)) > 10:
        return False
    doc = span.doc
    before = _word_before(doc, span.start)
    if before is not None and before.lower_ in _SCORE_WORDS:
        return True
    if _arrow_to_score(doc, span.end, 1) or _arrow_to_score(doc, span.start - 1, -1):
        return True
    return _score_lead(doc, span.start) and _score_word_in_sentence(doc, span.start)


# How far back in its sentence a score word may stand ("Pain reassessed after
# sertraline 50 mg daily: 2/10"): of the 71 "N/10" dates in 8,000 train notes,
# one has a score word this close, in a range ("6/3 - 6/10"), after no lead.
_SCORE_WORD_WINDOW = 16
_SENTENCE_MARKS = frozenset((".", "!", "?", ";"))
# What a score far from its score word comes right after ("...: 2/10", "is
# now 2/10"); a date comes after other words ("on 2/10", "admitted 7/10").
_SCORE_LEADS = frozenset((":", "=", "~", "of", "at", "now", "currently", "is", "was"))


def _score_lead(doc: Doc, i: int) -> bool:
    """Whether the token before `i`, past white space, leads a score."""
    i -= 1
    while i >= 0 and doc[i].is_space:
        i -= 1
    return i >= 0 and doc[i].lower_ in _SCORE_LEADS


def _score_word_in_sentence(doc: Doc, i: int) -> bool:
    """Whether a score word stands among the few words before `i` in the same
    sentence (no sentence mark or blank line between)."""
    for j in range(i - 1, max(-1, i - 1 - _SCORE_WORD_WINDOW), -1):
        token = doc[j]
        if token.text in _SENTENCE_MARKS or token.text.count("\n") > 1:
            return False
        if token.lower_ in _SCORE_WORDS:
            return True
    return False


def _word_before(doc: Doc, i: int) -> Optional[Token]:
    """The token before `i`, past white space and an opening bracket or
    colon ("the\n18th", "Urges: 4/10")."""
    i -= 1
    while i >= 0 and (doc[i].is_space or doc[i].text in ("(", "[", ":")):
        i -= 1
    return doc[i] if i >= 0 else None


def _arrow_to_score(doc: Doc, i: int, step: int) -> bool:
    """Whether an arrow starts at `i` (read in the direction of `step`) and
    a score out of ten follows it."""
    pieces = []
    while 0 <= i < len(doc) and len(pieces) < 3:
        if doc[i].is_space:
            return False
        pieces.append(doc[i].text)
        arrow = "".join(pieces if step > 0 else reversed(pieces))
        if arrow in _ARROWS:
            other = i + step
            return 0 <= other < len(doc) and _SCORE.fullmatch(doc[other].text) is not None
        i += step
    return False


# An ordinal alone ("2nd", "2nd/3rd") dates something after "the" ("back by
# the 6th"): every such date in train has it. Elsewhere it counts an IV line,
# a school grade or a finger.
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)(?:\s*[/-]\s*\d{1,2}(?:st|nd|rd|th))?", re.I)
_ORDINAL_DATE_CUES = frozenset(
    ("the", "on", "by", "until", "till", "since", "from", "before", "after", "of")
)


def is_bare_ordinal(span: Span) -> bool:
    """Whether a date-labelled span is an ordinal alone that no date word
    comes before ("the", "on", "by") and that no month follows ("3rd IV",
    "9th grade", "2nd/3rd MCP").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if not _ORDINAL.fullmatch(span.text):
        return False
    doc = span.doc
    before = _word_before(doc, span.start)
    if before is not None and before.lower_ in _ORDINAL_DATE_CUES:
        return False
    after = doc[span.end] if span.end < len(doc) else None
    if after is None or after.is_space or not after.is_alpha:
        return False
    return after.lower_ != "of" and after.lower_.rstrip(".") not in _DATE_WORDS


# A time of day on the 24-hour clock: hours 00-23, minutes 00-59.
_CLOCK = re.compile(r"(?:[01][0-9]|2[0-3])[0-5][0-9]")


def is_no_year(span: Span) -> bool:
    """Whether a date-labelled span is a time of day on the 24-hour clock
    that no year of a note is: four digits outside [MIN_BARE_YEAR, MAX_YEAR]
    of the date rules, hours 00-23 and minutes 00-59 ("shift over at 2330",
    "0600"). Other such digits ("0291") may be the end of an SSN or a pager
    number that the tagger mislabelled: they stay.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    text = span.text
    return bool(_CLOCK.fullmatch(text)) and not MIN_BARE_YEAR <= int(text) <= MAX_YEAR


# Counters of days in hospital: post-operative, of life, post-partum, of
# hospital stay. "POD 3" is a count, no date: train writes it 100 times,
# never inside a gold span.
_DAY_COUNTERS = frozenset(("pod", "dol", "ppd", "hod"))


def is_day_count(span: Span) -> bool:
    """Whether a span is a day counter and its number, or the number right
    after one ("POD 3", "DOL 9", or "9" in "DOL 9").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    words = [t for t in span if not t.is_space and t.text != "#"]
    if not words or not words[-1].is_digit or len(words) > 2:
        return False
    if len(words) == 2:
        return words[0].lower_ in _DAY_COUNTERS
    before = _word_before(span.doc, span.start)
    return before is not None and before.lower_ in _DAY_COUNTERS


# A token of letters and digits this long is a code ("48XWYGA1EDBTLV232").
_MIN_CODE_LENGTH = 5


def holds_code(span: Span) -> bool:
    """Whether a span holds a code: a token of at least five characters with a
    digit in it and no other characters than letters and digits ("plate
    48XWYGA1EDBTLV232")."""
    return any(
        len(t) >= _MIN_CODE_LENGTH and t.text.isalnum() and not t.is_alpha for t in span
    )


# Marks after which a word opens a sentence, a clause or a list item.
_OPENING_MARKS = frozenset((".", "!", "?", ";", ":", "-", "*", "•", ")"))


def is_modal_verb(span: Span) -> bool:
    """Whether a span is a modal verb in title case that opens a sentence or a
    line before a verb's base form ("Will schedule via portal", "May
    shower"), not a name ("Will is", "Will and his wife").

    span (Span): The entity.
    RETURNS (bool): True for such a modal.
    """
    if len(span) != 1 or not span[0].is_title or span[0].lower_ not in MODALS:
        return False
    doc = span.doc
    if span.end >= len(doc) or not _opens_clause(doc, span.start):
        return False
    # The next word on the same line: a line break is a token of its own.
    return bool(span[0].whitespace_) and takes_base_form(doc[span.end].text)


def _opens_clause(doc: Doc, i: int) -> bool:
    """Whether token `i` starts the text, a line, or follows an opening mark."""
    before = doc[i - 1] if i > 0 else None
    if before is None or "\n" in before.text or "\n" in before.whitespace_:
        return True
    return before.text in _OPENING_MARKS


# Words that join the parts of a specialty's name ("Obstetrics and
# Gynecology", "Obstetrics/Gynecology").
_SPECIALTY_JOINERS = frozenset(("and", "&", "/", "-", ",", "of", "the"))


def is_specialty(span: Span) -> bool:
    """Whether a span names a clinical specialty: the last word of it or of a
    part before a joiner is a branch of medicine (`knowledge.specialties`:
    "Geriatric Medicine & Wellness"), and every other word is one too, a
    joiner, or an English word that is no name and no place, or mostly used
    as a word ("Vascular Surgery", "Obstetrics/Gynecology", "pediatric
    cardiology"). A name, a place or a facility's head word keeps it:
    "Brookfield Pediatrics", "Valley Oncology", "Internal Medicine Associates".

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    words = [t for t in span if not t.is_space and t.lower_ not in _SPECIALTY_JOINERS]
    if not words or not all(t.is_alpha for t in words):
        return False
    if not any(is_specialty_word(t.text) for t in _part_ends(span)):
        return False
    return all(is_specialty_word(t.text) or _plain_modifier(t.text) for t in words)


def _part_ends(span: Span) -> List[Token]:
    """The last word of each part of a span between joiners ("Medicine" and
    "Wellness" of "Geriatric Medicine & Wellness")."""
    ends: List[Token] = []
    for token, nxt in zip(span, [*span[1:], None], strict=True):
        joined = nxt is None or nxt.lower_ in _SPECIALTY_JOINERS
        if joined and token.lower_ not in _SPECIALTY_JOINERS and not token.is_space:
            ends.append(token)
    return ends


def _plain_modifier(word: str) -> bool:
    """An English word that no place is called and that is mostly used as a
    word (`is_plain_word`) or borne by no one ("General", "Interventional";
    not "Valley" or "University", which name practices after places)."""
    k = lookup(word)
    if not k.word_zipf or k.place_population or k.is_country or k.is_state:
        return False
    return is_plain_word(word) or not (k.surname_count or k.given_count)


def is_list_number(span: Span) -> bool:
    """Whether a span is the number of a numbered list's item: one or two
    digits alone at its line's start followed by "." or ")" and a space
    ("1. Lagos, Nigeria").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    doc = span.doc
    if len(span) != 1 or not span[0].is_digit or len(span[0]) > 2:
        return False
    if span.end >= len(doc):
        return False
    if doc[span.end].text not in (".", ")") or not doc[span.end].whitespace_:
        return False
    before = span.start - 1
    return before < 0 or (doc[before].is_space and "\n" in doc[before].text)


def in_code(span: Span) -> bool:
    """Whether a span is a piece of a source-code identifier: part, not all,
    of a run of non-space characters with a mark of code in it ("::", "->",
    "()", "${", a call of a camel-case name, "self." or "this.", snake_case), as
    "String" in "Widget::toString()", or all of a member access ("self.name").
    A name glued to a parenthesis ("Smith(cardiology)") is no code, nor is a
    field of a log line ("user=ann" in "user=ann;action=sign_note").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    chunk = _glued_run(span)
    if _MEMBER.match(chunk):
        return True
    core = chunk.strip(".,;:!?\"'")
    if core[:1] in "([{<" and core[-1:] in ")]}>":
        core = core[1:-1]
    # An address is no code, whatever its underscores ("(ann_lee@x.org)").
    if core == span.text or "@" in chunk:
        return False
    return _CODE_MARKS.search(chunk) is not None


def _glued_run(span: Span) -> str:
    """The run of non-space characters around a span: its tokens and their
    neighbours with no whitespace between them. Walks tokens, not `doc.text`,
    which spaCy rebuilds from every token on each access."""
    doc = span.doc
    first, last = span.start, span.end - 1
    while first > 0 and not doc[first - 1].whitespace_ and _glued(doc[first - 1]):
        first -= 1
    while last + 1 < len(doc) and not doc[last].whitespace_ and _glued(doc[last + 1]):
        last += 1
    return doc[first : last + 1].text


def _glued(token: Token) -> bool:
    """A token that may belong to the run: not whitespace, no field separator."""
    return not token.text.isspace() and token.text not in _FIELD_SEPARATORS


# A brand named after an everyday word ("Artist", "Today") is read as the word;
# "Xanax" and "Viagra" (zipf 3.2) stay drugs.
_EVERYDAY_ZIPF = 4.0
# Titles after which a drug's name is a person's ("Mr. Zingo"); "MS" in
# capitals is morphine sulfate ("MS Contin").
_PERSON_TITLES = frozenset(("mr", "mrs", "ms", "miss", "mx", "dr"))


def after_title(span: Span) -> bool:
    """Whether a person's title ("Mr.", "Dr") comes right before a span."""
    i = span.start - 1
    if i >= 0 and span.doc[i].text == ".":
        i -= 1
    if i < 0:
        return False
    title = span.doc[i].text.rstrip(".")
    return title.lower() in _PERSON_TITLES and title != "MS"


def is_drug_word(span: Span, min_name_count: int) -> bool:
    """Whether a span is one word that is a drug's name, hardly a person's and
    no ordinary English word, with no title before it and no credential after
    it.

    span (Span): The entity.
    min_name_count (int): People who must bear the word for it to count as a
        name (then it is kept: "Flagyl" no, "Cole" yes).
    RETURNS (bool): True for a drug name ("Sublocade", "EpiPen"), not for
        "Mr. Zingo", "Azlin, CNA" or "artist" (also a brand).
    """
    words = [t for t in span if not t.is_punct]
    if len(words) != 1 or after_title(span) or credential_follows(span):
        return False
    k = lookup(words[0].text)
    if not k.is_drug or (k.is_common_word and k.word_zipf >= _EVERYDAY_ZIPF):
        return False
    if k.place_population:
        return False  # "Born in Delavan": a town that shares a brand's name
    return k.surname_count + k.given_count < min_name_count


def language_of(span: Span) -> str:
    """How widely known the language a span names is: "major", "minor" or ""
    (no language's name)."""
    return load("languages").get(fold(span.text.strip(_EDGE_MARKS)), "")


def is_language_name(
    span: Span, min_name_count: int, cued: Callable[[Span], bool]
) -> bool:
    """Whether a span is a language's name ("Tigrinya", "Haitian Creole"),
    with no title before it and no credential after it.

    span (Span): The entity.
    min_name_count (int): People bearing a word that make it a name.
    cued (Callable[[Span], bool]): Whether a language cue stands by the span
        ("speaks", "language:", "interpreter"), asked only of a language's
        name: then any language of the tables counts ("Language: Karen");
        without one only a widely known language that fewer than
        `min_name_count` people bear as a name and no place is called
        ("Tigrinya", not "Karen", "Alabama" or "Welsh").
    RETURNS (bool): True for such a name.
    """
    known = language_of(span)
    if not known or after_title(span) or credential_follows(span):
        return False
    if cued(span):
        return True
    if known != "major":
        return False
    whole = lookup(span.text)
    if whole.place_population or whole.is_country or whole.is_state or whole.is_county:
        return False
    return all(_bearers(word) < min_name_count for word in _LETTERS.findall(span.text))


def _bearers(word: str) -> int:
    """People bearing a word as a surname or given name."""
    k = lookup(word)
    return k.surname_count + k.given_count


def is_nameless_word(span: Span) -> bool:
    """Whether a span is one capitalised English word of three letters or more
    (four in capitals) that nobody in the name tables bears and no place is
    called ("Belongings", "Confidential" at the start of a sentence, a header's
    "NUMBER"): used at least once in a million words (zipf >= 3). Lower-case
    words may follow it ("Throughput rose"): where a name's first word is
    capitalised so are its others, but for particles ("de", "van").

    span (Span): The entity.
    RETURNS (bool): True for such a word.
    """
    token = span[0]
    if len(token) < 3 or not token.is_alpha:
        return False  # initials ("E") are pieces of names
    if not (token.is_title or (token.is_upper and len(token) > 3)):
        return False  # "IBM", "CVS": an organisation's letters
    if not all(_lower_tail_word(t) for t in span[1:]):
        return False
    k = lookup(token.text)
    if k.surname_count or k.given_count or k.place_population:
        return False
    if k.is_country or k.is_state or k.is_county:
        return False
    return k.word_zipf >= COMMON_WORD_ZIPF


def _lower_tail_word(token: Token) -> bool:
    """A lower-case word after a space that is no name particle."""
    before = token.doc[token.i - 1]
    return (
        token.is_alpha
        and token.is_lower
        and bool(before.whitespace_)
        and token.text not in NAME_PARTICLES
    )


# People bearing a word for it to be a name before a colon ("Will:").
_FIELD_WORD_BEARERS = 1000


def is_field_label(span: Span) -> bool:
    """Whether a span is a form's field label: common English words that
    fewer than `_FIELD_WORD_BEARERS` people bear, right before a colon
    ("UNIT NUMBER: 00298718"; not "Will:", whom many bear).

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    doc = span.doc
    if span.end >= len(doc) or doc[span.end].text != ":":
        return False
    for token in span:
        if not token.is_alpha or not lookup(token.text).is_common_word:
            return False
        if _bearers(token.text) >= _FIELD_WORD_BEARERS:
            return False
    return True


# A word used this much more as a word than as a name (zipf) is the word after
# an article: "a Honda" (3.9 against 1.9), "the Navy"; not "a Bell" (4.6, 3.9).
_ARTICLE_WORD_OVER_NAME = 1.5
_ARTICLES = frozenset({"a", "an", "the"})


def is_word_after_article(span: Span) -> bool:
    """Whether a span is one common English word with a capital right after
    "a", "an" or "the", used as a word far more than as a name: a thing, not a
    person ("a SUV", "a Honda", "served in the Marines"). English puts no
    article before a person's name, but telegraphic notes drop the words
    around a lower-case one, so that may be a name.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if len(span) != 1 or span.start == 0 or not span[0].is_alpha:
        return False
    if span[0].is_lower:
        return False
    if span.doc[span.start - 1].lower_ not in _ARTICLES:
        return False
    k = lookup(span.text)
    return k.is_common_word and k.word_zipf - k.name_zipf >= _ARTICLE_WORD_OVER_NAME


_LAB_NUMBER = re.compile(r"\d{1,4}(?:\.\d{1,3})?")


def is_lab_value(span: Span) -> bool:
    """Whether a span is a measurement: a medical abbreviation, a space and a
    number ("LDL 131", "TMAX 100.2", "ER 60" of a range of motion); a
    month's abbreviation ("Oct 24") is a date's.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    words = [t for t in span if not t.is_space]
    if len(words) != 2:
        return False
    name, number = words
    if not (name.is_alpha and name.whitespace_ and _LAB_NUMBER.fullmatch(number.text)):
        return False  # "de587" is a login
    if name.lower_ in _DATE_WORDS:
        return False
    return is_medical_abbreviation(name.text)


# A table's cell: a number, a ratio or a range ("131/74", "-180", "0.78", "12,11").
_CELL = re.compile(r"[-+~<>]?\d+(?:[.,/:]\d+)*%?")
# A row of a numeric table holds a run of this many cells at least.
_ROW_CELLS = 5


def text_around(span: Span, lines_before: int, lines_after: int) -> Tuple[str, int]:
    """The text of the tokens around a span, back past `lines_before` line
    breaks and on past `lines_after` (or to the doc's edges), and its start
    offset in the doc: the lines next to a span without `doc.text`, which
    spaCy rebuilds from every token of the note on each access.

    span (Span): The entity.
    lines_before (int): Line breaks to include before the span.
    lines_after (int): Line breaks to include after the span.
    RETURNS (Tuple[str, int]): The text and the doc offset of its start.
    """
    doc = span.doc
    start, seen = span.start, 0
    while start > 0 and seen < lines_before:
        start -= 1
        seen += doc[start].text.count("\n")
    end, seen = span.end, 0
    while end < len(doc) and seen < lines_after:
        seen += doc[end].text.count("\n")
        end += 1
    return doc[start:end].text, doc[start].idx


def is_table_number(span: Span) -> bool:
    """Whether a span is numbers alone inside a run of five cells or more on
    its line (a flowsheet's "0612 162/88 78 400 600 -180 40 0.78 RM", an
    audiogram's frequencies), words around the run or not.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    words = span.text.split()
    if not words or not all(_CELL.fullmatch(w) for w in words):
        return False
    # The span's line, read from its tokens: `doc.text` would rebuild the
    # whole note for every number.
    doc = span.doc
    start, end = span.start, span.end
    while start > 0 and "\n" not in doc[start - 1].text:
        start -= 1
    while end < len(doc) and "\n" not in doc[end].text:
        end += 1
    line = doc[start:end].text
    offset = span.start_char - doc[start].idx
    run, run_start, position = 0, 0, 0
    for word in line.split():
        position = line.index(word, position)
        if _CELL.fullmatch(word):
            run_start = position if run == 0 else run_start
            run += 1
        else:
            if run >= _ROW_CELLS and run_start <= offset < position:
                return True
            run = 0
        position += len(word)
    return run >= _ROW_CELLS and run_start <= offset


def is_section_header(span: Span) -> bool:
    """Whether a span lies in a section's header: a line of capitals words
    used more as words than as names (one of four letters or more; single
    letters and "-", "/", "&" between them allowed), after a blank line or
    the start of the text, with nothing after it but a colon and text on the
    next line ("GROSS" between a blank line and "Specimen A consists of";
    "CRASH CART", "S - SITUATION"), or a parenthesis or colon and text on
    its own line ("HOT DEBRIEF (04:55): ..."). A name alone on its line
    signs a note off and ends it ("THANK YOU," and then "TOM").

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if not all(t.is_upper or t.text in _HEADER_MARKS for t in span if not t.is_space):
        return False  # most spans: no need to read the doc's text
    text, base = text_around(span, lines_before=2, lines_after=2)
    start, end = span.start_char - base, span.end_char - base
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end < 0:
        line_end = len(text)
    head = _HEADER.match(text, line_start, line_end)
    if head is None or head.end() < end or not _header_words(head.group()):
        return False
    if line_start > 0:
        before = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
        if before.strip():
            return False
    rest = text[head.end() : line_end].strip(" \t\r")
    if rest[:1] == "(" or (rest[:1] == ":" and rest[1:].strip()):
        return True
    if rest.strip(":") or line_end == len(text):
        return False
    next_end = text.find("\n", line_end + 1)
    return bool(text[line_end + 1 : next_end if next_end >= 0 else len(text)].strip())


# A header line's words: capitals, with single spaces, hyphens, slashes and
# ampersands between them.
_HEADER = re.compile(r"[ \t]*[A-Z]+(?:(?: ?[-/&] ?| )[A-Z]+)*")
_HEADER_MARKS = frozenset({"-", "/", "&"})


def _header_words(header: str) -> bool:
    """Whether a capitals line's words of two letters or more are all words
    (`_is_header_word`), one of four letters or more among them."""
    words = [word for word in re.findall(r"[A-Z]+", header) if len(word) > 1]
    return any(len(word) >= 4 for word in words) and all(map(_is_header_word, words))


def _is_header_word(word: str) -> bool:
    """A word used more as a word than as a name, or an English word or a
    specialty that no name table knows ("DEBRIEF", "UROLOGY")."""
    if _used_as_word(word):
        return True
    known = lookup(word)
    if known.surname_count or known.given_count or known.place_population:
        return False
    return known.word_zipf > 0 or is_specialty_word(word)


def is_before_by(span: Span) -> bool:
    """Whether "by" and another entity follow a span of words used more as
    words than as names right away: the span is what that person did or
    wrote ("Gross by Ford"), not a second name ("PIERCE by AW425" stays).

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    doc = span.doc
    after = span.end + 1
    if after >= len(doc) or doc[span.end].lower_ != "by":
        return False
    if doc[after].ent_iob_ != "B":
        return False
    words = [t.text for t in span if t.is_alpha]
    return bool(words) and all(_used_as_word(word) for word in words)


def _used_as_word(word: str) -> bool:
    """A common English word, used more as a word than as a name."""
    k = lookup(word)
    return k.is_common_word and k.word_zipf > k.name_zipf


# Words a phrase of ordinary words may hold besides them ("Board of Review").
_LINK_WORDS = frozenset({"of", "and", "the", "for", "in", "on", "at", "to", "with"})
_LETTERS = re.compile(r"[^\W\d_]+")


# Marks after which a clause starts; a clause in sentence case opens with a
# capitalised word. Lower-case names stand in lower-case telegraphic text
# ("goes to maple grove park") and in lists that mix cases (hence "," and
# "("): among 8,000 train notes, one gold name or place span of plain
# lower-case words stands in a sentence-case clause by these marks.
_CLAUSE_MARKS = frozenset((".", "!", "?", ":", ";", "(", ","))
_CLAUSE_WINDOW = 60
# A plain word: used at least this often (zipf), and at least this many zipf
# points more as a word than its use as a name or place explains.
PLAIN_WORD_ZIPF = 2.0
PLAIN_WORD_MARGIN = 0.8


def is_clause_start(token: Token) -> bool:
    """Whether a token opens the doc, a line or a clause (after `_CLAUSE_MARKS`)."""
    if token.i == 0:
        return True
    before = token.doc[token.i - 1]
    return before.text in _CLAUSE_MARKS or (before.is_space and "\n" in before.text)


def in_cased_clause(span: Span) -> bool:
    """Whether the clause a span stands in opens with a capitalised word
    (not one in capitals): "The band played a slow waltz", not "goes
    to maple grove park" or "SEEN BY ...".

    span (Span): The entity.
    RETURNS (bool): True when the clause is written in sentence case.
    """
    doc = span.doc
    for i in range(span.start, max(span.start - _CLAUSE_WINDOW, -1), -1):
        if is_clause_start(doc[i]):
            first = next((t for t in doc[i : span.end] if t.is_alpha), None)
            if first is None:
                return False
            return first.is_title and not (first.is_upper and len(first) > 1)
    return False


def is_plain_word(word: str) -> bool:
    """Whether a word is mostly used as a word: at least `PLAIN_WORD_ZIPF`
    common and `PLAIN_WORD_MARGIN` more so than as a name or a place, and
    no country's or state's name ("waltz", "spanner"; not "brown", "rose").

    word (str): The word.
    RETURNS (bool): True for a plain word.
    """
    k = lookup(word)
    if k.word_zipf < PLAIN_WORD_ZIPF or k.is_country or k.is_state:
        return False
    return k.word_zipf - max(k.name_zipf, k.place_zipf) >= PLAIN_WORD_MARGIN


def is_nameless_phrase(span: Span, min_name_count: int) -> bool:
    """Whether a span is two or more capitalised English words (link words
    such as "of" aside) that fewer than `min_name_count` people bear as a
    name and no place is called, each used at least once in a million words:
    "Unemployment Insurance", "Open-Label, Crossover".

    span (Span): The entity.
    min_name_count (int): People bearing a word that make it a name.
    RETURNS (bool): True for such a phrase.
    """
    words = [w for w in _LETTERS.findall(span.text) if w.lower() not in _LINK_WORDS]
    return len(words) >= 2 and all(_nameless(word, min_name_count) for word in words)


def _nameless(word: str, min_name_count: int) -> bool:
    if len(word) < 3 or not (
        word[0].isupper() and (not word.isupper() or len(word) > 3)
    ):
        return False
    k = lookup(word)
    if k.surname_count + k.given_count >= min_name_count or k.place_population:
        return False
    if k.is_country or k.is_state or k.is_county:
        return False
    return k.word_zipf >= COMMON_WORD_ZIPF


def is_title_after_name(
    span: Span, person_labels: frozenset, min_name_count: int
) -> bool:
    """Whether a span is a job title after a person's name, a comma and maybe
    credentials ("Consultant Cardiologist" in "Ana Ruiz, MD, Consultant
    Cardiologist"): its last word can head a job title, is singular (a
    firm: "Endocrine Associates") and is no common name ("Baker" in "Ana
    Ruiz, Baker" may be a second person).

    span (Span): The entity.
    person_labels (frozenset): The labels of person names.
    min_name_count (int): People bearing the last word that make it a name.
    RETURNS (bool): True for such a title.
    """
    return follows_name(span, person_labels) and is_job_title(span, min_name_count)


def is_job_title(span: Span, min_name_count: Optional[int]) -> bool:
    """Whether a span's last word can head a job title, is singular (a firm:
    "Endocrine Associates") and is no common name ("Baker"), with no digit
    (a ward: "Tollner 6").

    span (Span): The entity.
    min_name_count (Optional[int]): People bearing the last word that make it
        a name; None where no name is possible.
    RETURNS (bool): True for such a title.
    """
    words = [t for t in span if t.is_alpha]
    if not words or any(c.isdigit() for c in span.text):
        return False
    last = words[-1].text
    if last.lower().endswith("s"):
        return False
    k = lookup(last)
    if min_name_count is not None and k.surname_count + k.given_count >= min_name_count:
        return False
    if min_name_count is not None and not k.word_zipf and not is_known_job(last):
        return False  # a rare surname after a name ("watchers: mccall, redifer")
    return is_occupation_word(last.lower())


def credential_start(span: Span) -> Optional[int]:
    """Where a trailing ", CREDENTIAL[, CREDENTIAL]" starts in a name span.

    span (Span): The entity ("Oriel Vantongeren, CNM").
    RETURNS (Optional[int]): The doc index of the first comma, or None if the
        span does not end in credentials after a comma.
    """
    for token in span[1:]:
        if token.text != ",":
            continue
        rest = span.doc[token.i + 1 : span.end].text.split(",")
        if all(is_credential(part.replace(" ", "")) for part in rest):
            return token.i
    return None


def credential_follows(span: Span) -> bool:
    """Whether a comma and a credential come right after a span.

    span (Span): The entity ("Ana Ruiz" in "Ana Ruiz, LCSW").
    RETURNS (bool): True if so.
    """
    doc = span.doc
    end = span.end
    return (
        end + 1 < len(doc) and doc[end].text == "," and is_credential(doc[end + 1].text)
    )


def credential_after_space(span: Span) -> bool:
    """Whether an upper-case credential follows a span after a space on its
    line, without a comma ("Ana Ruiz MD", "paged by Ana Ruiz RN").

    span (Span): The entity.
    RETURNS (bool): True if so.
    """
    doc = span.doc
    if span.end >= len(doc) or span[-1].whitespace_ not in (" ", "\t"):
        return False
    following = doc[span.end]
    return following.is_upper and is_credential(following.text)


_EPONYM_HEADS = frozenset(EPONYM_HEADS)


def is_eponym(span: Span) -> bool:
    """Whether a span is one word that an eponym's head follows on its line
    ("Epley" in "Epley maneuver", "Ranson's criteria"), or a name and such a
    head ("McMurray test equivocal"): a test, sign or device named for
    someone, no mention of a person.

    span (Span): The entity.
    RETURNS (bool): True for an eponym.
    """
    if len(span.text.split()) > 1:
        # Not "Town Line Regional School", nor a name that ran on to the
        # eponym ("Ana Ruiz - Wright" before "stain").
        return (
            span[0].is_alpha
            and span[0].text[0].isupper()
            and span[1].lower_ in _EPONYM_HEADS
            and not any(t.is_title or t.is_upper for t in span[2:])
        )
    # A line break is a token of its own: the head stands on the same line.
    return before_eponym_head(span[-1])


# A test's result right after its name: "(+)", "(-)", "(neg)", or "positive"
# before a mark or the line's end ("Neer (+)", "Spurling negative.").
_RESULTS = frozenset(("+", "-", "+/-", "pos", "neg", "positive", "negative"))
_RESULT_WORDS = frozenset(("pos", "neg", "positive", "negative"))
_RESULT_ENDS = frozenset((",", ".", ";", ")"))


# A test's eponym: one word, hyphens and apostrophes inside ("O'Brien").
_TEST_NAME = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def is_test_result(span: Span) -> bool:
    """Whether a span is one word (hyphens and apostrophes allowed) that a
    test's result follows: an eponymous test ("Neer (+)", "Hawkins-Kennedy
    (-)", "O'Brien (-)", "Speed's negative,"), no mention of a person. No
    gold name of 8,000 train notes stands so.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if not _TEST_NAME.fullmatch(span.text):
        return False
    doc = span.doc
    i = span.end
    if i < len(doc) and doc[i].lower_ in ("'s", "'"):
        i += 1
    if i >= len(doc):
        return False
    if doc[i].text == "(":
        inside = doc[i + 1 : i + 4]
        close = next((t.i for t in inside if t.text == ")"), None)
        return close is not None and doc[i + 1 : close].text.lower() in _RESULTS
    if doc[i].lower_ not in _RESULT_WORDS:
        return False
    return i + 1 == len(doc) or doc[i + 1].text in _RESULT_ENDS or "\n" in doc[i + 1].text


# Marks between a person's credentials and a role after them ("Ana Ruiz, RN
# (charge nurse)", "Ana Ruiz, RN - charge nurse").
_ROLE_MARKS = frozenset(("(", ",", "-", "\u2013", "\u2014", "/"))


def is_clinician_role(
    span: Span, person_labels: frozenset, min_name_count: int
) -> bool:
    """Whether a span is a job title (`is_job_title`) that is the role of a
    credentialed person named beside it: right before a name that
    credentials follow ("charge nurse Ana Ruiz, RN"), or after a name and its
    credentials ("Ana Ruiz, RN (charge nurse)"; a signature's "Ana Ruiz, MD"
    with "Staff Cardiologist" on the next line). A patient's job stands
    beside no credentials.

    span (Span): The entity.
    person_labels (frozenset): The labels of person names.
    min_name_count (int): People bearing the last word that make it a name.
    RETURNS (bool): True for a clinician's role.
    """
    # A name is written with capitals: "review nurse" names no one.
    capitals = any(t.is_title or t.is_upper for t in span if t.is_alpha)
    if not is_job_title(span, min_name_count if capitals else None):
        return False
    return _before_credentialed_name(span, person_labels) or _after_credentials(
        span, person_labels
    )


def _before_credentialed_name(span: Span, person_labels: frozenset) -> bool:
    doc = span.doc
    start = span.end
    if start >= len(doc) or span[-1].whitespace_ not in (" ", "\t"):
        return False
    label = doc[start].ent_type_
    if label not in person_labels or doc[start].ent_iob_ != "B":
        return False
    end = start + 1
    while end < len(doc) and doc[end].ent_iob_ == "I":
        end += 1
    name = doc[start:end]
    return credential_follows(name) or credential_after_space(name)


def _after_credentials(span: Span, person_labels: frozenset) -> bool:
    doc = span.doc
    i = span.start - 1
    while i >= 0 and (doc[i].is_space or doc[i].text in _ROLE_MARKS):
        i -= 1
    credentials = 0
    while i >= 0 and (is_credential(doc[i].text) or doc[i].text == ","):
        credentials += doc[i].text != ","
        i -= 1
    return credentials > 0 and i >= 0 and doc[i].ent_type_ in person_labels


def is_document_title(span: Span) -> bool:
    """Whether a span is a document's title in capitals at the start of its
    line: words of letters (and "&", "/", "-") whose last one ends a title
    ("NEWBORN NURSERY DISCHARGE SUMMARY", "RHEUMATOLOGY NEW PATIENT
    CONSULTATION"; `text.titles`).

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    words = [t for t in span if not t.is_space and t.text not in ("&", "/", "-")]
    if len(words) < 2 or not all(t.is_alpha and t.is_upper for t in words):
        return False
    if words[-1].lower_ not in DOCUMENT_WORDS:
        return False
    text, base = text_around(span, lines_before=1, lines_after=0)
    start = span.start_char - base
    return not text[text.rfind("\n", 0, start) + 1 : start].strip()


def is_number_list(span: Span) -> bool:
    """Whether a span is numbers of one or two digits joined by commas with
    no space, and maybe single capitals and more numbers ("18,17,17,16",
    "15 L 14,13,12": an ultrasound's follicle sizes by side), which no date
    is written as; no gold span of 8,000 train notes, the dev draws, the
    notes by other hands or `en_notes` holds such a list.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    parts = span.text.split()
    if not any(_NUMBER_LIST.fullmatch(part) for part in parts):
        return False
    return all(_NUMBER_LIST.fullmatch(part) or _LIST_ITEM.fullmatch(part) for part in parts)


_NUMBER_LIST = re.compile(r"\d{1,2}(?:,\d{1,2})+")
_LIST_ITEM = re.compile(r"\d{1,2}|[A-Z]")


def is_reading(span: Span) -> bool:
    """Whether a span is a number right after "=": a scale's reading
    ("PHQ-9 = 11"), no age. No gold age of 8,000 train notes, the dev draws,
    the notes by other hands or `en_notes` follows "=".

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if not span.text.isdigit():
        return False
    before = _word_before(span.doc, span.start)
    return before is not None and before.text == "="


# Words after which four digits are a time of day ("at 2100", "@ 0700").
_CLOCK_CUES = frozenset({"at", "@", "~"})


def is_clock_time(span: Span) -> bool:
    """Whether a span is four digits of a 24-hour time ("2140") that open
    their line (unless the line before runs on into it, ending in "since")
    or follow "at", "@" or "~" ("at 2100", "@0700"): a log's time, no year. On
    8,000 generated train notes no such number opening a line is a date,
    and 8 of 600 after "at" and its like are ("around 2006": no cue here).

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    if span.text[:1] in ("@", "~"):
        return bool(_CLOCK.fullmatch(span.text[1:]))
    if not _CLOCK.fullmatch(span.text):
        return False
    doc = span.doc
    i = span.start - 1
    while i >= 0 and doc[i].is_space and "\n" not in doc[i].text:
        i -= 1
    if i >= 0 and not (doc[i].is_space and "\n" in doc[i].text):
        return doc[i].lower_ in _CLOCK_CUES
    # Opening a line, unless the line before runs on into it (ends "since").
    while i >= 0 and doc[i].is_space:
        i -= 1
    return i < 0 or not doc[i].text[-1:].islower()


_HOSPITAL_ABBRS = frozenset(HOSPITAL_ABBRS)
# A credential's shape: capitals of four to six letters, maybe joined by
# hyphens to more capitals ("CCDS", "LCDC-II", "FAAOS"); three capitals
# are as often a person's initials ("oral wu, RDT" of a crew list).
_CREDENTIAL_SHAPE = re.compile(r"[A-Z]{4,6}(?:-[A-Z]{1,5})*")
# A word that this many people bear is a name even in capitals ("WILLIE").
_CREDENTIAL_MAX_BEARERS = 1000


def is_credential_shaped(span: Span, after_credential: bool = False) -> bool:
    """Whether a span is shaped like a credential and stands where one does:
    capitals that few people bear as a name, right after a comma that
    follows a name written in mixed case, maybe after other credentials
    ("CCDS" in "Ana Ruiz, CCDS", "LCDC-II", "CCDS, RCES", "FCCP" in "Ana
    Ruiz, MD, FCCP"); no hospital's initials ("Ana Ruiz, MD, UCSF"). No
    credential list holds them all; in capitals text a name's parts stand
    so ("ZINZUN, WILLIE"), in mixed case only credentials do.

    span (Span): The entity.
    after_credential (bool): Only after another credential ("Ana Ruiz, MD,
        FCCP"; not "Dr. Ana Ruiz, SMPC", which names her practice).
    RETURNS (bool): True for such a span.
    """
    parts = span.text.split(", ")
    if not all(_CREDENTIAL_SHAPE.fullmatch(part) for part in parts):
        return False
    doc = span.doc
    comma = span.start - 1
    # Back over credentials before it ("Ana Ruiz, MD, FCCP").
    first = comma
    while comma >= 2 and doc[comma].text == "," and is_credential(doc[comma - 1].text):
        comma -= 2
    if after_credential and comma == first:
        return False
    if comma < 1 or doc[comma].text != "," or doc[comma].whitespace_ != " ":
        return False
    name = doc[comma - 1]
    if name.ent_iob_ == "O" or name.is_upper or not name.is_alpha:
        return False
    return all(_few_bear(part) for part in parts) and not _hospital_initials(span.text)


def is_second_credential(span: Span) -> bool:
    """Whether a span is shaped like a credential after a name's first
    credential ("FCCP" in "Ana Ruiz, MD, FCCP"; `is_credential_shaped`)."""
    return is_credential_shaped(span, after_credential=True)


def _hospital_initials(text: str) -> bool:
    """Initials a hospital goes by ("UCSF", "BIDMC", "NWMC"), not a
    credential: a known one, or ending in "H", "MC", "HC" or "HS"."""
    return text in _HOSPITAL_ABBRS or text.endswith(("H", "MC", "HC", "HS"))


# A login is one word with a letter in it: no gold login of 8,000 train
# notes, the dev draws or the notes by other hands holds a space or lacks a
# letter.
_WORD_AND_NUMBER = re.compile(r"([a-z]+) \d+")
# Words before a number that make it an identifier or an address all the
# same ("box 724", "badge 4471", "rm 12"): such a span keeps its PHI.
_ID_WORDS = frozenset(
    {
        "box", "apt", "suite", "ste", "unit", "room", "rm", "bed", "bay", "ext",
        "badge", "id", "no", "acct", "lic", "mrn", "pager", "pgr", "station",
        "chair", "cell", "case", "order", "claim", "member", "group", "grp",
        "policy",
    }
)  # fmt: skip


def is_no_login(span: Span) -> bool:
    """Whether a login-labelled span is a reading rather than a login: no
    letter in it ("$85", "<70"), or a lower-case word and a number ("bl 88",
    "mean 94" in brackets) whose word marks no identifier ("box 724" stays
    for the address checks); "Bigelow 11" (a ward) stays.

    span (Span): The entity.
    RETURNS (bool): True for such a span.
    """
    text = span.text
    if not any(c.isalpha() for c in text):
        return True
    reading = _WORD_AND_NUMBER.fullmatch(text)
    return reading is not None and reading.group(1) not in _ID_WORDS


def _few_bear(word: str) -> bool:
    """Whether fewer than `_CREDENTIAL_MAX_BEARERS` people bear a word as a
    given name or surname."""
    known = lookup(word)
    return known.given_count + known.surname_count < _CREDENTIAL_MAX_BEARERS


def follows_name(span: Span, person_labels: frozenset) -> bool:
    """Whether a span comes after a person's name, a comma and credentials,
    or stands alone in brackets after the name.

    span (Span): The entity ("MA" in "Ana Ruiz, MA", "CCM" in "Ana Ruiz, RN,
        CCM", "EMT-P" in "J. Ruiz (EMT-P)").
    person_labels (frozenset): The labels of person names.
    RETURNS (bool): True if, skipping credentials and commas back from the span,
        a comma follows a person-labelled token, or if "(" and ")" enclose
        the span right after one.
    """
    doc = span.doc
    i = span.start - 1
    if (
        i > 0
        and doc[i].text == "("
        and span.end < len(doc)
        and doc[span.end].text == ")"
    ):
        return doc[i - 1].ent_type_ in person_labels
    while i > 0 and doc[i].text == "," and is_credential(doc[i - 1].text):
        if doc[i - 1].ent_type_ and doc[i - 1].ent_type_ in person_labels:
            break
        i -= 2
    if i < 1 or doc[i].text != ",":
        return False
    return doc[i - 1].ent_type_ in person_labels
