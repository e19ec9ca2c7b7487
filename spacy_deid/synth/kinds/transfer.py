"""Inter-facility transfer / continuity-of-care forms (W-10 style)."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "transfer_form"

DEMO = group(
    fam(
        "transfer_form.demo.fields",
        "<PATIENT NAME|Patient|Name (Last, First)>: {pt:lf}{n}<DOB|Date of Birth>: "
        "{date:dob}   <Age|AGE>: {age}   <Sex|SEX>: {mf}{n}<Address|Home "
        "address|ADDRESS>: {addr}{n}<Phone|Home phone|Tel>: {phone:pt}"
        "[   <Cell|Mobile>: {phone:cell}]",
        "<Insurance|Primary insurance|PAYER>: <Medicare|MassHealth|BCBS|Tufts|"
        "Harvard Pilgrim|Aetna> <#|ID|Policy #> {hp}[{n}<Secondary|Medigap>: "
        "<AARP|Medicaid> {hp:new}][{n}<SSN|Social Security #>: {ssn}]",
    ),
    fam(
        "transfer_form.demo.grid",
        "<Name|NAME>: {pt_hdr}  <MRN|Hosp #>: {mrn}  <Acct|FIN>: {acct}{n}"
        "<Transfer from|FROM>: {hosp} ({dept})  <Transfer to|TO>: {hosp:other}"
        "[{n}<Date of transfer|Transfer date>: {date:note}[ {time}]]",
    ),
    fam(
        "transfer_form.demo.checkbox",
        "\\[x\\] <Skilled nursing|Rehab|LTAC|Home with VNA>   \\[ \\] Other{n}"
        "<Receiving facility|Facility>: {hosp:other}, {city:any}{n}<Accepting "
        "MD|Accepting physician>: {dr:any}[  <Tel|Phone> {phone}]",
        dev=True,
    ),
    fam(
        "transfer_form.demo.sending",
        "<Sending facility|From>: {hosp:other}, {city:any}{n}<Receiving "
        "facility|To>: {hosp} ({dept}){n}<Accepting physician|Accepting>: "
        "{drname:any}  <Report called by|Report from> {staff:bare} at {time}",
        "{pt_hdr}  {age_sex}  <Ins|Insurance> {hp}[  <SSN|SS#> {ssn}]",
        "<Wristband|Biometric> ID {bioid} <verified|scanned> at <departure|arrival>.",
        test=True,
    ),
)

CONTACTS = group(
    fam(
        "transfer_form.contacts.lines",
        "<Emergency contact|Next of kin|NOK|HCP>: {relname} ({relrole})  "
        "<Phone|Tel>: {relphone}",
        "<PCP|Primary physician>: {dr:pcp}  <Phone|Tel>: {phone}  <Fax|FAX>: {fax}",
        "<Discharging MD|Physician completing form>: {dr:attending}[  Pager {pager}]",
        "<Case manager|CM|Social worker>: {staff}  <Phone|Direct line>: {phone}",
    ),
    fam(
        "transfer_form.contacts.prose",
        "<Family|{relrole}> ({relname}) <aware of transfer|agrees with plan|"
        "will meet pt at facility>.",
        "Report called to {staff:bare}, RN at {hosp:other} at {time}.",
        "<Pt|Patient> <speaks|prefers> <Spanish|Portuguese|Haitian Creole|"
        "Vietnamese|English>[; born in {country}].",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a transfer / continuity-of-care form."""
    ctx.t(
        "<CONTINUITY OF CARE FORM|Interfacility Transfer Form|W-10|PATIENT "
        "TRANSFER FORM|Discharge/Transfer Referral>"
    )
    ctx.nl(2)
    ctx.use(DEMO, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(CONTACTS, k=ctx.rng.randint(2, 4), sep="\n")
    ctx.nl(2)
    ctx.t(
        "<Diagnoses|DX|Active problems>: {pmh}{n}<Allergies|ALLERGIES>: "
        "<NKDA|PCN|{stars}|{drug}>{n}<Code status|CODE>: <Full|DNR/DNI|DNR>"
    )
    ctx.nl()
    ctx.t("<Medications|MEDS>: {meds}")
    ctx.nl()
    prose(ctx, ctx.rng.randint(1, 3))
    ctx.nl(2)
    ctx.t("<Completed by|Signature>: {sig}  {date:note}[ {time}]")
