"""Informal clinic comments: lower case, misspellings, shorthand."""

from ..context import NoteContext
from ..families import fam, group

KIND = "clinic_comment"

BODY = group(
    fam(
        "clinic_comment.body.shorthand",
        "pt seen <today|w/ {rel}|in clinic {pdate:note}>, <doing ok|feels better|"
        "still c/o {cc}>.",
        "<bp|BP> {vitals}. <cont|continue|incr> {med}.",
        "f/u w/ <dr|Dr.> {drname:informal} <next|on> <{weekday}|{pdate:fu}>.",
        "<spoke w|talked to|called> {relname} @ {relphone}.",
        "{amb}",
        "<sees|also sees> <derm|cards|GI|ortho> at {hosp:other}.",
        "<per|Per> {drname:informal}'s <note|msg>, <ok to|will> <cont|stop> {med}.",
    ),
    fam(
        "clinic_comment.body.chatty",
        "<Nice|Pleasant> visit with {pt_ref} today.",
        "{Pro} just got back from "
        "<the Cape|{landmark}|{city:any}|visiting family in {country}>[ over "
        "{holiday}].",
        "{Pro} {job:now}.",
        "{Poss} {relrole:young} {relname} <is graduating from|is starting at> "
        "{org:relschool}[ in {month}].",
        "{Pro} asks for a letter for <work|the RMV|housing>; sent to {email:pt}.",
        "{eponym}.",
    ),
    fam(
        "clinic_comment.body.nurse",
        "<Pt's|pts> {relrole} {relname} <called|came by>, "
        "<worried about|asking re> {cc}.",
        "<Told|Advised> to <go to ED|come in tmrw|take tylenol>.",
        "<dr|Dr.|DR> {drname:informal} <aware|notified|ok'd>.",
        "<Will|will> <call back|recheck> {weekday}.",
        "{amb}",
        "{prose}",
    ),
    fam(
        "clinic_comment.body.forms",
        "<pt|Pt|{pt_ref}> <requesting|needs|asks for> <handicap placard|disability "
        "plate|RMV form> for <car|vehicle|van> <plate|reg> {vehicle}.",
        "<SSN|ss#> on file: {ssn}.",
        "<Video visit|Telehealth visit> via {url}; pt connected from {ip}.",
        "<Form|Paperwork> <faxed|sent> to {org:emp} HR at {fax}.",
        "{prose}",
    ),
    fam(
        "clinic_comment.body.msg",
        "<msg|message> <from|for> {drname:informal}: <pls|please> call pt "
        "<re|about> labs ({labs}).",
        "<cell|home> {phone:cell}",
        "<appt|f/u> {date:fu} {time} w/ {drname:pcp}",
        "{amb}",
        dev=True,
    ),
    fam(
        "clinic_comment.body.note",
        "<Here for|Presents for|Visit for> <f/u|follow up|annual exam|med check>"
        ". {pmh}.",
        "<Exam|PE>: {exam}.",
        "<Labs|Data>: {labs}.",
        "<Plan|P>: <cont meds|start {med}|refer to {dept}|RTC 3 mo>.",
        "<Nitro|Tylenol|Aspirin> prn.",
        "{amb}",
        "{prose:2}",
        "{prose}",
    ),
    fam(
        "clinic_comment.body.phone",
        "<Message|Msg> taken by {staff} {date:note} {time}{n}<Re|RE>: {pt}[ "
        "({age_sex})]",
        "<Will|To> <route|forward> to {drname:pcp}.",
        "{n}{pt_hdr}  MRN {mrn}  <Call back|CB>: {phone:pt}",
        "{amb}",
    ),
    fam(
        "clinic_comment.body.portal",
        "<pt|Pt> sent portal msg: <hi|hello> dr {drname:informal}, my {cc} "
        "is <worse|no better|back>, can i get a refill of {med}",
        "<replied|answered> via portal[ to {email:pt}].",
        "pt's {relrole} {relname} <will pick up|picking up> rx at "
        "<CVS|Walgreens> on {street}.",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render an informal clinic comment."""
    if ctx.chance(0.5):
        ctx.t(
            "<{date:note}|{date:note} {time}|{pdate:note}|[{hosp:clinic}] {date:note}>"
        )
        ctx.nl()
    ctx.use(BODY, k=ctx.rng.randint(2, 5), sep=ctx.choice((" ", "\n", ". ")))
    ctx.nl()
    ctx.t("<-{drname:informal}|{drname:informal}|{sig}|-{user}>")
