"""Slots for informal and outside-the-ward note styles: lower-cased names after
weak cues, bare surnames, word-like first names, free occupation phrases,
organisations of every kind, travel places, pedigree relatives and traps."""

from ..context import NoteContext, article, slot
from ..pools import draw, pooled
from ..values import Person

# First names that are ordinary words (a PATIENT span only where a name).
WORD_FIRSTS = (
    "Will", "May", "Hope", "Grant", "June", "Rose", "Faith", "Bo", "Joy",
    "Dawn", "Summer", "Grace", "Frank", "Art", "Bill", "Sky", "Autumn", "Ivy",
    "Forrest", "Chase", "Sterling", "Pat", "Iris", "Gene", "Rusty", "Sunny",
    "Honor", "Cash", "Lane", "Brook", "Ray", "Jack", "Holly", "Violet", "Ginger",
)  # fmt: skip
SHORT_ROLES = {
    "sister": ("sis", "sister", "sist"),
    "brother": ("bro", "brother", "brthr"),
    "daughter": ("dtr", "dau", "daughter", "d"),
    "son": ("son", "son"),
    "wife": ("wife", "w/", "spouse"),
    "husband": ("husb", "husband", "spouse"),
    "mother": ("mom", "mother", "mo"),
    "father": ("dad", "father", "fa"),
}
# Text that must stay unlabelled: eponyms, brands, verbs, clinical counters.
TRAPS = (
    "Foley <in place|d/c'd|draining clear yellow>",
    "<+|neg> Babinski <sign|on L>",
    "h/o Parkinson disease",
    "Hodgkin lymphoma <in remission|s/p ABVD>",
    "on <Humira|Lipitor|Eliquis|Xarelto|Lasix|Coumadin>",
    "<Eliquis|Lipitor|Humira> <held|resumed|refilled>",
    "pt may <shower|ambulate|resume diet|go home if stable>",
    "May <resume|restart> <Eliquis|home meds> <tomorrow|per primary team>",
    "high risk of fall, <bed alarm on|fall precautions>",
    "<2 days|a week|3 wks> ago",
    "<no|palpable> mass <noted|in RUQ>",
    "Hospital Day {num:2-12}",
    "POD {num:1-6}",
    "Grade {num:1-4} <edema|murmur|varices>",
    "<Version|v> {num:1-9}.{num:0-9} of <the order set|the pathway>",
    "<interface|HL7 feed> on port {num:1024-9999} <down|restored>",
    "<Hickman|Port-a-cath|Swan-Ganz> line <in place|flushed>",
    "Glasgow Coma Scale {num:9-15}",
    "<Gram|Wright> stain <pending|neg>",
    "<Apgar|Braden> score {num:5-10}",
    "<Tylenol|Motrin|Zofran> prn",
)  # fmt: skip
HIGHWAYS = ("I-{}", "Route {}", "Rte {}", "Hwy {}", "US-{}", "State Route {}")


def _lower_some(ctx: NoteContext, text: str, p: float = 0.6) -> str:
    return text.lower() if ctx.chance(p) else text


@slot("lc_dr")
def s_lc_dr(ctx: NoteContext, arg: str) -> None:
    """`d/w dr. smith`: a clinician's surname, often lower-cased."""
    p = ctx.doctor(arg or "any")
    ctx.doc = p
    ctx.add(ctx.choice(("dr. ", "dr ", "Dr. ", "dr.")))
    ctx.phi(_lower_some(ctx, p.last), "DOCTOR")


@slot("lc_staff")
def s_lc_staff(ctx: NoteContext, arg: str) -> None:
    """`rn j. smith` / `rn jane`: a nurse, lower-cased, credential outside."""
    p = ctx.staff.pick()
    ctx.add(ctx.choice(("rn ", "RN ", "rn ", "np ", "rt ", "lpn ")))
    style = ctx.choice(("init_last", "first", "last", "full"))
    ctx.phi(_lower_some(ctx, ctx.v.name(p, style)), "DOCTOR")


@slot("lc_pt")
def s_lc_pt(ctx: NoteContext, arg: str) -> None:
    """`pt john smith` / `Pt John Smith` (weak cue before the name)."""
    ctx.add(ctx.choice(("pt ", "Pt ", "pt. ", "patient ")))
    name = ctx.v.name(ctx.p.person, ctx.choice(("full", "full", "first", "last")))
    ctx.phi(_lower_some(ctx, name, 0.5), "PATIENT")


