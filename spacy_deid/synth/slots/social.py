"""Social history slots, consistent with the patient's profile (job,
marital status, partner, stressors)."""

from ..context import NoteContext, article, slot
from .dates import s_year
from .places import s_org
from .relatives import s_relname


def _children(ctx: NoteContext) -> int:
    return sum(r.role in ("son", "daughter", "stepdaughter") for r in ctx.p.relatives)


def _with_org(ctx: NoteContext, pre: str, kind: str = "emp") -> None:
    ctx.add(pre)
    s_org(ctx, kind)


def _prof_a(ctx: NoteContext, pre: str = "") -> None:
    ctx.add(pre)
    article(ctx, ctx.p.profession)
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
