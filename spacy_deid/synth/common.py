"""Pieces shared by several note kinds: section headers and closing blocks."""

from typing import Dict, Tuple

from .context import NoteContext
from .families import fam, group

HEADERS: Dict[str, Tuple[str, ...]] = {
    "cc": (
        "CC",
        "Chief Complaint",
        "CHIEF COMPLAINT",
        "Reason for visit",
        "C/C",
        "Reason for Admission",
    ),
    "hpi": (
        "HPI",
        "History of Present Illness",
        "HISTORY OF PRESENT ILLNESS",
        "Hx of Present Illness",
        "Present Illness",
        "HPI/Interval History",
        "History",
    ),
    "pmh": (
        "PMH",
        "Past Medical History",
        "PAST MEDICAL HISTORY",
        "PMHx",
        "Med Hx",
        "Past Medical/Surgical History",
        "Problem List",
    ),
    "meds": (
        "Medications",
        "MEDICATIONS",
        "Meds",
        "Current Medications",
        "Medications on Admission",
        "Home meds",
        "Outpatient Medications",
    ),
    "dcmeds": (
        "Discharge Medications",
        "DISCHARGE MEDICATIONS",
        "Meds at discharge",
        "D/C Meds",
        "Medications on Discharge",
    ),
    "all": ("Allergies", "ALLERGIES", "All", "Allergy", "ALLERGIES/ADVERSE REACTIONS"),
    "sh": (
        "Social History",
        "SOCIAL HISTORY",
        "SH",
        "Soc Hx",
        "Social Hx",
        "Psychosocial History",
    ),
    "fh": ("Family History", "FAMILY HISTORY", "FH", "FHx", "Fam Hx"),
    "exam": (
        "Physical Exam",
        "PHYSICAL EXAMINATION",
        "PE",
        "Exam",
        "Exam on admission",
        "Physical Examination",
    ),
    "labs": (
        "Labs",
        "LABORATORY DATA",
        "Pertinent Results",
        "Data",
        "Labs/Studies",
        "Laboratory",
    ),
    "course": (
        "Hospital Course",
        "HOSPITAL COURSE",
        "Brief Hospital Course",
        "Course",
        "Hospital Course by Problem",
        "HOSPITAL COURSE AND TREATMENT",
    ),
    "ap": (
        "Assessment and Plan",
        "ASSESSMENT/PLAN",
        "A/P",
        "Impression/Plan",
        "Assessment & Plan",
        "Plan",
        "IMPRESSION AND PLAN",
    ),
    "dispo": ("Disposition", "DISPOSITION", "Discharge Disposition", "Dispo"),
    "fu": (
        "Follow-up",
        "FOLLOW UP",
        "Follow up appointments",
        "Followup",
        "F/U",
        "Follow-up Instructions",
    ),
    "findings": ("Findings", "FINDINGS", "Findings:", "Report"),
    "impression": (
        "Impression",
        "IMPRESSION",
        "Conclusion",
        "IMPRESSION/CONCLUSION",
        "Summary",
    ),
    "ros": ("ROS", "Review of Systems", "REVIEW OF SYSTEMS", "ROS (10-point)"),
    "instr": (
        "Discharge Instructions",
        "DISCHARGE INSTRUCTIONS",
        "Patient Instructions",
        "Instructions",
    ),
    "mse": ("Mental Status Exam", "MENTAL STATUS EXAMINATION", "MSE", "Mental Status"),
}


def header(ctx: NoteContext, key: str) -> None:
    """Emit a section header in the note's (sometimes varied) style."""
    text = ctx.choice(HEADERS[key])
    style = ctx.hstyle if ctx.chance(0.8) else ctx.rng.randrange(9)
    ctx.nl(2 if ctx.chance(0.5) else 1)
    if style == 0:
        ctx.add(f"{text}:")
        ctx.nl()
    elif style == 1:
        ctx.add(f"{text}: ")
    elif style == 2:
        ctx.add(f"{text.upper()}:")
        ctx.nl()
    elif style == 3:
        ctx.add(text)
        ctx.nl()
        ctx.add("-" * len(text))
        ctx.nl()
    elif style == 4:
        ctx.add(f"{text.upper()}: ")
    elif style == 5:
        ctx.add(f"** {text} **")
        ctx.nl()
    elif style == 6:
        ctx.add(f"{text} - ")
    elif style == 7:
        ctx.add(f"{text.upper()}")
        ctx.nl()
    else:
        ctx.add(f"{text} :  ")


