"""Prescriptions and pharmacy communications: DEA/NPI, pharmacy addresses."""

from ..context import NoteContext
from ..families import fam, group

KIND = "prescription"

HEAD = group(
    fam(
        "prescription.head.pad",
        "{hosp:clinic}{n}{addr:clinic}{n}<Tel|Phone> {phone}  <Fax|FAX> {fax}",
        "<Prescriber|Provider>: {dr:pcp}{n}{lic}[{n}<NPI|NPI#> {lic:npi}]",
    ),
    fam(
        "prescription.head.erx",
        "<eRx|E-PRESCRIPTION|Electronic Rx> <sent|transmitted> {date:note} {time}"
        "{n}<To|Pharmacy>: <CVS|Walgreens|Rite Aid|Stop & Shop> #{num:1000-9999}, "
        "{addr:other}[  <Ph|Tel> {phone}]",
        "<Patient|Pt>: {pt:lf}  <DOB|D.O.B.> {date:dob}[{n}<Address|Addr>: {addr}]",
    ),
    fam(
        "prescription.head.fax",
        "<FAX|Fax cover> to {hosp:other} pharmacy, {fax}{n}From: {dr:any}, "
        "{phone:dr}[{n}<Pages|# pages>: <1|2|3>]",
        dev=True,
    ),
    fam(
        "prescription.head.refill",
        "<Refill request|Renewal request> {idnum} <received|approved> "
        "{date:note} {time} by {drname:any}[ (DEA {lic:dea})]",
        "For: {pt_hdr}, DOB {date:dob}[, ph {phone:pt}]{n}<Pharmacy|Send "
        "to>: <CVS|Walgreens|Rite Aid> on {street}, {city}",
        test=True,
    ),
)

BODY = group(
    fam(
        "prescription.body.rx",
        "Rx: {med}{n}<Disp|Dispense|#>: <30|60|90|#30|#90> <tabs|caps|(thirty)>"
        "{n}<Refills|RF>: <0|1|2|3|5|PRN>",
        "<Sig|SIG>: <1 tab PO daily|take 1 tablet by mouth twice daily|1-2 tabs q6h "
        "prn pain|as directed>",
        "<Substitution permitted|DAW|Generic OK>. {amb}",
    ),
    fam(
        "prescription.body.prior_auth",
        "<Prior auth|PA> <submitted|approved|denied> for {med}; <plan|insurer> "
        "member ID {hp}[, case #{idnum}].",
        "<Pharmacist|RPh> {staff:bare} <called|faxed> re: <interaction with|"
        "dose of> {med}.",
        "<Pt|Patient> picked up at <pharmacy|window> <on|> {pdate:note}.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a prescription or pharmacy note."""
    ctx.use(HEAD, k=2, sep="\n\n")
    ctx.nl(2)
    for _ in range(ctx.rng.randint(1, 3)):
        ctx.use(BODY, k=ctx.rng.randint(1, 3), sep="\n")
        ctx.nl(2)
    ctx.t("<Signed|Electronically signed|Prescriber signature>: {sig:pcp}")
