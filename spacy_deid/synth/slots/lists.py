"""Slots for telegraphic ward lists and table rows: lower-case bed-list
surnames, rooms with a bed letter, short dates without a year, logins and
extensions, word-like first names, licence numbers, masked SSNs and informal
organisation and facility mentions.

Word-like names ("grace", "fisher") are drawn from the shipped name tables
filtered by `knowledge.lookup`: a name people are given (or a surname) that is
also an ordinary English word.
"""

import calendar
from functools import lru_cache
from typing import Tuple

from ...knowledge.lookup import lookup
from ...knowledge.tables import load
from .. import world
from ..context import NoteContext, article, slot
from ..data import states
from ..pools import draw, in_pool, name_in_pool
from ..values import ascii_fold, shape

# How many bearers a table name needs before it counts as a name people know.
MIN_GIVEN = 20000
MIN_SURNAME = 10000
# Lower-case abbreviated weekday names (a DATE span).
LC_DAYS = ("sun", "mon", "tues", "tue", "wed", "weds", "thurs", "thu", "fri", "sat")
LC_DAYS_TEST = ("sund", "thur", "satur")
SEX_FORMS = ("{a}{s}", "{a}{s}", "{a} {s}", "{a}yo {s}", "{a}y{s}")


@lru_cache(maxsize=None)
def word_firsts(split: str) -> Tuple[str, ...]:
    """Given names that are ordinary words (`Grace`, `Ivy`), in the pool."""
    return tuple(
        world.display(k)
        for k, c in sorted(load("given").items())
        if sum(c) >= MIN_GIVEN
        and k.isalpha()
        and len(k) > 2
        and lookup(k).is_common_word
        and name_in_pool(k, split)
    )


@lru_cache(maxsize=None)
def word_surnames(split: str) -> Tuple[str, ...]:
    """Surnames that are ordinary words (`Fisher`, `Cook`), in the pool."""
    return tuple(
        world.display(k)
        for k, c in sorted(load("surnames").items())
        if c >= MIN_SURNAME
        and k.isalpha()
        and len(k) > 2
        and lookup(k).is_common_word
        and name_in_pool(k, split)
    )


def _surname(ctx: NoteContext) -> str:
    """A surname for a bed list: common, word-like, O'-prefixed or two-part."""
    r, split = ctx.rng, ctx.v.split
    form = r.random()
    if form < 0.25:
        words = word_surnames(split)
        if words:
            return r.choice(words)
    if form < 0.35:
        return draw(
            lambda: "O'" + world.surname(r, split), split, name_in_pool,
            lambda _: world.surname(r, split),
        )  # fmt: skip
    if form < 0.45:
        return draw(
            lambda: f"{world.surname(r, split)}{r.choice(' -')}"
            f"{world.surname(r, split)}",
            split, name_in_pool, lambda _: world.surname(r, split),
        )  # fmt: skip
    if form < 0.6:
        return ctx.v.person().last
    return world.surname(r, split)


@slot("lcroom")
def s_lcroom(ctx: NoteContext, arg: str) -> None:
    """`412b`, `9`, `12a`, `3107`: a room, digits and an optional bed letter."""
    r = ctx.rng

    def make() -> str:
        num = r.choice((shape("###", r), shape("##", r), str(r.randint(1, 30)),
                        shape("####", r)))  # fmt: skip
        return num + (r.choice("abcdAB") if r.random() < 0.45 else "")

    val = draw(make, ctx.v.split)
    ctx.phi(val, "ROOM")


@slot("lcsur")
def s_lcsur(ctx: NoteContext, arg: str) -> None:
    """A listed patient's surname, lower-cased (PATIENT); `agesex` adds ` 67m`."""
    name = _surname(ctx)
    ctx.phi(name.lower() if ctx.chance(0.85) else name, "PATIENT")
    if arg == "agesex":
        ctx.add(" ")
        _agesex(ctx)


