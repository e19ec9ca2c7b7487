"""Clinician slots: doctors, staff, signatures, usernames, pagers, licences."""

from ..context import NoteContext, slot
from ..values import Person


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
