"""Terse ICU nursing notes: systems, abbreviations, times, family contacts."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "icu_nursing"

HDR = group(
    fam(
        "icu_nursing.hdr.shift",
        "<Nursing Progress Note|NURSING NOTE|RN Note|MICU Nsg Note|CCU NPN|SICU "
        "nursing> <0700-1900|1900-0700|7a-7p|7p-7a|days|nights>[ {date:note}]",
        "{date:note} {time}[ {dept}] Rm {room}",
    ),
    fam(
        "icu_nursing.hdr.banner",
        "{pt_hdr}  {mrn}  {dept} Bed {room}{n}<RN|Nurse>: {staff}",
        "[{hosp} ]<MICU|SICU|CCU|Neuro ICU> - <Bed|Rm|room> {room}[ - {date:note}]",
        dev=True,
    ),
    fam(
        "icu_nursing.hdr.handoff",
        "<Handoff|SBAR handoff|Shift report> <from|given to> {staff:bare} at "
        "{time}{n}<Pt|Patient> {pt_ref}, {age_sex}, {dept} bed {room}",
        test=True,
    ),
)

SYS = group(
    fam(
        "icu_nursing.sys.colon",
        "Neuro: {resp:neuro}, {eponym}, RASS <-2|-1|0>, MAE.",
        "CV: {vitals}. <NSR|SR|AF> on tele, no ectopy.",
        "Resp: {resp}, {abbr}.",
        "GI/GU: {abbr}. Foley to gravity, UOP <30-50cc/hr|adequate|over 100cc/hr>.",
        "ID: Tmax <100.2|101.4|afebrile>, on {med}.",
        "Skin: <intact|stage II coccyx|dsg c/d/i>.",
        "Social: <{relrole}|family member> {relname} <in|called|visited>"
        "[ @ {time}], updated by RN[, # {relphone}].",
        "Endo: FS q6h, {labs}.",
    ),
    fam(
        "icu_nursing.sys.events",
        "<Pt|pt|PT> <restless|agitated|calm> overnight, {med} x1 with effect.",
        "MD <aware|notified> ({drname:informal}) re: {labs}.",
        "<Transferred|Tx'd> from {dept} @ {time}.",
        "{rel} <at bedside|called|visited> {weekday}; <updated|plan discussed>.",
        "IV pump #{device} <replaced|alarming, replaced>.",
        "<Family|{relrole}> car (<plate|MA plate|lic> {vehicle}) <in|moved from> "
        "<ED lot|garage|valet>; <security|valet> <aware|notified>.",
        "{abbr}. {amb}",
        "<Per|As per> {drname:attending}'s <plan|orders>, <wean|hold|cont> {med}.",
        "<Intubated|On pressors> {drange:past}.",
    ),
    fam(
        "icu_nursing.sys.narr",
        "<Received|Rec'd|Assumed care of> pt <from|in report from> {staff} at "
        "{time}[, {dept}].",
        "Pt <remains|is> {resp:status} with {vitals}.",
        "<Drips|Gtts>: {med:drip}[, {med:drip}].",
        "<HCP|{relrole}> {relname} <called for update|in to "
        "visit|spoke with team> <this evening|at {time}|@ {time}>.",
        "Chaplain {staff:bare} <visited|in to see pt>.",
        "{prose}",
        "Pt <transported|to> <CT|MRI|IR> w/ RN <and RT|> at {time}, <returned "
        "without incident|tolerated well>.",
    ),
    fam(
        "icu_nursing.sys.abbr",
        "<NEURO|N>: {abbr}",
        "<CV|C/V>: {vitals}",
        "<RESP|PULM>: {abbr}",
        "<GI|GU|RENAL>: {abbr}[, {labs}]",
        "<ID|HEME>: {labs}",
        "<SOCIAL|FAMILY>: <family|{relrole}> <aware|updated>, # on board {relphone}",
        "<ACCESS|LINES>: <R IJ|L SC|PICC|A-line>, <dsg c/d/i|changed {pdate:note}>",
    ),
    fam(
        "icu_nursing.sys.bullets",
        "- {abbr}",
        "- {vitals}",
        "- labs: {labs}",
        "- {eponym}",
        "- family ({relname}) updated by {drname:informal}",
        "- {amb}",
        dev=True,
    ),
)

PLAN = group(
    fam(
        "icu_nursing.plan.short",
        "Plan: <cont. current mgmt|{resp:plan}|transfuse 1u PRBC>[, f/u {labs}]",
        "POC: <cont to monitor|?extubate|family mtg {weekday}>",
    ),
    fam(
        "icu_nursing.plan.family",
        "Family mtg w/ {drname:attending} {pdate:fu} @ {time}.",
        "<HCP|Health care proxy> is {relrole} {relname} ({relphone}).",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render an ICU nursing note."""
    ctx.use(HDR)
    ctx.nl()
    ctx.use(SYS, k=ctx.rng.randint(3, 7), sep="\n")
    ctx.nl()
    prose(ctx, ctx.rng.randint(3, 8))
    ctx.nl()
    ctx.use(PLAN, k=ctx.rng.randint(1, 2), sep="\n")
    ctx.nl()
    ctx.t("<{staff}|{staff}, {time}|RN {staff:bare}|-{staff:bare}>")