def _agesex(ctx: NoteContext) -> None:
    age = str(ctx.rng.randint(19, 99))
    sex = ctx.choice(("m", "f", "M", "F"))
    form = ctx.choice(SEX_FORMS)
    before, _, after = form.partition("{a}")
    ctx.add(before)
    ctx.phi(age, "AGE")
    ctx.add(after.format(s=sex))


@slot("agesex")
def s_agesex(ctx: NoteContext, arg: str) -> None:
    """`67m`, `88 f`, `45yo m` (the span is the number)."""
    _agesex(ctx)


@slot("lcday")
def s_lcday(ctx: NoteContext, arg: str) -> None:
    """`sun`, `thurs`: a lower-case day abbreviation (DATE); `test`: rarer forms."""
    ctx.phi(ctx.choice(LC_DAYS_TEST if arg == "test" else LC_DAYS), "DATE")


@slot("sdate")
def s_sdate(ctx: NoteContext, arg: str) -> None:
    """`3/4`, `03/14`: month and day, no year (DATE); `arg` names which date
    (`note`, `onset`, `adm`, ...; default a few days before the note)."""
    d = ctx.when(arg or "onset")
    form = ctx.rng.randrange(5)
    if form == 4:
        val = f"{d.month:02d}/{d.day:02d}"
    elif form == 3:
        val = f"{d.month}-{d.day}"
    else:
        val = f"{d.month}/{d.day}"
    ctx.phi(val, "DATE")


@slot("srange")
def s_srange(ctx: NoteContext, arg: str) -> None:
    """`6/10-6/12`: two short dates (two DATE spans)."""
    a, b = ctx.when("adm"), ctx.when("onset")
    a, b = min(a, b), max(a, b)
    ctx.phi(f"{a.month}/{a.day}", "DATE")
    ctx.add(ctx.choice(("-", " - ", " to ")))
    ctx.phi(f"{b.month}/{b.day}", "DATE")


@slot("ratio")
def s_ratio(ctx: NoteContext, arg: str) -> None:
    """A slash ratio that is no date (BP, FiO2/PEEP, tablet fraction)."""
    r = ctx.rng
    ctx.add(
        ctx.choice(
            (
                f"BP {r.randint(92, 168)}/{r.randint(48, 96)}",
                f"FiO2 {r.choice((21, 25, 30, 35, 40))}/{r.choice((30, 40, 50))}",
                f"{r.choice(('1/2', '1/4', '1/2'))} tab",
                f"{r.randint(92, 150)}/{r.randint(50, 90)}",
                f"PEEP {r.choice((5, 8, 10))}/PS {r.choice((5, 8, 10))}",
                f"I/O {r.randint(600, 2400)}/{r.randint(400, 2200)}",
            )
        )
    )


def _login(ctx: NoteContext, first: str, last: str) -> str:
    r = ctx.rng
    f = ascii_fold(first).lower()[:1] or "x"
    la = "".join(ch for ch in ascii_fold(last).lower() if ch.isalpha()) or "y"
    return draw(
        lambda: f + la[:8] + (str(r.randint(1, 99)) if r.random() < 0.6 else ""),
        ctx.v.split,
    )


@slot("login")
def s_login(ctx: NoteContext, arg: str) -> None:
    """`jdoe4`: a staff login, lower-case initial and surname (USERNAME);
    `named`: `RN Jane Doe (jdoe4)`, the name (DOCTOR) then the login."""
    p = ctx.staff.pick()
    if arg == "named":
        ctx.add(ctx.choice(("RN ", "", "Dr. ", "RN ", "LPN ", "NP ")))
        ctx.phi(ctx.v.name(p, ctx.choice(("full", "full", "init_last"))), "DOCTOR")
        ctx.add(" (")
        ctx.phi(_login(ctx, p.first, p.last), "USERNAME")
        ctx.add(")")
        return
    ctx.phi(_login(ctx, p.first, p.last), "USERNAME")


@slot("hhmm")
def s_hhmm(ctx: NoteContext, arg: str) -> None:
    """`18:42`: a clock time (not PHI)."""
    ctx.add(f"{ctx.rng.randint(0, 23):02d}:{ctx.rng.randint(0, 59):02d}")


