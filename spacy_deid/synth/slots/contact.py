"""Contact and identifier slots: phone, fax, email, URL, IP and the ID kinds."""

from ..context import NoteContext, slot


@slot("phone")
def s_phone(ctx: NoteContext, arg: str) -> None:
    """Phone: `pt`, `cell`, `dr` or a fresh clinic number."""
    if arg == "pt":
        val = ctx.p.phone
    elif arg == "cell":
        val = ctx.p.cell
    elif arg == "dr":
        val = (ctx.doc or ctx.author).extra["phone"]
    else:
        val = ctx.v.phone()
    ctx.phi(val, "PHONE")


@slot("fax")
def s_fax(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.phone(ext=0.0), "FAX")


@slot("email")
def s_email(ctx: NoteContext, arg: str) -> None:
    if arg == "pt":
        val = ctx.p.email
    else:
        val = ctx.v.email(ctx.doc or ctx.author)
    ctx.phi(val, "EMAIL")


@slot("url")
def s_url(ctx: NoteContext, arg: str) -> None:
    if arg == "pt":
        val = ctx.p.website
    else:
        val = ctx.v.url(ctx.choice(ctx.p.hospital.abbrs + [""]))
    ctx.phi(val, "URL")


@slot("ip")
def s_ip(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.v.ip(), "IPADDR")


@slot("mrn")
def s_mrn(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.mrn, "MEDICALRECORD")


@slot("ssn")
def s_ssn(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.ssn, "SSN")


@slot("hp")
def s_hp(ctx: NoteContext, arg: str) -> None:
    val = ctx.v.ident("healthplan") if arg == "new" else ctx.p.healthplan
    ctx.phi(val, "HEALTHPLAN")


@slot("acct")
def s_acct(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.account if ctx.chance(0.7) else ctx.v.ident("account"), "ACCOUNT")


@slot("vehicle")
def s_vehicle(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.vehicle, "VEHICLE")


@slot("device")
def s_device(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.device if ctx.chance(0.6) else ctx.v.ident("device"), "DEVICE")


@slot("bioid")
def s_bioid(ctx: NoteContext, arg: str) -> None:
    ctx.phi(ctx.p.bioid, "BIOID")


@slot("idnum")
def s_idnum(ctx: NoteContext, arg: str) -> None:
    """Other ids; `arg` may be `accession`."""
    ctx.phi(ctx.v.ident(arg or "idnum"), "IDNUM")
