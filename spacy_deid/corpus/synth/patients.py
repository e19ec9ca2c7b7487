"""Persistent patient profiles and the clinician pool they share."""

import datetime as dt
from dataclasses import dataclass, field
from random import Random
from typing import List, Optional, Tuple

from . import data
from .values import Address, Hospital, Person, Values

ROLES_F = (
    "wife",
    "daughter",
    "mother",
    "sister",
    "niece",
    "granddaughter",
    "aunt",
    "partner",
    "girlfriend",
    "friend",
    "neighbor",
    "stepdaughter",
)
ROLES_M = (
    "husband",
    "son",
    "father",
    "brother",
    "nephew",
    "grandson",
    "uncle",
    "partner",
    "boyfriend",
    "friend",
    "neighbor",
    "son-in-law",
)
SAME_LAST = {
    "daughter",
    "son",
    "sister",
    "brother",
    "mother",
    "father",
    "granddaughter",
    "grandson",
    "wife",
    "husband",
    "stepdaughter",
}


@dataclass
class Relative:
    """A family member or contact of the patient."""

    role: str
    person: Person
    phone: str
    profession: str = ""


@dataclass
class Profile:
    """Everything PHI-like about one synthetic patient."""

    id: str
    person: Person
    dob: dt.date
    start: dt.date
    mrn: str
    ssn: str
    healthplan: str
    account: str
    address: Address
    phone: str
    cell: str
    email: str
    employer: str
    profession: str
    school: str
    hometown: Tuple[str, str]
    country: str
    hospital: Hospital
    clinic: Hospital
    dept: str
    pcp: Person
    attending: Person
    consultants: List[Person]
    relatives: List[Relative] = field(default_factory=list)
    vehicle: str = ""
    device: str = ""
    bioid: str = ""
    website: str = ""

    def age_at(self, when: dt.date) -> int:
        """Age in whole years on a date."""
        years = when.year - self.dob.year
        if (when.month, when.day) < (self.dob.month, self.dob.day):
            years -= 1
        return max(years, 0)


class StaffPool:
    """Clinicians shared across patients (as in one hospital's notes)."""

    def __init__(self, values: Values, size: int = 400) -> None:
        self.values = values
        self.staff = [values.person() for _ in range(size)]
        for p in self.staff:
            p.extra["pager"] = values.pager()
            p.extra["phone"] = values.phone(ext=0.3)
            kind = values.rng.choice(("dea", "npi", "license"))
            p.extra["license"] = values.ident(kind)
            p.extra["license_kind"] = kind

    def pick(self) -> Person:
        """A random staff member (a few are much more frequent)."""
        r = self.values.rng
        if r.random() < 0.15:
            return self.staff[r.randrange(12)]
        return r.choice(self.staff)


def _era_start(rng: Random) -> dt.date:
    """Note-set start date: present-day years or i2b2-style shifted ones."""
    year = rng.randint(2060, 2105) if rng.random() < 0.55 else rng.randint(1996, 2025)
    return dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(365))


def _age(rng: Random) -> int:
    r = rng.random()
    if r < 0.08:
        return rng.randint(90, 104)
    if r < 0.11:
        return rng.randint(1, 17)
    return rng.randint(18, 89)


def make_profile(
    pid: str, values: Values, staff: StaffPool, sex: Optional[str] = None
) -> Profile:
    """Draw a patient profile with family, employer, doctors and identifiers."""
    r = values.rng
    person = values.person(sex)
    start = _era_start(r)
    age = _age(r)
    dob = start - dt.timedelta(days=age * 365 + r.randrange(360))
    hometown = r.choice(data.cities())
    prof = Profile(
        id=pid,
        person=person,
        dob=dob,
        start=start,
        mrn=values.ident("mrn"),
        ssn=values.ident("ssn"),
        healthplan=values.ident("healthplan"),
        account=values.ident("account"),
        address=values.address(),
        phone=values.phone(ext=0.0),
        cell=values.phone(ext=0.0),
        email=values.email(person),
        employer=values.organization(),
        profession=r.choice(data.lines("professions.txt")),
        school=r.choice(data.lines("organizations.txt")[-30:]),
        hometown=(hometown[0], hometown[1]),
        country=r.choice(data.lines("countries.txt")),
        hospital=values.hospital(),
        clinic=values.hospital(),
        dept=r.choice(data.lines("departments.txt")),
        pcp=staff.pick(),
        attending=staff.pick(),
        consultants=[staff.pick() for _ in range(3)],
        vehicle=values.vehicle(),
        device=values.ident("device"),
        bioid=values.ident("bioid"),
        website=values.url(person.last),
    )
    for _ in range(r.randint(1, 5)):
        rsex = r.choice("MF")
        role = r.choice(ROLES_M if rsex == "M" else ROLES_F)
        last = person.last if role in SAME_LAST and r.random() < 0.7 else None
        rel = values.person(rsex, last=last)
        prof.relatives.append(
            Relative(
                role,
                rel,
                values.phone(ext=0.0),
                r.choice(data.lines("professions.txt")),
            )
        )
    return prof


def note_dates(profile: Profile, n: int, rng: Random) -> List[dt.date]:
    """Increasing note dates for one patient's documents."""
    dates, cur = [], profile.start
    for _ in range(n):
        dates.append(cur)
        cur = cur + dt.timedelta(days=rng.choice((0, 1, 2, 3, 7, 14, 30, 60, 120, 365)))
    return dates
