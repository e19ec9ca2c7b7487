"""Jobs that `phi_safety_net` adds where no detector found them: the job
after a work cue ("was working as a gaffer", "job: risk analyst"), a
PROFESSION.

After a work cue (`cues.JOB_CUES`) and an article, the words on the line up to a
preposition, a conjunction, a mark or four words make a job when one of them
heads a job title (`is_job_word`: a Faker job-title head or an agent noun
that is no person by relation; not WordNet's other person nouns: "student"
or "woman" is no job); the job ends at the last such word
("medical sales representative in Ethiopia": "medical sales
representative"). On 5,000 generated train notes through the whole pipeline
it adds one span, a gold job.

A job in brackets right after a person's name is that person's ("wife Ana
Ruiz (land surveyor)"): the same phrase rules apply after the bracket,
and a relation there is no job ("Ana Ruiz (neighbor)"). So is a job in
lower case between a mark and "at", "for" or "with" before an employer the
detectors found ("23yo F, vet tech at Quill Animal Clinic"); a role at a
church or club is none ("a deacon at"). The rules' professions add heads
("cook", "captain", "tech"). On 3,000 train notes and both dev draws these
add three spans, all gold.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from functools import lru_cache
from typing import List, Optional, Sequence

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from ..knowledge import load
from ..knowledge.occupations import is_occupation_word, occupation_heads
from ..rules.lexicons.professions import PROFESSIONS
from .cues import JOB, JOB_CUES, RELATIVE_CUES, Cue, CueIndex, pieces
from .finder import Candidate
from .guard import is_word_shaped
from .words import DocWords

ARTICLES = frozenset({"a", "an", "the"})
# Words that end a job phrase ("a gaffer back in Lagos", "a welder since").
ENDS = frozenset(
    {
        "in", "with", "at", "for", "back", "since", "until", "from", "on",
        "and", "but", "who", "when", "while", "to", "by", "after", "before",
        "he", "she", "they",
    }
)  # fmt: skip
MAX_JOB_WORDS = 4
# Roles people take at churches, clubs and teams, no jobs ("a deacon at").
VOLUNTEER_ROLES = frozenset(
    {"deacon", "deaconess", "elder", "usher", "volunteer", "coach", "mentor", "member"}
)
# Words between a job and its employer ("cook at", "driver for", "lineman w/").
WORKPLACE_LINKS = frozenset({"at", "for", "with", "w/"})
# Marks and words that open a job phrase before its employer.
PHRASE_OPENERS = frozenset({",", ";", ":", "(", "a", "an", "retired", "as"})
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)")
# Relations in brackets after a name are no jobs ("Ana Ruiz (neighbor)").
RELATIONS = frozenset(RELATIVE_CUES) | {"neighbour", "self", "patient", "pt"}
_INDEX = CueIndex(Cue(pieces(cue), JOB, False) for cue in JOB_CUES)


def find_jobs(
    words: DocWords,
    taken: Sequence[bool],
    doc: Optional[Doc] = None,
    person: str = "",
    workplaces: Sequence[str] = (),
) -> List[Candidate]:
    """Jobs after work cues, and (given the doc) beside a person's name or
    before a workplace, on words outside entities and known non-PHI.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Optional[Doc]): The doc, for its entities.
    person (str): The label of the names whose jobs count ("" for none).
    workplaces (Sequence[str]): The labels of employers ("ORGANIZATION").
    RETURNS (List[Candidate]): The jobs found, in word positions.
    """
    found: List[Candidate] = []
    if doc is not None and person:
        found += _jobs_beside_names(words, taken, doc, person)
    if doc is not None and workplaces:
        found += _jobs_before_workplaces(words, taken, doc, frozenset(workplaces))
    k = 0
    while k < len(words.stream):
        cue = _INDEX.match(words.stream, k) if words.first[k] else None
        if cue is None or words.rest(k + len(cue.pieces) - 1):
            k += 1
            continue
        last = k + len(cue.pieces) - 1
        job = _job_after(words, taken, words.owner[last] + 1)
        if job is not None:
            found.append(job)
        k = last + 1
    return found


def _jobs_beside_names(
    words: DocWords, taken: Sequence[bool], doc: Doc, person: str
) -> List[Candidate]:
    """Jobs in brackets right after a person's name, on the name's line."""
    found: List[Candidate] = []
    for ent in doc.ents:
        mark = words.position(ent.end) if ent.label_ == person else None
        if mark is None or mark + 1 >= len(words) or words.words[mark].text != "(":
            continue
        if words.words[mark].newline_before or words.words[mark + 1].newline_before:
            continue
        job = _job_after(words, taken, mark + 1, articles=False)
        if job is None:
            continue
        start, end, _ = job
        if any(w.text.lower() in RELATIONS for w in words.words[start:end]):
            continue
        found.append(job)
    return found


def _jobs_before_workplaces(
    words: DocWords, taken: Sequence[bool], doc: Doc, workplaces: frozenset
) -> List[Candidate]:
    """Jobs in lower case right before "at", "for" or "with" and an employer,
    after a mark or an article that opens the phrase on its line ("23yo F,
    vet tech at Quill Animal Clinic", "a line cook at The Copper Kettle"; not
    "seen by the nurse at Mercy Hospital" or "Coach at Quill YMCA")."""
    found: List[Candidate] = []
    for position in range(1, len(words) - 1):
        word, after = words.words[position], words.words[position + 1]
        if word.text.lower() not in WORKPLACE_LINKS or word.newline_before:
            continue
        if after.newline_before or doc[after.index].ent_type_ not in workplaces:
            continue
        start = position
        while start > 0 and position - start < MAX_JOB_WORDS:
            before = words.words[start - 1]
            if taken[before.index] or not _job_phrase_word(before.text):
                break
            if before.text.lower() in STOP_WORDS:
                break  # "seen by the nurse at ...": the phrase opens after it
            start -= 1
            if before.newline_before:
                break
        if start == position or not _opens_job_phrase(words, start):
            continue
        phrase = words.words[start:position]
        if not all(w.text.islower() or w.text[:1].isdigit() for w in phrase):
            continue  # "Coach at ... YMCA", "Ana Ruiz, RN at ...": no free job
        head = phrase[-1].text
        if head.endswith("s") and not head.endswith("ss"):
            continue  # a plural or a verb: "ushers at St. Ansgar"
        if head in VOLUNTEER_ROLES or any(w.text in RELATIONS for w in phrase):
            continue
        if is_job_word(head):
            found.append((start, position, JOB))
    return found


def _job_phrase_word(text: str) -> bool:
    """A word of a job phrase: letters and hyphens, or an ordinal ("3rd")."""
    return is_word_shaped(text) or _ORDINAL.fullmatch(text) is not None


def _opens_job_phrase(words: DocWords, start: int) -> bool:
    """Whether a mark or an opening word comes right before, on the line."""
    if start == 0 or words.words[start].newline_before:
        return False
    return words.words[start - 1].text.lower() in PHRASE_OPENERS


def _job_after(
    words: DocWords, taken: Sequence[bool], position: int, articles: bool = True
) -> Optional[Candidate]:
    """The job phrase starting at a word position (after an article), as a
    candidate, or None."""
    if articles and position < len(words) and words.words[position].text.lower() in ARTICLES:
        position += 1
    end = position
    while end < len(words) and end - position < MAX_JOB_WORDS:
        word = words.words[end]
        if word.newline_before or taken[word.index] or not is_word_shaped(word.text):
            break
        if word.text.lower() in ENDS:
            break
        end += 1
    while end > position and not is_job_word(words.words[end - 1].text):
        end -= 1
    return (position, end, JOB) if end > position else None


def is_job_word(text: str) -> bool:
    """Whether a word heads a job title: a head of Faker's job titles
    ("gaffer"), or an agent noun that WordNet does not file as a person by
    relation ("welder", not "woman" or "gentleman")."""
    word = text.lower()
    if word in occupation_heads() or word in _profession_heads():
        return True
    return (
        is_occupation_word(word, person_nouns=False)
        and load("nouns").get(word) != "relation"
    )


@lru_cache(maxsize=1)
def _profession_heads() -> frozenset:
    """The last words of the rules' professions ("cook" of "line cook")."""
    return frozenset(p.split()[-1].lower() for p in PROFESSIONS)
