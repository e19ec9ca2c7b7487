"""EMS run sheets, travel medicine visits and genetic counselling pedigrees:
highways, landmarks, world cities, countries and relatives with ages."""

from ..context import NoteContext
from ..families import fam, group

KIND = "field_record"

DOCS = group(
    fam(
        "field_record.doc.ems",
        "<EMS RUN SHEET|Ambulance Run Report|PCR> {date:note}  Unit <M|A>{num:1-40}"
        "{n}<Service|Agency>: {orgk:transport}",
        "<Dispatched to|Response to> MVC on {highway} <near|by|at exit for> "
        "{landmark}[, {town}].",
        "<Pt|Driver> {age_sex}, <restrained|unrestrained>; <bystander|witness> "
        "{wname} <called 911|stayed on scene>. {trap}.",
        "<Transported to|Tx to> {hosp:other}; <crew|medic> {staff:bare}.",
    ),
    fam(
        "field_record.doc.travel",
        "<TRAVEL MEDICINE|Pre-travel Consult|Travel Clinic> {date:note}",
        "<Itinerary|Trip>: {wcity} {date:fu} -\\> {wcity} -\\> {wcity:only}, "
        "<return|back> {pdate:fu}.",
        "<Traveling|Going> with {lrel} for <work|a wedding|mission trip with "
        "{orgk:church}>; pt {occ}.",
        "<Born in|Originally from> {wcountry}; last visit <to|in> {wcountry} "
        "{year}. {trap}.",
    ),
    fam(
        "field_record.doc.pedigree",
        "<GENETIC COUNSELING|Cancer Genetics Consult|Pedigree> - {pt_hdr}",
        "Proband {age_sex}, {occ}; ancestry: <{wcountry}|{wcountry} and {wcountry}>.",
        "- {pedrel}{n}- {pedrel}{n}- {pedrel}",
        "<Sample|Specimen> to {orgk:registry}; {trap}.",
    ),
    fam(
        "field_record.doc.dev",
        "<run #|incident> {idnum}: <pt found|fall> at {landmark} off {highway}; "
        "<wife|friend> {wname} on scene. {trap}.",
        "<returned from|trip to> {wcity} <last wk|in {month}>; <spouse|friend> "
        "{famname:new} also ill.",
        dev=True,
    ),
    fam(
        "field_record.doc.test",
        "<Family tree|Pedigree> reviewed w {lrel}:{n}- {pedrel}{n}- {pedrel}",
        "<Pt|Family> emigrated from {wcity} in {year}; cousins in {wcountry}. {trap}.",
        test=True,
    ),
)

TAIL = group(
    fam("field_record.tail.sig", "<Completed by|Signed>: {sig} {date:note}"),
    fam("field_record.tail.call", "<Call|Contact> {staff:bare} at {phone} w/ Qs."),
    fam("field_record.tail.dev", "<cc|copy to>: {dr} ({hosp:other})", dev=True),
    fam(
        "field_record.tail.test",
        "<Reviewed|Cosigned> <by|w> {lc_dr} on {dayabbr}",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render one EMS, travel or pedigree document."""
    ctx.use(DOCS, k=ctx.rng.randint(3, 4), sep="\n")
    ctx.nl(2)
    ctx.use(TAIL)
