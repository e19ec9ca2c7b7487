"""Patient portal messages (typos, signatures) and phone logs."""

from ..context import NoteContext
from ..families import fam, group

KIND = "portal_message"

HDR = group(
    fam(
        "portal_message.hdr.inbox",
        "<Patient Message|MyChart message|Portal msg> <from|sent by> {pt}"
        " {date:note} {time}",
        "<Subject|Re>: <refill|question abt meds|appt|test results>",
    ),
    fam(
        "portal_message.hdr.log",
        "<PHONE LOG|Call log> {date:note}",
        "{time} <incoming|outgoing> {phone:cell} <{pt}|{relname}> - <lvm|spoke|no ans>",
    ),
    fam(
        "portal_message.hdr.dev",
        "<msg|message> in basket fr {pt:lower}[ ({email:pt})] {weekday}",
        dev=True,
    ),
    fam(
        "portal_message.hdr.test",
        "<E-visit|eVisit> request by <{pt}|{pt_first}> on {date:note} via "
        "<portal|app>[ (acct {acct})]",
        test=True,
    ),
)

BODY = group(
    fam(
        "portal_message.body.typo",
        "<Hi|Hello|Hey> <Dr|dr> {sur}, <im|i'm|I am> <stil|still> <haveing|"
        "having> {cc} <sence|since> {weekday}.",
        "<can u|could you> <send|sned> my {med} to {orgk:pharmacy}<?| pls>",
        "my {relrole} {famname} <can|may> drive me {dayabbr}.",
        "<Thanks|thx|Thank you>,{n}{pt_first}",
    ),
    fam(
        "portal_message.body.work",
        "I need a <note for work|form filled> for {orgk:employer}, I <work|"
        "work nights> as a {prof}.",
        "<Fax|fax it> to <HR|my boss> at {fax}.",
        "<Thanks|Thank you so much>!{n}{pt_first}[ {pt:last}]",
    ),
    fam(
        "portal_message.body.reply",
        "<Reply|Response> <from|by> {staff}: <Rx sent|Sent> to {orgk:pharmacy}"
        " on {street}. {trap}.",
        "<Called|Spoke w> {relrole} {famname} at {relphone}, <aware|will tell pt>.",
    ),
    fam(
        "portal_message.body.log",
        "{time} <called|cb> <pt|{relrole}> {famname} re {trap} - <lvm|spoke>.",
        "{time} <Pharm|{orgk:pharmacy}> <called|faxed> ({phone}) re PA.",
    ),
    fam(
        "portal_message.body.dev",
        "<hi its|this is> {pt_first}, <my|me> {relrole} {wname} <sez|says> "
        "i <shoud|should> ask abt {trap}.{n}<ty|thx> {pt_first}",
        dev=True,
    ),
    fam(
        "portal_message.body.test",
        "<Dear|Hi> <Dr.|doc> {sur} - my {relrole} ({famname}) <fell|had a fall> "
        "{dayabbr}. {trap}?{n}<Best|Regards>, {wname}",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a portal message thread or phone log."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl(2)
    for _ in range(ctx.rng.randint(1, 3)):
        ctx.use(BODY, k=ctx.rng.randint(2, 4), sep="\n")
        ctx.nl(2)
