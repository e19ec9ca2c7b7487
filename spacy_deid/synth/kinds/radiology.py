"""Radiology reports: accession numbers, exam dates, devices, impressions."""

from ..common import header
from ..context import NoteContext
from ..families import fam, group

KIND = "radiology"

HDR = group(
    fam(
        "radiology.hdr.ris",
        "<EXAM|Exam|Procedure>: <CT HEAD W/O CONTRAST|CXR PA/LAT|MRI L-SPINE|"
        "US ABDOMEN|CTA CHEST|XR KNEE 3V|MRI BRAIN W/WO|PORTABLE CHEST>{n}"
        "<Accession|ACC #|Accession No.|Acc>: {idnum:accession}{n}"
        "<Date of exam|Exam date|DATE>: {date:note}[ {time}]{n}<Patient|Name>: "
        "{pt_hdr}[  MRN {mrn}][  DOB {date:dob}]",
        "<Ordering|Referring> <physician|MD|provider>: {dr:any}[{n}<Location|"
        "Site>: {hosp}[ {dept}]]",
    ),
    fam(
        "radiology.hdr.line",
        "{hosp} <Department of Radiology|Radiology|Imaging Services>{n}{pt} "
        "#{mrn} {age_sex} {date:note} {idnum:accession}",
        "<Indication|Clinical history|HISTORY>: {age_sex} with {cc}[, r/o {cond}].",
    ),
    fam(
        "radiology.hdr.order",
        "<Order|Requisition> #{idnum}  <Priority|PRIORITY>: <STAT|ROUTINE|ASAP>"
        "{n}<Pt|Patient>: {pt_hdr} [<Sex|Gender> {mf}  ]<DOB|Birthdate> "
        "{date:dob}{n}<Performed|Scheduled>: {date:note}[ {time}] at {hosp}"
        "[ - {dept}]",
        "<Reason|Indication|Hx>: {cc}[; h/o {cond}].",
    ),
    fam(
        "radiology.hdr.portable",
        "PORTABLE {date:note} {time} Rm {room}{n}{pt_hdr} ({mrn})",
        dev=True,
    ),
    fam(
        "radiology.hdr.banner",
        "{pt} / {age_sex} / DOB {date:dob}{n}<Exam|Study>: <CT chest|MRI "
        "brain|US abdomen|CXR> {date:note}",
        "{pt_hdr} ({mrn}){n}<Ordering|Referring>: {dr:any}",
    ),
    fam(
        "radiology.hdr.teleradiology",
        "<Teleradiology|Outside read> for {hosp:other} "
        "({city:any}){n}<Acc|Accession> {idnum:accession} / {pt_hdr} / "
        "{age_sex}{n}<Read by|Interpreted by> {drname:any} <at|on> "
        "{date:note} {time}",
        test=True,
    ),
)

