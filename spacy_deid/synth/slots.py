"""Slot fillers for `{slot}` / `{slot:arg}` in templates.

PHI slots emit spans with i2b2 2014 boundaries (the bare age number, the name
without the title, the full date expression); other slots emit clinical text.
"""

from .context import NoteContext, lst, poss, slot
from .data import cities, clinical, states
from .values import Address, Person

# -- patient ---------------------------------------------------------------


@slot("pt")
def s_pt(ctx: NoteContext, arg: str) -> None:
    """The patient's name in a random (or `arg`) style."""
    ctx.phi(ctx.v.name(ctx.p.person, arg or None), "PATIENT")


@slot("pt_ref")
def s_pt_ref(ctx: NoteContext, arg: str) -> None:
    """`Mr. Smith`-style reference (title excluded from the span)."""
    p = ctx.p.person
    r = ctx.rng.random()
    if r < 0.65:
        title = (
            "Mr." if p.sex == "M" else ctx.choice(("Ms.", "Mrs.", "Ms", "Mrs", "Miss"))
        )
        if ctx.chance(0.15):
            title = title.rstrip(".")
        ctx.add(title + " ")
        ctx.phi(p.last if ctx.chance(0.9) else f"{p.first} {p.last}", "PATIENT")
    elif r < 0.85:
        ctx.phi(p.nick if p.nick and ctx.chance(0.4) else p.first, "PATIENT")
    else:
        ctx.phi(ctx.v.name(p), "PATIENT")


@slot("pt_first")
def s_pt_first(ctx: NoteContext, arg: str) -> None:
    """The patient's first name or nickname."""
    p = ctx.p.person
    ctx.phi(p.nick if p.nick and ctx.chance(0.4) else p.first, "PATIENT")


@slot("pt_hdr")
def s_pt_hdr(ctx: NoteContext, arg: str) -> None:
    """Header-style patient name."""
    style = ctx.choice(("lfm_caps", "lf", "lf_caps", "full", "fml", "upper"))
    ctx.phi(ctx.v.name(ctx.p.person, style), "PATIENT")


@slot("title")
def s_title(ctx: NoteContext, arg: str) -> None:
    """`Mr.`/`Ms.`/`Mrs.` with a trailing space, or nothing."""
    if ctx.chance(0.8):
        m = ctx.p.person.sex == "M"
        ctx.add(("Mr. " if m else ctx.choice(("Ms. ", "Mrs. "))))


@slot("Pro")
def s_pro_cap(ctx: NoteContext, arg: str) -> None:
    ctx.add("He" if ctx.p.person.sex == "M" else "She")


@slot("pro")
def s_pro(ctx: NoteContext, arg: str) -> None:
    ctx.add("he" if ctx.p.person.sex == "M" else "she")


@slot("poss")
def s_poss(ctx: NoteContext, arg: str) -> None:
    ctx.add(poss(ctx))


@slot("Poss")
def s_poss_cap(ctx: NoteContext, arg: str) -> None:
    ctx.add(poss(ctx).capitalize())


@slot("obj")
def s_obj(ctx: NoteContext, arg: str) -> None:
    ctx.add("him" if ctx.p.person.sex == "M" else "her")


@slot("sex")
def s_sex(ctx: NoteContext, arg: str) -> None:
    m = ctx.p.person.sex == "M"
    opts = (
        ("male", "man", "gentleman", "M", "guy")
        if m
        else ("female", "woman", "lady", "F", "female")
    )
    ctx.add(ctx.choice(opts[:3]) if arg != "short" else ctx.choice(opts))


# -- ages ---------------------------------------------------------------------


def _age(ctx: NoteContext) -> str:
    age = ctx.p.age_at(ctx.date)
    if age == 0 or ctx.chance(0.02):
        return str(max(age, 1))
    return str(age)


@slot("age")
def s_age(ctx: NoteContext, arg: str) -> None:
    """The bare age."""
    ctx.phi(_age(ctx), "AGE")


