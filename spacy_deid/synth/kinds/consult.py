"""Specialty consult notes: requesting service, reason, recommendations."""

from ..common import SIG, header, social
from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "consult"

HDR = group(
    fam(
        "consult.hdr.form",
        "<CONSULTATION|Consult Note|<Cardiology|Renal|ID|GI|Neurology|Pulmonary> "
        "Consult>{n}<Date|Date of consult>: {date:note}{n}<Requesting|Referring> "
        "<physician|MD|service>: {dr:any}[ ({dept})]{n}<Reason|Reason for "
        "consult|Question>: <{cond}|eval of {cc}|recs re: {cond}>",
    ),
    fam(
        "consult.hdr.line",
        "{pt_hdr}, {age_sex}, <MRN|#> {mrn}, <seen|evaluated> at the request of "
        "{dr:attending} for {cc}.",
        "<Asked|Consulted> by {drname:attending} <to evaluate|re:> {cond}; "
        "<thank you for this consult|thanks for the interesting consult>.",
    ),
    fam(
        "consult.hdr.curbside",
        "<Curbside|Phone consult|E-consult> {date:note} {time}: {dr:any} "
        "<asked|called> about {cond} in <pt|{pt}> ({mrn}).",
        dev=True,
    ),
    fam(
        "consult.hdr.econsult",
        "E-CONSULT RESPONSE {date:note}{n}<Requesting clinician|Referring "
        "provider>: {drname:any} ({hosp:clinic})[{n}Patient: {pt_hdr}, "
        "{age_sex}]",
        "<Question|Clinical question>: <{cond}|eval of {cc}> in {pt_ref}.",
        test=True,
    ),
)

RECS = group(
    fam(
        "consult.recs.list",
        "1. <Start|Continue|Hold> {med}.",
        "2. <Check|Send|Trend> <TSH|iron studies|BNP|CK|ANA|HbA1c>[ in AM].",
        "3. <Will|We will> follow "
        "<peripherally|along|daily>; <please page|call> {pager} with questions.",
        "4. <Outpt|Outpatient> f/u with {dr:consult} at {hosp:clinic} in "
        "<2|4|6> weeks[, {phone}].",
        "5. {prose}",
    ),
    fam(
        "consult.recs.narr",
        "<We recommend|Recommend|Would suggest> {med} and {prose}",
        "<Discussed with|Seen with> {drname:consult}, <attending|fellow>.",
        "<Recs|Recommendations> <d/w|discussed with> primary team "
        "({drname:attending}) at {time}.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a consult note."""
    ctx.use(HDR, k=2, sep="\n")
    header(ctx, "hpi")
    ctx.t("{age_sex} with {pmh} <who presented with|admitted for> {cc}. ")
    prose(ctx, ctx.rng.randint(3, 7))
    if ctx.chance(0.4):
        header(ctx, "sh")
        social(ctx, ctx.rng.randint(1, 3))
    if ctx.chance(0.5):
        header(ctx, "meds")
        ctx.t("{meds}")
    if ctx.chance(0.5):
        header(ctx, "ros")
        prose(ctx, ctx.rng.randint(2, 5))
    header(ctx, "exam")
    ctx.t("{vitals}{n}{exam}")
    ctx.nl()
    prose(ctx, ctx.rng.randint(1, 3))
    header(ctx, "ap")
    prose(ctx, ctx.rng.randint(3, 6))
    ctx.nl()
    ctx.use(RECS, k=ctx.rng.randint(2, 5), sep="\n")
    ctx.nl(2)
    ctx.use(SIG)
