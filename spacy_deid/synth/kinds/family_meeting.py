"""Family meeting and palliative care notes: many relatives by first name,
nicknames and first names that are ordinary words."""

from ..context import NoteContext
from ..families import fam, group

KIND = "family_meeting"

HDR = group(
    fam(
        "family_meeting.hdr.title",
        "<FAMILY MEETING|Family Meeting Note|Palliative Care Family Meeting> "
        "{date:note}[ {time}]",
        "<Location|Held in>: {dept} <conference room|family room>[, {hosp}]",
    ),
    fam(
        "family_meeting.hdr.goc",
        "<Goals of Care Discussion|GOC meeting|Palliative Care Note> - {pt_hdr}",
        "<Facilitator|Led by>: {dr}",
    ),
    fam(
        "family_meeting.hdr.dev",
        "<Pall care|PC> <family mtg|fam meeting> re {pt:last} on {weekday}",
        dev=True,
    ),
    fam(
        "family_meeting.hdr.test",
        "<Meeting with family|Family conference> for <{pt_ref}|{pt}>, {date:note}",
        test=True,
    ),
)

PRESENT = group(
    fam(
        "family_meeting.present.list",
        "<Present|Attendees|In attendance>: {rel}, {famname:new}, {famname:new}[, "
        "{wname}], {staff} (<SW|chaplain|RN>), {dr}.",
        "<Family present|Family>: {relrole} {relname}, {famname:new} (<niece|"
        "grandson|cousin>), {wname} (<friend|neighbor>).",
    ),
    fam(
        "family_meeting.present.phone",
        "{famname:new} and {famname:new} <joined by phone|on speaker|via video>[ from "
        "{city:any}].",
        "<Chaplain|Rev.> {wname} from {orgk:church} <present|joined>.",
    ),
    fam(
        "family_meeting.present.dev",
        "<Pt's|the pt's> <kids|children> {famname}, {wname} and {famname:new} <here|"
        "present>; <ex-|former >{relrole} {wname} by phone.",
        dev=True,
    ),
    fam(
        "family_meeting.present.test",
        "<Attending|Present were> {famname} (<HCP|health care proxy>), {wname}, "
        "<\"|'>{famname}<\"|'> and <chaplain|pastor> {wname} of {orgk:church}.",
        test=True,
    ),
)

DISC = group(
    fam(
        "family_meeting.disc.goals",
        "{famname} <feels|states> {pt_first} <would not want|would want> "
        "<intubation|CPR|a feeding tube>.",
        "We <reviewed|discussed> {trap} and the overall <prognosis|trajectory>.",
        "{wname} <asked|wondered> whether {pro} may <go home|return to {hosp:other}>.",
        "<Family|They> will <meet again|reconvene> on {weekday}; {famname} "
        "to <call|update> {wname}.",
    ),
    fam(
        "family_meeting.disc.words",
        "Family hopes for comfort; {wname} hopes to visit <in {month}|this week|soon>.",
        "<Plan|We agreed>: {trap}; <DNR/DNI|comfort-focused care|time-limited trial>.",
        "{famname} <is|will be> <HCP|proxy>; {famname} <lives|is driving up> "
        "from {city:any}.",
        "<Grandson|Nephew> {wname} ({occ}) <helps|asked about> <hospice|home care>.",
    ),
    fam(
        "family_meeting.disc.dev",
        "{relrole} {famname} <tearful|quiet>; {wname} <may|will> "
        "stay overnight. {trap}.",
        dev=True,
    ),
    fam(
        "family_meeting.disc.test",
        "{wname} (<sister-in-law|godmother|best friend>) <spoke for|supported> "
        "the family. <Hospice|VNA> {orgk:agency} to call {famname}. {trap}.",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a family meeting note."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(PRESENT, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(DISC, k=ctx.rng.randint(2, 4))
    ctx.nl(2)
    ctx.t("<{sig}|-- {staff}, {date:note}|{dr}>")
