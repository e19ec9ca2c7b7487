"""Name surrogates' building blocks: the name pools of a Faker locale, name
tokens and initials, and a doc's name context (what its initials stand for,
and the detected names a surrogate must never be)."""

import importlib
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, Tuple

from faker.providers.person.en_US import Provider as _PersonProvider

_FIRST_MALE: List[str] = list(_PersonProvider.first_names_male)
_FIRST_FEMALE: List[str] = list(_PersonProvider.first_names_female)
_LAST: List[str] = list(_PersonProvider.last_names)
_FIRST_MALE_SET = {name.lower() for name in _FIRST_MALE}
_FIRST_FEMALE_SET = {name.lower() for name in _FIRST_FEMALE}
_FIRST_SET = _FIRST_MALE_SET | _FIRST_FEMALE_SET
_LAST_SET = {name.lower() for name in _LAST}

# Titles and suffixes kept in names. Particles ("de", "van", "Le") are not
# kept: some are whole surnames.
NAME_KEEP_WORDS = {
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "rev", "md", "phd",
    "rn", "np", "jr", "sr", "ii", "iii", "iv",
}  # fmt: skip

NAME_TOKEN_RE = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")

_INITIALS_RE = re.compile(r"[A-Z]{1,3}")


@dataclass(frozen=True)
class NamePools:
    """First and last names of one locale, to draw name surrogates from."""

    first_male: List[str]
    first_female: List[str]
    last: List[str]
    first_male_set: FrozenSet[str]
    first_female_set: FrozenSet[str]

    def pool(self, lower: str, rng: random.Random) -> List[str]:
        """The pool for a name token: male or female first names when the
        token is one (a coin decides for names that are both), else last
        names.

        lower (str): The lower-cased token.
        rng (random.Random): The seeded generator.
        RETURNS (List[str]): The names to choose from.
        """
        male = lower in self.first_male_set
        female = lower in self.first_female_set
        if male and female:
            return self.first_male if rng.random() < 0.5 else self.first_female
        if male or female:
            return self.first_male if male else self.first_female
        return self.last


@lru_cache(maxsize=None)
def name_pools(locale: str) -> NamePools:
    """The name pools of a Faker locale (en_US when it has no name lists).

    locale (str): A Faker locale.
    RETURNS (NamePools): Its first names (male, female) and last names.
    """
    try:
        module = importlib.import_module(f"faker.providers.person.{locale}")
        provider = module.Provider
        male = list(getattr(provider, "first_names_male", ()))
        female = list(getattr(provider, "first_names_female", ()))
        last = list(getattr(provider, "last_names", ()))
    except ImportError:
        male, female, last = [], [], []
    if not (male and female and last):
        male, female, last = _FIRST_MALE, _FIRST_FEMALE, _LAST
    return NamePools(
        first_male=male,
        first_female=female,
        last=last,
        first_male_set=frozenset(name.lower() for name in male),
        first_female_set=frozenset(name.lower() for name in female),
    )


# A NameContext maps initials ("JS") to the full name tokens they stand for
# (("john", "smith")), and "L whalen" (an initial and the next token) to the
# first name (("laura",)). Under AVOID_KEY it holds every name token of the
# doc's name spans: a surrogate name token is never one of them, so a
# surrogate never puts another detected (real) name of the note in the output.
NameContext = Dict[str, Tuple[str, ...]]
AVOID_KEY = ""


def name_context(texts: Iterable[str]) -> NameContext:
    """Collect the initials of the full names in a doc's name spans.

    texts (Iterable[str]): The PATIENT/DOCTOR span texts, in doc order.
    RETURNS (NameContext): The initials and what they stand for.
    """
    context: NameContext = {}
    avoid: set = set()
    for text in texts:
        tokens = [
            match
            for match in NAME_TOKEN_RE.finditer(text)
            if match.group().lower() not in NAME_KEEP_WORDS
        ]
        avoid.update(m.group().lower() for m in tokens if not is_initials(m.group()))
        run: List[str] = []
        for i, match in enumerate(tokens):
            token = match.group()
            joined = i > 0 and not text[tokens[i - 1].end() : match.start()].strip()
            if is_initials(token) or not joined:
                _add_runs(context, run)
                run = []
            if not is_initials(token):
                run.append(token.lower())
        _add_runs(context, run)
    context[AVOID_KEY] = tuple(sorted(avoid))
    return context


def _add_runs(context: NameContext, run: List[str]) -> None:
    for size in (2, 3):
        for start in range(len(run) - size + 1):
            part = tuple(run[start : start + size])
            context.setdefault("".join(t[0] for t in part).upper(), part)
    for first, following in zip(run, run[1:], strict=False):
        context.setdefault(f"{first[0].upper()} {following}", (first,))


def is_initials(token: str) -> bool:
    """1-3 capitals that are not a known name ("JS", "L"; not "LEE")."""
    if not _INITIALS_RE.fullmatch(token):
        return False
    lower = token.lower()
    return len(token) == 1 or (lower not in _FIRST_SET and lower not in _LAST_SET)


def one_letter_case(token: str, new: str) -> str:
    return new.lower() if token.islower() else new.upper()