@slot("ext")
def s_ext(ctx: NoteContext, arg: str) -> None:
    """`x41207` (one PHONE span) or `ext 4120` (span: the digits)."""
    r = ctx.rng
    digits = draw(lambda: shape(r.choice(("####", "#####", "#-####")), r), ctx.v.split)
    if r.random() < 0.5:
        ctx.phi(ctx.choice(("x", "X")) + digits, "PHONE")
    else:
        ctx.add(ctx.choice(("ext ", "ext. ", "extension ")))
        ctx.phi(digits, "PHONE")


@slot("wfirst")
def s_wfirst(ctx: NoteContext, arg: str) -> None:
    """A word-like first name: `rel` a relative, `pt` the patient's nickname
    (both PATIENT), `staff` a staff member with a surname (DOCTOR)."""
    words = word_firsts(ctx.v.split)
    first = ctx.choice(words) if words else ctx.v.person().first
    if arg == "staff":
        last = ctx.staff.pick().last
        ctx.phi(f"{first} {last}" if ctx.chance(0.7) else first, "DOCTOR")
        return
    if arg == "lower":
        first = first.lower()
    ctx.phi(first, "PATIENT")


@slot("dlnum")
def s_dlnum(ctx: NoteContext, arg: str) -> None:
    """A driver's or professional licence number (LICENSE)."""
    r = ctx.rng
    pats = ("########", "L#######", "####-##", "L###-####-####", "#########",
            "LL######", "###-###-###", "L########")  # fmt: skip
    ctx.phi(draw(lambda: shape(r.choice(pats), r), ctx.v.split), "LICENSE")


@slot("st")
def s_st(ctx: NoteContext, arg: str) -> None:
    """A state, abbreviation (`abbr`), name (`name`) or either (STATE)."""
    abbr = ctx.choice(sorted(states()))
    if arg == "abbr" or (arg != "name" and ctx.chance(0.6)):
        ctx.phi(abbr, "STATE")
    else:
        ctx.phi(states()[abbr], "STATE")


@slot("ssn4")
def s_ssn4(ctx: NoteContext, arg: str) -> None:
    """`xxx-xx-4417` / `***-**-4417` / `last 4 4417`: SSN on the 4 digits."""
    last4 = ctx.p.ssn.replace("-", "").replace(" ", "")[-4:]
    if not in_pool(last4, ctx.v.split):  # four digits alone are a pooled value
        last4 = draw(lambda: shape("####", ctx.rng), ctx.v.split)
    ctx.add(ctx.choice(("xxx-xx-", "XXX-XX-", "***-**-", "###-##-", "")))
    ctx.phi(last4, "SSN")


@slot("pobox")
def s_pobox(ctx: NoteContext, arg: str) -> None:
    """`PO Box 1234` (one STREET span)."""
    r = ctx.rng
    head = r.choice(("PO Box", "P.O. Box", "P O Box", "po box", "POB"))
    ctx.phi(draw(lambda: f"{head} {r.randint(10, 99999)}", ctx.v.split), "STREET")


CLUB_MASCOTS = ("Otters", "Hawks", "Tigers", "Sharks", "Stingrays", "Comets",
                "Wolves", "Falcons", "Marlins", "Panthers", "Rockets", "Bulldogs")  # fmt: skip
TOW = ("{s} Towing", "{t} Towing & Recovery", "{s} Auto Impound", "{t} Tow",
       "{s} Wrecker Service")  # fmt: skip
SCHOOL = ("{s} Elementary School", "{t} Middle", "{t} Middle School", "{s} Elementary",
          "{t} High", "{t} Regional High School", "{s} Elementary school")  # fmt: skip
FACILITY = ("{s} manor", "{t} general", "{s} house", "{t} rehab", "{s} pavilion",
            "{t} nursing home", "{s} gardens", "{t} memorial")  # fmt: skip


def _compose(ctx: NoteContext, pats: Tuple[str, ...]) -> str:
    r, split = ctx.rng, ctx.v.split
    return draw(
        lambda: r.choice(pats).format(
            s=world.surname(r, split), t=world.us_town(r, split)
        ),
        split,
    )


