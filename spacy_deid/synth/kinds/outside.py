"""Documents from outside the ward: home health, school nurse, dental,
court letters and insurance or disability forms."""

from ..context import NoteContext
from ..families import fam, group

KIND = "outside_record"

DOCS = group(
    fam(
        "outside_record.doc.home",
        "<HOME HEALTH VISIT|VNA Visit Note|Home Care Skilled Nursing Visit> "
        "{date:note}{n}<Agency|From>: {orgk:agency}",
        "<Visit at|Seen at> <home|residence>, {addr}. {relrole} {famname} present.",
        "Pt {occ}; lives with {lrel}. {trap}.",
        "<Meds|Pharmacy>: {orgk:pharmacy} on {street}[, {phone}].",
    ),
    fam(
        "outside_record.doc.school",
        "<SCHOOL NURSE NOTE|School Health Office Visit> - {orgk:school}",
        "<Student|Child>: {pt:full}, grade <2|5|7|10>; siblings {kid} and {kid}.",
        "<Parent|Guardian> {relname} <called|picked up> at {time}, cell "
        "{relphone}. {trap}.",
        "Attends after-school care at {orgk:daycare}.",
    ),
    fam(
        "outside_record.doc.dental",
        "<DENTAL CLINIC|Dental progress note> {date:note}[, {hosp:other}]",
        "<Dentist|Provider>: {dr}; <hygienist|assistant> {staff:bare}.",
        "<Pt|Patient> {occ}. On {trap}; <tooth|#>{num:1-32} <extracted|filled>.",
        "<Ins|Insurance>: {orgk:insurer}, member {hp}.",
    ),
    fam(
        "outside_record.doc.court",
        "{county_court}{n}<RE|Re>: <Guardianship of|In the matter of> {pt}",
        "<Docket|Case> No. {idnum}. <Counsel|Attorney> {wname} <of|from> "
        "{orgk:employer}.",
        "<Hearing|Next hearing> on {date:fu}. <Court officer|Clerk> {famname:new}.",
    ),
    fam(
        "outside_record.doc.insurance",
        "<DISABILITY FORM|Attending Physician Statement|Short-Term Disability "
        "Claim>{n}<Insurer|Carrier>: {orgk:insurer}  Claim # {idnum}",
        "<Employer|Company>: {orgk:employer}; <job title|occupation>: {prof}.",
        "<Unable to work|Out of work> from {date:past} to {date:fu}. {trap}.",
        "<Rides|Transport> via {orgk:transport}; <policy|member> {hp}.",
    ),
    fam(
        "outside_record.doc.dev",
        "<home visit|hh visit> <per|by> {lc_staff} for {orgk:agency}: pt {occ},"
        " {lrel} <assists|helps>. {trap}.",
        "<daycare|day program> {orgk:daycare} <aware|called>; kids {kid}, {kid}.",
        dev=True,
    ),
    fam(
        "outside_record.doc.test",
        "<LETTER TO COURT|Letter re: custody> - {county_court}",
        "{pt_ref}'s <children|kids> {kid} and {kid} live with {lrel}. <Employer|"
        "Work>: {orgk:employer} ({occ}). {trap}.",
        test=True,
    ),
)

TAIL = group(
    fam("outside_record.tail.sig", "<Signed|Completed by>: {sig} {date:note}"),
    fam("outside_record.tail.fax", "<Fax|Return> to {fax} <attn|Attn:> {staff:bare}"),
    fam("outside_record.tail.dev", "<cc|copy>: {orgk}, {orgk:registry}", dev=True),
    fam(
        "outside_record.tail.test",
        "<Questions|Contact>: {staff:bare} at {phone}[ or {email:dr}]",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render one outside document."""
    ctx.use(DOCS, k=ctx.rng.randint(3, 4), sep="\n")
    ctx.nl(2)
    ctx.use(TAIL)
