"""Lower-case telegraphic nursing and handoff notes: names after weak cues."""

from ..context import NoteContext
from ..families import fam, group

KIND = "nursing_handoff"

HDR = group(
    fam(
        "nursing_handoff.hdr.plain",
        "<nsg note|rn note|nursing|shift note> <0700|7p-7a|7p|7a|nights>[ {date:note}]",
        "<rm|bed|rm.> {room}[ - {dept}]",
    ),
    fam(
        "nursing_handoff.hdr.lower",
        "{lc_pt} seen <@|at> {time}[ {date:note}]",
        "<report from|rpt from|handoff from> {lc_staff}",
    ),
    fam(
        "nursing_handoff.hdr.sbar",
        "S: {lc_pt}, {age_sex}, <rm|bed> {room}",
        "B: <adm|admitted> {pdate:adm} w {cc}",
        dev=True,
    ),
    fam(
        "nursing_handoff.hdr.weak",
        "<Pt|pt> {pt:full} <seen|assessed|checked> [on {weekday}][ by {lc_staff}]",
        "<assumed care|took report> {time} <per|from> {lc_staff}",
        test=True,
    ),
)

BODY = group(
    fam(
        "nursing_handoff.body.dw",
        "d/w {lc_dr} re: {labs}, <will|to> <recheck|f/u> in am.",
        "<per|as per> {lc_staff} pt <slept well|restless overnight|up to chair>.",
        "{lrel} <at bedside|called|visited>[ {weekday}], <updated|aware of plan>.",
        "{trap}.",
    ),
    fam(
        "nursing_handoff.body.terse",
        "<pt|Pt> <a&ox3|confused at times|sleepy but arousable>, {trap}.",
        "<call|called> {lrel} @ {relphone} - <lvm|no answer|updated>.",
        "md <aware|notified> ({sur:lower}), <no new orders|new orders rec'd>.",
        "{amb}. {trap}.",
    ),
    fam(
        "nursing_handoff.body.family",
        "{lrel} <here|in> <all day|this pm|for lunch>, <asking re: dc|"
        "wants call from md>.",
        "{lrel} <and|&> {lrel:new} <visited|called>.",
        "<pt|Pt> states <her|his> {relrole} {wname} <will|may> pick up at dc.",
        "{trap}, {trap}.",
    ),
    fam(
        "nursing_handoff.body.meds",
        "{med} given <@|at> {time}, {trap}.",
        "<held|holding> {med} per {lc_dr}.",
        "<pharm|pharmacy> ({lc_staff}) <to verify|verified> dose.",
    ),
    fam(
        "nursing_handoff.body.dev",
        "<spoke w|spoke with|paged> {lc_dr} <x2|again>, <awaiting callback|aware>.",
        "<sis|bro|dtr> {famname} <brought|dropped off> clothes, {trap}.",
        "pt's <friend|neighbor> {wname} <on phone|visiting>.",
        dev=True,
    ),
    fam(
        "nursing_handoff.body.test",
        "<f/u w|fu with> {sur:lower} <in am|after rounds> re: {trap}.",
        "{lrel} <wants|requests> update <from|by> {lc_dr} <today|tonight>.",
        "<covering|cross cover> rn {staff:bare} aware.",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a lower-case telegraphic nursing/handoff note."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl()
    for _ in range(ctx.rng.randint(2, 4)):
        ctx.use(BODY, k=ctx.rng.randint(1, 3), sep=ctx.choice((" ", "\n", "; ")))
        ctx.nl()
    ctx.t("<-- {staff}|{lc_staff}|{staff:bare} rn|{staff}>")