@slot("iorg")
def s_iorg(ctx: NoteContext, arg: str) -> None:
    """An informally mentioned organisation (ORGANIZATION): `club`, `tow`,
    `school`, `emp`; `lower` variants lower-case it."""
    kind, _, low = arg.partition("-")
    r, split = ctx.rng, ctx.v.split
    if kind == "club":
        val = draw(
            lambda: f"{world.us_town(r, split)} {r.choice(CLUB_MASCOTS)}", split
        )
    elif kind == "tow":
        val = _compose(ctx, TOW)
    elif kind == "school":
        val = _compose(ctx, SCHOOL)
    else:
        val = ctx.v.organization("employer")
    ctx.phi(val.lower() if low or ctx.chance(0.25) else val, "ORGANIZATION")


@slot("lchosp")
def s_lchosp(ctx: NoteContext, arg: str) -> None:
    """`kessler manor`, `dayton general`: a facility nickname (HOSPITAL)."""
    val = _compose(ctx, FACILITY)
    ctx.phi(val.lower() if ctx.chance(0.7) else val, "HOSPITAL")


# Religious and cultural observances and holidays (a DATE span each).
OBSERVANCES = ("Lent", "Passover", "Diwali", "Lunar New Year", "Yom Kippur",
               "Easter", "Eid al-Fitr", "Rosh Hashanah", "Hanukkah",
               "Chinese New Year", "Fourth of July", "Labor Day",
               "New Year's Eve")  # fmt: skip
WEEKDAYS_FULL = tuple(calendar.day_name)
WD_ABBR = ("Mon", "Tues", "Tue", "Wed", "Weds", "Thurs", "Thu", "Fri", "Sat", "Sun",
           "M", "W", "F", "T", "Th")  # fmt: skip
WD_LISTS = (("Mon", "Wed", "Fri"), ("Tues", "Thurs", "Sat"), ("M", "W", "F"),
            ("Tu", "Th", "Sa"), ("Tue", "Thu", "Sat"), ("MON", "WED", "FRI"),
            ("mon", "wed", "fri"), ("tues", "thurs", "sat"))  # fmt: skip


FASTS = ("Lent", "Yom Kippur", "Navratri", "Lent", "Ekadashi")


@slot("obs")
def s_obs(ctx: NoteContext, arg: str) -> None:
    """`Diwali`, `Lent`: an observance or holiday (DATE); `lower` lower-cases;
    `fast`: one kept by fasting."""
    val = ctx.choice(FASTS if arg == "fast" else OBSERVANCES)
    ctx.phi(val.lower() if arg == "lower" or ctx.chance(0.1) else val, "DATE")


@slot("wdays")
def s_wdays(ctx: NoteContext, arg: str) -> None:
    """Weekdays as DATE spans. `pl`: a plural (`fri`: the fifth day's plural);
    `list`: abbreviations with separators (each day its own span); `lower`:
    lower case."""
    if arg == "list":
        days = ctx.choice(WD_LISTS)
        sep = ctx.choice(("/", "/", "-", ", ", " "))
        for i, d in enumerate(days):
            if i:
                ctx.add(sep)
            ctx.phi(d, "DATE")
        return
    day = WEEKDAYS_FULL[4] if arg == "fri" else ctx.choice(WEEKDAYS_FULL)
    if arg in ("pl", "fri"):
        day += "s"
        ctx.phi(day.lower() if ctx.chance(0.2) else day, "DATE")
    elif arg == "lower":
        ctx.phi(day.lower(), "DATE")
    else:
        ctx.phi(day, "DATE")


ROOM_SHAPES = ("L-##", "L##", "L-#", "L#", "##L", "#L", "L-###", "LL-#")


