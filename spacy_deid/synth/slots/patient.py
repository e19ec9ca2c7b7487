"""Slots for the patient: name, title, pronouns, sex and age."""

from ..context import NoteContext, poss, slot


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