@slot("sur")
def s_sur(ctx: NoteContext, arg: str) -> None:
    """A clinician's bare surname (`arg` `lower`: lower-cased)."""
    p = ctx.doctor("attending" if arg == "att" else "any")
    ctx.doc = p
    ctx.phi(p.last.lower() if arg == "lower" else p.last, "DOCTOR")


@slot("lrel")
def s_lrel(ctx: NoteContext, arg: str) -> None:
    """`sis Mary` / `wife ann`: a short role word and a first name (`new`: a
    fresh relative, not the frame's current one)."""
    rel = ctx.relative() if arg == "new" else ctx.rel or ctx.relative(arg)
    ctx.add(ctx.choice(SHORT_ROLES.get(rel.role, (rel.role,))) + " ")
    name = ctx.v.name(rel.person, ctx.choice(("first", "first", "nick", "full")))
    ctx.phi(_lower_some(ctx, name, 0.25), "PATIENT")


def _word_person(ctx: NoteContext) -> Person:
    p = ctx.v.person()
    words = pooled(WORD_FIRSTS, ctx.v.split, names=True)
    if words:
        p.first = ctx.choice(words)
    return p


@slot("wname")
def s_wname(ctx: NoteContext, arg: str) -> None:
    """A relative or friend whose first name is an ordinary word."""
    p = _word_person(ctx)
    ctx.phi(p.first if ctx.chance(0.75) else f"{p.first} {p.last}", "PATIENT")


@slot("famname")
def s_famname(ctx: NoteContext, arg: str) -> None:
    """A relative by first name or nickname only: the frame's current one
    (after `{relrole}`), else a fresh one; `new`: always a fresh one."""
    rel = ctx.rel if ctx.rel is not None and arg != "new" else ctx.relative()
    ctx.rel = None
    style = ctx.choice(("first", "first", "nick"))
    ctx.phi(ctx.v.name(rel.person, style).split(" ")[0], "PATIENT")


@slot("kid")
def s_kid(ctx: NoteContext, arg: str) -> None:
    """`Emma (9)`: a child's first name and age in parentheses."""
    p = ctx.v.person()
    ctx.phi(p.first, "PATIENT")
    ctx.add(ctx.choice((" (", " (age ", " (")))
    ctx.phi(str(ctx.rng.randint(2, 17)), "AGE")
    ctx.add(")")


@slot("occ")
def s_occ(ctx: NoteContext, arg: str) -> None:
    """A job in free phrasing; the span is the job words only."""
    job = ctx.v.profession()
    form = ctx.rng.randrange(6)
    if form == 0:
        ctx.add(ctx.choice(("works nights as ", "works days as ", "works as ")))
        article(ctx, job)
        ctx.phi(job, "PROFESSION")
    elif form == 1:
        ctx.add(ctx.choice(("retired ", "Retired ", "former ", "ex-")))
        ctx.phi(job, "PROFESSION")
    elif form == 2:
        ctx.phi(job, "PROFESSION")
        ctx.add(ctx.choice((" by trade", " by training", " for 20+ yrs")))
    elif form == 3:
        ctx.add(ctx.choice(("was ", "used to be ", "trained as ")))
        article(ctx, job)
        ctx.phi(job, "PROFESSION")
    elif form == 4:
        ctx.add("occupation: ")
        ctx.phi(job, "PROFESSION")
    else:
        ctx.add(ctx.choice(("part-time ", "per diem ", "seasonal ")))
        ctx.phi(job, "PROFESSION")


NEW_ORG_KINDS = ("court", "insurer", "pharmacy", "agency", "daycare", "transport",
                 "registry")  # fmt: skip
OLD_ORG_KINDS = ("employer", "school", "church", "charity", "group", "team")


def org_name(ctx: NoteContext, kind: str) -> str:
    """An organisation of `kind` (`values.organization`)."""
    return ctx.v.organization(kind)


@slot("orgk")
def s_orgk(ctx: NoteContext, arg: str) -> None:
    """An organisation of kind `arg` (any kind without it)."""
    kind = arg or ctx.choice(NEW_ORG_KINDS + OLD_ORG_KINDS)
    ctx.phi(org_name(ctx, kind), "ORGANIZATION")


