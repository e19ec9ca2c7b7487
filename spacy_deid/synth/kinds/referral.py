"""Referral letters: letterhead addresses, phone/fax, salutation, body."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "referral"

HEAD = group(
    fam(
        "referral.head.letterhead",
        "{hosp:clinic}{n}[{dept}{n}]{addr:clinic_block}{n}<Tel|Phone|Ph|T>: {phone}  "
        "<Fax|F|FAX>: {fax}[{n}{url}]",
        "{date:note}{n}{n}{dr:consult}{n}{hosp:other}{n}{addr:last_block}",
    ),
    fam(
        "referral.head.re",
        "<RE|Re|RE:|Patient>: {pt}[, DOB {date:dob}][ (MRN {mrn})]",
        "<Date|DATE>: {date:note}{n}<To|TO>: {dr:consult}[, {dept}]{n}"
        "<From|FROM>: {dr:pcp}{n}<Fax|FAX>: {fax}",
    ),
    fam(
        "referral.head.email",
        "From: {email:dr}{n}Sent: {weekday:note}, {date:note} {time}{n}To: "
        "{email:dr}{n}Subject: <referral|consult request|re: {pt}>",
        dev=True,
    ),
    fam(
        "referral.head.fax_cover",
        "FAX COVER SHEET{n}<To|Attn>: {drname:consult}, {dept}  <Fax|F>: "
        "{fax}{n}<From|Sender>: {drname:pcp}  <Phone|Ph>: {phone}",
        "<Regarding|Patient> {pt} ({date:dob})  Pages: {num:2-12}",
        test=True,
    ),
)

BODY = group(
    fam(
        "referral.body.formal",
        "<Dear|Dear Dr.> {drname:consult},",
        "Thank you for <seeing|agreeing to "
        "see|evaluating> {pt_ref}, a {age_phrase} {sex} with {pmh}.",
        "I <saw|last saw> {obj} in clinic on {date:past}, at which time {pro} "
        "reported {cc}.",
        "{Poss} <current medications|meds> are {med} and {med}.",
        "{Pro} lives at {addr} and can be reached at {phone:pt}[ or by email at "
        "{email:pt}].",
        "<Insurance|Health plan>: <Medicare|BCBS|Harvard Pilgrim|MassHealth> ID {hp}.",
        "{eponym}. {amb}",
        "{prose:2}",
        "{prose:3}",
    ),
    fam(
        "referral.body.brief",
        "<Please evaluate|Kindly see|Referring for eval of> {cond} in this "
        "{age_phrase} <man|woman|patient>.",
        "<Recent|Last> {labs} on {pdate:past}.",
        "{Pro} prefers appointments on <Mondays|Fridays|{weekday}>; {relrole} "
        "{relname} drives ({relphone}).",
        "Records faxed to {fax} on {date:note}.",
    ),
    fam(
        "referral.body.consult_reply",
        "<Thank you for referring|Thanks for sending> {pt_ref} <to|to see> me "
        "<at|in> <the|> {dept}[ at {hosp}].",
        "As you know, {pro} is a {age_phrase} {sex} <with|who has> {pmh}.",
        "<I saw|We saw> {obj} on {date:note}[ with {poss} {relrole} {relname}].",
        "{prose:2}",
        "<My|Our> <impression|assessment> is {cond}[; I have recommended {med}].",
        "I will see {obj} again <in|on> <3 months|6 weeks|{date:fu}>.",
    ),
    fam(
        "referral.body.history",
        "{Pro} was <diagnosed with|found to have> {cond} <in|around> {year}[ at "
        "{hosp:other}].",
        "<Previously|Prior> <followed by|treated by> {dr:any} <in|at> "
        "<{city:any}|{hosp:other}>.",
        "{Pro} <recently moved|relocated> from {city:any}[, {state}] <and|to be "
        "near {poss} {relrole}>.",
        "{prose}",
    ),
    fam(
        "referral.body.school",
        "{Pro} {job} and requests a letter for <work|FMLA|disability|school>.",
        "{Poss} {relrole:young} {relname} attends {org:relschool}.",
        "Travel to {country} planned {season}.",
        dev=True,
    ),
)

CLOSE = group(
    fam(
        "referral.close.sincerely",
        "<Sincerely|Best regards|With thanks|Yours truly>,{n}{n}{sig}[{n}"
        "{lic}][{n}{email:dr}]",
        "<cc|CC|Cc>: {dr:pcp}[, {hosp:clinic}][{n}<Enclosures|Encl>: "
        "<labs|notes from {date:past}>]",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a referral letter."""
    ctx.use(HEAD, k=2, sep="\n\n")
    ctx.nl(2)
    ctx.use(BODY, k=ctx.rng.randint(3, 6), sep=ctx.choice((" ", "\n\n")))
    ctx.add(" ")
    prose(ctx, ctx.rng.randint(4, 8))
    ctx.nl(2)
    ctx.use(CLOSE, k=2, sep="\n")