@slot("lroom")
def s_lroom(ctx: NoteContext, arg: str) -> None:
    """A room/bed identifier with letters (ROOM): `D-7`, `K4`, `14B`;
    `pod`: one letter (`B`); `num`: a bay or bed number (`11`)."""
    r = ctx.rng
    if arg == "pod":
        ctx.phi(draw(lambda: r.choice("ABCDEFGHJK"), ctx.v.split), "ROOM")
        return
    if arg == "num":
        val = draw(lambda: str(r.randint(1, 40)), ctx.v.split)
        ctx.phi(val, "ROOM")
        return
    val = draw(lambda: shape(r.choice(ROOM_SHAPES), r), ctx.v.split)
    ctx.phi(val.lower() if ctx.chance(0.15) else val, "ROOM")


SCHOOL_LEVELS = ("high school", "middle school", "elementary school", "grade school",
                 "junior high", "HS", "community college")  # fmt: skip
SUBJECTS = ("chemistry", "math", "science", "history", "music", "art", "English",
            "Spanish", "biology", "special ed", "PE", "band", "physics", "shop")  # fmt: skip


@slot("wjob")
def s_wjob(ctx: NoteContext, arg: str) -> None:
    """A profession in lower case, Faker's titles in natural word order
    (PROFESSION); `teacher`: `middle school band teacher` (no article);
    `a`: with an article before the span."""
    r = ctx.rng
    if arg == "teacher":
        val = f"{r.choice(SCHOOL_LEVELS)} {r.choice(SUBJECTS)} teacher"
        if ctx.chance(0.3):
            val = f"{r.choice(SUBJECTS)} teacher"
    else:
        job = ctx.v.profession()
        val = job[0].lower() + job[1:] if not job[:2].isupper() else job
    if arg == "a":
        article(ctx, val)
    ctx.phi(val, "PROFESSION")


ANIMALS = ("Otters", "Herons", "Barracudas", "Dolphins", "Orcas", "Eagles",
           "Stallions", "Badgers", "Foxes", "Wildcats", "Gators", "Lions")  # fmt: skip
FC_NOUNS = ("United", "Rovers", "Athletic", "City", "Valley", "Rangers", "Strikers")
VENUE = {
    "fc": ("{t} {n} FC", "{t} {n}", "FC {t}", "{t} Youth Soccer Club",
           "{t} Little League", "{t} YMCA"),
    "swim": ("{t} {a}", "{s} {a}", "{t} {a}", "{t} Aquatic"),
    "school": ("{s} Elementary School", "{t} Middle School", "{t} High School",
               "{s} Elementary", "{t} Regional Middle School", "{s} Academy",
               "{t} Intermediate School"),
    "worship": ("{s} Mosque", "{t} Mosque", "{t} Islamic Center", "{t} Hindu Temple",
                "Temple Beth {s}", "{s} Memorial Church", "{t} Baptist Church",
                "St. {s} Parish", "{t} Gurdwara", "{t} Buddhist Temple",
                "{t} Synagogue"),
    "auction": ("{t} Livestock Auction", "{s} Sale Barn", "{t} Stockyards",
                "{s} Livestock Exchange", "{t} Cattle Auction"),
}  # fmt: skip


@slot("org2")
def s_org2(ctx: NoteContext, arg: str) -> None:
    """Sports clubs, schools, places of worship, livestock auctions and
    employers named in social history (ORGANIZATION), composed from the
    split's towns and surnames; `-lower` lower-cases."""
    kind, _, low = arg.partition("-")
    r, split = ctx.rng, ctx.v.split
    if kind == "emp":
        val = ctx.v.organization("employer")
    else:
        val = draw(
            lambda: r.choice(VENUE[kind]).format(
                s=world.surname(r, split), t=world.us_town(r, split),
                a=r.choice(ANIMALS), n=r.choice(FC_NOUNS),
            ),
            split,
        )  # fmt: skip
    ctx.phi(val.lower() if low else val, "ORGANIZATION")


@slot("lctown")
def s_lctown(ctx: NoteContext, arg: str) -> None:
    """`icu at dayton`: a bare lower-case town naming its hospital (HOSPITAL)."""
    val = world.us_town(ctx.rng, ctx.v.split)
    ctx.phi(val.lower() if ctx.chance(0.8) else val, "HOSPITAL")