FINDINGS = group(
    fam(
        "radiology.find.chest",
        "<Comparison|COMPARISON>: <{date:past}|none|prior study from {hosp:other} "
        "{date:past}>.",
        "<Single|Two> <portable|frontal> views of the chest<.| were obtained.>",
        "<Left|Right|Dual-chamber> <pacemaker|AICD|ICD> <in place|unchanged>"
        "[, <serial|S/N|SN> {device}].",
        "Lungs are <clear|hyperinflated|with bibasilar opacities>. No "
        "<pneumothorax|effusion|consolidation>.",
        "Foley catheter and NG tube "
        "noted. Swan-Ganz catheter tip in the <right|main> pulmonary artery.",
        "{eponym}.",
    ),
    fam(
        "radiology.find.cross",
        "There is <a|no> <2.3 cm|8 mm|small|large> <lesion|mass|hemorrhage|"
        "infarct> in the <left|right> <frontal lobe|kidney|liver|lower lobe>.",
        "<Ventricles|Sulci> are <normal|prominent> for age.",
        "Hardware: <Medtronic|Boston Scientific|St. Jude|Zimmer> <device|"
        "neurostimulator|implant> (S/N {device}) <noted|unchanged>.",
        "Findings discussed with {dr:any} by phone at {time} on {date:note}.",
        "Compared with <MRI|CT|exam> of {anydate:past}.",
    ),
    fam(
        "radiology.find.msk",
        "<Three|Two|Four> views of the <left|right> <knee|wrist|ankle|hip|"
        "shoulder> demonstrate <no acute fracture|a nondisplaced fracture of the "
        "distal radius|moderate degenerative change|joint effusion>.",
        "<Soft tissues|Alignment> <unremarkable|maintained>.",
        "<Orthopedic hardware|Prosthesis> <intact|without loosening>[ "
        "(<implant|serial> # {device})].",
        "{prose}",
    ),
    fam(
        "radiology.find.us",
        "<The liver|Gallbladder|The kidneys|The spleen> <is|are> <normal in size|"
        "mildly enlarged|without focal lesion>.",
        "<No|Small> <ascites|"
        "hydronephrosis|gallstones>[; Murphy's sign <positive|negative>].",
        "<Sonographer|Tech>: {staff:bare}[ ({user})].",
        "<Preliminary|Wet> read <given to|called to> {dr:any} <at|@> {time}.",
    ),
    fam(
        "radiology.find.terse",
        "{cond}? <No acute|Stable|Interval> <change|process>.",
        "Prior: {pdate:past} ({hosp:other}).",
        "Called to {drname:any} x{pager} {time}.",
        "<PPM|ICD|Port|VP shunt> <sn|s/n|#> {device} <noted|again seen>.",
        "Report faxed to {fax}.",
        dev=True,
    ),
)

IMPR = group(
    fam(
        "radiology.impr.numbered",
        "1. <No acute cardiopulmonary process|Stable exam|Findings c/w {cond}>.{n}"
        "2. <Recommend follow-up CT in 3 months|Clinical correlation advised|"
        "Unchanged from {date:past}>.",
    ),
    fam(
        "radiology.impr.bullets",
        "- <Normal study|No acute abnormality|Stable {cond}>.{n}- <Recommend|"
        "Suggest> <MRI|US|clinical correlation|comparison with outside films "
        "from {hosp:other}>.",
    ),
    fam(
        "radiology.impr.sig",
        "<Dictated|Read|Interpreted> by: {sig}[{n}<Resident|Fellow>: "
        "{drname:any}]{n}<Signed|Finalized|Electronically signed>: {date:note}"
        "[ {time}]",
    ),
)


RAD_PROSE = (
    "The osseous structures are unremarkable.",
    "No suspicious osseous lesions.",
    "Limited by motion artifact.",
    "Technique: axial images were obtained without IV contrast.",
    "The visualized upper abdomen is unremarkable.",
    "Mild degenerative changes of the spine.",
    "Heart size is normal.",
    "Small hiatal hernia.",
    "The lungs are clear without focal consolidation.",
    "No pleural effusion or pneumothorax.",
    "The mediastinal and hilar contours are within normal limits.",
    "There is no free air under the diaphragm.",
    "The liver, spleen and pancreas are unremarkable.",
    "No hydronephrosis or perinephric stranding.",
    "Atherosclerotic calcifications of the aorta.",
    "No acute intracranial hemorrhage, mass effect or midline shift.",
    "The ventricles and sulci are appropriate for age.",
    "Lines and tubes are in standard position.",
    "Scattered subcentimeter nodules, likely granulomas.",
    "Soft tissues are unremarkable.",
)


def build(ctx: NoteContext) -> None:
    """Render a radiology report."""
    ctx.use(HDR, k=2, sep="\n")
    header(ctx, "findings")
    ctx.use(FINDINGS, k=ctx.rng.randint(2, 5))
    for sentence in ctx.rng.sample(RAD_PROSE, ctx.rng.randint(1, 6)):
        ctx.add(" ")
        ctx.add(sentence)
    header(ctx, "impression")
    ctx.use(IMPR, k=2, sep="\n\n")