SIG = group(
    fam(
        "common.sig.plain",
        "{sig}[{n}{lic}]",
        "{sig}{n}{date:note} {time}",
        "Electronically signed by: {sig} on {date:note}[ at {time}]",
    ),
    fam(
        "common.sig.dictated",
        "Dictated by: {sig}{n}D: {date:note}[ {time}]{n}T: {date:note}[ {time}]"
        "[{n}Job #: {idnum}]",
        "<Dictated|Transcribed> By: {sig}[{n}Attending: {dr:attending}]"
        "{n}<DD|D>: {date:note}{n}<TD|T>: {date:next}",
    ),
    fam(
        "common.sig.cc",
        "{sig}{n}<cc|CC|cc:> {dr:pcp}[, {hosp:clinic}]",
        "[Signed: ]{sig}[ ({user})]{n}[Pager {pager}]",
    ),
    fam(
        "common.sig.epic",
        "{sig}{n}{date:note} {time}{n}[Cosigned by {dr:attending} {date:note}]",
        "Attestation: I saw and examined the patient with {drname:any} and agree with"
        " the note above. {sig}",
    ),
    fam(
        "common.sig.addendum",
        "Addendum {date:note} {time}: <results reviewed|plan discussed> with "
        "{drname:any}. {sig}",
        dev=True,
    ),
    fam(
        "common.sig.cosign",
        "<Note authored by|Author>: {sig}[ "
        "({user})]{n}<Co-signer|Supervising physician>: {dr:attending} "
        "<{date:note}|{date:note} {time}>",
        test=True,
    ),
)

FOLLOWUP = group(
    fam(
        "common.fu.appt",
        "<Follow up|F/u|Followup|Please follow up> with {dr:pcp} <in|within> "
        "<1 week|2 weeks|1-2 weeks|one month|3 months>[ at {hosp:clinic}].",
        "Appointment with {dr:consult} on {date:fu}[ at {time}][, {hosp:clinic}].",
        "<Call|Phone> {phone} to schedule <an appointment|follow-up>[ with "
        "{drname:consult}].",
        "[If questions, ]<please |>call {hosp:clinic} at {phone}[ or fax {fax}].",
    ),
    fam(
        "common.fu.list",
        "- {drname:pcp} ({hosp:clinic}) {anydate:fu} [{time}]{n}"
        "- {dept} <clinic|appt> {anydate:fu}[, phone {phone}]",
        "PCP: {dr:pcp}  Phone: {phone}  Fax: {fax}",
        "Provider: {drname:consult} Specialty: <Cardiology|GI|Renal|Pulm|Neuro|ID>"
        " Date/Time: {date:fu} {time} Phone: {phone}",
    ),
    fam(
        "common.fu.narr",
        "{Pro} will <see|follow up with> {drname:pcp} on {pdate:fu}.",
        "<Labs|INR|CBC|BMP> to be checked {pdate:fu} and faxed to {fax}[ (attn "
        "{drname:pcp})].",
        "VNA to <see pt|visit> at home[ ({addr})][, contact {phone}].",
    ),
    fam(
        "common.fu.terse",
        "f/u {drname:pcp} {pdate:fu}",
        "RTC <2 wks|prn|1 mo|3 mo>",
        "call {phone}",
        "<faxed|fax> to {drname:pcp} @ {fax}",
    ),
    fam(
        "common.fu.team",
        "<Case manager|Case management|Social work|SW|Visiting nurse|Home health "
        "nurse|School nurse|Charge nurse|Chaplain|Nutrition|The interpreter> "
        "<aware|following|consulted|updated by phone>[; {staff}].",
        "<Discussed with|Updated|Message left for> <the case manager|the charge "
        "nurse|the visiting nurse|the social worker|the school nurse|the unit "
        "clerk|case management> <re: discharge|about the plan|by phone>.",
        "<VNA|Home health|Hospice> nurse to <visit|see pt> <weekly|twice a week|"
        "daily>[ for <wound care|line flushes|med teaching>].",
    ),
    fam(
        "common.fu.portal",
        "<Pt to|Will> schedule via portal[ ({url})]; <questions to|call> "
        "{dept} at {phone}.",
        "<Next visit|RTC> {anydate:fu} with {drname:pcp}.",
        dev=True,
    ),
    fam(
        "common.fu.table",
        "<Appt|Appointment> | {dept} | {drname:consult} | {date:fu} {time}",
        "<Referral|Ref> placed to {dept} at {hosp:other}; <they will call|pt "
        "to call> {phone}.",
        test=True,
    ),
)