@slot("age_phrase")
def s_age_phrase(ctx: NoteContext, arg: str) -> None:
    """`68 year old`, `68 y/o`, `68yo`, `aged 68`, ... (span = number)."""
    age = _age(ctx)
    form = ctx.rng.randrange(1, 16)
    ctx.phi(age, "AGE")
    ctx.add(
        (
            "-year-old",
            " year old",
            " y/o",
            "yo",
            " yo",
            " y.o.",
            " yr old",
            "-yr-old",
            " years old",
            "y/o",
            " YO",
            " years of age",
            "-yo",
            " yrs old",
            "y",
            " y.o",
        )[form]
    )


@slot("mf")
def s_mf(ctx: NoteContext, arg: str) -> None:
    """`M`/`F` (or `Male`/`Female` with arg `long`)."""
    m = ctx.p.person.sex == "M"
    if arg == "long":
        ctx.add("Male" if m else "Female")
    else:
        ctx.add("M" if m else "F")


@slot("age_sex")
def s_age_sex(ctx: NoteContext, arg: str) -> None:
    """`68M`, `68 yo F`, `68 y.o. male` (span = number)."""
    m = ctx.p.person.sex == "M"
    ctx.phi(_age(ctx), "AGE")
    ctx.add(
        ctx.choice(
            (
                ("M", "F"),
                (" M", " F"),
                (" yo M", " yo F"),
                (" y.o. male", " y.o. female"),
                ("yoM", "yoF"),
                (" yo man", " yo woman"),
            )
        )[0 if m else 1]
    )


@slot("age_other")
def s_age_other(ctx: NoteContext, arg: str) -> None:
    """A relative's age or age at an event (`at age 45`, `in her 60s`)."""
    r = ctx.rng
    if arg == "pt":
        ctx.phi(str(r.randint(2, max(ctx.p.age_at(ctx.date), 3))), "AGE")
    elif arg == "rel" and ctx.rel is not None:
        top = max(ctx.rel_age(ctx.rel), 20)
        ctx.phi(str(r.randint(max(top - 30, 18), top)), "AGE")
    elif r.random() < 0.3:
        ctx.phi(f"{r.randint(3, 9)}0s", "AGE")
    else:
        ctx.phi(str(r.randint(2, 98)), "AGE")


# -- dates ----------------------------------------------------------------------


def _emit_date(ctx: NoteContext, text: str) -> None:
    """A DATE span; a leading `the` stays outside (`the [14th]`)."""
    if text.startswith("the "):
        ctx.add("the ")
        text = text[4:]
    ctx.phi(text, "DATE")


@slot("date")
def s_date(ctx: NoteContext, arg: str) -> None:
    """A full date (`arg` names which: note, adm, dc, dob, fu, past)."""
    _emit_date(ctx, ctx.v.date(ctx.when(arg or "note")))


@slot("pdate")
def s_pdate(ctx: NoteContext, arg: str) -> None:
    """A partial/relative date expression."""
    _emit_date(ctx, ctx.v.partial_date(ctx.when(arg or "past")))


@slot("anydate")
def s_anydate(ctx: NoteContext, arg: str) -> None:
    """Full or partial date."""
    if ctx.chance(0.6):
        s_date(ctx, arg)
    else:
        s_pdate(ctx, arg)


@slot("season")
def s_season(ctx: NoteContext, arg: str) -> None:
    """`last spring` / `this past winter` (span = season word)."""
    ctx.add(ctx.choice(("last ", "this past ", "early ", "late ", "over the ")))
    ctx.phi(ctx.v.partial_date(ctx.when("past"), "season"), "DATE")


@slot("year")
def s_year(ctx: NoteContext, arg: str) -> None:
    """A year (`2067` or `'67`)."""
    style = "year" if ctx.chance(0.8) else "year_short"
    ctx.phi(ctx.v.partial_date(ctx.when(arg or "past"), style), "DATE")


@slot("holiday")
def s_holiday(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.partial_date(ctx.when("past"), "holiday"), "DATE")


@slot("month")
def s_month(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.partial_date(ctx.when(arg or "past"), "month"), "DATE")


@slot("weekday")
def s_weekday(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.partial_date(ctx.when(arg or "onset"), "weekday"), "DATE")


RANGE_STYLES = (
    "md",
    "md",
    "md0",
    "Month_d",
    "my",
    "my_short",
    "month_year",
    "mdY",
    "mdY_short",
)
_WITH_YEAR = frozenset(("my", "my_short", "month_year", "mdY", "mdY_short"))


