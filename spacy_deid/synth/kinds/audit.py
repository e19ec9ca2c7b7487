"""EHR audit/access log lines: timestamps, usernames, IPs, record ids."""

from ..context import NoteContext
from ..families import fam, group

KIND = "audit_log"

LINES = group(
    fam(
        "audit_log.line.csv",
        "{date:note} {time},{user},{ip},<VIEW|EDIT|PRINT|EXPORT|LOGIN>,{mrn}",
        "{date:note}T{time}Z;user={user};src={ip};action=<open_chart|"
        "print_summary|sign_note>;mrn={mrn}",
    ),
    fam(
        "audit_log.line.prose",
        "User {user} ({drname:same}) accessed the record of {pt} from "
        "{ip} on {date:note} at {time}.",
        "<Break-the-glass|Emergency access> by {user} <on|at> {date:note}; "
        "reason: <treatment|covering|other>.",
        "<Failed|Successful> login for {user} from {ip}[ ({hosp})].",
    ),
    fam(
        "audit_log.line.portal",
        "Portal <user|account> {user:pt} <logged in|reset password|updated email "
        "to {email:pt}> from {ip} via {url}.",
        "<Biometric|Fingerprint|Palm vein> <login|verification> id {bioid} "
        "matched for {user}.",
        "Account {acct} <linked|merged> with MRN {mrn}.",
    ),
    fam(
        "audit_log.line.table",
        "{date:note}  {time}  {user}  <Chart Review|Order Entry|Results Review|"
        "Note Signed|Print>  {ip}  <{pt}|MRN {mrn}>",
        "| {user} | {ip} | {date:note} {time} | <READ|WRITE|DELETE> | {mrn} |",
    ),
    fam(
        "audit_log.line.json",
        '\\{"ts": "{date:note} {time}", "user": "{user}", "ip": "{ip}", '
        '"event": "<chart_open|note_print|result_view>", "mrn": "{mrn}"\\}',
        '\\{"user": "{user}", "client_ip": "{ip}", "patient": "{pt}", "date": '
        '"{date:note}"\\}',
    ),
    fam(
        "audit_log.line.fax",
        "<Fax|FAX> <sent|queued|failed> to {fax} by {user} on {date:note} {time}"
        "[ (<{pt}|MRN {mrn}>)]",
        "<Email|Secure message> from {email:pt} <received|routed> to {user}"
        "[ via {url}]",
    ),
    fam(
        "audit_log.line.syslog",
        "<{date:note}|{pdate:note}> {time} ehr-<app|web>{num:1-9} "
        "sshd: <Accepted|Failed> password for {user} from {ip} port "
        "{num:1024-65000}",
        "<{date:note}|{pdate:note}> {time} <biometric|fp-auth>: template {bioid} "
        "<enrolled|verified> for {user}",
        dev=True,
    ),
    fam(
        "audit_log.line.kv",
        'ts={date:note} {time} uid={user} host={ip} op=<READ|UPDATE|PRINT> pt="{pt}"',
        "<{user}|User {user}> <viewed|printed|exported> <{pt}|MRN {mrn}> "
        "from <workstation|terminal> {ip}[ at {hosp}]",
        "<Palm vein|Biometric> match {bioid} for {user}; <SSN|SS#> {ssn} <masked|viewed>",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a block of audit log lines."""
    if ctx.chance(0.5):
        ctx.t(
            "<Access log|AUDIT TRAIL|EHR Access Report> for <MRN {mrn}|{pt}>[ - {hosp}]"
        )
        ctx.nl()
    for _ in range(ctx.rng.randint(2, 7)):
        ctx.use(LINES)
        ctx.nl()
    if ctx.chance(0.3):
        ctx.t("<Reviewed by|Privacy officer>: {staff:bare} {date:note}[ ({email:dr})]")