def signature(ctx: NoteContext) -> None:
    """A closing signature block."""
    ctx.nl(2)
    ctx.use(SIG)


def followup(ctx: NoteContext, k: int = 2) -> None:
    """A follow-up section with appointments, phones and faxes."""
    header(ctx, "fu")
    ctx.use(FOLLOWUP, k=k, sep=ctx.choice(("\n", " ")))


SOCIAL = group(
    fam(
        "common.sh.narr",
        "<Lives|Currently lives|Resides> <with {rel}|alone|in an assisted living "
        "facility> <in|outside of|near> {city}[, {state}].",
        "{Pro} {job}.",
        "<Originally from|Born and raised in|Grew up in> <{hometown}|{country}>.",
        "<Former smoker, quit {year}|Never smoker|Smokes 1/2 ppd|Quit tobacco in "
        "{year}>. <No EtOH|Occasional EtOH|2-3 beers/day|Denies drugs>.",
        "<Enjoys|Likes> <walking at {landmark}|fishing on {landmark}|church at "
        "{org:church}|volunteering at {org:charity}|gardening>.",
    ),
    fam(
        "common.sh.terse",
        "<Tob|Tobacco|Smoking>: <neg|former|current 1ppd|quit {year}>",
        "<EtOH|Alcohol>: <social|none|heavy, last drink {weekday}>",
        "<Occ|Occupation|Work>: {job:terse}",
        "<Lives w/|Home>: <{relrole} {relname}|alone|{rel}>[, {city}]",
        "<Drugs|IVDU|Illicits>: <denies|remote cocaine|marijuana>",
    ),
    fam(
        "common.sh.family",
        "{marital}.",
        "{Poss} {relrole} {relname} <is|works as> {relprof:a}[ and lives in "
        "{city:any}].",
        "<HCP|Health care proxy|Emergency contact> is {rel}[ ({relphone})].",
    ),
    fam(
        "common.sh.language",
        "<Primary language|Language spoken|Language>: <Spanish|Haitian Creole|"
        "Portuguese|Mandarin|Arabic|Polish|Tagalog|ASL>[; <needs|requests|"
        "refused> <an interpreter|a medical interpreter|interpreter services>].",
        "<History obtained|Consent signed|Visit done> <via|through|with> <a "
        "phone|a video|an in-person|the> interpreter[ ({staff})].",
        "<Moved to|Came to|Immigrated to|Arrived in> the {country:home} <in {year}|"
        "as a child|as an adult>[ from {country}].",
    ),
    fam(
        "common.sh.immigrant",
        "<Emigrated|Moved> from {country} <in|around> {year}[ with {rel}].",
        "<Speaks|Primary language is> <Spanish|Portuguese|Haitian Creole|"
        "Vietnamese|Cantonese|Russian>; <interpreter|daughter> used.",
        "<Worked|Was working> as {prof:a} <in|back in> {country}; {pro} {job:now}.",
        dev=True,
    ),
    fam(
        "common.sh.housing",
        "<Housing|Lives>: <apartment|house|shelter> in {city}[ with {rel}].",
        "<Transport|Rides>: <drives self|{relrole} {relname} drives|uses The RIDE>.",
        "<Work|Employment>: {job:terse}.",
        "<Faith|Religion>: <attends {org:church}|none>.",
        test=True,
    ),
)


def social(ctx: NoteContext, k: int = 3) -> None:
    """A social history section body."""
    ctx.use(SOCIAL, k=k, sep=ctx.choice((" ", "\n")))