@slot("drange")
def s_drange(ctx: NoteContext, arg: str) -> None:
    """An ordered date range in one format family (`06/12-06/19`, `June
    2067 to March 2068`); `arg` `start-end` names the dates (default
    `past-note`)."""
    first, _, last = (arg or "past-note").partition("-")
    a, b = ctx.when(first), ctx.when(last or "note")
    if a > b:
        a, b = b, a
    style = ctx.choice(RANGE_STYLES)
    if a.year != b.year and style not in _WITH_YEAR:
        style = ctx.choice(("my", "month_year", "mdY", "mdY_short"))
    same_month = (a.year, a.month) == (b.year, b.month)
    if same_month and style in ("my", "my_short", "month_year"):
        style = "md"
    if style in ("mdY", "mdY_short"):
        sa, sb = ctx.v.date(a, style), ctx.v.date(b, style)
    else:
        sa, sb = ctx.v.partial_date(a, style), ctx.v.partial_date(b, style)
    if ctx.chance(0.4):
        ctx.add("from ")
        sep = ctx.choice((" to ", " - ", " until "))
    else:
        sep = ctx.choice(("-", " - ", " to "))
    ctx.phi(sa, "DATE")
    ctx.add(sep)
    ctx.phi(sb, "DATE")


@slot("time")
def s_time(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(clinical("times")))


# -- clinicians -----------------------------------------------------------------


def _dr_name(ctx: NoteContext, p: Person, formal: bool = True) -> str:
    styles = (
        ("full", "fml", "last", "init_last", "lf", "upper")
        if formal
        else ("full", "last", "last", "init_last", "initials", "first", "lower")
    )
    return ctx.v.name(p, ctx.choice(styles))


@slot("dr")
def s_dr(ctx: NoteContext, arg: str) -> None:
    """`Dr. Name[, MD]` (title excluded); sometimes `Dr.` ends the line."""
    p = ctx.doctor(arg)
    ctx.doc = p
    if ctx.chance(0.8):
        ctx.add(ctx.choice(("Dr. ", "Dr. ", "Dr ", "DR. ", "dr. ")))
        if ctx.chance(0.06):
            ctx.b.newline()
        ctx.phi(_dr_name(ctx, p), "DOCTOR")
    else:
        ctx.phi(_dr_name(ctx, p), "DOCTOR")
        ctx.add(ctx.choice((", MD", " MD", ", M.D.", ", NP", ", PA-C", ", DO")))


@slot("drname")
def s_drname(ctx: NoteContext, arg: str) -> None:
    """A clinician's bare name."""
    p = ctx.doctor(arg)
    ctx.doc = p
    ctx.phi(_dr_name(ctx, p, formal=arg != "informal"), "DOCTOR")


@slot("staff")
def s_staff(ctx: NoteContext, arg: str) -> None:
    """A nurse/therapist/staff name (DOCTOR in i2b2), optional credential."""
    p = ctx.staff.pick()
    ctx.phi(_dr_name(ctx, p, formal=False), "DOCTOR")
    if arg != "bare" and ctx.chance(0.5):
        ctx.add(
            ctx.choice(
                (
                    ", RN",
                    " RN",
                    ", LICSW",
                    ", PT",
                    " SW",
                    ", RRT",
                    ", CNA",
                    " (RN)",
                    ", NP",
                )
            )
        )


@slot("sig")
def s_sig(ctx: NoteContext, arg: str) -> None:
    """Signature line."""
    p = ctx.doctor(arg or "author")
    ctx.doc = p
    ctx.phi(ctx.v.name(p, ctx.choice(("full", "fml", "upper", "lf"))), "DOCTOR")
    ctx.add(
        ctx.choice(
            (
                ", MD",
                ", M.D.",
                " MD",
                ", MD, PhD",
                ", NP",
                ", RN",
                ", PA-C",
                "",
                ", MD FACP",
            )
        )
    )


@slot("user")
def s_user(ctx: NoteContext, arg: str) -> None:
    """A login name of a staff member (or the patient portal user)."""
    who = ctx.p.person if arg == "pt" else ctx.doctor(arg or "any")
    if arg != "pt":
        ctx.doc = who
    ctx.phi(who.username, "USERNAME")


@slot("pager")
def s_pager(ctx: NoteContext, arg: str) -> None:
    p = ctx.doc or ctx.staff.pick()
    ctx.phi(p.extra.get("pager", ctx.v.pager()), "PHONE")


