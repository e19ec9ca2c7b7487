"""What the shipped tables know about a token: `lookup(text) -> Knowledge`.

A feature that knows a word is in a name list, but not how often it is used as a
name or as an ordinary word, cannot tell "Smith" from "Reading". `Knowledge`
holds the counts behind both, and `features` turns them into frequency buckets
that a tagger can hash or a rule can test.
"""

import math
from typing import Dict, List, NamedTuple, Optional, Tuple

from .fold import fold, name_key
from .columns import Columns, load_columns
from .tables import load

# A name's share of the population, as a zipf frequency, plus this offset, is the
# zipf frequency at which English text uses it: calibrated on frequent US names
# that are not words (Johnson, Williams, Anderson: -2.1; Hispanic surnames and
# female given names -2.4 to -3.0). The highest offset counts the most text as
# name use, so a word is called common only when names cannot explain it.
NAME_ZIPF_OFFSET = -2.0
NAME_POPULATION = 3e8  # about the people behind Census 2010 and SSA 1880-2017
# The same for a place and its population among the world's: London (9 million,
# zipf 5.3), Boston (0.7 million, 4.6) and Yakima (0.1 million, 2.8) lie below.
PLACE_ZIPF_OFFSET = -1.0
WORLD_POPULATION = 8e9
COMMON_WORD_ZIPF = 3.0  # at least once in a million words
WORD_OVER_NAME = 1.0  # zipf: word use at least 10 times what name use explains


class Knowledge(NamedTuple):
    """What the tables know about one folded token or phrase; zero when nothing.

    surname_count (int): People with this surname (US Census 2010).
    given_count (int): People given this name (SSA births 1880-2017).
    given_female (int): How many of `given_count` were female.
    place_population (int): Population of the largest place with this name.
    place_country (str): ISO code of that place's country ("" when none).
    is_country (bool): A country's name or a common alias ("New Zealand", "UK").
    is_country_code (bool): An ISO 3166 alpha-2 or alpha-3 code ("nz", "nzl").
    is_state (bool): A US state's name or AP abbreviation ("Texas", "Calif.").
    is_state_code (bool): A USPS state code ("tx"). Folded: "in" and "or" are
        codes too, so check the token's shape.
    is_county (bool): The name of a US county, without "County" ("Brazos").
    word_zipf (float): wordfreq English zipf frequency (0.0 below the cut-off).
    drug (str): "brand", "generic" or "combination" ("" when not a drug name).
    """

    surname_count: int = 0
    given_count: int = 0
    given_female: int = 0
    place_population: int = 0
    place_country: str = ""
    is_country: bool = False
    is_country_code: bool = False
    is_state: bool = False
    is_state_code: bool = False
    is_county: bool = False
    word_zipf: float = 0.0
    drug: str = ""

    @property
    def is_drug(self) -> bool:
        """RETURNS (bool): Whether it is a drug's brand, generic or combination name."""
        return bool(self.drug)

    @property
    def name_zipf(self) -> float:
        """RETURNS (float): The zipf frequency that its use as a name would have in
        English text, estimated from the name counts (0.0 when not a name)."""
        return name_zipf(self.surname_count + self.given_count)

    @property
    def place_zipf(self) -> float:
        """RETURNS (float): The zipf frequency that its use as a place name would
        have in English text, estimated from the population (0.0 when none)."""
        return place_zipf(self.place_population)

    @property
    def is_common_word(self) -> bool:
        """RETURNS (bool): Whether it is an ordinary English word: used at least
        once in a million words, at least 10 times as often as its use as a
        name or place explains, and not a country's or state's name. "reading",
        "may" and "fall" are; "smith", "barrett", "accra" and "texas" are not."""
        zipf = self.word_zipf
        if zipf < COMMON_WORD_ZIPF or self.is_country or self.is_state:
            return False
        return zipf - max(self.name_zipf, self.place_zipf) >= WORD_OVER_NAME


def name_zipf(count: int) -> float:
    """The zipf frequency in text of a name that `count` people have.

    count (int): People with the name.
    RETURNS (float): The estimated zipf frequency (0.0 for no one).
    """
    if count <= 0:
        return 0.0
    return max(0.0, math.log10(count / NAME_POPULATION) + 9 + NAME_ZIPF_OFFSET)


def place_zipf(population: int) -> float:
    """The zipf frequency in text of a place's name, from its population.

    population (int): The place's population.
    RETURNS (float): The estimated zipf frequency (0.0 for none).
    """
    if population <= 0:
        return 0.0
    return max(0.0, math.log10(population / WORLD_POPULATION) + 9 + PLACE_ZIPF_OFFSET)


