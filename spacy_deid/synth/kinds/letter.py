"""Letters to patients: address block, results, portal URL, contact lines."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "patient_letter"

HEAD = group(
    fam(
        "patient_letter.head.block",
        "{hosp:clinic}{n}[{dept}{n}]{addr:clinic_block}{n}{n}{date:note}{n}{n}"
        "{title}{pt:full}{n}{addr:block}",
    ),
    fam(
        "patient_letter.head.simple",
        "{date:note}{n}{n}<RE|Re>: {pt}  <DOB|Date of birth> {date:dob}[  MRN {mrn}]",
    ),
    fam(
        "patient_letter.head.email",
        "To: {email:pt}{n}From: {email:dr}{n}<Date|Sent>: "
        "{date:note}{n}Subject: <Your test results|Appointment reminder|Message "
        "from your care team>",
        dev=True,
    ),
    fam(
        "patient_letter.head.portal",
        "<Secure message|MyChart message|Portal letter> to {pt_ref}[ "
        "({email:pt})] from {drname:pcp}, {hosp:clinic}, sent {date:note}",
        test=True,
    ),
)

BODY = group(
    fam(
        "patient_letter.body.results",
        "<Dear|Hello> <{pt_ref}|{pt:first}>,",
        "<I am writing to let you know|This letter is to inform you|We wanted to "
        "let you know> that your <recent|> <blood tests|x-ray|MRI|biopsy> from "
        "{anydate:past} <were normal|showed {cond}|need follow-up>.",
        "<Please|Kindly> <call|contact> <our office|the clinic|{hosp:clinic}> at "
        "{phone}[ or fax {fax}] to <schedule|arrange> <a follow-up visit|an "
        "appointment>.",
        "You can also view your results online at {url}.",
        "{prose}",
    ),
    fam(
        "patient_letter.body.appt",
        "Your <next|upcoming> appointment is on {date:fu} at {time} with "
        "{dr:pcp}[ in {dept}].",
        "<Please arrive|Arrive> 15 minutes early[ and park at {landmark}].",
        "If you need to reschedule, <call|please call> {phone}.",
        "<May|Please> bring <your insurance card|a list of your "
        "medications>[ (member ID {hp})].",
    ),
    fam(
        "patient_letter.body.noshow",
        "<We missed you|You missed your appointment> on {date:past}[ with {dr:pcp}].",
        "<It is important|Please remember> to <continue|take> your "
        "<medications|{med}> <as prescribed|every day>.",
        "<Please call|Call> {phone} <between 8 and 5|during business hours> "
        "<to reschedule|to make a new appointment>.",
        "<Our new address is|We have moved to> {addr:clinic}.",
    ),
    fam(
        "patient_letter.body.portal",
        "<Your|A new> <message|result|document> is available in <MyChart|the "
        "patient portal>: {url}.",
        "<Your username is|Log in as> {user:pt}.",
        "<For help|If you have trouble logging in>, <email|write to> {email:dr} "
        "or call {phone}.",
    ),
    fam(
        "patient_letter.body.work",
        "To whom it may concern:",
        "{pt} <has been under my care|was seen in clinic> <on|since> {date:past}.",
        "{Pro} <may return to work|should be "
        "excused from work> at {org:emp} <on|starting> {date:fu}.",
        "{Pro} {job}.",
        dev=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a letter to a patient."""
    ctx.use(HEAD)
    ctx.nl(2)
    ctx.use(BODY, k=ctx.rng.randint(2, 5), sep=ctx.choice(("\n\n", " ")))
    if ctx.chance(0.4):
        ctx.add(" ")
        prose(ctx, 1)
    ctx.nl(2)
    ctx.t(
        "<Sincerely|Best wishes|Regards>,{n}{sig:pcp}[{n}{hosp:clinic}]"
        "[{n}<Phone|Tel> {phone:dr}]"
    )
