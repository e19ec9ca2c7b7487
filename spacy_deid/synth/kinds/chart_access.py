"""EHR chart access trails: usernames in fixed-width log lines, workstation
ids and event codes (not PHI)."""

from ..context import NoteContext
from ..families import fam, group

KIND = "chart_access"

HDR = group(
    fam(
        "chart_access.hdr.report",
        "<Chart Access Trail|ACCESS HISTORY|Record Access Report> - <MRN {mrn}|"
        "{pt_hdr}>",
        "<Requested by|Run by> {user} on {date:note}[ for {orgk:registry}]",
    ),
    fam(
        "chart_access.hdr.cols",
        "USER      DATE        TIME   ACTION         WORKSTATION",
        "<Patient|Pt>: {pt_hdr}  <MRN|Med Rec #> {mrn}",
    ),
    fam(
        "chart_access.hdr.dev",
        "<privacy audit|access review> #<{num:100-999}|{num:1000-9999}> <opened|"
        "run> by {user} ({staff:bare})",
        dev=True,
    ),
    fam(
        "chart_access.hdr.test",
        "<Compliance|HIM> access log, {date:note}: <{pt}|MRN {mrn}>[ at {hosp}]",
        test=True,
    ),
)

LINES = group(
    fam(
        "chart_access.line.cols",
        "{user}  {date:note} {time}  <viewed chart|opened chart|printed AVS|"
        "viewed results>  <WS|ws|PC>-<{num:100-999}|{num:1000-9999}>",
        "{user}  {date:note} {time}  <signed note|reviewed MAR|edited problem "
        "list>  <version|build> {num:2-9}.{num:0-9}",
    ),
    fam(
        "chart_access.line.event",
        "<EVT|event> <{num:1000-9999}|{num:100-999}>: {user} <accessed|viewed>"
        " <demographics|notes|imaging> from <workstation|terminal> <WS|KIOSK>"
        "{num:10-99} ({ip})",
        "{user} <break-glass|override> <{date:note}|{pdate:note}> {time} - reason:"
        " <covering|direct care>",
    ),
    fam(
        "chart_access.line.dev",
        "[{date:note} {time}] uid {user} <view|print> ok port {num:1024-9999}",
        dev=True,
    ),
    fam(
        "chart_access.line.test",
        "{time}  {user} (<{staff:bare}|{drname}>)  <viewed|opened> <chart|"
        "encounter> <CSN|enc> {num:10000-99999}",
        test=True,
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a chart access trail."""
    ctx.use(HDR, k=2, sep="\n")
    ctx.nl()
    for _ in range(ctx.rng.randint(3, 8)):
        ctx.use(LINES)
        ctx.nl()
