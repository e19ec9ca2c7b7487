"""Telephone encounters (withheld from train): callers, callbacks, pharmacies."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "telephone"

HDR = group(
    fam(
        "telephone.hdr.enc",
        "<Telephone Encounter|TELEPHONE NOTE|Phone call|Telephone Contact>"
        "[ - {date:note} {time}]{n}<Caller|Call from|Spoke with>: <patient|{rel}|"
        "{pt}>[ at {phone:cell}]",
        "{pt_hdr}  MRN {mrn}  <Call back|CB|Callback #>: {phone:pt}",
    ),
    fam(
        "telephone.hdr.msg",
        "<Message|Msg> taken by {staff} {date:note} {time}{n}<Re|RE>: {pt}"
        "[ ({age_sex})]",
    ),
)

BODY = group(
    fam(
        "telephone.body.symptom",
        "<Pt|Patient|{pt_ref}> <called|calls|phoned> <c/o|reporting|with> {cc} "
        "since {weekday}.",
        "<Advised|Instructed> to <go to|present to> "
        "<the ED|urgent care|{hosp}> if worse.",
        "<Will|To> <route|forward> to {drname:pcp}.",
        "{amb}",
        "{prose}",
    ),
    fam(
        "telephone.body.refill",
        "<Requesting|Needs> refill of {med}[, last filled {pdate:past}].",
        "Pharmacy: <CVS|Walgreens|Rite Aid|Stop & Shop pharmacy> on "
        "<{street}|Main St> ({phone}).",
        "Rx <sent|e-scribed|called in> <{date:note}|today>. <Pt aware.|Left VM.>",
        "<Pharmacy|CVS|Walgreens> fax: {fax}.",
    ),
    fam(
        "telephone.body.dme",
        "<Pt|{rel}> called re: <CPAP|home O2 concentrator|glucometer|insulin pump>"
        " <not working|alarming|needs supplies>.",
        "<Device|Serial|S/N> {device}; <vendor|supplier> <Apria|Lincare|Medtronic>"
        " <notified|contacted> at {phone}.",
        "<Order|Rx> faxed to {fax} on {date:note}.",
    ),
    fam(
        "telephone.body.results",
        "<Called|Phoned|Reached> pt <re:|with> results of {labs}.",
        "<Left|Left a> <message|VM|voicemail> <on|at> <home|cell> {phone:cell}"
        "[ {time}].",
        "<Pt|Patient> <verbalized understanding|will call back|"
        "agrees to repeat labs on {pdate:fu}>.",
    ),
    fam(
        "telephone.body.family",
        "{rel} called <re:|regarding|about> pt's <confusion|falls|appetite|"
        "upcoming appt on {date:fu}>.",
        "<Verified|Confirmed> identity with DOB {date:dob} and address {addr}.",
        "Email <sent|forwarded> to {email:pt}.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a telephone encounter."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(BODY, k=ctx.rng.randint(2, 4))
    ctx.add(" ")
    prose(ctx, ctx.rng.randint(1, 3))
    ctx.nl()
    ctx.t("<{staff}|-- {staff}, {date:note}|{sig}>")
