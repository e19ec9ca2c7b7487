"""ED triage notes: arrival, age/sex, complaint, vitals, acuity, EMS details."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "ed_triage"

HDR = group(
    fam(
        "ed_triage.hdr.triage",
        "<ED TRIAGE|Triage Note|EMERGENCY DEPT TRIAGE|ED Triage Assessment>"
        "{n}<Arrival|Arrived|Time in>: {date:note} {time}{n}<Pt|Patient|Name>: "
        "{pt_hdr}[  MRN: {mrn}]{n}<Age|AGE>: {age}[  Sex: {mf}]",
        "<Acuity|ESI|Triage level>: <1|2|3|4|5>  <Room|Bed|Rm>: {room}[ ({dept})]",
    ),
    fam(
        "ed_triage.hdr.inline",
        "{time} {age_sex} <BIBA|walk-in|BIB police|BIB family|via EMS> "
        "<c/o|w/> {cc}[ to {hosp}]",
    ),
    fam(
        "ed_triage.hdr.reg",
        "REG: {pt_hdr} DOB {date:dob} Ins {hp}[ Acct {acct}][ SSN {ssn}]{n}"
        "Address: {addr}{n}Phone: {phone:pt}[{n}<Palm vein|Biometric|PatientSecure> "
        "ID: {bioid}]",
        dev=True,
    ),
    fam(
        "ed_triage.hdr.tracker",
        "Tracking board {time}: <Rm|Bed|Hall> {room} - {pt_hdr} - {age_sex} "
        "- {cc} - <RN|Nurse> {staff:bare} - <MD|Prov> {drname:any}",
        test=True,
    ),
)

BODY = group(
    fam(
        "ed_triage.body.ems",
        "Per EMS, pt <found down|fell|was involved in an MVC> <at|near|outside> "
        "{landmark}[ at {time}].",
        "<Driver|Passenger> of vehicle <plate|lic. "
        "plate|reg> {vehicle}[, <airbag deployed|restrained>].",
        "<Ambulance|Medic> <unit|rig> {idnum} <from|out of> {city:any}.",
        "GCS <15|14|13|3> at scene; {eponym}.",
    ),
    fam(
        "ed_triage.body.complaint",
        "<Pt|{pt_ref}> reports {cc} since {pdate:onset}.",
        "{vitals}",
        "<Hx|PMH>: {pmh}. <Meds|Takes>: {med}.",
        "<Accompanied by|With> {rel}[ ({relphone})].",
        "{amb}",
        "{prose:2}",
    ),
    fam(
        "ed_triage.body.vitals",
        "<VS|Vitals|Initial VS>: {vitals}. <Pain|pain> <7/10|10/10|4/10|0/10>.",
        "<Allergies|All>: <NKDA|PCN|sulfa|latex|{drug}>.",
        "<LMP|Last meal|Last tetanus>: {pdate:past}.",
        "<Weight|Wt> <70|82|95> kg. {abbr}.",
        "{prose}",
    ),
    fam(
        "ed_triage.body.screen",
        "<Fall risk|Suicide screen|Abuse screen>: <neg|positive|deferred>.",
        "<Travel|Recent travel> to {country}: <yes|no>[ ({season})].",
        "<Isolation|Precautions>: <none|contact|droplet>.",
        "{abbr}.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render an ED triage note."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl()
    ctx.use(BODY, k=ctx.rng.randint(2, 5), sep=ctx.choice(("\n", " ")))
    ctx.add(" ")
    prose(ctx, ctx.rng.randint(1, 3))
    ctx.nl()
    ctx.t("<Triage RN|RN|Triaged by>: {staff}[ {time}]")
