"""AGE patterns (i2b2 style: the span is the number only, "68" in "68 yo").

The `age` validator rejects ages over 125 and flags ages over 89
(`span._.phi_flags == ["AGE_OVER_89"]`), which HIPAA Safe Harbor requires to
remove.

An age range or open bound under 90 after "age" ("age 45-65 screening", "age 65
and older", "age 50+") describes a population (screening, guidelines), not the
patient, and is not tagged; with a number over 89 ("age 90-95") it is.
"""

from typing import List

from ._common import BOL, END, EOL, NOT_NL, PRIO_AGE, make_pattern

_NUM = r"(?<![\d.,/\-])(?P<phi>\d{1,3})"


# After a number under 90 (not 3 digits, not 9x): a range or an open bound.
_NOT_POPULATION = (
    r"(?!(?<!\d\d\d)(?<!9\d)(?:[ \t]*(?:-|\u2013|to\b)[ \t]*\d|[ \t]*\+"
    r"|[ \t]+(?:(?i:years?|yrs?)[ \t]+)?(?i:and|or)[ \t]+(?i:older|over|above"
    r"|up|younger|under|below)\b))"
)


def _age(id: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_AGE)
    kwargs.setdefault("validator", "age")
    return make_pattern(id, "AGE", regex, **kwargs)


PATTERNS: List[dict] = [
    # 68 year old, 68-year-old, 68 years old, 68 yr old, 68 years of age
    _age(
        "age.year_old",
        _NUM + r"(?:[ \t]*-[ \t]*|[ \t]+)?(?i:years?|yrs?\.?|y\.?)"
        r"(?:[ \t]*-[ \t]*|[ \t]+)(?i:old|of[ \t]+age)\b",
        score=0.98,
    ),
    # 68yo, 68 yo, 68 y/o, 68 y.o., 68yoM, 68 yo F
    _age(
        "age.yo",
        _NUM + r"[ \t]*-?[ \t]*(?i:yo|y/o|y\.o\.?)(?:[MFmf]\b)?(?![\w/])",
        score=0.95,
    ),
    # "(56 yrs)", "(54 years)", "(63 y)" after a date of birth.
    _age(
        "age.paren",
        r"\([ \t]*" + _NUM + r"[ \t]*(?i:y|yo|yrs?|years?)(?:[ \t]+(?i:old))?[ \t]*\)",
        score=0.9,
    ),
    # "56y woman", "58y retired teacher", "81yM": a bare "y" before a person
    # word or the sex (every such "NyM" of 8,000 train notes is an age).
    _age(
        "age.y_person",
        _NUM + r"[ \t]?y(?:[MFmf]\b|(?=[ \t]+(?i:woman|man|male|female|gentleman"
        r"|lady|boy|girl|retired|[MF]\b)))",
        score=0.85,
    ),
    # "died at 84", "passed away at age 58" (ages of relatives are PHI too).
    _age(
        "age.died_at",
        r"\b(?i:died|passed[ \t]+away|deceased|death)[ \t]+(?i:at)[ \t]+"
        r"(?:(?i:age)[ \t]+)?" + _NUM + r"(?![\d:]|\.\d)",
        exclude_after=r"^[ \t]*(?i:am|pm|a\.m|p\.m|hours?|hrs?|h\b|o'clock)",
        score=0.85,
    ),
    # aged 68, age: 68, Age 68, age of 68, turned 91 (not "gestational age 38 wks",
    # "turned 90 degrees")
    _age(
        "age.cued",
        r"\b(?i:aged|age|turned|turns|turning)"
        r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:of[ \t]+|is[ \t]+)?)"
        + _NUM
        + r"(?!\d|\.\d|[ \t]*(?i:%|mg|kg|lb|cm))"
        # An age range or bound under 90 ("age 45-65 screening", "age 65 and
        # older", "age 50+") is a population, not the patient's age.
        + _NOT_POPULATION,
        exclude_before=r"(?i:\b(?:gestational|bone|corrected|post-?menstrual"
        r"|skeletal|dental|developmental|mental|reading)[ \t]+aged?\b)"
        + NOT_NL
        + "{0,6}"
        + END,
        exclude_after=r"^[ \t]*(?:\u00b0|(?i:weeks?|wks?|days?|d\b|months?|mos?\b"
        r"|deg|degrees|times|x\b))",
        score=0.9,
    ),
    # Headers and one-liners: "68M with CHF", "a 68 F presents", "Pt: 68F".
    # Needs the start of a line or a short cue before it, and a clinical word,
    # punctuation or the line end after it ("2 M KCl" is a molarity).
    _age(
        "age.sex_header",
        r"(?:"
        + BOL
        + r"|(?<=[(,;:|/])|\b(?i:a|an|is|pt|patient|this)[ \t]+)[ \t]*"
        + _NUM
        + r"[ \t]?(?:[MF]|yo[MF])(?![\w\-'\u00b0])"
        r"(?=[ \t]*(?:"
        + EOL
        + r"|[,;:.)|/]|(?i:w/|c/o|s/p|h/o)|(?i:with|presents|presenting"
        r"|who|hx|pmh|admitted|transferred|here|is|was|referred|returns|seen|comes"
        r"|came|complains|having|in|on|from|status|patient|pt|bib|brought|dob)\b))",
        flags="m",
        exclude_before=r"(?i:\b(?:t|temp|temperature|tmax|tm|tc|fever|febrile)\b)"
        + NOT_NL
        + "{0,12}"
        + END,
        score=0.8,
    ),
    # "in her 80s", "in his early 90's", "in their mid-70s": the span is "80s".
    _age(
        "age.decade",
        r"\b(?i:in[ \t]+(?:his|her|their)[ \t]+"
        r"(?:(?:early|mid|late)[ \t\-]+)?)"
        r"(?P<phi>[1-9]0['\u2019]?s)\b",
        score=0.9,
    ),
    # Words that imply an age over 89; flagged like a number > 89.
    _age(
        "age.over_89_word",
        r"\b(?P<phi>(?i:nonagenarian|centenarian|supercentenarian)s?)\b",
        validator="age_over_89",
        score=0.9,
    ),
]
