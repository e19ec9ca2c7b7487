"""Where `phi_safety_net` looks: names after cue phrases, before
post-nominals ("Feliciano, MD"), on both sides of sign-out arrows, and
sentence-opening names that grammar gives away ("Will is", "J.D. is").

Every function returns candidates as (first word, end word, cue class) in
word positions of `DocWords`; the component turns them into spans.
"""

import re
from typing import List, Optional, Sequence, Tuple

from ..knowledge import lookup
from ..knowledge.credentials import is_credential
from ..knowledge.particles import NAME_PARTICLES
from ..text.modals import MODALS, NOT_AFTER_MODAL
from .cues import ARROW, ARROWS, CLINICIAN, CLINICIAN_TITLES, PAGER_WORDS, POST_NOMINALS
from .cues import LOWER_POST_NOMINALS
from .cues import LINE_START, PATIENT, RELATIVE, SIGN_OFF, CueIndex, pieces
from .guard import NameGuard, is_initial
from .words import DocWords

Candidate = Tuple[int, int, str]

MAX_NAME_WORDS = 4  # name words and initials in one span
_AFTER_CUE = frozenset({".", ":"})  # "Dr.", "cc:", "Attending:"
_AFTER_RELATIVE = frozenset({".", ":", ","})  # "sister, Fenella"
_TITLES = frozenset(tuple(pieces(t)) for t in CLINICIAN_TITLES)
# A clinician cue that also opens another phrase ("CC: rash", the chief
# complaint): no ordinary word is a name after it.
_NOT_ONLY_NAMES = frozenset(tuple(pieces(t)) for t in ("cc:",))
_LINE_START = frozenset(tuple(pieces(t)) for t in LINE_START)
_POST_NOMINALS = frozenset(tuple(pieces(t)) for t in POST_NOMINALS)
# Every arrow starts and ends with one of these characters.
_ARROW_STARTS = frozenset(arrow[0] for arrow in ARROWS)
_ARROW_ENDS = frozenset(arrow[-1] for arrow in ARROWS)
_ENDS_SIGN_OFF = frozenset({".", ",", "!", ")"})
_LIST = frozenset({",", "and", "&"})
# Two modal verbs in a row are no English: in "brother will can drive", the
# first is a name, if that many people bear it as a given name.
_MODAL_NAME_MIN_BEARERS = 10_000
# Initials with periods as one token ("J.D.", "R.W.T."); as letters alone,
# an abbreviation at least this common ("US", "AM", "IV") is no person's.
_INITIALS = re.compile(r"(?:[A-Z]\.){2,3}")
# A trainee's role in brackets after a name on a team list ("(pgy2)").
_TRAINEE_ROLE = re.compile(r"pgy-?\d|intern|resident|fellow|sub-?i|ms[34]")
_ABBREVIATION_ZIPF = 4.0


class NameReader:
    """Reads a name at a word position: an optional initial, a name-like
    word, then more name-like words, middle initials and hyphenated parts
    on the same line, never into taken tokens or before an eponym's head."""

    def __init__(self, words: DocWords, taken: Sequence[bool], guard: NameGuard):
        self.words = words.words
        self.taken = taken
        self.guard = guard

    def free(self, position: int) -> bool:
        """Whether a word exists and lies outside every entity."""
        return (
            0 <= position < len(self.words)
            and not self.taken[self.words[position].index]
        )

    def read(
        self,
        position: int,
        *,
        strong: bool = False,
        allow_caps: bool = False,
        clinician: bool = False,
        naming_cue: bool = False,
        capitals: bool = False,
    ) -> Optional[Tuple[int, int]]:
        """The name starting at a word position, as (first, end), or None."""
        start = position
        after = self._initial_end(position)
        if after is not None and self._same_line(after):
            position = after
        elif after is not None:
            return None
        if not self.free(position):
            return None
        text = self.words[position].text
        if not self.guard.is_name(
            text,
            strong=strong,
            allow_caps=allow_caps,
            clinician=clinician,
            naming_cue=naming_cue,
            capitals=capitals,
        ) and not (
            self.guard.is_first_name_word(text) and self._continues(position + 1)
        ):
            return None
        end = self._extend(position + 1, start)
        if self.before_head(end) or self._particles_only(start, end):
            return None
        return start, end

    def _particles_only(self, start: int, end: int) -> bool:
        """Whether a name is particles alone ("van" before a taken "der Wiel")."""
        return all(self.words[i].text in NAME_PARTICLES for i in range(start, end))

    def _initial_end(self, position: int) -> Optional[int]:
        """The position after a leading initial ("b." / "b ."), or None."""
        if not self.free(position) or not is_initial(self.words[position].text):
            return None
        after = position + 1
        if (
            not self.words[position].text.endswith(".")
            and self.free(after)
            and self.words[after].text == "."
            and self.words[after].joined
        ):
            after += 1
        return after if self.free(after) else None

    def _same_line(self, position: int) -> bool:
        return not self.words[position].newline_before

    def _extend(self, position: int, start: int) -> int:
        """The end of a name whose last name word is just before `position`."""
        while position - start < MAX_NAME_WORDS + 2 and self.free(position):
            word = self.words[position]
            if word.newline_before:
                break
            if word.text == "-" and word.joined:
                nxt = position + 1
                if self._continues(nxt) and self.words[nxt].joined:
                    position = nxt + 1
                    continue
                break
            after = self._initial_end(position)
            if after is not None and self._continues(after):
                position = after + 1
                continue
            if self._continues(position):
                position += 1
                continue
            break
        return position

    def _continues(self, position: int) -> bool:
        """A further name word on the same line ("Orsolya Brandwijk")."""
        return (
            self.free(position)
            and self._same_line(position)
            and self.guard.continues(
                self.words[position - 1].text, self.words[position].text
            )
        )

    def before_head(self, end: int) -> bool:
        """Whether the word after the name (past "'s") is an eponym's head."""
        if end < len(self.words) and self.words[end].text.lower() in ("'s", "'"):
            end += 1
        return end < len(self.words) and self.guard.is_head(self.words[end].text)


