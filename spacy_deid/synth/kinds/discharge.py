"""Discharge summaries: header block, HPI, course, meds, follow-up."""

from ..common import SIG, followup, header, social
from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "discharge"

HDR = group(
    fam(
        "discharge.hdr.record",
        "Record date: {date:note}{n}{n}<DISCHARGE SUMMARY|Discharge Summary|"
        "DISCHARGE NOTE>{n}{n}<NAME|Name|PATIENT>: {pt_hdr}{n}<MRN|MR#|Unit No|"
        "Medical Record #>: {mrn}{n}<Admission Date|ADMISSION DATE|Date of Admission"
        "|Admit date>: {date:adm}{n}<Discharge Date|DISCHARGE DATE|Date of Discharge"
        "|D/C date>: {date:dc}",
    ),
    fam(
        "discharge.hdr.banner",
        "{hosp:full}[{n}{dept}]{n}{pt_hdr}  {mrn}  <DOB|D.O.B.|Birth date>: "
        "{date:dob}[  Age: {age}]{n}<Adm|Admitted>: {date:adm}   <Disch|Discharged>:"
        " {date:dc}[   Acct: {acct}]",
        "{pt_hdr} | MRN {mrn} | {age_sex} | Room {room} | Attending: {drname:attending}"
        "{n}Admission {date:adm} - Discharge {date:dc}",
    ),
    fam(
        "discharge.hdr.form",
        "PATIENT NAME: {pt_hdr}{n}UNIT NUMBER: {mrn}[{n}ACCOUNT #: {acct}]{n}"
        "ADMITTED: {date:adm}{n}DISCHARGED: {date:dc}{n}SERVICE: <MED|Medicine|"
        "Cardiology|General Surgery|Neurology|Oncology>[{n}UNIT: {dept}]"
        "[{n}INSURANCE: <BCBS|Medicare|MassHealth|Tufts HP|Aetna> #{hp}]"
        "[{n}SSN: {ssn}]",
        dev=True,
    ),
    fam(
        "discharge.hdr.epic",
        "<Patient Name|Pt Name|Name>: {pt_hdr}<  |{n}><Sex|Gender>: {mf:long}{n}"
        "<Date of Birth|DOB>: {date:dob} ({age} <y.o.|yrs|years>){n}<MRN|EMPI>: "
        "{mrn}[   <CSN|Encounter #>: {idnum}]{n}<Admit Date|Hospital Admission>: "
        "{date:adm}[ {time}]{n}<Discharge Date|Hospital Discharge>: {date:dc}"
        "[{n}<Discharging Provider|Discharge Attending>: {drname:attending}]"
        "[{n}<SSN|Soc Sec #>: {ssn}]",
    ),
    fam(
        "discharge.hdr.dictated",
        "{hosp}{n}<Discharge Summary|DISCHARGE SUMMARY>[ - {dept}]{n}"
        "{pt} ({mrn})[ DOB {date:dob}]{n}Dates: {date:adm} to {date:dc}",
    ),
    fam(
        "discharge.hdr.transfer",
        "<TRANSFER/DISCHARGE SUMMARY|Interfacility Discharge "
        "Summary>{n}{pt_hdr} - {age_sex} - {mrn}{n}<Admitted|In> {date:adm}, "
        "<discharged|out> {date:dc} from {hosp}[ ({dept})]",
        "<Accepting facility|Discharged to>: {hosp:other}, {city:any}[; "
        "report to {staff:bare}]",
        test=True,
    ),
)

ATTENDING = group(
    fam(
        "discharge.att.lines",
        "<Attending|ATTENDING|Attending physician>: {dr:attending}[{n}<PCP|Primary "
        "care|Primary Care Physician>: {dr:pcp}[ ({phone:dr})]]",
        "<Service|SERVICE>: <Medicine|Cardiology|Surgery|Neurology|MICU|Oncology>"
        "[ - {dept}]{n}<Attending|Discharging MD>: {drname:attending}",
    ),
    fam(
        "discharge.att.inline",
        "Patient of {dr:attending}[, {dept}]. Referred by {dr:pcp}[ of {hosp:clinic}].",
        "Admitting: {drname:attending}  Resident: {drname:any}[  Pager #{pager}]",
    ),
)

CC = group(
    fam("discharge.cc.plain", "{cc}", "{cc} x <2 days|3d|1 wk|several days>", '"{cc}"'),
    fam(
        "discharge.cc.dx",
        "<Principal Diagnosis|Dx|Reason for admission>: {cond}[ ({icd})]",
        "{cond} exacerbation",
    ),
)