@slot("lic")
def s_lic(ctx: NoteContext, arg: str) -> None:
    """A licence/DEA/NPI number; without `arg`, the clinician's own, prefixed."""
    if arg:
        ctx.phi(ctx.v.ident(arg), "LICENSE")
        return
    doc = ctx.doc or ctx.author
    kind = doc.extra["license_kind"]
    prefix = {
        "dea": ("DEA ", "DEA# ", "DEA: "),
        "npi": ("NPI ", "NPI: ", "NPI# "),
        "license": ("Lic. ", "License # ", "MA Lic ", "Med lic "),
    }[kind]
    ctx.add(ctx.choice(prefix))
    ctx.phi(doc.extra["license"], "LICENSE")


# -- relatives --------------------------------------------------------------------


@slot("rel")
def s_rel(ctx: NoteContext, arg: str) -> None:
    """`her daughter Mary [Smith]` (role outside the span)."""
    rel = ctx.rel or ctx.relative(arg)
    if ctx.chance(0.12):
        ctx.add(f"{poss(ctx)} ")
        ctx.phi(str(max(ctx.rel_age(rel), 1)), "AGE")
        ctx.add(ctx.choice(("-year-old ", " yo ", " y/o ")) + rel.role)
    else:
        ctx.add(f"{poss(ctx)} {rel.role}" if ctx.chance(0.8) else rel.role)
    ctx.add(ctx.choice((" ", ", ", " ")))
    style = ctx.choice(("first", "first", "full", "nick"))
    ctx.phi(ctx.v.name(rel.person, style), "PATIENT")


@slot("relname")
def s_relname(ctx: NoteContext, arg: str) -> None:
    """The current relative's name."""
    rel = ctx.rel or ctx.relative(arg)
    ctx.phi(ctx.v.name(rel.person, ctx.choice(("first", "full", "lf"))), "PATIENT")


@slot("relrole")
def s_relrole(ctx: NoteContext, arg: str) -> None:
    """The current relative's role (`arg` `young`: a child or grandchild)."""
    rel = ctx.rel or ctx.relative(arg)
    ctx.add(rel.role)


@slot("relphone")
def s_relphone(ctx: NoteContext, arg: str) -> None:
    rel = ctx.rel or ctx.relative()
    ctx.phi(rel.phone, "PHONE")


def _article(ctx: NoteContext, word: str) -> None:
    ctx.add("an " if word[:1].lower() in "aeiou" else "a ")


@slot("relprof")
def s_relprof(ctx: NoteContext, arg: str) -> None:
    """The current relative's profession (`arg` `a`: with article)."""
    rel = ctx.rel or ctx.relative()
    if not rel.profession:
        ctx.add("a student" if arg == "a" else "student")
        return
    if arg == "a":
        _article(ctx, rel.profession)
    ctx.phi(rel.profession, "PROFESSION")


# -- social history: consistent with the profile ------------------------------


def _children(ctx: NoteContext) -> int:
    return sum(r.role in ("son", "daughter", "stepdaughter") for r in ctx.p.relatives)


def _with_org(ctx: NoteContext, pre: str, kind: str = "emp") -> None:
    ctx.add(pre)
    s_org(ctx, kind)


def _prof_a(ctx: NoteContext, pre: str = "") -> None:
    ctx.add(pre)
    _article(ctx, ctx.p.profession)
    ctx.phi(ctx.p.profession, "PROFESSION")


