"""Compositional organisation names of every kind (courts, insurers, pharmacies,
agencies, daycares, transport services, registries, employers, schools,
churches), built from real place, county and surname values.

A curated list of sixty organisations teaches a tagger sixty strings; real notes
name the patient's employer, school, church, court and insurer, which are
almost never on any list. What carries over is the shape: a head (a town, a
county, a surname, an ordinary word) and a kind word ("County Court", "Mutual
Insurance", "Learning Center"). The patterns below are those shapes; the heads
come from `world.py`, so every split draws its own.
"""

from random import Random
from typing import Callable, Dict, Tuple

from . import world
from .data import states

# {town}, {county}, {surname}, {state} and {word} are filled per draw.
PATTERNS: Dict[str, Tuple[str, ...]] = {
    "court": (
        "{county} County Court", "{county} County District Court",
        "{town} Municipal Court", "{county} County Probate Court",
        "{county} County Family Court", "{state} Superior Court",
        "{town} Housing Court", "{county} County Juvenile Court",
    ),
    "insurer": (
        "{surname} Mutual Insurance", "{state} Health Plan", "{word} Health Insurance",
        "{town} Mutual", "{surname} & {surname2} Insurance Group",
        "{word} Life and Casualty", "{state} Employers Insurance",
        "{word} Care Health Plan",
    ),
    "pharmacy": (
        "{surname}'s Pharmacy", "{town} Drug", "{town} Apothecary",
        "{surname} Family Pharmacy", "{word} Pharmacy", "{town} Discount Drugs",
        "{surname} Rexall",
    ),
    "agency": (
        "{county} County Department of Social Services", "{town} Housing Authority",
        "{surname} Home Care Agency", "{county} County Child Protective Services",
        "{town} Council on Aging", "{state} Department of Labor",
        "{county} County Sheriff's Office", "{town} Police Department",
        "{word} Visiting Nurse Association", "{county} County Public Defender",
    ),
    "daycare": (
        "{word} Daycare", "Little {word} Learning Center", "{word} Preschool",
        "{surname} Child Care Center", "{town} Montessori",
        "{word} Kids Early Learning", "{town} Head Start",
    ),
    "transport": (
        "{town} Medical Transport", "{surname} Ambulette", "{county} County Transit",
        "{word} Cab Company", "{town} Ambulance Service", "{surname} Van Lines",
        "{word} Medical Rides",
    ),
    "registry": (
        "{state} Cancer Registry", "{state} Immunization Registry",
        "{state} Donor Registry", "{county} County Birth Registry",
        "{state} Trauma Registry",
    ),
    "employer": (
        "{surname} Construction", "{surname} & Sons", "{town} Auto Body",
        "{surname} Landscaping", "{town} Public Works", "{word} Logistics",
        "{surname} Manufacturing", "{town} Country Club", "{word} Dental Group",
        "{surname} Brothers Trucking", "{town} Savings Bank", "{word} Diner",
    ),
    "school": (
        "{town} High School", "{surname} Elementary School", "{town} Middle School",
        "{town} Community College", "{surname} Academy", "{county} County Schools",
        "University of {town}", "{town} State University",
    ),
    "church": (
        "St. {given}'s Church", "First Baptist Church of {town}",
        "{town} Lutheran Church", "{word} Community Church",
        "{town} Islamic Center", "Temple {word}", "{town} United Methodist Church",
    ),
}  # fmt: skip
# Ordinary words that name daycares, insurers and the like ("Maple", "Harbor").
WORDS = (
    "Maple", "Harbor", "Acorn", "Bluebird", "Meadow", "Summit", "Willow",
    "Cedar", "Rainbow", "Evergreen", "Liberty", "Pioneer", "Keystone",
    "Lighthouse", "Riverside", "Golden", "Sparrow", "Oakwood", "Horizon",
    "Granite", "Beacon", "Orchard", "Sunrise", "Heritage", "Compass",
)  # fmt: skip


def organization(rng: Random, split: str, kind: str) -> str:
    """A composed organisation name of a kind (one of `PATTERNS`).

    rng (Random): The run's seeded random generator.
    split (str): The split whose pools give the heads.
    kind (str): "court", "insurer", "pharmacy", ...
    RETURNS (str): The name; the caller checks it against the split's pool.
    """
    pattern = rng.choice(PATTERNS[kind])
    fill: Dict[str, Callable[[], str]] = {
        "town": lambda: world.us_town(rng, split),
        "county": lambda: world.county(rng, split),
        "surname": lambda: world.surname(rng, split),
        "surname2": lambda: world.surname(rng, split),
        "given": lambda: world.given_name(rng, split, rng.choice("FM")),
        "state": lambda: rng.choice(sorted(states().values())),
        "word": lambda: rng.choice(WORDS),
    }
    return pattern.format(
        **{key: make() for key, make in fill.items() if "{" + key + "}" in pattern}
    )