def after_cues(words: DocWords, reader: NameReader, cues: CueIndex) -> List[Candidate]:
    """Names right after a cue phrase ("d/w dr. feliciano", "sis Fenella")."""
    found = []
    k = 0
    while k < len(words.stream):
        cue = cues.match(words.stream, k) if words.first[k] else None
        if cue is None:
            k += 1
            continue
        last = k + len(cue.pieces) - 1
        if not set(words.rest(last)) <= _AFTER_CUE or not _cue_placed(
            words, k, cue.pieces
        ):
            k += 1
            continue
        after = words.owner[last] + 1
        position = _skip(words, after, cue.kind)
        # A full stop ends the cue's sentence: the next one may open with an
        # ordinary word ("her husband. He drives"), so the cue is weak there.
        strong = cue.strong and not (position > after and words.words[after].text == ".")
        capitals = words.words[words.owner[k]].text.isupper()
        candidate = _after_cue(
            words, reader, position, cue.kind, strong, cue.pieces, capitals
        )
        if candidate is not None:
            found.append(candidate)
            if cue.kind == RELATIVE:
                found.extend(listed_after(words, reader, candidate))
        k = last + 1
    return found


def _cue_placed(words: DocWords, k: int, cue: Tuple[str, ...]) -> bool:
    """A line-start cue ("--") begins its line; a credential after a comma
    ("Fogaça, MD FACP") is a post-nominal, not a cue."""
    owner = words.owner[k]
    if cue in _POST_NOMINALS:
        return owner == 0 or words.words[owner - 1].text != ","
    if cue not in _LINE_START:
        return True
    return owner == 0 or words.words[owner].newline_before


def _skip(words: DocWords, position: int, kind: str) -> int:
    """Past the punctuation that may follow a cue ("Dr .", "sister,")."""
    allowed = _AFTER_RELATIVE if kind == RELATIVE else _AFTER_CUE
    if position < len(words) and words.words[position].text in allowed:
        position += 1
    return position


def _after_cue(
    words: DocWords,
    reader: NameReader,
    position: int,
    kind: str,
    strong: bool,
    cue: Tuple[str, ...],
    capitals: bool = False,
) -> Optional[Candidate]:
    """The name read after one cue, with the cue's own conditions; a strong
    cue written in capitals reads short capitals names ("COUSIN BEN", "TECH
    BILL")."""
    if position >= len(words):
        return None
    if words.words[position].newline_before and kind != SIGN_OFF:
        return None
    span = reader.read(
        position,
        strong=strong,
        allow_caps=cue in _TITLES,
        clinician=kind == CLINICIAN,
        naming_cue=kind == CLINICIAN and cue not in _NOT_ONLY_NAMES,
        capitals=capitals,
    )
    if span is None and strong and kind == RELATIVE:
        span = _name_before_modal(words, reader, position)
    if span is None or reader.guard.is_drug_phrase(cue, words.words[span[0]].text):
        return None
    if kind == SIGN_OFF and strong and not _ends_line(words, span[1]):
        return None
    return span[0], span[1], kind


def _name_before_modal(
    words: DocWords, reader: NameReader, position: int
) -> Optional[Tuple[int, int]]:
    """A modal verb that is a frequent given name, right before another
    modal ("brother will can pick her up"): the two cannot both be verbs."""
    after = position + 1
    if after >= len(words) or not reader.free(position):
        return None
    text, nxt = words.words[position].text, words.words[after]
    if text.lower() not in MODALS or nxt.text.lower() not in MODALS:
        return None
    if nxt.newline_before or lookup(text).given_count < _MODAL_NAME_MIN_BEARERS:
        return None
    return position, after


