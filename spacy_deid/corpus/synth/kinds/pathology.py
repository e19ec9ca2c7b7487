"""Pathology reports (withheld from train): specimens, gross, diagnosis."""

from ..context import NoteContext
from ..families import fam, group

KIND = "pathology"

HDR = group(
    fam(
        "pathology.hdr.lab",
        "<SURGICAL PATHOLOGY REPORT|Pathology Report|CYTOPATHOLOGY>{n}"
        "<Accession|Case|Specimen> <#|No.|number>: {idnum:accession}{n}"
        "<Patient|Name>: {pt_hdr}  <MRN|Unit #>: {mrn}{n}<Collected|Date "
        "obtained>: {date:adm}   <Received|Accessioned>: {date:note}{n}"
        "<Submitting physician|Clinician|Surgeon>: {dr:any}[{n}{hosp}]",
    ),
    fam(
        "pathology.hdr.outside",
        "<Outside consult|Referred slides> from {hosp:other}, {city:any}[, "
        "{state}]{n}Outside case <#|no.> {idnum:accession} ({date:past}){n}"
        "{pt} / {age_sex} / DOB {date:dob}",
    ),
)

GROSS = group(
    fam(
        "pathology.gross.jar",
        'Received in formalin labeled with the patient\'s name <"{pt}"|{pt}> '
        "and <medical record number|MRN> <{mrn}|>.",
        "<Specimen|Part> <A|1> consists of a <tan-pink|gray-white|red-brown> "
        "<fragment|ellipse of skin|core> measuring <1.2 x 0.8 x 0.3 cm|"
        "0.5 cm|2 x 1 x 1 cm>.",
        "<Entirely submitted|Representative sections> in cassettes <A1-A3|1A-1D>.",
        "Gross by {staff:bare} {date:note}.",
    ),
    fam(
        "pathology.gross.brief",
        "<A|1>: <colon, polyp, polypectomy|skin, L forearm, shave|prostate, "
        "needle core bx x12|lymph node, excision>",
        "Tissue block {idnum:accession} sent to {hosp:other} for <IHC|FISH|"
        "flow> on {pdate:fu}.",
    ),
)

DX = group(
    fam(
        "pathology.dx.final",
        "FINAL DIAGNOSIS:{n}<Tubular adenoma|Hodgkin lymphoma, nodular sclerosis "
        "type|Adenocarcinoma, Gleason 3+4=7|Basal cell carcinoma, margins clear|"
        "Reactive lymph node|Barrett's esophagus without dysplasia>.",
        "<Comment|Note>: <Discussed with|Results called to> {dr:any} on "
        "{date:note} at {time}.",
        "I have personally reviewed the slides. {sig}[{n}<CLIA|Lab license> "
        "#{lic:license}]",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a pathology report."""
    ctx.use(HDR)
    ctx.nl(2)
    ctx.add(ctx.choice(("GROSS DESCRIPTION:", "Gross:", "GROSS")))
    ctx.nl()
    ctx.use(GROSS, k=ctx.rng.randint(1, 4))
    ctx.nl(2)
    ctx.use(DX, k=3, sep="\n")