# The answers for the texts looked up last, per loaded columns: a note's
# components ask about the same words again and again.
_MEMO: Dict[str, Knowledge] = {}
_MEMO_COLUMNS: Optional[Columns] = None
MEMO_SIZE = 1 << 16


def lookup(text: str) -> Knowledge:
    """What the shipped tables know about a token or phrase, case- and accent-folded.

    Answered from the precomputed columns (`columns.py`, read on first use in
    about a tenth of a second, then cached per process), and remembered for
    the last `MEMO_SIZE` texts.

    text (str): A token ("Zürich") or phrase ("New Zealand").
    RETURNS (Knowledge): The counts and flags; all zero when it is unknown.
    """
    global _MEMO_COLUMNS
    columns = load_columns()
    if _MEMO_COLUMNS is not columns:  # new columns (a rebuild): forget
        _MEMO.clear()
        _MEMO_COLUMNS = columns
    known = _MEMO.get(text)
    if known is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        known = _MEMO[text] = _lookup(text, columns)
    return known


def _lookup(text: str, columns: Columns) -> Knowledge:
    key = fold(text)
    if not key:
        return Knowledge()
    row = columns.row(key)
    names = name_key(text)
    name_row = row if names == key else columns.row(names)
    return Knowledge(
        surname_count=name_row.surname,
        given_count=name_row.given_female + name_row.given_male,
        given_female=name_row.given_female,
        place_population=row.population,
        place_country=row.country,
        is_country="country" in row.regions,
        is_country_code="country_code" in row.regions,
        is_state="state" in row.regions,
        is_state_code="state_code" in row.regions,
        is_county="county" in row.regions,
        word_zipf=row.words / 100,
        drug=row.drug,
    )


def lookup_in_tables(text: str) -> Knowledge:
    """`lookup` answered from the tables themselves (slow to load: a second or
    more); the reference that the columns are checked against."""
    key = fold(text)
    if not key:
        return Knowledge()
    names = name_key(text)
    given = load("given").get(names, (0, 0))
    place = load("places").get(key, (0, ""))
    kinds = {kind for kind, _ in load("regions").get(key, ())}
    return Knowledge(
        surname_count=load("surnames").get(names, 0),
        given_count=given[0] + given[1],
        given_female=given[0],
        place_population=place[0],
        place_country=place[1],
        is_country="country" in kinds,
        is_country_code="country_code" in kinds,
        is_state="state" in kinds,
        is_state_code="state_code" in kinds,
        is_county="county" in kinds,
        word_zipf=load("words").get(key, 0) / 100,
        drug=load("drugs").get(key, ""),
    )


def region_codes(text: str) -> Tuple[Tuple[str, str], ...]:
    """The regions a token or phrase names, with their codes.

    text (str): A token or phrase ("Georgia", "Calif.").
    RETURNS (Tuple[Tuple[str, str], ...]): (kind, code) pairs, e.g.
        (("country", "GE"), ("state", "GA")); a county's code lists its states.
    """
    return load("regions").get(fold(text), ())


def bucket(count: float) -> str:
    """A count's order of magnitude, as a feature value.

    count (float): A count (people, a population).
    RETURNS (str): "0" for none, else "1e<N>" with 10**N <= count < 10**(N+1).
    """
    if count < 1:
        return "0"
    return f"1e{int(math.log10(count))}"


def zipf_bucket(zipf: float) -> str:
    """A zipf frequency's whole part, as a feature value.

    zipf (float): A zipf frequency (0.0 for unknown).
    RETURNS (str): "z0" for unknown or rarer than once in 100 million words,
        else "z<N>" (z3: about once per million words; z6: "will").
    """
    return f"z{max(0, int(zipf))}"


def features(knowledge: Knowledge) -> List[str]:
    """The knowledge as feature strings for a hashed-feature tagger or a rule.

    knowledge (Knowledge): What `lookup` returned.
    RETURNS (List[str]): e.g. ["surname=1e6", "word=z4"] for "Smith"; only
        what is known, so an unknown token gives [].
    """
    k = knowledge
    found = [
        f"surname={bucket(k.surname_count)}" if k.surname_count else "",
        f"given={bucket(k.given_count)}" if k.given_count else "",
        f"place={bucket(k.place_population)}" if k.place_population else "",
        f"word={zipf_bucket(k.word_zipf)}" if k.word_zipf else "",
        "common_word" if k.is_common_word else "",
        "country" if k.is_country else "",
        "country_code" if k.is_country_code else "",
        "state" if k.is_state else "",
        "state_code" if k.is_state_code else "",
        "county" if k.is_county else "",
        f"drug={k.drug}" if k.drug else "",
    ]
    return [feature for feature in found if feature]
