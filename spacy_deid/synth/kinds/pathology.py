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


GROSS_PROSE = (
    "The specimen is received in formalin.",
    "The specimen consists of a tan-pink, rubbery fragment of soft tissue.",
    "The resection margin is inked blue.",
    "Sectioning reveals a firm, white-gray, ill-defined lesion.",
    "The lesion is 0.8 cm from the nearest margin.",
    "Representative sections are submitted in cassettes A1-A6.",
    "Entirely submitted in one cassette.",
    "The mucosa is tan and unremarkable.",
    "No additional lesions are identified.",
    "The cut surface is homogeneous and tan-yellow.",
)
MICRO_PROSE = (
    "Sections show infiltrating glands with desmoplastic stroma.",
    "No lymphovascular invasion is identified.",
    "Margins are negative for carcinoma.",
    "Immunostains are performed with appropriate controls.",
    "The tumor cells are positive for CK7 and negative for CK20.",
    "Background shows chronic inflammation.",
    "Benign colonic mucosa without dysplasia.",
    "Mitotic activity is low (2 per 10 HPF).",
)


def build(ctx: NoteContext) -> None:
    """Render a pathology report."""
    ctx.use(HDR)
    ctx.nl(2)
    ctx.add(ctx.choice(("GROSS DESCRIPTION:", "Gross:", "GROSS")))
    ctx.nl()
    ctx.use(GROSS, k=ctx.rng.randint(1, 4))
    for sentence in ctx.rng.sample(GROSS_PROSE, ctx.rng.randint(2, 6)):
        ctx.add(" ")
        ctx.add(sentence)
    ctx.nl(2)
    ctx.add(ctx.choice(("MICROSCOPIC:", "Microscopic description:", "MICRO")))
    ctx.nl()
    ctx.add(" ".join(ctx.rng.sample(MICRO_PROSE, ctx.rng.randint(2, 5))))
    ctx.nl(2)
    ctx.use(DX, k=3, sep="\n")
