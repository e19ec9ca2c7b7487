"""EMS / ambulance run reports (withheld from train): units, scenes, plates."""

from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "ems_run"

HEAD = group(
    fam(
        "ems_run.head.run",
        "<PATIENT CARE REPORT|EMS Run Sheet|Ambulance Report|PCR>{n}<Incident|Run>"
        " #: {idnum}  <Unit|Medic|Ambulance>: <M|A|Medic >{num:1-40}{n}<Date|"
        "DATE>: {date:note}  <Dispatched|Disp>: {time}  <At scene|On scene>: "
        "{time}",
        "<Scene|Location|Incident address>: <{addr}|{landmark}|{street}, {city}>",
    ),
    fam(
        "ems_run.head.crew",
        "<Crew|CREW>: {staff:bare}, {staff:bare}[  <Cert|EMT lic> #{lic:license}]"
        "{n}<Destination|Transported to>: {hosp}[ ({dept})]{n}<Date|DOS>: "
        "{date:note}  <Call rec'd|PSAP> {time}",
        "<Pt|Patient>: {pt_hdr}[  DOB {date:dob}]",
    ),
)

NARR = group(
    fam(
        "ems_run.narr.mvc",
        "<Dispatched|Called> for <MVC|motor vehicle collision|fall|unresponsive "
        "person> <at|near> {landmark}.",
        "<Pt|Patient> <was|found> <restrained driver|passenger|pedestrian> of a "
        "<sedan|pickup|SUV> (<plate|reg> {vehicle}).",
        "{age_sex}, GCS <15|14|9|3>, {vitals}.",
        "<Pt's|Patient's> {relrole} {relname} on scene, <contact|phone> {relphone}.",
        "{prose}",
    ),
    fam(
        "ems_run.narr.medical",
        "<Found|Pt found> <sitting in chair|on floor|in bed> by {rel}.",
        "<Hx|PMH> {pmh}; <meds|takes> {med}.",
        "<Given|Administered> {med} en route at {time}.",
        "<Report|Radio report> given to {hosp} <ED|charge RN {staff:bare}>.",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render an EMS run report."""
    ctx.use(HEAD, k=2, sep="\n")
    ctx.nl(2)
    ctx.use(NARR, k=ctx.rng.randint(2, 5), sep=ctx.choice((" ", "\n")))
    ctx.nl()
    prose(ctx, ctx.rng.randint(2, 6))
    ctx.nl(2)
    ctx.t("<Signed|Crew chief>: {staff}[  {date:note}]")
