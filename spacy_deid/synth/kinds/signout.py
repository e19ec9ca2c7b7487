"""Sign-out and cross-cover lists: bare surnames, bed lists, to-do items."""

from ..context import NoteContext
from ..families import fam, group

KIND = "signout"

HDR = group(
    fam(
        "signout.hdr.list",
        "<SIGNOUT|Sign-out|Cross-cover list|Night float signout> {date:note}"
        "[ ({sur} -\\> {sur})]",
        "<Team|Firm> <A|B|C|4> - <covering for|x-cover for> {sur}",
    ),
    fam(
        "signout.hdr.pager",
        "<Covering|Cross-covering> {dept}: {sur} (pgr {pager})",
        "<Signout|handoff> {sur} -\\> {sur} @ {time}",
    ),
    fam(
        "signout.hdr.night",
        "<night signout|nf signout|night float list|weekend signout> {lcday} "
        "{sdate:note} <from|fm>: {sur:lower} -\\> {sur:lower}",
        "<covering|xc> {lcday}<| night|>: {sur:lower}[ / {sur:lower}]",
    ),
    fam(
        "signout.hdr.dev",
        "<overnight|nf> <covering|coverage>: {sur:lower} -\\> {sur:lower}[ {date:note}]",
        dev=True,
    ),
    fam(
        "signout.hdr.nightdev",
        "<overnight list|nights> ({lcday} {sdate:note}) - {sur:lower} to {sur:lower}",
        dev=True,
    ),
    fam(
        "signout.hdr.nighttest",
        "{lcday:test} <nite|night> <s/o|handover>: {sur:lower} =\\> {sur:lower}",
        test=True,
    ),
    fam(
        "signout.hdr.test",
        "<Hand-off|I-PASS> {date:note}: <from|fm> {sur} to {sur}[ ({pager})]",
        test=True,
    ),
)

BEDS = group(
    fam(
        "signout.bed.line",
        "<Rm|Bed|rm> {room} {bedpt} - {cc}. <TODO|to do>: "
        "f/u <K|Mg|lactate|cx> <in am|at 2200>[, {trap}].",
        "{room}  {bedpt}  <full code|DNR/DNI>  <f/u w|d/w> {sur} re: <K|INR|dispo>",
    ),
    fam(
        "signout.bed.ifthen",
        "{room} - {bedpt}: if <SBP \\<90|febrile|CP> -\\> <bolus|cx + call|EKG>, "
        "<call|page> {sur}[ ({pager})].",
        "{bedpt} ({room}): {trap}; <fam|{relrole}> {famname} <aware|to call back>.",
    ),
    fam(
        "signout.bed.dev",
        "{room}/{bedpt} - <watch|follow> {labs}; <per|d/w> {sur:lower}"
        " <ok to|may> <diurese|feed>.",
        dev=True,
    ),
    fam(
        "signout.bed.test",
        "[{room}] {bedpt}: <covering for|x-cover> {sur} "
        "- {trap}; <f/u|fu> w {sur} re: <K|Hct|CT read>.",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a sign-out list."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl()
    for _ in range(ctx.rng.randint(3, 6)):
        ctx.use(BEDS)
        ctx.nl()
    if ctx.chance(0.5):
        ctx.t("<Questions|Qs>: page {sur} <{pager}|at {pager}>")
