"""Social history patterns: PROFESSION and ORGANIZATION (employer) after a cue.

`works as a paramedic`, `retired schoolteacher`, `Occupation: electrician`,
`a carpenter by trade`, `works in construction`; `works at Home Depot`,
`employed by Acme Corp.`, `Employer: First National Bank`, `retired from
General Electric`; in lower-case shorthand, a school or employer with a head
word, `teaches at kelverton elementary school`, `car towed by brannock tow`
(validator `lower_facility`). A profession must be in the curated lexicon
(`lexicons/professions.py`), so "works as a team" does not fire. An employer
that is a facility ("works at Mercy Hospital") is left to HOSPITAL.
"""

from typing import List

from ..lexicons.facilities import LOWER_ORGANIZATION_HEADS
from ..lexicons.professions import INDUSTRIES, PROFESSIONS
from ._common import END, EOL, LOWER_NAME, PRIO_SOCIAL, alternation, make_pattern

_JOB = alternation((p.replace(" ", r"[ \t]+") for p in PROFESSIONS), ignore_case=True)
_INDUSTRY = alternation(
    (i.replace(" ", r"[ \t]+") for i in INDUSTRIES), ignore_case=True
)
_END = r"(?![\w\-])"
# Modifiers kept outside the span: "works as a part-time cashier".
_MODIFIER = (
    r"(?:(?i:part-time|full-time|part[ \t]+time|full[ \t]+time|night-shift"
    r"|night[ \t]+shift|self-employed|freelance|licensed|certified|senior"
    r"|junior|head|chief|local|professional|long-haul|long[ \t]+haul|retired"
    r"|former|master|journeyman|substitute|volunteer)[ \t]+){0,2}"
)
_ARTICLE = r"(?:(?i:an?|the)[ \t]+)?"
_WORK = r"(?i:works?|worked|working|employed|job|jobs|employment|occupation)"
# A shift word between the work verb and "as" ("works nights as").
_SHIFT = (
    r"[ \t]+(?i:nights|days|evenings|weekends|overnights|part-time"
    r"|full-time|seasonally)"
)
# "as", an article, modifiers and a job of the lexicon (the span).
_AS_JOB = (
    r"[ \t]+(?i:as)[ \t]+" + _ARTICLE + _MODIFIER + r"(?P<phi>" + _JOB + r"s?)" + _END
)
# "her former physician", "the retired nurse" are people, not professions.
_NOT_BEFORE = (
    r"(?i:\b(?:his|her|their|my|your|our|the|pt'?s|patient'?s)[ \t]+"
    r"(?:former|retired|ex-?)[ \t]*(?:[\w\-]+[ \t]+){0,2})" + END
)
# Employer names: capitalised words with connectors, an optional legal suffix.
_ORG_STOP = (
    r"(?!(?:The|A|An|This|That|His|Her|Their|My|Our|Dr|Doctor|Mr|Mrs|Ms"
    r"|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Night|Nights"
    r"|Times|Least|Work|Present|Baseline|Risk|Rest)\b)"
)
_ORG_WORD = (
    _ORG_STOP + r"(?:(?:[A-Z]['\u2019])?[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:['\u2019]s)?"
    r"(?:-[A-Z]?[a-z]+)*|[A-Z]{2,}(?:&[A-Z]+)?(?:['\u2019]S)?(?:-[A-Z]{2,})*"
    r"|[A-Z]&[A-Z])"
    r"(?![\w'\u2019])"
)
_ORG_CONN = r"(?:[ \t]+(?:of|the|and|&|for|de))"
_ORG_WORDS = _ORG_WORD + r"(?:" + _ORG_CONN + r"{0,2}[ \t]+" + _ORG_WORD + r"){0,4}"
# A union local keeps its number: "Teamsters Local 25".
_ORG_WORDS += r"(?:(?<=Local)[ \t]+\d{1,5}\b)?"
# A legal suffix keeps its dot unless the dot ends the sentence.
_ORG_SUFFIX = (
    r"(?:,?[ \t]+(?:Inc|INC|LLC|L\.L\.C|Corp|CORP|Co|CO|Ltd|LTD|LLP|PLC|LP)\b"
    r"(?:\.(?![ \t]*" + EOL + r"|\s+[A-Z]|\s*[\r\n]))?)?"
)
# "Smith, Jones and Brown" (a firm) / "Acme Corp." / "First National Bank".
_ORG = (
    r"(?:"
    + _ORG_WORD
    + r"(?:,[ \t]+"
    + _ORG_WORD
    + r")*,?[ \t]+(?:and|&|AND)[ \t]+"
    + _ORG_WORD
    + r"|"
    + _ORG_WORDS
    + r")"
    + _ORG_SUFFIX
)
_ORG_CUE = (
    r"(?<![\w\-])(?:(?i:(?:works?|worked|working|employed|job|jobs|employment"
    r"|volunteers?|volunteered|volunteering|interns?|interned)"
    r"(?:[ \t]+as[ \t]+(?:an?[ \t]+)?[a-z\-]+(?:[ \t]+[a-z\-]+)?)?[ \t]+"
    r"(?:at|for|with|by)|retired[ \t]+from|employer[ \t]*:|employed[ \t]*:"
    r"|place[ \t]+of[ \t]+employment[ \t]*:))[ \t]*(?:(?i:the)[ \t]+)?"
)