@slot("job")
def s_job(ctx: NoteContext, arg: str) -> None:
    """The patient's employment, consistent across a note set.

    No arg: a predicate clause (`{Pro} {job}.`); `terse`: a list value; `adj`:
    one word; `now`: `now works at X`-style clause.
    """
    job, r = ctx.p.job, ctx.rng.random()
    if arg == "adj":
        ctx.add({"laid_off": "unemployed", "child": "preschool-age"}.get(job, job))
        return
    if job == "child":
        ctx.add(
            "n/a (child)"
            if arg == "terse"
            else ctx.choice(("attends daycare", "stays home with family"))
        )
    elif job == "student":
        if arg == "terse":
            _with_org(ctx, "student, ", "school")
        else:
            _with_org(
                ctx,
                ctx.choice(("is a student at ", "attends ", "now attends "))
                if arg != "now"
                else "now a student at ",
                "school",
            )
    elif job == "employed":
        if arg == "terse":
            ctx.phi(ctx.p.profession, "PROFESSION")
            if r < 0.7:
                sep = ctx.choice((" at ", " (", ", "))
                _with_org(ctx, sep)
                if sep == " (":
                    ctx.add(")")
        elif arg == "now" or r < 0.3:
            _with_org(
                ctx, ctx.choice(("now works at ", "works at ", "is employed by "))
            )
            if ctx.chance(0.6):
                _prof_a(ctx, " as ")
        else:
            _prof_a(ctx, ctx.choice(("works as ", "is employed as ", "is ")))
            if ctx.chance(0.7):
                _with_org(ctx, ctx.choice((" at ", " for ", " with ")))
    elif job == "retired":
        if arg == "terse":
            ctx.add("retired ")
            ctx.phi(ctx.p.profession, "PROFESSION")
        elif arg == "now" or r < 0.4:
            ctx.add("is now retired" if arg == "now" else "is retired")
            if ctx.chance(0.6):
                _with_org(ctx, " from ")
        else:
            ctx.add("is a retired ")
            ctx.phi(ctx.p.profession, "PROFESSION")
            if ctx.chance(0.4):
                _with_org(ctx, " (", "emp")
                ctx.add(")")
    elif job == "laid_off":
        if arg == "terse":
            _with_org(ctx, "laid off from ")
            ctx.add(" (")
            ctx.phi(ctx.p.profession, "PROFESSION")
            ctx.add(")")
        else:
            _with_org(ctx, "was recently laid off from ")
            if ctx.chance(0.5):
                ctx.add(", where ")
                ctx.add("he" if ctx.p.person.sex == "M" else "she")
                _prof_a(ctx, " worked as ")
    else:  # unemployed / disabled
        if arg == "terse":
            ctx.add(
                "unemployed, prev. "
                if job == "unemployed"
                else "disabled (SSDI), prev. "
            )
            ctx.phi(ctx.p.profession, "PROFESSION")
        else:
            ctx.add(
                "is currently unemployed"
                if job == "unemployed"
                else ctx.choice(("is on disability", "receives SSDI"))
            )
            if ctx.chance(0.6):
                _prof_a(ctx, ", formerly ")


@slot("stressor")
def s_stressor(ctx: NoteContext, arg: str) -> None:
    """A psychosocial stressor that fits the patient's employment."""
    job = ctx.p.job
    if job == "laid_off":
        _with_org(ctx, ctx.choice(("being laid off from ", "losing a job at ")))
    elif job == "employed" and ctx.chance(0.7):
        _with_org(ctx, ctx.choice(("conflict at work at ", "long hours at ")))
    elif job == "retired":
        ctx.add(ctx.choice(("adjusting to retirement", "social isolation")))
    elif job in ("student", "child"):
        ctx.add(
            ctx.choice(("bullying at school", "family conflict", "academic stress"))
        )
    else:
        ctx.add(ctx.choice(("financial strain", "housing instability", "chronic pain")))


@slot("marital")
def s_marital(ctx: NoteContext, arg: str) -> None:
    """Marital status from the profile; no arg: `Married, 2 children`; `lower`:
    `married ` (trailing space, nothing for a child)."""
    word = ctx.p.marital
    if arg == "lower":  # `married ` with a space; nothing for children
        ctx.add(f"{word} " if ctx.age() >= 18 else "")
        return
    ctx.add(word.capitalize())
    kids = _children(ctx)
    if kids and ctx.chance(0.6):
        n = kids + ctx.rng.randint(0, 1)
        ctx.add(f", {n} {'child' if n == 1 else 'children'}")
    elif not kids and ctx.age() > 25 and ctx.chance(0.3):
        ctx.add(", no children")


