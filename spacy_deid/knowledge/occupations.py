"""Occupation words: does a phrase name a job?

A tagger that has learnt professions in free phrasing ("works nights as a
crane operator") also tags phrases that name no job at all ("banana",
"raking the lawn"), and a surrogate then turns them into a job title.
A phrase names a job when one of its words is the head of a job title (the
last word of one of Faker's 640 job titles, `Provider.jobs`, MIT licence:
"dealer", "nurse", "librarian") or an agent noun ("-er", "-ist", "-ian":
"welder", "sonographer") that WordNet does not know as a thing ("ventilator",
"stapler", "ulcer") and that is, if WordNet does not know it at all, no
frequent word ("never", "easier"); or when a head word of the phrase is a noun whose most
used senses name a person (WordNet, the `nouns` table: "chef", "paralegal");
where only a later sense does, by their work ("principal") but not otherwise
("fox"). Only at a head: "chief" names a person too, not in "chief complaint".
"""

import re
from functools import lru_cache
from typing import FrozenSet, List

from faker.providers.job import Provider as _Jobs
from faker.providers.job.en_US import Provider as _UsJobs

from .lookup import lookup
from .tables import load

AGENT_ENDINGS = (
    "er", "or", "ist", "ian", "man", "men", "woman", "eer", "ier", "yer",
    "smith", "wright",
)  # fmt: skip
# An "-er" word that WordNet knows as no noun and that English uses this often
# (zipf) is a comparative or an adverb, no agent noun ("easier", "never").
AGENT_MAX_ZIPF = 4.0
# What the `nouns` table says of a noun that names a person in its first senses.
_PERSON_KINDS = ("person", "also_person", "also_job", "relation")
_WORD = re.compile(r"[a-z]+")
_PARTS = re.compile(r"[,/;]")
_PARENS = re.compile(r"\(.*?\)")
# Words after a phrase's head ("director of nursing", "welder and fitter").
LINK_WORDS = frozenset(
    {"of", "at", "in", "for", "to", "with", "on", "from", "by", "and", "or"}
)


@lru_cache(maxsize=1)
def occupation_heads() -> FrozenSet[str]:
    """The head words of Faker's job titles ("Librarian, public" -> "librarian"),
    less the fragments (`is_fragment`)."""
    heads = set()
    for title in set(_Jobs.jobs) | set(_UsJobs.jobs):
        head = re.sub(r"\(.*?\)", "", title.split(",")[0]).lower()
        words = _WORD.findall(head)
        if words:
            heads.add(words[-1])
    singles = {title.lower() for title in set(_Jobs.jobs) | set(_UsJobs.jobs)}
    return frozenset(h for h in heads if not (h in singles and is_fragment(h)))


def is_fragment(word: str) -> bool:
    """Whether a one-word job title is a piece of a longer one ("Make" of
    "make-up artist", "Land", "Copy" as in "Publishing copy"): a frequent word
    that names no person in WordNet and has no agent ending. As a head it
    would make "teamwork makes" a job."""
    kind = load("nouns").get(word)
    if word.endswith(AGENT_ENDINGS) or kind in _PERSON_KINDS:
        return False
    return lookup(word).word_zipf >= AGENT_MAX_ZIPF


def is_occupation_word(word: str, person_nouns: bool = True) -> bool:
    """Whether a word can head a job title (a plural too: "nurses", "waitresses").

    word (str): The word.
    person_nouns (bool): Whether any noun whose most used senses name a person
        counts ("chef"), or only job-title heads and agent nouns.
    """
    word = word.lower()
    if _names_someone(word, person_nouns):
        return True
    if not word.endswith("s"):
        return False
    singulars = [word[:-1], word[:-2]] if word.endswith("es") else [word[:-1]]
    return any(_names_someone(s, person_nouns, plural=True) for s in singulars if s)


def _names_someone(word: str, person_nouns: bool, plural: bool = False) -> bool:
    """A job-title head, a person noun, or an agent noun that is no thing. A
    noun whose first sense is no person and a later one names someone by
    their work ("principal", "help") counts as written only: "helps" is a
    verb more often than helpers."""
    if word in occupation_heads():
        return True
    names = load("nouns").get(word)
    if person_nouns and (names == "person" or (names == "also_job" and not plural)):
        return True
    if not word.endswith(AGENT_ENDINGS) or names == "thing":
        return False
    return names is not None or lookup(word).word_zipf < AGENT_MAX_ZIPF


def is_known_job(word: str) -> bool:
    """Whether a job-title head or WordNet knows a word as a noun that names
    someone or something, rather than guessing from its ending: "-er" of a
    word no table knows is as likely a rare surname ("Redifer")."""
    word = word.lower()
    return word in occupation_heads() or load("nouns").get(word) is not None


# Words a job word is glued to when a space is missing ("achef",
# "journalistand"); not "or" and "on", which end words ("donor", "surgeon").
_GLUED_ARTICLES = ("an", "a")
_GLUED_LINKS = ("and", "with", "at", "by", "for", "of", "in", "to", "from")


def glued_job(word: str) -> bool:
    """Whether a word is a job word glued to a link word after it or an
    article before it, a space missing ("journalistand", "architectwith",
    "achef"): the rest, three letters or more, is a job word that a table
    knows (`is_known_job`), not one guessed from its ending ("a" + "nother")."""
    word = word.lower()
    rests = [word[: -len(link)] for link in _GLUED_LINKS if word.endswith(link)]
    rests += [word[len(a) :] for a in _GLUED_ARTICLES if word.startswith(a)]
    return any(
        len(rest) >= 3 and is_known_job(rest) and is_occupation_word(rest)
        for rest in rests
    )


def names_an_occupation(text: str) -> bool:
    """Whether a phrase names a job: any word heads a job title or is an agent
    noun that is no thing, or a head word names a person ("retired chef")."""
    words = _WORD.findall(text.lower())
    return any(is_occupation_word(w, person_nouns=False) for w in words) or (
        heads_an_occupation(text)
    )


def head_words(text: str) -> List[str]:
    """The words that can head a phrase: the last word of each part between
    commas, slashes and semicolons, parentheses left out ("Engineer, civil
    (consulting)" -> "engineer", "civil"), and a word right before a
    preposition or conjunction ("director of nursing" -> "director")."""
    heads: List[str] = []
    for part in _PARTS.split(_PARENS.sub("", text.lower())):
        words = _WORD.findall(part)
        if words:
            heads.append(words[-1])
            pairs = zip(words[:-1], words[1:], strict=True)
            heads.extend(w for w, nxt in pairs if nxt in LINK_WORDS)
    return heads


def heads_an_occupation(text: str) -> bool:
    """Whether a head word of a phrase (`head_words`) can head a job title:
    "crane operator" and "director of nursing" can, "a village stay in the
    winter" cannot (the "-er" of "winter" is not at a head)."""
    return any(is_occupation_word(word) for word in head_words(text))
