"""Persistent patient profiles and the clinician pool they share."""

import datetime as dt
from dataclasses import dataclass, field
from random import Random
from typing import List, Optional, Tuple

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
    "grandmother",
    "grandfather",
}
SPOUSE_ROLES = frozenset(("wife", "husband"))
PARTNER_ROLES = frozenset(("partner", "boyfriend", "girlfriend"))
CHILD_ROLES = frozenset(
    ("son", "daughter", "stepdaughter", "grandson", "granddaughter", "niece", "nephew")
)
# Age of a relative relative to the patient's: (min offset, max offset, min age).
ROLE_AGE = {
    "wife": (-12, 8, 18),
    "husband": (-8, 12, 18),
    "partner": (-10, 10, 18),
    "girlfriend": (-10, 6, 16),
    "boyfriend": (-6, 10, 16),
    "son": (-42, -20, 0),
    "daughter": (-42, -20, 0),
    "stepdaughter": (-40, -18, 0),
    "son-in-law": (-38, -22, 20),
    "grandson": (-72, -44, 0),
    "granddaughter": (-72, -44, 0),
    "mother": (18, 40, 0),
    "father": (20, 45, 0),
    "grandmother": (40, 70, 0),
    "grandfather": (42, 72, 0),
    "sister": (-12, 12, 0),
    "brother": (-12, 12, 0),
    "niece": (-45, -15, 0),
    "nephew": (-45, -15, 0),
    "aunt": (8, 30, 0),
    "uncle": (8, 30, 0),
    "friend": (-10, 10, 0),
    "neighbor": (-25, 25, 16),
}
JOBS_ADULT = (
    ("employed", 60),
    ("unemployed", 8),
    ("laid_off", 8),
    ("disabled", 10),
    ("retired", 6),
    ("student", 8),
)


@dataclass
class Relative:
    """A family member or contact of the patient."""

    role: str
    person: Person
    phone: str
    profession: str = ""
    age: int = 40
    school: str = ""


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
    marital: str = "single"
    job: str = "employed"

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
    hometown = values.city()
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
        employer=values.organization("employer"),
        profession=values.profession(),
        school="",
        hometown=(hometown[0], hometown[1]),
        country=values.country() if r.random() < 0.5 else values.pick("countries.txt"),
        hospital=values.hospital(),
        clinic=values.hospital(),
        dept=values.pick("departments.txt"),
        pcp=staff.pick(),
        attending=staff.pick(),
        consultants=[staff.pick() for _ in range(3)],
        vehicle=values.vehicle(),
        device=values.ident("device"),
        bioid=values.ident("bioid"),
        website=values.url(person.last),
    )
    for _ in range(r.randint(1, 5)):
        add_relative(prof, values, r)
    _life(prof, values, r, age)
    return prof


def note_dates(profile: Profile, n: int, rng: Random) -> List[dt.date]:
    """Increasing note dates for one patient's documents."""
    dates, cur = [], profile.start
    for _ in range(n):
        dates.append(cur)
        cur = cur + dt.timedelta(days=rng.choice((0, 1, 2, 3, 7, 14, 30, 60, 120, 365)))
    return dates


def _role_ok(prof: Profile, role: str, age: int) -> bool:
    lo, hi, floor = ROLE_AGE[role]
    if age < 18 and role in SPOUSE_ROLES | PARTNER_ROLES | {"son-in-law"}:
        return False
    if age + hi < floor or age + lo > 100:
        return False
    taken = {rel.role for rel in prof.relatives}
    couple = SPOUSE_ROLES | PARTNER_ROLES
    if role in couple and taken & couple:
        return False
    return not (role in ("mother", "father") and role in taken)


def add_relative(
    prof: Profile,
    values: Values,
    r: Random,
    roles: Optional[Tuple[str, ...]] = None,
) -> Optional[Relative]:
    """Add an age-plausible relative (a role allowed for the patient's age)."""
    age = prof.age_at(prof.start)
    for _ in range(20):
        if roles:
            role = r.choice(roles)
        else:
            rsex = r.choice("MF")
            role = r.choice(ROLES_M if rsex == "M" else ROLES_F)
            if age < 18 and r.random() < 0.5:
                role = r.choice(("grandmother", "grandfather", "mother", "father"))
        if role in ("partner", "friend", "neighbor"):
            rsex = r.choice("MF")
        else:
            rsex = "M" if role in ROLES_M or role == "grandfather" else "F"
        if not _role_ok(prof, role, age):
            continue
        lo, hi, floor = ROLE_AGE[role]
        rage = min(max(age + r.randint(lo, hi), floor), 100)
        last = prof.person.last if role in SAME_LAST and r.random() < 0.7 else None
        rel = Relative(
            role,
            values.person(rsex, last=last),
            values.phone(ext=0.0),
            values.profession() if rage >= 18 else "",
            rage,
        )
        rel.school = _school(values, rage)
        prof.relatives.append(rel)
        return rel
    return None


def _school(values: Values, age: int) -> str:
    if age < 5:
        return ""
    return values.organization("young_school" if age < 14 else "school")


def _life(prof: Profile, values: Values, r: Random, age: int) -> None:
    """Marital status, employment and school consistent with age and family."""
    roles = {rel.role for rel in prof.relatives}
    if roles & SPOUSE_ROLES:
        prof.marital = "married"
    elif age < 18:
        prof.marital = "single"
    elif roles & PARTNER_ROLES:
        prof.marital = r.choice(("single", "single", "divorced"))
    else:
        opts = ["single", "divorced"] + (
            ["widowed"] * (1 + (age > 65)) if age > 45 else []
        )
        prof.marital = r.choice(opts)
    if age < 5:
        prof.job = "child"
    elif age < 18:
        prof.job = "student"
    elif age >= 67:
        prof.job = "retired" if r.random() < 0.85 else "employed"
    else:
        jobs = [j for j, _ in JOBS_ADULT]
        weights = [w for _, w in JOBS_ADULT]
        if age > 24:
            weights[jobs.index("student")] = 1
        if age > 55:
            weights[jobs.index("retired")] = 25
        prof.job = r.choices(jobs, weights)[0]
    prof.school = _school(values, min(age, 30)) if age >= 5 else ""