# Lower-case employers and schools in sign-out shorthand.
_LOWER_ORG_CUE = (
    r"(?<![\w\-])(?i:(?:teaches|works|worked|grandson|granddaughter|kids|son"
    r"|daughter|attends|prays)[ \t]+at|works?[ \t]+for|(?:laid[ \t]+off|retired)"
    r"[ \t]+from|towed[ \t]+by|car[ \t]+at|attends|attend)[ \t]+"
)
_LOWER_ORG_HEAD = (
    alternation(h.replace(" ", r"[ \t]+") for h in LOWER_ORGANIZATION_HEADS)
    + r"(?![\w\-])"
)


def _social(id: str, label: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_SOCIAL)
    return make_pattern(id, label, regex, **kwargs)


PATTERNS: List[dict] = [
    # works as a paramedic / worked as an electrician / employed as a cashier
    _social(
        "profession.works_as",
        "PROFESSION",
        r"(?<![\w\-])" + _WORK + _AS_JOB,
        score=0.85,
    ),
    # works nights as a crane operator / works weekends as an usher: a job
    # outside the lexicon, after a shift word, as the train split's
    # free-phrased jobs write it; the last word must head a job title.
    _social(
        "profession.works_shift_as",
        "PROFESSION",
        r"(?<![\w\-])"
        + _WORK
        + _SHIFT
        + r"[ \t]+(?i:as)[ \t]+(?i:an?)[ \t]+"
        r"(?P<phi>[a-z]+(?:[ \t]+[a-z]+)?)(?=[ \t]*(?:[.,;:)\n]|[ \t](?i:at|for|in|with)\b))",
        validator="occupation",
        score=0.8,
    ),
    # works nights as a CNA at ...: a job of the lexicon after a shift word,
    # in any case ("CNA", "Glazier").
    _social(
        "profession.works_shift_as_lexicon",
        "PROFESSION",
        r"(?<![\w\-])" + _WORK + _SHIFT + _AS_JOB,
        score=0.85,
    ),
    # Pt is an usher at Grand Theater / She is a welder for Acme: "is a" and
    # a job outside the lexicon, then its employer's capitalised name.
    _social(
        "profession.is_a_at",
        "PROFESSION",
        r"\b(?i:pt|patient|he|she)[ \t]+(?i:is|was)[ \t]+(?i:an?)[ \t]+"
        r"(?P<phi>[a-z]+(?:[ \t]+[a-z]+)?)[ \t]+(?i:at|for)[ \t]+(?=[A-Z])",
        validator="occupation",
        score=0.75,
    ),
    # Occupation: electrician / Profession: retired teacher / Job: cashier
    _social(
        "profession.header",
        "PROFESSION",
        r"(?<![\w\-])(?i:occupation|profession|job(?:[ \t]+title)?|employment"
        r"|works?)[ \t]*:[ \t]*"
        + _ARTICLE
        + _MODIFIER
        + r"(?P<phi>"
        + _JOB
        + r"s?)"
        + _END,
        score=0.85,
    ),
    # retired schoolteacher / former police officer / ex-marine
    _social(
        "profession.retired",
        "PROFESSION",
        r"(?<![\w\-])(?i:retired|former|ex-)[ \t]*"
        + _MODIFIER
        + r"(?P<phi>"
        + _JOB
        + r")"
        + _END,
        exclude_before=_NOT_BEFORE,
        context_window=40,
        score=0.8,
    ),
    # a carpenter by trade / nurse by training / lawyer by profession
    _social(
        "profession.by_trade",
        "PROFESSION",
        # The lookahead finds "by trade" before the lexicon is tried.
        r"(?<![\w\-])(?=[A-Za-z][\w\-]*(?:[ \t]+[\w\-]+){0,2}[ \t]+(?i:by)[ \t]+"
        r"(?i:trade|profession|occupation|training)\b)(?P<phi>"
        + _JOB
        + r")[ \t]+(?i:by)[ \t]+(?i:trade|profession|occupation|training)\b",
        score=0.85,
    ),
    # works in construction / worked in landscaping
    _social(
        "profession.works_in",
        "PROFESSION",
        r"(?<![\w\-])"
        + _WORK
        + r"[ \t]+(?i:in)[ \t]+(?P<phi>"
        + _INDUSTRY
        + r")"
        + _END,
        score=0.75,
    ),
    # works at Home Depot / employed by Acme Corp. / Employer: First Bank
    _social(
        "organization.employer",
        "ORGANIZATION",
        _ORG_CUE + r"(?P<phi>" + _ORG + r")",
        validator="organization",
        score=0.75,
    ),
    # teaches at kelverton elementary school / car towed by brannock tow
    _social(
        "organization.lower_cued",
        "ORGANIZATION",
        _LOWER_ORG_CUE
        + r"(?P<phi>"
        + LOWER_NAME
        + r"[ \t]+(?P<head>"
        + _LOWER_ORG_HEAD
        + r"))",
        validator="lower_facility",
        score=0.7,
    ),
]