@slot("partner")
def s_partner(ctx: NoteContext, arg: str) -> None:
    """The patient's relationship, naming the spouse or partner if any."""
    couple = [
        r
        for r in ctx.p.relatives
        if r.role in ("wife", "husband", "partner", "boyfriend", "girlfriend")
    ]
    if couple:
        ctx.rel = couple[0]
        verb = (
            "married to "
            if couple[0].role in ("wife", "husband")
            else ctx.choice(
                ("dating ", "lives with partner ", "in a relationship with ")
            )
        )
        ctx.add(verb)
        s_relname(ctx, "")
    elif ctx.p.marital == "widowed":
        ctx.add("widowed")
        if ctx.chance(0.5):
            ctx.add(" since ")
            s_year(ctx, "")
    elif ctx.p.marital == "divorced":
        ctx.add(ctx.choice(("divorced", "divorced, not dating", "divorced x2")))
    else:
        ctx.add(ctx.choice(("single", "never married", "single, not dating")))
    kids = _children(ctx)
    if kids:
        ctx.add(f", {kids} {'child' if kids == 1 else 'children'}")


# -- contact & ids ---------------------------------------------------------------


@slot("phone")
def s_phone(ctx: NoteContext, arg: str) -> None:
    """Phone: `pt`, `cell`, `dr` or a fresh clinic number."""
    if arg == "pt":
        val = ctx.p.phone
    elif arg == "cell":
        val = ctx.p.cell
    elif arg == "dr":
        val = (ctx.doc or ctx.author).extra["phone"]
    else:
        val = ctx.v.phone()
    ctx.phi(val, "PHONE")


@slot("fax")
def s_fax(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.phone(ext=0.0), "FAX")


@slot("email")
def s_email(ctx: NoteContext, arg: str) -> None:
    if arg == "pt":
        val = ctx.p.email
    else:
        val = ctx.v.email(ctx.doc or ctx.author)
    ctx.phi(val, "EMAIL")


@slot("url")
def s_url(ctx: NoteContext, arg: str) -> None:
    if arg == "pt":
        val = ctx.p.website
    else:
        val = ctx.v.url(ctx.choice(ctx.p.hospital.abbrs + [""]))
    ctx.phi(val, "URL")


@slot("ip")
def s_ip(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.ip(), "IPADDR")


@slot("mrn")
def s_mrn(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.mrn, "MEDICALRECORD")


@slot("ssn")
def s_ssn(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.ssn, "SSN")


@slot("hp")
def s_hp(ctx: NoteContext, arg: str) -> None:
    val = ctx.v.ident("healthplan") if arg == "new" else ctx.p.healthplan
    ctx.phi(val, "HEALTHPLAN")


@slot("acct")
def s_acct(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.account if ctx.chance(0.7) else ctx.v.ident("account"), "ACCOUNT")


@slot("vehicle")
def s_vehicle(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.vehicle, "VEHICLE")


@slot("device")
def s_device(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.device if ctx.chance(0.6) else ctx.v.ident("device"), "DEVICE")


@slot("bioid")
def s_bioid(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.bioid, "BIOID")


@slot("idnum")
def s_idnum(ctx: NoteContext, arg: str) -> None:
    """Other ids; `arg` may be `accession`."""
    ctx.phi(ctx.v.ident(arg or "idnum"), "IDNUM")


# -- places ------------------------------------------------------------------------


@slot("street")
def s_street(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.address.street, "STREET")


@slot("city")
def s_city(ctx: NoteContext, arg: str) -> None:
    val = ctx.p.address.city if arg != "any" else ctx.choice(cities())[0]
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
    ctx.phi(
        ctx.p.country if arg != "any" else ctx.choice(lst("countries.txt")), "COUNTRY"
    )


@slot("landmark")
def s_landmark(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.choice(lst("landmarks.txt")), "LOCATION_OTHER")


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
    val = ctx.p.profession if arg != "any" else ctx.choice(lst("professions.txt"))
    if arg == "desc":
        job = ctx.p.job
        if job in ("student", "child"):
            ctx.add("student" if job == "student" else "child")
            return
        if job != "employed":
            ctx.add("retired " if job == "retired" else "former ")
    if arg == "a":
        _article(ctx, val)
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
    name = h.name if arg == "full" or ctx.chance(0.55) else ctx.choice(h.abbrs)
    if arg != "full" and ctx.chance(0.05):
        name = name.upper()
    ctx.phi(name, "HOSPITAL")


@slot("dept")
def s_dept(ctx: NoteContext, arg: str) -> None:
    ctx.phi(
        ctx.p.dept if ctx.chance(0.6) else ctx.choice(lst("departments.txt")),
        "DEPARTMENT",
    )


