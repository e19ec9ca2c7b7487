"""Place slots: addresses, cities, states, countries, organisations,
hospitals, departments, rooms, and professions."""

from ..context import NoteContext, article, slot
from ..data import states
from .. import world
from ..values import Address


@slot("street")
def s_street(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.address.street, "STREET")


@slot("city")
def s_city(ctx: NoteContext, arg: str) -> None:
    val = ctx.p.address.city if arg != "any" else ctx.v.city()[0]
    ctx.phi(val, "CITY")


def _state(ctx: NoteContext, abbr: str) -> str:
    if ctx.chance(0.75):
        return abbr
    return states().get(abbr, abbr)


@slot("state")
def s_state(ctx: NoteContext, arg: str) -> None:
    ctx.phi(_state(ctx, ctx.p.address.state), "STATE")


@slot("zip")
def s_zip(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.address.zip, "ZIP")


def _address(ctx: NoteContext, arg: str) -> Address:
    if "other" in arg:
        if ctx.other_addr is None:
            ctx.other_addr = ctx.v.address()
        return ctx.other_addr
    if "last" in arg and ctx.last_hosp is not None:
        return ctx.v.facility_address(ctx.last_hosp)
    if "clinic" in arg:
        return ctx.v.facility_address(ctx.p.clinic)
    if "hosp" in arg:
        return ctx.v.facility_address(ctx.p.hospital)
    return ctx.p.address


@slot("csz")
def s_csz(ctx: NoteContext, arg: str) -> None:
    """`City, ST 02114` line (`arg` may name `clinic`/`hosp`)."""
    a = _address(ctx, arg)
    ctx.phi(a.city, "CITY")
    ctx.add(ctx.choice((", ", " ", ",")))
    ctx.phi(_state(ctx, a.state), "STATE")
    ctx.add(ctx.choice(("  ", " ", " ")))
    ctx.phi(a.zip, "ZIP")


@slot("addr")
def s_addr(ctx: NoteContext, arg: str) -> None:
    """One-line or block address of the patient, `clinic` or `hosp`."""
    ctx.phi(_address(ctx, arg).street, "STREET")
    if "block" in arg:
        ctx.nl()
    else:
        ctx.add(ctx.choice((", ", " ", ",  ")))
    s_csz(ctx, arg)


@slot("hometown")
def s_hometown(ctx: NoteContext, arg: str) -> None:
    city, st = ctx.p.hometown
    ctx.phi(city, "CITY")
    if ctx.chance(0.5):
        ctx.add(", ")
        ctx.phi(_state(ctx, st), "STATE")


@slot("country")
def s_country(ctx: NoteContext, arg: str) -> None:
    """The patient's country; `any`: any country; `home`: the country the
    notes are written in, where the split's pool has a form of its name
    (`world.home_country_forms`; else the patient's)."""
    if arg == "home":
        forms = world.home_country_forms(ctx.v.split)
        ctx.phi(ctx.choice(forms) if forms else ctx.p.country, "COUNTRY")
        return
    ctx.phi(ctx.p.country if arg != "any" else ctx.v.pick("countries.txt"), "COUNTRY")


@slot("landmark")
def s_landmark(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.pick("landmarks.txt"), "LOCATION_OTHER")


ORG_KINDS = {
    "school": "school",
    "team": "team",
    "church": "church",
    "charity": "charity",
    "group": "group",
}


@slot("org")
def s_org(ctx: NoteContext, arg: str) -> None:
    """An organisation of the slot's kind.

    `emp`: the patient's employer; `school`: the patient's school; `relschool`:
    the current relative's school; `team`, `church`, `charity`, `group`: one of
    that kind; no arg: a charity, church or group.
    """
    if arg == "emp":
        val = ctx.p.employer
    elif arg == "school":
        val = ctx.p.school or ctx.v.organization("school")
    elif arg == "relschool":
        rel = ctx.rel or ctx.relative("young")
        val = rel.school or ctx.v.organization("young_school")
    elif arg in ORG_KINDS:
        val = ctx.v.organization(ORG_KINDS[arg])
    else:
        val = ctx.v.organization(ctx.choice(("charity", "church", "group")))
    ctx.phi(val, "ORGANIZATION")


@slot("prof")
def s_prof(ctx: NoteContext, arg: str) -> None:
    """Profession; `any` for a random one, `a` to add the article, `desc` for
    `retired nurse`/`former nurse`/`nurse` by employment status."""
    val = ctx.p.profession if arg != "any" else ctx.v.profession()
    if arg == "desc":
        job = ctx.p.job
        if job in ("student", "child"):
            ctx.add("student" if job == "student" else "child")
            return
        if job != "employed":
            ctx.add("retired " if job == "retired" else "former ")
    if arg == "a":
        article(ctx, val)
    ctx.phi(val, "PROFESSION")


@slot("hosp")
def s_hosp(ctx: NoteContext, arg: str) -> None:
    """The patient's hospital (`clinic`, `other` or full/abbr forms)."""
    if arg == "other":
        h = ctx.v.hospital()
    elif arg == "clinic":
        h = ctx.p.clinic
    else:
        h = ctx.p.hospital
    ctx.last_hosp = h
    full = arg == "full" or ctx.chance(0.55) or not h.abbrs
    name = h.name if full else ctx.choice(h.abbrs)
    if arg != "full" and ctx.chance(0.05):
        name = name.upper()
    ctx.phi(name, "HOSPITAL")


@slot("dept")
def s_dept(ctx: NoteContext, arg: str) -> None:
    ctx.phi(
        ctx.p.dept if ctx.chance(0.6) else ctx.v.pick("departments.txt"),
        "DEPARTMENT",
    )


@slot("room")
def s_room(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.room(), "ROOM")
