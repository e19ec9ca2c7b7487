"""PHI value factories: names, dates, phones, addresses and identifiers."""

import datetime as dt
import unicodedata
from dataclasses import dataclass, field
from random import Random
from typing import Dict, List, Optional

from faker import Faker

from ..text.datenames import MONTHS, WEEKDAYS
from . import data
from .noise import typo
from .tables import (
    AREA_CODES,
    EMAIL_DOMAINS,
    FULL_DATE_STYLES,
    HOLIDAYS,
    ID_SHAPES,
    LOCALES,
    MON3,
    MON_ALT,
    PARTIAL_DATE_STYLES,
    SEASONS,
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


class Values:
    """Seeded PHI value factory shared by a generator run."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.fakers: Dict[str, Faker] = {}
        for loc, _ in LOCALES:
            fk = Faker(loc)
            fk.seed_instance(rng.randrange(2**31))
            self.fakers[loc] = fk
        self.locales = [loc for loc, _ in LOCALES]
        self.weights = [w for _, w in LOCALES]
        self.nicknames: Dict[str, List[str]] = data.load_json("nicknames.json")
        self._facility_addr: Dict[str, Address] = {}

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
        first = fk.first_name_male() if sex == "M" else fk.first_name_female()
        if r.random() < 0.05:
            first = r.choice(data.lines("extra_names.txt"))
        middle = ""
        if r.random() < 0.6:
            middle = (
                fk.first_name_male() if r.random() < 0.5 else fk.first_name_female()
            )
        if last is None:
            last = fk.last_name()
            if r.random() < 0.03:
                last = r.choice(
                    (
                        "Reading",
                        "Warren",
                        "Lincoln",
                        "Chase",
                        "Bishop",
                        "Parker",
                        "Hunter",
                        "May",
                        "Mark",
                        "Hope",
                        "Jordan",
                    )
                )
            elif r.random() < 0.08:
                last = f"{last}-{self.fakers['en_US'].last_name()}"
            elif r.random() < 0.07:
                last = r.choice(data.lines("surnames_extra.txt"))
        nick = r.choice(self.nicknames[first]) if first in self.nicknames else ""
        person = Person(first=first, last=last, middle=middle, sex=sex, nick=nick)
        person.username = self.username(person)
        return person

    def username(self, p: Person) -> str:
        """A login derived from a name, in one of several shapes."""
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
        styles = (
            "full",
            "full",
            "full",
            "fml",
            "lf",
            "lfm_caps",
            "last",
            "first",
            "init_last",
            "initials",
            "nick",
            "lower",
            "upper",
            "lf_caps",
            "lf_mi",
            "last_init",
            "full_suffix",
        )
        style = style or r.choice(styles)
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
        if r.random() < 0.015 and len(out) > 5:
            out = typo(out, r).strip()
        return out

    # -- dates -------------------------------------------------------------
    def date(self, d: dt.date, style: Optional[str] = None) -> str:
        """Render a full calendar date."""
        r = self.rng
        style = style or r.choice(FULL_DATE_STYLES)
        y, m, day = d.year, d.month, d.day
        if style == "mdY":
            return f"{m:02d}/{day:02d}/{y}"
        if style == "mdY_short":
            return f"{m}/{day}/{y}"
        if style == "mdy":
            return f"{m}/{day}/{y % 100:02d}"
        if style == "mdy0":
            return f"{m:02d}/{day:02d}/{y % 100:02d}"
        if style == "iso":
            return f"{y}-{m:02d}-{day:02d}"
        if style == "mdy_dash":
            return f"{m}-{day}-{y % 100:02d}"
        if style == "mdY_dot":
            return f"{m:02d}.{day:02d}.{y}"
        if style == "Mon_d_Y":
            return f"{MON_ALT[m - 1]} {day}, {y}"
        if style == "Month_d_Y":
            return f"{MONTHS[m - 1]} {day}, {y}"
        if style == "d_Month_Y":
            return f"{day} {MONTHS[m - 1]} {y}"
        if style == "d-Mon-Y":
            return f"{day:02d}-{MON3[m - 1]}-{y}"
        if style == "dMONY":
            return f"{day:02d}{MON3[m - 1].upper()}{y}"
        if style == "dmY_eu":
            return f"{day:02d}/{m:02d}/{y}"
        if style == "Ymd_slash":
            return f"{y}/{m:02d}/{day:02d}"
        if style == "mdY_dash":
            return f"{m:02d}-{day:02d}-{y}"
        if style == "Month_dth_Y":
            return f"{MONTHS[m - 1]} {day}{ordinal(day)}, {y}"
        if style == "the_dth_of":
            return f"the {day}{ordinal(day)} of {MONTHS[m - 1]}, {y}"
        if style == "Mon_d_Y_nocomma":
            return f"{MON_ALT[m - 1]} {day} {y}"
        if style == "Mon_dth":
            return f"{MON_ALT[m - 1]}. {day}{ordinal(day)} {y}"
        return f"{y}{m:02d}{day:02d}"

    def partial_date(self, d: dt.date, style: Optional[str] = None) -> str:
        """Render a partial or relative date expression (still a DATE span)."""
        r = self.rng
        style = style or r.choice(PARTIAL_DATE_STYLES)
        if style == "md":
            return f"{d.month}/{d.day}"
        if style == "Month_d":
            return f"{MONTHS[d.month - 1]} {d.day}"
        if style == "Mon_d":
            return f"{MON_ALT[d.month - 1]}{r.choice(('. ', ' '))}{d.day}"
        if style == "md0":
            return f"{d.month:02d}/{d.day:02d}"
        if style == "Month_dth":
            return f"{r.choice((MONTHS, MON_ALT))[d.month - 1]} {d.day}{ordinal(d.day)}"
        if style == "the_dth":
            return f"the {d.day}{ordinal(d.day)}"
        if style == "weekday":
            return WEEKDAYS[d.weekday()]
        if style == "season":
            return SEASONS[(d.month % 12) // 3 if d.month != 12 else 3]
        if style == "year":
            return str(d.year)
        if style == "year_short":
            return f"'{d.year % 100:02d}"
        if style == "month_year":
            return f"{MONTHS[d.month - 1]} {d.year}"
        if style == "my":
            return f"{d.month}/{d.year}"
        if style == "my_short":
            return f"{d.month:02d}/{d.year % 100:02d}"
        if style == "holiday":
            return r.choice(HOLIDAYS)
        return MONTHS[d.month - 1]

    # -- contact -------------------------------------------------------------
    def phone(self, ext: float = 0.1) -> str:
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
        """An e-mail address, derived from a name when given."""
        r = self.rng
        if p is None:
            p = self.person()
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
        """An IPv4 address."""
        r = self.rng
        first = r.choice((10, 172, 192, r.randint(11, 223)))
        return ".".join(
            str(x)
            for x in (first, r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
        )

    # -- places ----------------------------------------------------------------
    def address(self) -> Address:
        """A US street address."""
        r = self.rng
        city, st, zp = r.choice(data.cities())
        fk = self.fakers["en_US"]
        if r.random() < 0.5:
            street = fk.street_address()
        else:
            street = f"{r.randint(1, 999)} {fk.last_name()} {r.choice(STREET_SUFFIX)}"
            if r.random() < 0.3:
                street += r.choice((" Apt ", " Apt. ", " #", ", Unit ", " Apt #"))
                street += r.choice(
                    (str(r.randint(1, 40)), shape("#L", r), shape("##", r))
                )
        z = zp + f"{r.randrange(100):02d}"
        if r.random() < 0.15:
            z += "-" + shape("####", r)
        return Address(street, city, st, z)

    def facility_address(self, h: Hospital) -> Address:
        """The (stable) street address of a facility."""
        if h.name not in self._facility_addr:
            r = self.rng
            prefixes = [z for c, s, z in data.cities() if c == h.city and s == h.state]
            zp = prefixes[0] if prefixes else shape("###", r)
            street = f"{r.randint(1, 2000)} {self.fakers['en_US'].last_name()} "
            street += r.choice(STREET_SUFFIX)
            if r.random() < 0.3:
                street += r.choice((", Suite ", ", Ste ", ", Floor ")) + str(
                    r.randint(1, 900)
                )
            self._facility_addr[h.name] = Address(
                street, h.city, h.state, zp + f"{r.randrange(100):02d}"
            )
        return self._facility_addr[h.name]

    def organization(self, kind: str = "employer") -> str:
        """An organisation of a kind (`employer`, `school`, `young_school`,
        `team`, `church`, `charity`, `group`): curated, or Faker-made employers."""
        r = self.rng
        orgs = data.load_json("organizations.json")
        if kind != "employer" or r.random() < 0.6:
            return r.choice(orgs[kind])
        name = self.fakers[r.choice(("en_US", "en_US", "en_GB", "de_DE"))].company()
        if r.random() < 0.3:
            name = name.split(",")[0].split(" and ")[0]
        return name

    def hospital(self) -> Hospital:
        """A care facility, real-sounding or composed."""
        r = self.rng
        if r.random() < 0.6:
            h = r.choice(data.load_json("hospitals.json"))
            return Hospital(h["name"], list(h["abbr"]), h["city"], h["state"])
        parts = data.load_json("hospital_parts.json")
        city, st, _ = r.choice(data.cities())
        head = r.choice(parts["prefix"]) if r.random() < 0.5 else city
        name = f"{head} {r.choice(parts['suffix'])}"
        abbr = "".join(w[0] for w in name.replace("'", "").split() if w[0].isalpha())
        return Hospital(name, [abbr.upper()], city, st)

    def room(self) -> str:
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
        """An identifier of a given kind in one of its real-world shapes."""
        return shape(self.rng.choice(ID_SHAPES[kind]), self.rng)

    def vehicle(self) -> str:
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


def ordinal(n: int) -> str:
    """English ordinal suffix."""
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
