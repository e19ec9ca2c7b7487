"""PHI value factories: names, dates, phones, addresses and identifiers."""

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from random import Random
from typing import Callable, Dict, List, Optional, Tuple

from faker import Faker

from . import data, orgs, world
from .dates import render_date, render_partial
from ..surrogates.readable import natural_job
from .noise import typo
from .pools import draw, in_pool, name_in_pool, pooled, vary
from .tables import (
    AREA_CODES,
    EMAIL_DOMAINS,
    ID_SHAPES,
    LOCALES,
    STREET_SUFFIX,
)


@dataclass
class Person:
    """A named person (patient, relative or clinician)."""

    first: str
    last: str
    middle: str = ""
    sex: str = "F"
    nick: str = ""
    username: str = ""
    extra: Dict[str, str] = field(default_factory=dict)


@dataclass
class Hospital:
    """A care facility with its abbreviations."""

    name: str
    abbrs: List[str]
    city: str
    state: str


@dataclass
class Address:
    """A postal address."""

    street: str
    city: str
    state: str
    zip: str


def ascii_fold(text: str) -> str:
    """Strip accents (for e-mail addresses and user names)."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(c for c in norm if c.isascii() and (c.isalnum() or c in ".-_"))


def shape(pattern: str, rng: Random) -> str:
    """Fill a shape: `#` digit, `L` capital letter, `l` lower, `A` alnum."""
    out = []
    for ch in pattern:
        if ch == "#":
            out.append(str(rng.randrange(10)))
        elif ch == "L":
            out.append(chr(65 + rng.randrange(26)))
        elif ch == "l":
            out.append(chr(97 + rng.randrange(26)))
        elif ch == "A":
            out.append(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789"))
        else:
            out.append(ch)
    return "".join(out)


NAME_STYLES = (
    "full", "full", "full", "fml", "lf", "lfm_caps", "last", "first", "init_last",
    "initials", "nick", "lower", "upper", "lf_caps", "lf_mi", "last_init",
    "full_suffix",
)  # fmt: skip
# Share of names, cities and professions drawn from the knowledge tables
# (`world.py`) rather than Faker and the curated lists: real distributions,
# rare values included.
KNOWLEDGE_SHARE = 0.4
# Surnames that are also ordinary words or places.
WORD_SURNAMES = (
    "Reading", "Warren", "Lincoln", "Chase", "Bishop", "Parker", "Hunter", "May",
    "Mark", "Hope", "Jordan",
)  # fmt: skip


class Values:
    """Seeded PHI value factory shared by a generator run.

    rng (Random): The run's seeded random generator.
    split (str): "train", "dev" or "test" draw every value from that split's
        pool (`pools.py`); "all" from everything.
    """

    def __init__(self, rng: Random, split: str = "all") -> None:
        self.rng = rng
        self.split = split
        self.fakers: Dict[str, Faker] = {}
        for loc, _ in LOCALES:
            fk = Faker(loc)
            fk.seed_instance(rng.randrange(2**31))
            self.fakers[loc] = fk
        self.locales = [loc for loc, _ in LOCALES]
        self.weights = [w for _, w in LOCALES]
        self.nicknames: Dict[str, List[str]] = data.load_json("nicknames.json")
        self._facility_addr: Dict[str, Address] = {}
        self._cities = tuple(c for c in data.cities() if in_pool(c[0], split))

    # -- curated lists ------------------------------------------------------
    def pick(self, name: str) -> str:
        """A line of a curated list in `data/`, from the split's pool."""
        return self.rng.choice(pooled(data.lines(name), self.split))

    def city(self) -> Tuple[str, str, str]:
        """A (city, state abbreviation, ZIP prefix) triple from the pool: a
        curated city, or a small town with a state and ZIP prefix of its own."""
        r = self.rng
        if r.random() < KNOWLEDGE_SHARE:
            _, state, _ = r.choice(data.cities())
            return world.us_town(r, self.split), state, shape("###", r)
        return r.choice(self._cities)

    def us_town(self) -> Tuple[str, str]:
        """A US town of fewer than 60,000 people and a state abbreviation."""
        _, state, _ = self.rng.choice(data.cities())
        return world.us_town(self.rng, self.split), state

    def world_city(self) -> Tuple[str, str]:
        """A city outside the US and its country's name ("" when that name is
        in another split's pool)."""
        return world.world_city(self.rng, self.split)

    def country(self) -> str:
        """A country's name or common alias, from the split's pool."""
        return world.country(self.rng, self.split)

    def profession(self) -> str:
        """A profession: curated, or one of Faker's job titles in natural
        word order ("public librarian")."""
        r = self.rng
        if r.random() < KNOWLEDGE_SHARE:
            job = draw(lambda: natural_job(self.fakers["en_US"].job()), self.split)
            return job if r.random() < 0.5 else job[0].lower() + job[1:]
        return self.pick("professions.txt")

    def _pooled_name(self, make: Callable[[], str], curated: str) -> str:
        """A name word from Faker, in the pool; else from a curated list."""
        opts = pooled(data.lines(curated), self.split, names=True)
        return draw(make, self.split, name_in_pool, lambda _: self.rng.choice(opts))

    # -- people -----------------------------------------------------------
    def person(
        self,
        sex: Optional[str] = None,
        last: Optional[str] = None,
        locale: Optional[str] = None,
    ) -> Person:
        """A new person; `last` forces a family name."""
        r = self.rng
        sex = sex or r.choice("MF")
        loc = locale or r.choices(self.locales, self.weights)[0]
        fk = self.fakers[loc]
        male = sex == "M"
        first = self._pooled_name(
            fk.first_name_male if male else fk.first_name_female, "extra_names.txt"
        )
        if r.random() < KNOWLEDGE_SHARE:
            first = world.given_name(r, self.split, sex)
        elif r.random() < 0.05:
            first = r.choice(pooled(data.lines("extra_names.txt"), self.split, True))
        middle = ""
        if r.random() < 0.6:
            middle = self._pooled_name(
                fk.first_name_male if r.random() < 0.5 else fk.first_name_female,
                "extra_names.txt",
            )
        if last is None:
            last = self._pooled_name(fk.last_name, "surnames_extra.txt")
            if r.random() < KNOWLEDGE_SHARE:
                last = world.surname(r, self.split)
            word_names = pooled(WORD_SURNAMES, self.split, names=True)
            if r.random() < 0.03:
                last = r.choice(word_names) if word_names else last
            elif r.random() < 0.08:
                second = self._pooled_name(
                    self.fakers["en_US"].last_name, "surnames_extra.txt"
                )
                last = f"{last}-{second}"
            elif r.random() < 0.07:
                last = r.choice(
                    pooled(data.lines("surnames_extra.txt"), self.split, True)
                )
        nicks = pooled(self.nicknames.get(first, ()), self.split, names=True)
        nick = r.choice(nicks) if nicks else ""
        person = Person(first=first, last=last, middle=middle, sex=sex, nick=nick)
        person.username = self.username(person)
        return person

    def username(self, p: Person) -> str:
        """A login derived from a name, in one of several shapes, in the pool."""
        return draw(lambda: self._username(p), self.split)

    def _username(self, p: Person) -> str:
        r = self.rng
        f, la = ascii_fold(p.first).lower() or "x", ascii_fold(p.last).lower() or "y"
        m = ascii_fold(p.middle).lower()[:1]
        form = r.randrange(7)
        if form == 0:
            return f[0] + la[:8]
        if form == 1:
            return la[:7] + f[0]
        if form == 2:
            return f"{f[0]}{m}{la[:6]}{r.randint(1, 99)}"
        if form == 3:
            return (f[0] + m + la[0]).upper() + str(r.randint(1, 999))
        if form == 4:
            return f"{f}.{la}"
        if form == 5:
            return f"{la[:3]}{f[:2]}{r.randint(10, 99)}"
        return f[0] + la[0] + shape("###", r)

    def name(self, p: Person, style: Optional[str] = None) -> str:
        """Render a person's name in a given (or random) style."""
        r = self.rng
        out = self._render(p, style or r.choice(NAME_STYLES))
        if not name_in_pool(out, self.split):
            # Initials outside the split's pool (`JMS` of two splits' people).
            out = self._render(p, "init_last")
        if r.random() < 0.015 and len(out) > 5:
            typed = typo(out, r).strip()
            # A typo must not make another split's name (`Smoth`).
            out = typed if name_in_pool(typed, self.split) else out
        return out

    def _render(self, p: Person, style: str) -> str:
        r = self.rng
        mi = p.middle[:1]
        if style == "fml":
            out = f"{p.first} {mi}. {p.last}" if mi else f"{p.first} {p.last}"
        elif style == "lf":
            out = f"{p.last}, {p.first}"
        elif style == "lfm_caps":
            out = f"{p.last}, {p.first} {mi}".strip().upper()
        elif style == "lf_caps":
            out = f"{p.last.upper()}, {p.first}"
        elif style == "last":
            out = p.last
        elif style == "first":
            out = p.first
        elif style == "init_last":
            out = f"{p.first[0]}{r.choice(('. ', ' ', '.'))}{p.last}"
        elif style == "initials":
            out = p.first[0] + mi + p.last[0]
            out = out if r.random() < 0.6 else ".".join(out) + "."
        elif style == "nick":
            out = (
                f"{p.nick or p.first} {p.last}"
                if r.random() < 0.6
                else (p.nick or p.first)
            )
        elif style == "lf_mi":
            out = f"{p.last}, {p.first} {mi}." if mi else f"{p.last}, {p.first}"
        elif style == "last_init":
            out = f"{p.last} {p.first[0]}{r.choice(('', '.'))}"
        elif style == "full_suffix":
            out = f"{p.first} {p.last}"
            if p.sex == "M" and r.random() < 0.5:
                out += r.choice((" Jr.", " Jr", ", Jr.", " Sr.", " III", " II"))
        elif style == "lower":
            out = f"{p.first} {p.last}".lower()
        elif style == "upper":
            out = f"{p.first} {p.last}".upper()
        else:
            out = f"{p.first} {p.last}"
        return out

    # -- dates -------------------------------------------------------------
    def date(self, d: dt.date, style: Optional[str] = None) -> str:
        """Render a full calendar date (shared by every split)."""
        return render_date(d, self.rng, style)

    def partial_date(self, d: dt.date, style: Optional[str] = None) -> str:
        """Render a partial or relative date expression (still a DATE span)."""
        return render_partial(d, self.rng, style)

    # -- contact -------------------------------------------------------------
    def phone(self, ext: float = 0.1) -> str:
        """A phone number in a random format, in the pool."""
        return draw(lambda: self._phone(ext), self.split)

    def _phone(self, ext: float = 0.1) -> str:
        """A phone number in a random format."""
        r = self.rng
        area = r.choice(AREA_CODES)
        ex, line = f"{r.randint(200, 989)}", f"{r.randrange(10000):04d}"
        form = r.randrange(10)
        if form < 3:
            out = f"({area}) {ex}-{line}"
        elif form < 6:
            out = f"{area}-{ex}-{line}"
        elif form == 6:
            out = f"{area}.{ex}.{line}"
        elif form == 7:
            out = f"{ex}-{line}"
        elif form == 8:
            out = f"{area} {ex} {line}"
        else:
            out = r.choice(
                (
                    f"1-800-{ex}-{line}",
                    f"+1 {area} {ex} {line}",
                    f"{area}{ex}{line}",
                    f"({area}){ex}-{line}",
                    f"{area}/{ex}-{line}",
                    f"{area}-{ex}{line}",
                )
            )
        if r.random() < ext:
            out += r.choice((" x", " ext. ", " ext ", "x", " X")) + str(
                r.randint(10, 9999)
            )
        return out

    def pager(self) -> str:
        """An internal pager or extension, in the pool."""
        return draw(lambda: self._pager(), self.split)

    def _pager(self) -> str:
        """An internal pager or extension."""
        r = self.rng
        return r.choice(
            (
                shape("#####", r),
                shape("####", r),
                shape("#-####", r),
                shape("###-####", r),
            )
        )

    def email(self, p: Optional[Person] = None) -> str:
        """An e-mail address, derived from a name when given, in the pool."""
        who = p if p is not None else self.person()
        return draw(lambda: self._email(who), self.split, fallback=self._email_in_pool)

    def _email_in_pool(self, value: str) -> str:
        user, _, domain = value.partition("@")
        n = 1
        while not in_pool(f"{user}{n}@{domain}", self.split):
            n += 1
        return f"{user}{n}@{domain}"

    def _email(self, p: Person) -> str:
        r = self.rng
        f, la = ascii_fold(p.first).lower() or "pt", ascii_fold(p.last).lower() or "x"
        user = r.choice(
            (
                f"{f}.{la}",
                f"{f[0]}{la}",
                f"{f}{la}{r.randint(1, 99)}",
                f"{la}.{f[0]}",
                f"{f}_{la}",
                p.username or f,
            )
        )
        return f"{user}@{r.choice(EMAIL_DOMAINS)}"

    def url(self, hint: str = "") -> str:
        """A web address, in the pool."""
        return draw(lambda: self._url(hint), self.split)

    def _url(self, hint: str = "") -> str:
        """A web address."""
        r = self.rng
        base = (
            ascii_fold(hint).lower().replace(".", "")
            or self.fakers["en_US"].domain_word()
        )
        tld = r.choice(("org", "com", "net", "edu"))
        path = r.choice(
            (
                "",
                "/patients",
                "/portal",
                "/mychart/login",
                "/forms/release.pdf",
                "/appointments",
                "/~support",
            )
        )
        pre = r.choice(("www.", "http://www.", "https://", "https://portal.", ""))
        return f"{pre}{base}.{tld}{path}"

    def ip(self) -> str:
        """An IPv4 address, in the pool."""
        return draw(lambda: self._ip(), self.split)

    def _ip(self) -> str:
        """An IPv4 address."""
        r = self.rng
        first = r.choice((10, 172, 192, r.randint(11, 223)))
        return ".".join(
            str(x)
            for x in (first, r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
        )

    # -- places ----------------------------------------------------------------
    def address(self) -> Address:
        """A US street address, in the pool."""
        r = self.rng
        city, st, zp = self.city()
        fk = self.fakers["en_US"]

        def street() -> str:
            if r.random() < 0.5:
                return fk.street_address()
            last = self._pooled_name(fk.last_name, "surnames_extra.txt")
            out = f"{r.randint(1, 999)} {last} {r.choice(STREET_SUFFIX)}"
            if r.random() < 0.3:
                out += r.choice((" Apt ", " Apt. ", " #", ", Unit ", " Apt #"))
                out += r.choice((str(r.randint(1, 40)), shape("#L", r), shape("##", r)))
            return out

        return Address(
            draw(street, self.split, street_in_pool), city, st, self._zip(zp)
        )

    def _zip(self, prefix: str, plus4: bool = True) -> str:
        def make() -> str:
            z = prefix + f"{self.rng.randrange(100):02d}"
            if plus4 and self.rng.random() < 0.15:
                z += "-" + shape("####", self.rng)
            return z

        return draw(make, self.split)

    def facility_address(self, h: Hospital) -> Address:
        """The (stable) street address of a facility, in the pool."""
        if h.name not in self._facility_addr:
            r = self.rng
            prefixes = [z for c, s, z in data.cities() if c == h.city and s == h.state]
            zp = prefixes[0] if prefixes else shape("###", r)

            def street() -> str:
                last = self._pooled_name(
                    self.fakers["en_US"].last_name, "surnames_extra.txt"
                )
                out = f"{r.randint(1, 2000)} {last} {r.choice(STREET_SUFFIX)}"
                if r.random() < 0.3:
                    out += r.choice((", Suite ", ", Ste ", ", Floor "))
                    out += str(r.randint(1, 900))
                return out

            self._facility_addr[h.name] = Address(
                draw(street, self.split, street_in_pool),
                h.city,
                h.state,
                self._zip(zp, plus4=False),
            )
        return self._facility_addr[h.name]

    def organization(self, kind: str = "employer") -> str:
        """An organisation of a kind: curated (`employer`, `school`,
        `young_school`, `team`, `church`, `charity`, `group`), composed
        (`orgs.PATTERNS`: also `court`, `insurer`, `pharmacy`, `agency`,
        `daycare`, `transport`, `registry`), or Faker-made employers."""
        r = self.rng
        curated = pooled(
            data.load_json("organizations.json").get(kind, ()), self.split
        )
        composed = kind in orgs.PATTERNS
        if composed and (not curated or r.random() < KNOWLEDGE_SHARE):
            return draw(lambda: orgs.organization(r, self.split, kind), self.split)
        if curated and (kind != "employer" or r.random() < 0.6):
            return r.choice(curated)

        def company() -> str:
            loc = r.choice(("en_US", "en_US", "en_GB", "de_DE"))
            name = self.fakers[loc].company()
            if r.random() < 0.3:
                name = name.split(",")[0].split(" and ")[0]
            return name

        return draw(company, self.split)

    def hospital(self) -> Hospital:
        """A care facility, real-sounding or composed, in the pool: its name,
        its city and each abbreviation kept (abbreviations outside it dropped)."""
        r = self.rng
        curated = [
            h
            for h in data.load_json("hospitals.json")
            if in_pool(h["name"], self.split)
        ]
        if r.random() < 0.6 and curated:
            h = r.choice(curated)
            city, st = h["city"], h["state"]
            if not in_pool(city, self.split):
                # A pooled city of the same state where the pool has one, the
                # same for every mention of this hospital (no rng draw).
                near = [c for c in self._cities if c[1] == st] or self._cities
                city, st, _ = near[sum(map(ord, h["name"])) % len(near)]
            return Hospital(h["name"], self._abbrs(h["abbr"]), city, st)
        parts = data.load_json("hospital_parts.json")
        city, st, _ = self.city()
        heads = pooled(parts["prefix"], self.split)

        def make() -> str:
            head = r.choice(heads) if heads and r.random() < 0.5 else city
            return f"{head} {r.choice(parts['suffix'])}"

        name = draw(make, self.split, fallback=lambda v: vary(v, self.split, " "))
        abbr = "".join(w[0] for w in name.replace("'", "").split() if w[0].isalpha())
        return Hospital(name, self._abbrs([abbr.upper()]), city, st)

    def _abbrs(self, abbrs: List[str]) -> List[str]:
        return [a for a in abbrs if in_pool(a, self.split)]

    def room(self) -> str:
        """A room or bed number, in the pool."""
        return draw(lambda: self._room(), self.split)

    def _room(self) -> str:
        """A room or bed number."""
        r = self.rng
        return r.choice(
            (
                shape("###", r),
                shape("####", r),
                shape("##L", r),
                shape("L##", r),
                shape("#-###", r),
                shape("###-L", r),
                str(r.randint(1, 30)),
            )
        )

    # -- identifiers ------------------------------------------------------------
    def ident(self, kind: str) -> str:
        """An identifier of a kind in one of its real-world shapes, in the pool."""
        return draw(lambda: self._ident(kind), self.split)

    def _ident(self, kind: str) -> str:
        """An identifier of a given kind in one of its real-world shapes."""
        return shape(self.rng.choice(ID_SHAPES[kind]), self.rng)

    def vehicle(self) -> str:
        """A licence plate or VIN, in the pool."""
        return draw(lambda: self._vehicle(), self.split)

    def _vehicle(self) -> str:
        """A licence plate or VIN."""
        r = self.rng
        if r.random() < 0.25:
            return "".join(
                r.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17)
            )
        return shape(
            r.choice(
                (
                    "#LL###",
                    "LLL-####",
                    "###-LLL",
                    "##L #L#",
                    "#LLL##",
                    "LL-####",
                    "###LLL",
                )
            ),
            r,
        )


def street_in_pool(street: str, split: str) -> bool:
    """Whether a street's name (without number and unit) is in the pool."""
    core = _UNIT.split(street)[0]
    return in_pool(" ".join(w for w in core.split() if not _HAS_DIGIT(w)), split)


_UNIT = re.compile(r",|\s(?:Apt|Suite|Ste|Unit|Floor)\b|\s#")
_HAS_DIGIT = re.compile(r"\d").search
