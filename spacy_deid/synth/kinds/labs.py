"""Lab result headers: specimen ids, collection times, ordering provider."""

from ..context import NoteContext
from ..families import fam, group

KIND = "lab_header"

HDR = group(
    fam(
        "lab_header.hdr.result",
        "<LABORATORY REPORT|Lab Results|RESULTS REPORT|Chemistry>{n}"
        "<Patient|PATIENT NAME>: {pt_hdr}   <MRN|Med Rec #>: {mrn}{n}"
        "<DOB|Birth Date>: {date:dob}  <Age|AGE>: {age}  <Sex|SEX>: <{mf}|{mf:long}>{n}"
        "<Collected|Coll>: {date:note} {time}  <Received|Recv>: {date:note}"
        " {time}{n}<Ordering|Ordered by>: {dr:any}[  NPI {lic:npi}]",
        "<Specimen|Accession|Lab #>: {idnum:accession}[  Order #: {idnum}]"
        "[{n}Account: {acct}]",
    ),
    fam(
        "lab_header.hdr.perf",
        "<Performed at|Performing lab>: {hosp} Laboratory, {addr:hosp}[  CLIA "
        "{lic:license}]",
        "[Biometric ID: {bioid}{n}]<Insurance|Payer>: "
        "<Medicare|Medicaid|BCBS|Aetna> {hp}[{n}SSN: {ssn}]",
    ),
    fam(
        "lab_header.hdr.compact",
        "{pt_hdr}|{mrn}|{date:dob}|{date:note}|{drname:any}|{idnum:accession}",
        "<Bio ID|Biometric ID|BIO> {bioid} | <SSN|SS#> {ssn} | <Fax results to|FAX> "
        "{fax}",
        dev=True,
    ),
    fam(
        "lab_header.hdr.sendout",
        "<SEND-OUT TEST REPORT|REFERENCE LAB REPORT>{n}<Client|Submitter>: "
        "{hosp}, {addr:hosp}{n}<Patient|Pt>: {pt_hdr}  <DOB|Born> {date:dob} "
        " <Sex|Gender> {mf}{n}<Requisition|Req> {idnum:accession}  "
        "<Reported|Final> {date:note}",
        "<Physician|Provider>: {drname:any}[  NPI {lic:npi}]  <Account|Acct> {acct}",
        "<SSN|SS#|Soc Sec> {ssn}[  <Biometric ID|Bio ID|Palm scan ID> {bioid}]",
        test=True,
    ),
)

RESULTS = group(
    fam(
        "lab_header.res.table",
        "{labs}",
        "{labs}{n}{labs}",
        "<CBC|BMP|LFTs|Coags|UA>: {labs}",
    ),
    fam(
        "lab_header.res.flags",
        "<Critical value|CRITICAL> <K 6.8|Na 118|Hgb 5.9|trop 2.3> called to "
        "{staff} at {time} on {date:note}, read back <verified|confirmed>.",
        "<Comment|Note>: <hemolyzed|repeat requested|specimen clotted>.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a lab result header with results."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(RESULTS, k=ctx.rng.randint(1, 3), sep="\n")