@slot("room")
def s_room(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.room(), "ROOM")


# -- clinical (non-PHI) ----------------------------------------------------------------


@slot("cc")
def s_cc(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(vocab_for(ctx, "complaints")))


def _fits(limit, sex: str, age: int) -> bool:  # noqa: ANN001
    if not limit:
        return True
    if limit.get("sex") and limit["sex"] != sex:
        return False
    return limit.get("min_age", 0) <= age <= limit.get("max_age", 200)


ADULT = {"sex": None, "min_age": 18, "max_age": 200}


def conditions_for(sex: str, age: int):  # noqa: ANN201
    """Conditions plausible for a person of this sex and age."""
    limits = clinical("condition_limits")
    return [c for c in clinical("conditions") if _fits(limits.get(c, ADULT), sex, age)]


def vocab_for(ctx: NoteContext, key: str):  # noqa: ANN201
    """A vocabulary list filtered for the patient (sex, age, ventilator)."""
    limits = clinical("vocab_limits")
    items = list(clinical(key))
    if key == "abbrev":
        items += clinical("abbrev_vent" if ctx.vented() else "abbrev_awake")
    sex, age = ctx.p.person.sex, ctx.age()
    return [x for x in items if _fits(limits.get(x), sex, age)]


def _cond_subject(ctx: NoteContext, arg: str):  # noqa: ANN202
    if arg == "rel" and ctx.rel is not None:
        return ctx.rel.person.sex, max(ctx.rel_age(ctx.rel), 18)
    if arg == "fam":
        return "", 50
    return ctx.p.person.sex, ctx.age()


@slot("cond")
def s_cond(ctx: NoteContext, arg: str) -> None:
    """A condition plausible for the patient (`rel`: the current relative;
    `fam`: an unnamed adult family member)."""
    ctx.add(ctx.choice(conditions_for(*_cond_subject(ctx, arg))))


@slot("pmh")
def s_pmh(ctx: NoteContext, arg: str) -> None:
    pool = conditions_for(ctx.p.person.sex, ctx.age())
    conds = ctx.rng.sample(pool, min(ctx.rng.randint(1, 4), len(pool)))
    sep = ctx.choice((", ", ", ", "; ", " / "))
    ctx.add(sep.join(conds))


def _med_name(ctx: NoteContext, rec) -> str:  # noqa: ANN001
    name = rec["name"]
    if rec["brand"] and ctx.chance(0.35):
        name = rec["brand"]
        r = ctx.rng.random()
        if r < 0.2:
            name = name.upper()
        elif r < 0.5:
            name = name.lower()
    return name


def med_text(ctx: NoteContext, drip: bool = False) -> str:
    """A coherent medication string: dose, route and frequency of one record.

    Drips are IV infusions with rate units (`norepinephrine 0.1 mcg/kg/min`);
    others take a dose, an optional `PO` and a frequency valid for the drug.
    """
    meds = [m for m in clinical("medications") if m["drip"] == drip]
    return med_record_text(ctx, ctx.choice(meds))


def med_record_text(ctx: NoteContext, rec) -> str:  # noqa: ANN001
    """Render one medication record."""
    name, dose = _med_name(ctx, rec), ctx.choice(rec["doses"])
    if rec["drip"]:
        form = ctx.rng.randrange(5)
        if form == 0:
            out = f"{name} gtt @ {dose}"
        elif form == 1:
            out = f"{name} {dose} IV"
        elif form == 2:
            out = f"{name} drip at {dose}"
        elif form == 3:
            out = f"{name} infusion {dose}"
        else:
            out = f"{name} @ {dose}"
        return out.upper() if name.isupper() and len(name) > 4 else out
    route = ctx.choice(rec["routes"])
    parts = [name, dose]
    if route.lower() not in ("po", "p.o.") or ctx.chance(0.6):
        parts.append(route)
    parts.append(ctx.choice(rec["freqs"]))
    out = " ".join(parts)
    return out.upper() if name.isupper() and len(name) > 4 else out


@slot("med")
def s_med(ctx: NoteContext, arg: str) -> None:
    """A medication; `drip`: a continuous infusion."""
    ctx.add(med_text(ctx, drip=arg == "drip"))