HPI = group(
    fam(
        "discharge.hpi.classic",
        "{pt_ref} is a {age_phrase} {sex} with <a history of|a PMH of|h/o|PMHx>"
        " {pmh} who <presents|presented|was admitted> with {cc}[ on {anydate:onset}].",
        "{Pro} was in {poss} usual state of health until {pdate:onset}, when {pro} "
        "<developed|noted|began having> {cc}[ while at {landmark}].",
        "<At|In> the {hosp:other} ED, vitals were {vitals}. Labs notable for {labs}.",
        "{Pro} was <given|treated with> {med} and <transferred|admitted> to "
        "{hosp}[ ({dept})] for further management.",
        "Of note, {pro} was <recently|last> admitted [to {hosp:other} ]on {date:past}"
        " for {cond}.",
        "<Since|Starting in|Around> <{month}|{holiday}|{year}>,"
        " {pro} has had <intermittent|progressive|worsening> {cc}.",
        "{amb}",
    ),
    fam(
        "discharge.hpi.terse",
        "{age_sex} w/ {pmh} p/w {cc}.",
        "Seen at {hosp:other} {pdate:onset}, tx'd w/ {med}.",
        "Per {rel}, pt <more confused|not eating|SOB> x <2d|1wk|3 days>.",
        "In ED: {vitals}. {labs}.",
        "{amb}",
    ),
    fam(
        "discharge.hpi.story",
        "This is a {age_phrase} {prof:desc} with {pmh} who was <brought"
        " in|sent in> by {rel} after {cc} at home.",
        "The patient reports {cc} beginning {weekday}[ ({pdate:onset})].",
        "<{Pro}|The patient> <denies|reports no> fevers, chills[, or {cc}].",
        "{Pro} follows with {dr:pcp} at {hosp:clinic}[ who last saw {obj} "
        "{pdate:past}].",
        "{amb}",
    ),
    fam(
        "discharge.hpi.aged",
        "{pt_ref}, <aged|age> {age}, <presents|was admitted|comes in> <with|for> "
        "{cc}[ x <2 days|1 week|several hours>].",
        "{Pro} lives <in|outside> {city}[, {state}] with {rel}; {pro} {job}.",
        "Symptoms began <on|around> {anydate:onset}[ after <a trip to|visiting> "
        "<{landmark}|{country:any}|{city:any}>].",
        "{Pro} was <last seen|evaluated> by {dr:pcp} on {date:past}.",
        "{amb}",
    ),
    fam(
        "discharge.hpi.ed_course",
        "{pt} presented to the {hosp} <Emergency Department|ED|emergency room> "
        "on {date:adm}[ at {time}] <complaining of|with> {cc}.",
        "<Triage|Initial> vitals: {vitals}.",
        "<ED course|In the ED> was notable for {labs}; {pro} received {med}.",
        "<The ED attending|ED physician> {dr:any} <discussed the case with|"
        "called> {drname:attending}, who accepted {obj} to {dept}.",
        "{prose:2}",
    ),
    fam(
        "discharge.hpi.nursing_home",
        "<Resident of|Lives at|Long-term resident of> {hosp:other}[ in "
        "{city:any}], sent in for {cc}.",
        "Per <NH|facility|nursing home> <staff|RN {staff:bare}>, pt has been "
        "<more lethargic|refusing meds|febrile to 101> since {weekday}.",
        "<Family|{rel}> <reports|notes> <baseline A&Ox1|that pt is usually "
        "conversant|recent falls>.",
        "<NH|Facility> <MD|physician> is {dr:any}[ ({phone})].",
        "{amb}",
    ),
    fam(
        "discharge.hpi.referral",
        "Pt is a {age_phrase} <man|woman|pt> transferred from {hosp:other} "
        "<on|> {date:adm} for {proc}.",
        "<Briefly|In brief|Per records>, {pro} was found to have {cond} {season}.",
        "Records from {drname:any} reviewed.",
    ),
    fam(
        "discharge.hpi.outside",
        "<Outside|OSH> <records|notes> from {hosp:other} <show|document> "
        "{cond} <since|as of> {year}.",
        "<Per|According to> {poss} {relrole} {relname}, {pro} <had been|was> "
        "<declining|stable> <since|over> {holiday}.",
        dev=True,
    ),
)

