"""Daily progress notes (SOAP): mostly PHI-free clinical reasoning."""

from ..common import SIG, header, social
from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "progress"

HDR = group(
    fam(
        "progress.hdr.soap",
        "<Progress Note|PROGRESS NOTE|Daily Progress Note|Medicine Progress Note|"
        "Interval Note>[ - {dept}]{n}{date:note}[ {time}]",
        "<HD|Hospital day|POD> #<2|3|4|5|7|10>[, {hosp}]",
    ),
    fam(
        "progress.hdr.team",
        "<Team|TEAM> <A|B|Blue|Gold|4> - <Intern|Resident|Attending> note"
        "[ ({drname:any})]{n}{pt_hdr}[ {mrn}] Rm {room}",
        "<Overnight|Interval events>: <none|{abbr}|{amb}>",
    ),
    fam(
        "progress.hdr.brief", "<S/O/A/P|SOAP> {pdate:note}: {age_sex}, {cond}", dev=True
    ),
    fam(
        "progress.hdr.crosscover",
        "<Cross-cover note|Night float note|Overnight events> {date:note} "
        "{time}{n}<Called by|Paged by> {staff} re: {pt_ref} ({dept}, rm "
        "{room})",
        test=True,
    ),
)

SUBJ = group(
    fam(
        "progress.s.narr",
        "<Pt|Patient|{pt_ref}> <reports|states|notes> <feeling better|less SOB|"
        "continued {cc}|poor sleep> <this AM|overnight|today>.",
        "<No|Denies> {cc}. {prose}",
        "<Seen and examined|Discussed> with {drname:attending}[ on rounds].",
    ),
    fam(
        "progress.s.events",
        "<Overnight|ON|Last night>, <pt|{pt_ref}> <spiked to 101.4|had "
        "{cc}|was agitated, required {med}|remained stable>.",
        "<Family|{rel}> <at bedside|updated by phone|met with team> <this AM|"
        "yesterday|{weekday}>.",
        "{prose}",
        "Cross-cover ({drname:any}) <aware|notified> at {time}.",
    ),
    fam(
        "progress.s.terse",
        'S: <NAE|no c/o|c/o {cc}|"{cc}">.',
        "O: {vitals}.",
        "{abbr}.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a SOAP-style progress note."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(SUBJ, k=ctx.rng.randint(1, 3))
    ctx.add(" ")
    prose(ctx, ctx.rng.randint(3, 7))
    if ctx.chance(0.15):
        header(ctx, "sh")
        social(ctx, ctx.rng.randint(1, 2))
    header(ctx, "exam")
    ctx.t("{vitals}{n}{exam}[ {prose:2}]")
    if ctx.chance(0.6):
        header(ctx, "labs")
        prose(ctx, ctx.rng.randint(2, 4))
    header(ctx, "ap")
    ctx.t("{age_sex} with {pmh}[ admitted {pdate:adm}] for {cond}.")
    for i in range(ctx.rng.randint(2, 6)):
        ctx.nl()
        ctx.add(ctx.choice((f"{i + 1}. ", "# ", "- ", "")))
        ctx.t("{cond}: ")
        prose(ctx, ctx.rng.randint(2, 5))
    if ctx.chance(0.5):
        ctx.nl()
        ctx.t(
            "<Dispo|Disposition>: <home {pdate:fu}|rehab when bed available|"
            "pending PT eval|{stars}>"
        )
    ctx.nl(2)
    ctx.use(SIG)