@slot("meds")
def s_meds(ctx: NoteContext, arg: str) -> None:
    """A medication list (numbered, bulleted or inline), distinct drugs."""
    n = ctx.rng.randint(3, 12)
    style = ctx.rng.randrange(4)
    recs, seen = [], set()
    for rec in ctx.rng.sample(clinical("medications"), 24):
        if not rec["drip"] and rec["name"] not in seen:
            seen.add(rec["name"])
            recs.append(rec)
    items = [med_record_text(ctx, rec) for rec in recs[:n]]
    if style == 0:
        ctx.add(", ".join(items))
        return
    for i, item in enumerate(items):
        ctx.nl()
        bullet = (f"{i + 1}. ", "- ", "* ", "\u2022 ")[style] if style else ""
        ctx.add(bullet + item)


@slot("vitals")
def s_vitals(ctx: NoteContext, arg: str) -> None:
    vit = ctx.rng.sample(clinical("vitals"), ctx.rng.randint(3, 6))
    ctx.add(ctx.choice((", ", "  ", " | ", " ")).join(vit))


@slot("labs")
def s_labs(ctx: NoteContext, arg: str) -> None:
    labs = ctx.rng.sample(clinical("labs"), ctx.rng.randint(2, 7))
    ctx.add(ctx.choice((", ", "; ", " ", "  ")).join(labs))


@slot("exam")
def s_exam(ctx: NoteContext, arg: str) -> None:
    items = ctx.rng.sample(clinical("exam"), ctx.rng.randint(2, 5))
    if ctx.chance(0.4):
        items.append(ctx.choice(vocab_for(ctx, "eponym_phrases")))
    ctx.add(ctx.choice((", ", ". ", "; ")).join(items))


@slot("eponym")
def s_eponym(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(vocab_for(ctx, "eponym_phrases")))


@slot("amb")
def s_amb(ctx: NoteContext, arg: str) -> None:
    """A sentence using a name/place-like word in a non-PHI sense."""
    ctx.add(ctx.choice(clinical("ambiguous")))


@slot("proc")
def s_proc(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(vocab_for(ctx, "procedures")))


@slot("icd")
def s_icd(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(clinical("icd")))


@slot("cpt")
def s_cpt(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(clinical("cpt")))


@slot("abbr")
def s_abbr(ctx: NoteContext, arg: str) -> None:
    items = ctx.rng.sample(vocab_for(ctx, "abbrev"), ctx.rng.randint(2, 5))
    ctx.add(ctx.choice((", ", ". ", "; ", " ")).join(items))


@slot("resp")
def s_resp(ctx: NoteContext, arg: str) -> None:
    """Respiratory support consistent with the note's ventilator state.

    `status`: `intubated`/`on 4L NC`; `plan`: a plan item; `neuro`: sedation;
    default: settings.
    """
    vent = ctx.vented()
    if arg == "neuro":
        opts = (
            ("sedated on propofol", "sedated on fentanyl", "sedated on precedex")
            if vent
            else ("off sedation", "no sedation", "on precedex for agitation")
        )
    elif arg == "status":
        opts = (
            ("intubated", "intubated/sedated", "on the vent")
            if vent
            else ("on BiPAP", "on 4L NC", "on RA", "on 2L NC", "on 40% face tent")
        )
    elif arg == "plan":
        opts = (
            ("wean vent", "SBT in AM", "cont. current vent settings", "diurese")
            if vent
            else ("OOB to chair", "ambulate w/ PT", "wean O2 as tol", "diurese")
        )
    else:
        opts = (
            ("vent AC", "AC 500/14/5/40%", "PSV 10/5", "CMV, FiO2 40%")
            if vent
            else ("extubated to NC", "4L NC", "RA", "BiPAP overnight", "NC 2L")
        )
    ctx.add(ctx.choice(opts))


@slot("stars")
def s_stars(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(("***", "***", "[***]", "_____", "{***}")))


@slot("n")
def s_n(ctx: NoteContext, arg: str) -> None:
    """A line break."""
    ctx.nl()


@slot("num")
def s_num(ctx: NoteContext, arg: str) -> None:
    """A small non-PHI number (doses, counts, scores)."""
    lo, _, hi = (arg or "1-10").partition("-")
    ctx.add(str(ctx.rng.randint(int(lo), int(hi))))