COURSE = group(
    fam(
        "discharge.course.problem",
        "# {cond}: <treated with|started on|continued> {med}. {labs}.",
        "# {cond}: {exam}. <Will|To> f/u as outpt.",
        "# {cond} - {proc} on {date:adm}[ by {dr:consult}], <uncomplicated|"
        "complicated by {cond}>.",
        "# FEN: {abbr}",
        "# Dispo: {amb}",
    ),
    fam(
        "discharge.course.narr",
        "The patient was admitted to {dept}[ under {dr:attending}].",
        "{Pro} underwent {proc} on {anydate:adm} which showed {cond}.",
        "<Cardiology|GI|Renal|ID|Neurology> was consulted ({dr:consult}) and "
        "recommended {med}.",
        "{Poss} {labs} improved <with|after> {med}.",
        "{Pro} was <seen|evaluated> by PT and cleared for home[ with {rel}].",
        "{eponym}. {amb}",
        "<Seen|Followed> by Drs. {drname:consult} and {drname:any} <of|from> "
        "<cardiology|renal|the pain service|ID>.",
        "<Care discussed|Plan reviewed> with {drname:consult}/{drname:any}.",
        "<Per|As per> {drname:consult}'s <note|recs|recommendations>, {med} was "
        "<started|continued>.",
        "{Pro} was in the <MICU|CCU|SICU> {drange:adm-dc}[ ({dept})].",
    ),
    fam(
        "discharge.course.days",
        "HD#1 ({date:adm}): {abbr}.",
        "HD#2: {labs}. {amb}",
        "On {pdate:dc}, {pro} was <afebrile|stable|tolerating PO> and "
        "<discharged|d/c'd> to {hosp:other}.",
        "Transferred to room {room} on {pdate:adm}.",
        dev=True,
    ),
)

DISPO = group(
    fam(
        "discharge.dispo.lines",
        "<Discharged to|Disposition|Dispo>: <home|home with services|rehab|SNF|"
        "extended care> [- {hosp:other}]",
        "<Condition|Condition on discharge>: <stable|good|fair|improved>",
    ),
    fam(
        "discharge.dispo.contact",
        "{Pro} will stay with {rel} at {addr}. <Home|Contact> phone {phone:pt}.",
        "Emergency contact: {relname} ({relrole}) {relphone}",
        "Patient portal: {url}[ (username {user:pt})]",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a discharge summary."""
    ctx.use(HDR)
    ctx.nl()
    ctx.use(ATTENDING, k=1)
    sections = ["cc", "hpi", "ros", "pmh", "all", "sh", "exam", "labs"]
    if ctx.chance(0.3):
        ctx.rng.shuffle(sections)
    for sec in sections:
        if sec not in ("hpi",) and ctx.chance(0.3):
            continue
        header(ctx, sec)
        if sec == "cc":
            ctx.use(CC)
        elif sec == "hpi":
            ctx.use(HPI, k=ctx.rng.randint(2, 5))
            ctx.add(" ")
            prose(ctx, ctx.rng.randint(4, 10))
        elif sec == "pmh":
            ctx.t("<{pmh}|1. {cond}{n}2. {cond}{n}3. {cond}|{pmh}. s/p {proc} {year}>")
        elif sec == "all":
            ctx.t(
                "<NKDA|NKA|PCN (rash)|sulfa (hives)|{stars}|codeine, morphine|"
                "{drug} (<rash|hives|nausea>)>"
            )
        elif sec == "sh":
            social(ctx, ctx.rng.randint(1, 4))
        elif sec == "ros":
            prose(ctx, ctx.rng.randint(3, 6))
        elif sec == "exam":
            ctx.t("{vitals}{n}{exam}{n}")
            prose(ctx, ctx.rng.randint(3, 6))
        else:
            ctx.t("{labs}{n}{labs}[{n}{labs}][{n}{eponym}]{n}")
            prose(ctx, ctx.rng.randint(2, 5))
    header(ctx, "course")
    ctx.use(COURSE, k=ctx.rng.randint(2, 5), sep=ctx.choice(("\n", " ")))
    ctx.add(" ")
    prose(ctx, ctx.rng.randint(12, 26))
    if ctx.chance(0.6):
        header(ctx, "ap")
        for i in range(ctx.rng.randint(3, 7)):
            ctx.nl()
            ctx.add(ctx.choice((f"{i + 1}. ", "# ", "- ", f"{i + 1}) ")))
            ctx.t("{cond}: ")
            prose(ctx, ctx.rng.randint(2, 5))
    if ctx.chance(0.5):
        header(ctx, "instr")
        prose(ctx, ctx.rng.randint(3, 7))
    header(ctx, "dcmeds")
    ctx.t("{meds}")
    header(ctx, "dispo")
    ctx.use(DISPO, k=ctx.rng.randint(1, 2), sep="\n")
    followup(ctx, k=ctx.rng.randint(1, 3))
    ctx.nl(2)
    ctx.use(SIG)