@slot("county_court")
def s_county_court(ctx: NoteContext, arg: str) -> None:
    """`Essex County Probate Court`-style court name (one ORGANIZATION)."""
    if ctx.chance(0.8):
        ctx.phi(org_name(ctx, "court"), "ORGANIZATION")
        return
    city = ctx.v.us_town()[0]
    kind = ctx.choice(("Court", "Probate Court", "District Court", "Family Court"))
    ctx.phi(f"{city} County {kind}", "ORGANIZATION")


@slot("highway")
def s_highway(ctx: NoteContext, arg: str) -> None:
    """A highway (a STREET span), in the pool."""
    val = draw(
        lambda: ctx.choice(HIGHWAYS).format(ctx.rng.randint(1, 495)), ctx.v.split
    )
    ctx.phi(val, "STREET")


def _country(ctx: NoteContext) -> str:
    return ctx.v.country()


@slot("wcity")
def s_wcity(ctx: NoteContext, arg: str) -> None:
    """`Lyon, France` / `Lyon` (`arg` `only`: the city alone)."""
    city, country = ctx.v.world_city()
    ctx.phi(city, "CITY")
    if country and arg != "only" and ctx.chance(0.7):
        sep = ctx.choice((", ", " (", " - "))
        ctx.add(sep)
        ctx.phi(country, "COUNTRY")
        ctx.add(")" if sep == " (" else "")


@slot("wcountry")
def s_wcountry(ctx: NoteContext, arg: str) -> None:
    ctx.phi(_country(ctx), "COUNTRY")


@slot("town")
def s_town(ctx: NoteContext, arg: str) -> None:
    """A small US town and state."""
    town, st = ctx.v.us_town()
    ctx.phi(town, "CITY")
    ctx.add(", ")
    ctx.phi(st, "STATE")


@slot("pedrel")
def s_pedrel(ctx: NoteContext, arg: str) -> None:
    """A pedigree line: `maternal aunt Rose, 54, breast ca dx 48, from Peru`."""
    side = ctx.choice(("maternal ", "paternal ", "", "half-"))
    role = ctx.choice(("aunt", "uncle", "grandmother", "grandfather", "cousin",
                       "sister", "brother"))  # fmt: skip
    ctx.add(side + role)
    if ctx.chance(0.6):
        ctx.add(" ")
        ctx.phi(ctx.v.name(ctx.v.person(), "first"), "PATIENT")
    ctx.add(ctx.choice((", ", " - ", ", age ", ", d. at ")))
    ctx.phi(str(ctx.rng.randint(30, 92)), "AGE")
    ctx.add(ctx.choice((", ", "; ")))
    ctx.add(ctx.choice(("breast ca dx ", "colon ca at ", "MI at ", "ovarian ca dx ")))
    ctx.phi(str(ctx.rng.randint(28, 70)), "AGE")
    if ctx.chance(0.5):
        ctx.add(ctx.choice((", from ", ", born in ", ", lives in ")))
        ctx.phi(_country(ctx), "COUNTRY")


@slot("trap")
def s_trap(ctx: NoteContext, arg: str) -> None:
    """A phrase that looks like PHI but is not (eponyms, brands, verbs)."""
    ctx.t(ctx.choice(TRAPS))


DAY_WORDS = ("Thurs", "thurs", "thrus", "Tues", "tues", "Weds", "weds", "Sat",
             "sat", "Sun", "sun", "Mon", "fri", "Fri", "Wed", "wed")  # fmt: skip


@slot("dayabbr")
def s_dayabbr(ctx: NoteContext, arg: str) -> None:
    """An abbreviated or misspelt day name (a DATE span)."""
    ctx.phi(ctx.choice(DAY_WORDS), "DATE")


@slot("bedpt")
def s_bedpt(ctx: NoteContext, arg: str) -> None:
    """Another patient on a list (sign-out beds): `Smith` or `Smith, Ann`,
    then the age and sex."""
    p = ctx.v.person()
    ctx.phi(ctx.v.name(p, ctx.choice(("last", "last", "lf", "last_init"))), "PATIENT")
    ctx.add(ctx.choice((", ", " ", " - ")))
    ctx.phi(str(ctx.rng.randint(19, 97)), "AGE")
    ctx.add(ctx.choice(("M", "F", " yo M", " yo F", "y M", "y F")))
