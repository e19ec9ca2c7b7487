"""Operative / procedure notes: surgeons, implants with serials, findings."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "operative"

HDR = group(
    fam(
        "operative.hdr.form",
        "<OPERATIVE REPORT|Operative Note|BRIEF OP NOTE|PROCEDURE NOTE>{n}"
        "<Date of surgery|DATE OF PROCEDURE|Date>: {date:note}{n}<Patient|Name>: "
        "{pt_hdr}[  {mrn}]{n}<Surgeon|SURGEON|Attending>: {dr:attending}{n}"
        "<Assistant|ASSISTANT|Resident>: {dr:any}[{n}<Anesthesia|Anesthesiologist>"
        ": {drname:any}]",
    ),
    fam(
        "operative.hdr.inline",
        "{proc} performed {pdate:note} at {hosp}[ (OR {room})] by {dr:attending}"
        "[, assisted by {drname:any}].",
    ),
    fam(
        "operative.hdr.brief",
        "BRIEF OP NOTE {date:note}{n}<Pt|Patient>: {pt_hdr} "
        "({mrn}){n}<Surgeon|Primary surgeon>: {drname:any}; <Assist|Asst>: "
        "{drname:any}{n}<Anesthesia|Anesth>: <GETA|MAC|spinal> by "
        "{drname:any}[{n}<Location|OR>: {hosp} OR {num:1-20}]",
        test=True,
    ),
)

BODY = group(
    fam(
        "operative.body.steps",
        "<Pre-op|Preoperative> diagnosis: {cond}.{n}<Post-op|Postoperative> "
        "diagnosis: <same|{cond}>.",
        "<Procedure|PROCEDURE>: {proc}.",
        "The patient was brought to the operating room and placed <supine|in "
        "reverse Trendelenburg|in lithotomy position>. {prose}",
        "<Implant|Device>: <Medtronic|Stryker|Zimmer|Boston Scientific> "
        "<lot|serial|S/N|model/serial> {device}.",
        "EBL <50|100|250|minimal> mL. <Foley catheter placed.|JP drain left in "
        "place.|No drains.> {eponym}.",
        "Specimens: <none|gallbladder|appendix|L ovary> to pathology "
        "[({idnum:accession})].",
    ),
    fam(
        "operative.body.anesthesia",
        "<Anesthesia|ANESTHESIA>: <GETA|MAC|spinal|general endotracheal>"
        "[ ({drname:any})].",
        "<Antibiotics|Abx>: <cefazolin 2 g IV|vanco 1 g|"
        "none> <prior to incision|at {time}>.",
        "<Time out|Timeout> <performed|completed> at {time}.",
        "{prose}",
    ),
    fam(
        "operative.body.brief",
        "Findings: {cond}. Complications: <none|minor bleeding>.",
        "Dispo: <PACU|SICU|floor> in <stable|good> condition[, {dept}].",
        "<Family|{rel}> updated <in waiting room|by phone at {relphone}>.",
        dev=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render an operative note."""
    ctx.use(HDR)
    ctx.nl(2)
    ctx.use(BODY, k=ctx.rng.randint(3, 6), sep="\n")
    ctx.nl()
    prose(ctx, ctx.rng.randint(3, 7))
    ctx.nl(2)
    ctx.t("<Dictated by|Signed>: {sig:attending}[ {date:note}]")
