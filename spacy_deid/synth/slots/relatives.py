"""Relative slots: one relative per frame, with name, role, phone and job."""

from ..context import NoteContext, article, poss, slot


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


@slot("relprof")
def s_relprof(ctx: NoteContext, arg: str) -> None:
    """The current relative's profession (`arg` `a`: with article)."""
    rel = ctx.rel or ctx.relative()
    if not rel.profession:
        ctx.add("a student" if arg == "a" else "student")
        return
    if arg == "a":
        article(ctx, rel.profession)
    ctx.phi(rel.profession, "PROFESSION")