def sentence_subjects(words: DocWords, reader: NameReader) -> List[Candidate]:
    """Names that grammar gives away at a sentence's or line's start, before a
    word no modal verb takes (a verb's third-person or past form, another
    modal): a modal that is a frequent given name, in title case ("Will is a
    retired teacher", "May would like"), and a person's initials with
    periods ("J.D. is a 83 yo"), both as train's notes write them; a name
    (`PATIENT` class). Credentials and common abbreviations ("M.D.", "U.S.",
    "A.M.") are left alone."""
    found: List[Candidate] = []
    for position in range(len(words) - 1):
        word, nxt = words.words[position], words.words[position + 1]
        if nxt.text not in NOT_AFTER_MODAL or nxt.newline_before:
            continue
        if not (_modal_name(word.text) or _initials(word.text)):
            continue
        if _opens_sentence(words, position) and reader.free(position):
            found.append((position, position + 1, PATIENT))
    return found


def _modal_name(text: str) -> bool:
    """A modal verb in title case that enough people bear as a given name."""
    return (
        text.istitle()
        and text.lower() in MODALS
        and lookup(text).given_count >= _MODAL_NAME_MIN_BEARERS
    )


def _initials(text: str) -> bool:
    """A person's initials with periods: no credential, and as letters no
    common abbreviation ("U.S.", "A.M.")."""
    if not _INITIALS.fullmatch(text):
        return False
    letters = text.replace(".", "")
    return not is_credential(letters) and lookup(letters).word_zipf < _ABBREVIATION_ZIPF


def _opens_sentence(words: DocWords, position: int) -> bool:
    """Whether a word starts the text, a line or a sentence."""
    if position == 0 or words.words[position].newline_before:
        return True
    return words.words[position - 1].text in (".", "!", "?", ";")


def listed_after(
    words: DocWords, reader: NameReader, first: Candidate
) -> List[Candidate]:
    """More names in a list after a relative's name ("kids Amber (8), Gene
    and Nicholas"): each after ",", "and" or "&", past a short "(...)"."""
    found = []
    position = first[1]
    while True:
        position = _past_parenthesis(words, position)
        position = _past_separator(words, position)
        if position is None or words.words[position].newline_before:
            return found
        span = reader.read(position, strong=True)
        if span is None:
            return found
        found.append((span[0], span[1], first[2]))
        position = span[1]


def _past_parenthesis(words: DocWords, position: int) -> int:
    """Past a "(...)" of at most three words on the same line, if one is here."""
    if position >= len(words) or words.words[position].text != "(":
        return position
    for end in range(position + 1, min(position + 5, len(words))):
        if words.words[end].newline_before:
            break
        if words.words[end].text == ")":
            return end + 1
    return position


def _past_separator(words: DocWords, position: int) -> Optional[int]:
    """Past ",", "and", "&" or ", and" between listed names; None if none."""
    seen = False
    for _ in range(2):
        if position < len(words) and words.words[position].text.lower() in _LIST:
            position += 1
            seen = True
    return position if seen and position < len(words) else None


def _ends_line(words: DocWords, end: int) -> bool:
    """A sign-off's name ends its line (or the note)."""
    if end >= len(words):
        return True
    word = words.words[end]
    return word.newline_before or (
        word.text in _ENDS_SIGN_OFF and _ends_line(words, end + 1)
    )


def before_post_nominals(words: DocWords, reader: NameReader) -> List[Candidate]:
    """Names before an upper-case post-nominal ("O. Brandwijk, MD") or a
    credential after a comma ("Pruitt, CMA"), a lower-case post-nominal that
    ends its line ("rpt given to tamsin rn"), a pager number in brackets
    ("castellanos (pgr 3-2210)") or a trainee's role ("hsu (intern)")."""
    found = []
    for position, word in enumerate(words.words):
        if word.newline_before:
            continue
        if not (
            word.text in POST_NOMINALS
            or _pager_at(words, position)
            or _role_at(words, position)
            or _lower_post_nominal(words, position)
            or _credential_after_comma(words, position)
        ):
            continue
        end = position
        if end > 0 and words.words[end - 1].text == ",":
            end -= 1
        start = _name_start(words, reader, end)
        if start is not None:
            found.append((start, end, CLINICIAN))
    return found


def _credential_after_comma(words: DocWords, position: int) -> bool:
    """A credential of three capitals or more after a comma and a
    capitalised word ("Pruitt, CMA", "Oduro, LCSW"); shorter ones are also
    states and shorthand ("MA", "PT")."""
    text = words.words[position].text
    if len(text) < 3 or not text.isupper() or not is_credential(text):
        return False
    if position < 2 or words.words[position - 1].text != ",":
        return False
    return words.words[position - 2].text[:1].isupper()  # "as tol, SLP" is none


def _lower_post_nominal(words: DocWords, position: int) -> bool:
    """A lower-case post-nominal at the end of its line ("... schmidt rn"):
    in 16,000 train notes the word before one is a name in 17 of 18 cases
    ("per rn", a common word, is the other)."""
    text = words.words[position].text
    return text in LOWER_POST_NOMINALS and _ends_line(words, position + 1)


def _pager_at(words: DocWords, position: int) -> bool:
    """Whether "(" and a pager word ("pgr", "pager") start at `position`,
    on one line."""
    if words.words[position].text != "(" or position + 1 >= len(words):
        return False
    after = words.words[position + 1]
    return not after.newline_before and after.text.lower() in PAGER_WORDS


def _role_at(words: DocWords, position: int) -> bool:
    """Whether a trainee's role alone in brackets starts at `position`, on
    one line ("brandwijk (pgy2)", "hsu (intern)")."""
    if words.words[position].text != "(" or position + 2 >= len(words):
        return False
    role, closing = words.words[position + 1], words.words[position + 2]
    if role.newline_before or closing.text != ")":
        return False
    return bool(_TRAINEE_ROLE.fullmatch(role.text.lower()))


def _name_start(words: DocWords, reader: NameReader, end: int) -> Optional[int]:
    """The first word of a name that ends just before `end`, or None."""
    start = end
    while end - start < MAX_NAME_WORDS and reader.free(start - 1):
        word = words.words[start - 1]
        if (
            word.text == "."
            and start - 2 >= 0
            and is_initial(words.words[start - 2].text)
        ):
            start -= 2
        elif is_initial(word.text) or reader.guard.is_name(word.text):
            start -= 1
        else:
            break
        if words.words[start].newline_before:
            break
    parts = words.words[start:end]
    if all(is_initial(w.text) or w.text == "." for w in parts):
        return None  # nothing, or initials alone
    return None if reader.before_head(end) else start


def around_arrows(words: DocWords, reader: NameReader) -> List[Candidate]:
    """Lone surnames on both sides of a sign-out arrow ("(ferraro -> lindgren)").
    A side that a detector already took as one word counts as the other
    name of the pair; only free sides become candidates."""
    found: List[Candidate] = []
    if not any(ch in w.text for w in words.words for ch in _ARROW_ENDS):
        return found  # most notes have no arrow at all
    arrow_pieces = {tuple(pieces(arrow)) for arrow in ARROWS}
    position = 0
    while position < len(words):
        if words.words[position].text[:1] not in _ARROW_STARTS:
            position += 1
            continue
        width = _arrow_width(words, position, arrow_pieces)
        if not width:
            position += 1
            continue
        sides = (position - 1, position + width)
        lone = [_lone_surname(words, reader, side) for side in sides]
        taken = [_taken_word(words, reader, side) for side in sides]
        if all(a or b for a, b in zip(lone, taken, strict=True)) and any(lone):
            found.extend(
                (side, side + 1, ARROW)
                for side, ok in zip(sides, lone, strict=True)
                if ok
            )
        position += width
    return found


def _arrow_width(words: DocWords, position: int, arrows) -> int:
    """How many words an arrow starting here takes ("->" may be "-", ">")."""
    for width in (3, 2, 1):
        chunk = words.words[position : position + width]
        if len(chunk) < width or any(w.joined is False for w in chunk[1:]):
            continue
        if tuple(p for w in chunk for p in pieces(w.text)) in arrows:
            return width
    return 0


def _lone_surname(words: DocWords, reader: NameReader, position: int) -> bool:
    """A known surname with no other free word beside it on its side of the
    arrow (a date after it is another entity's: "nguyen July 8")."""
    if not reader.free(position) or not reader.guard.is_name(
        words.words[position].text, surname=True
    ):
        return False
    return _alone(words, reader, position)


def _taken_word(words: DocWords, reader: NameReader, position: int) -> bool:
    """A word a detector already took, alone on its side of the arrow."""
    return (
        0 <= position < len(words)
        and not reader.free(position)
        and words.words[position].text.isalpha()
        and _alone(words, reader, position)
    )


def _alone(words: DocWords, reader: NameReader, position: int) -> bool:
    """No free word right beside a position on its line."""
    for side in (position - 1, position + 1):
        if 0 <= side < len(words) and _is_word(words.words[side].text):
            beside = words.words[side if side > position else position]
            if not beside.newline_before and reader.free(side):
                return False
    return True


def _is_word(text: str) -> bool:
    return any(ch.isalpha() for ch in text)
