"""Blocks shared by several kinds: telegraphic bed lists, result call-back and
verification rows, word-like first names, short dates after a test, PHI-free
vital-sign prose, licences and masked ids, informal organisation mentions.

Each block is a `common.*` group with train, dev and test families.
"""

from .context import NoteContext
from .families import fam, group

CENSUS = group(
    fam(
        "common.census.line",
        "{lcroom} {lcsur:agesex} - <cellulitis, on vanc|hip fx, POD{num:1-4}|"
        "chf exac, diuresing|copd flare, on nebs|pna, abx d{num:2-7}|"
        "etoh w/d, ciwa|dka, gap closed>.<| f/u cx.| f/u am labs.| ok overnight.>",
        "  {lcroom}  {lcsur:agesex}  <sepsis 2/2 uti|gi bleed, h/h q6|afib rvr, "
        "on dilt|syncope, tele> - <dnr|full code>",
        "{lcroom} {lcsur} ({agesex}) <s/p lap chole|new stroke|ams, ?delirium>;"
        " <watch {ratio}|{ratio} this am>",
        "{lcroom} {lcsur:agesex} <here since|adm|in since> {lcday}, <uti|fall, "
        "neg CTH|hyperK>",
    ),
    fam(
        "common.census.dev",
        "bed {lcroom}: {lcsur} {agesex} -- <hypoxia|asthma|pyelo>, "
        "<weaning o2|on ctx|home soon>",
        dev=True,
    ),
    fam(
        "common.census.test",
        "{lcroom}/{lcsur}/{agesex} <cp r/o|alc hep|c diff> <- stable|- pending "
        "echo|- needs pt>",
        test=True,
    ),
)

WATCH = group(
    fam(
        "common.watch.list",
        "<watchers|watcher list|to watch>: {lcsur}, {lcsur}[, {lcsur}]",
        "<sick list|sickest|sick>: {lcsur} ({lcroom})[, {lcsur} ({lcroom})]",
    ),
    fam(
        "common.watch.dev",
        "keep an eye on: {lcsur} in {lcroom} <and|&> {lcsur}",
        dev=True,
    ),
    fam(
        "common.watch.test",
        "<worried about|concerns>: {lcsur} <rm|room> {lcroom}",
        test=True,
    ),
)

NOTIFY = group(
    fam(
        "common.notify.pipe",
        "| {hhmm} | <called unit|called floor|paged> {ext} | {login:named} | "
        "<Y|N|read back> | {login} {hhmm} |",
        "| <K 6.{num:1-9}|Trop {num:1-9}.{num:0-9}|Hgb 6.{num:1-9}|Lactate "
        "{num:4-9}.{num:0-9}> | acc {idnum:accession} | {login} | {hhmm} |",
    ),
    fam(
        "common.notify.space",
        "{hhmm}  <critical|CRIT>  <K|Na|Ca>  <called to|notified>  {login:named}"
        "  <{ext}|at {ext}>  <verified|rb> {login} {hhmm}",
        "<Result|Value> verified by {login} {hhmm}; acc# {idnum:accession}",
        "<Notified|Called>: {login:named} {hhmm} via {ext}, <read back|rb> done",
    ),
    fam(
        "common.notify.dev",
        "crit val <phoned|called> {hhmm} -\\> {login:named}, <cb|callback> {ext}",
        dev=True,
    ),
    fam(
        "common.notify.test",
        "{login} <ack|acknowledged> {hhmm} (<{ext}|accession {idnum:accession}>)",
        test=True,
    ),
)

WORDNAME = group(
    fam(
        "common.wordname.rel",
        "<daughter|son|sister|niece|wife|husband> {wfirst:rel} <is driving in|"
        "will be here at noon|called the unit|is the HCP>.",
        "{wfirst:pt} <hopes to sing in the choir again|wants to go home|prefers "
        "to be called by nickname|is a retired teacher>.",
        "<charge RN|Charge nurse|RN|SW> {wfirst:staff} <aware|updated|at bedside>.",
        "<spoke with|updated> <her|his> <grandson|granddaughter|friend> "
        "{wfirst:lower} by phone.",
    ),
    fam(
        "common.wordname.narr",
        "{wfirst:pt} would like to <walk the dog again|get back to the garden|go "
        "home>.",
        "By {wfirst:pt}'s account<, the fall was mechanical|, pain started after "
        "lunch|>.",
        "<son|daughter|brother> {wfirst:lower} can pick her up {wdays:lower}.",
        "<Pt|Patient|She|He> (nickname {wfirst:pt}) <is pleasant|is cooperative>.",
        "<Per|According to> {wfirst:rel}'s <account|report>, <pt|he|she> "
        "<was confused|fell twice>.",
    ),
    fam(
        "common.wordname.dev",
        "<pt's|Pt's> <partner|cousin> {wfirst:rel} <stayed overnight|brought "
        "meds>; <nurse|tech> {wfirst:staff} present.",
        dev=True,
    ),
    fam(
        "common.wordname.test",
        "<Goes by|Known as> {wfirst:pt}. <Brother|Stepdaughter> {wfirst:rel} "
        "<on the way|on speaker>.",
        test=True,
    ),
)

SHORTDATE = group(
    fam(
        "common.sdate.tests",
        "<echo|Echo> {sdate} <small PDA|EF 55%|no effusion>; {ratio}.",
        "<CXR|cxr|KUB> {sdate}: <clear|no free air|stable ETT>.",
        "<r/o|R/O> {srange}<, cx neg| neg>.",
        "<off TPN|off caffeine|off abx> since {sdate}<, tolerating feeds|>.",
        "<HUS|head US> {sdate} <no IVH|grade 1 IVH>, repeat <next wk|in 1 wk>.",
    ),
    fam(
        "common.sdate.dev",
        "last <bcx|blood cx> {sdate} ngtd; {ratio}",
        dev=True,
    ),
    fam(
        "common.sdate.test",
        "<MRI|LP> done {sdate}, <neg|unremarkable>; started <amp/gent|feeds> "
        "{sdate}",
        test=True,
    ),
)

VITALS = group(
    fam(
        "common.vitals.prose",
        "<Tmax|T max> <38.4|37.9|38.1|36.8> <last 24h|overnight>, "
        "<HR|pulse> <80s-90s|90s-110s|100s>.",
        "<SBP|SBPs> <100s-130s|90s-120s|110s-140s>, <sats|SpO2> <92-95%|mid-90s> "
        "on <2L|RA|4L NC>.",
        "<Afebrile|No fevers> x24h; <RR|resp rate> <teens|18-22>, {ratio}.",
    ),
    fam(
        "common.vitals.dev",
        "<T|temp> max <38.0|37.6>, <HR|hr> <70s|110s> <in sleep|with cares>.",
        dev=True,
    ),
    fam(
        "common.vitals.test",
        "<Fever curve|Temps> down, <peak|max> <38.3|37.8>; MAPs <60s|70s>.",
        test=True,
    ),
)

LICENCE = group(
    fam(
        "common.lic.dl",
        "<CDL|DL|ID> (<{st:abbr} DL #|{st:abbr} DL#|{st:abbr} license> {dlnum})",
        "<{st:abbr}|{st:name}> <license|lic>: {dlnum}",
        "<{st:name}|{st:abbr}> driver<'s|> license <{dlnum}|# {dlnum}>",
        "<SSN (last 4)|SSN last 4:|SS# (last four)|last 4 of SSN> {ssn4}",
        "<Mailing|Mail to|Address>: {pobox}, {city} {state}",
    ),
    fam(
        "common.lic.dev",
        "ID checked: <{st:name}|{st:abbr}> <DL|driver lic> {dlnum}; SSN <ends "
        "in|xx> {ssn4}; <box|PO>: {pobox}",
        dev=True,
    ),
    fam(
        "common.lic.test",
        "<Photo ID|State ID> (<{st:abbr}|{st:name}>) no. {dlnum}, SS <last 4|"
        "end> {ssn4}, mail {pobox}",
        test=True,
    ),
)

ORGS = group(
    fam(
        "common.iorg.social",
        "<swims for|plays for|coaches> the {iorg:club}.",
        "car <towed by|at> {iorg:tow}.",
        "<works at|works for|laid off from> {iorg:emp}.",
        "<kids at|grandson at|teaches at> {iorg:school}.",
        "<dispo to|d/c to|from> {lchosp}[, bed <avail|pending>].",
        "<icu at|was at|transferred from> {lchosp}.",
    ),
    fam(
        "common.iorg.dev",
        "<goes to|attends> {iorg:school-lower}; <car impounded at|tow:> "
        "{iorg:tow}; <back to|came from> {lchosp}.",
        dev=True,
    ),
    fam(
        "common.iorg.test",
        "<member of the|on the> {iorg:club} <team|squad>; <employer|job>: "
        "{iorg:emp}; <snf|rehab>: {lchosp}.",
        test=True,
    ),
)


OBSERV = group(
    fam(
        "common.obs.holiday",
        "<Fasting|Has been fasting|Plans to fast> during {obs:fast}<; discussed timing of "
        "insulin| - reviewed hypoglycemia precautions|, takes meds after sunset|>.",
        "<Plans to travel|Will travel|Hoping to travel> <for|over> {obs}<, wants "
        "refills before leaving| to see family|>.",
        "<Fell|Ran out of meds|Symptoms started> over {obs} weekend.",
        "<Family gathering|Big family dinner|Visitors expected> <at|for> {obs}; "
        "<wants to be home by then|asks about dc before|>.",
        "<No alcohol since|Last drink was at|Stopped smoking for> {obs:lower}.",
    ),
    fam(
        "common.obs.weekday",
        "<Attends|Goes to> <AA|group|church|day program> on {wdays:pl}.",
        "<HD|Dialysis|dialysis|iHD> {wdays:list}<| at outpatient unit| via R AVF>.",
        "<PT|OT|Wound care> <sched|scheduled|planned> {lcday} {sdate}<| AM| PM>.",
        "<Daughter|Son|Wife> visits {wdays:pl}<| and holidays>; next visit {lcday} AM.",
        "<Works|Off work|Volunteers> {wdays:pl}<| only|, evenings>.",
    ),
    fam(
        "common.obs.dev",
        "observes {obs:fast}, <not eating|no food or water> <until dusk|during the day>; "
        "<labs|clinic> moved to {wdays:pl}.",
        dev=True,
    ),
    fam(
        "common.obs.test",
        "<away|out of town> <for|during> {obs} - <cb|call> after; HD <days|sched> "
        "{wdays:list}.",
        test=True,
    ),
)

LROOM = group(
    fam(
        "common.lroom.bed",
        "<Pt|pt|Patient> <moved to|now in|placed in> bed {lroom}<.| per charge RN.>",
        "<Boarding in|Held in|In> hallway {lroom}<, awaiting bed| pending tele bed|>.",
        "<ED|ed> <pod|Pod> {lroom:pod} bay {lroom:num}<| - on monitor|>.",
        "<ED hall bed|ED hallway bed|hall bed> {lroom:num}<, no monitor|>.",
        "<PACU|pacu|Recovery> bay {lroom:num}<, extubated|, stable| - vitals q15>.",
        "<rm|Rm|RM> {lroom}<, isolation|, contact precautions|, bed by window|>.",
    ),
    fam(
        "common.lroom.dev",
        "<transferred|moved> from bay {lroom:num} to bed {lroom} <overnight|this am>.",
        dev=True,
    ),
    fam(
        "common.lroom.test",
        "Location: <pod|Pod> {lroom:pod} / bay {lroom:num}<; prev hallway {lroom}|>",
        test=True,
    ),
)

PROF = group(
    fam(
        "common.prof.free",
        "<Works weekends|Works nights|Works part-time|Still works> as {wjob:a}.",
        "<He|She|Pt> is {wjob:a} at {org2:emp}.",
        "<Retired|retired> {wjob}<, lives alone|, widowed|; active|>.",
        "<A|a> {age}-year-old {wjob:teacher}< at {org2:school}|>.",
        "<Former|Was a|Has been a|Is a> {wjob} by trade<; now on disability|>.",
        "<Previously|Formerly> {wjob:a} for {org2:emp}<, laid off last year|>.",
    ),
    fam(
        "common.prof.dev",
        "<employment|job>: {wjob} <with|for> {org2:emp}; <retiring soon|full time>.",
        dev=True,
    ),
    fam(
        "common.prof.test",
        "occupation - {wjob} (<self-employed|{org2:emp}>); spouse is {wjob:a}.",
        test=True,
    ),
)

ORG2 = group(
    fam(
        "common.org2.social",
        "<Swims|Competes> for the {org2:swim} club team<, practices daily|>.",
        "<Plays|Plays soccer> for {org2:fc}<; last game {wdays:lower}|>.",
        "{org2:school}< —| -|:> Health Office",
        "<Attends|Goes to|Prays at> {org2:worship} on <{wdays:fri}|weekends|holy days>.",
        "<Sells cattle|Works> at {org2:auction}<, lots of dust exposure|>.",
        "<Kids attend|Daughter attends|Son in grade 4 at> {org2:school}.",
        "<Employer:|Works at|Laid off from> {org2:emp}.",
    ),
    fam(
        "common.org2.dev",
        "<Coach at|Member of> {org2:fc}; <worships|volunteers> at {org2:worship}.",
        dev=True,
    ),
    fam(
        "common.org2.test",
        "{org2:school-lower} nurse <called|faxed>; <family|father> <trades at|"
        "hauls to> {org2:auction}.",
        test=True,
    ),
)

HNICK = group(
    fam(
        "common.hnick.tele",
        "<dispo to|d/c to|back to> {lchosp}<, bed avail| once auth|>.",
        "hx <DTs|ETOH w/d|sz> (<icu at|admitted at> {lctown})",
        "<transferred from|tx from|came from> {lchosp}<| overnight| w/ records>.",
        "<icu at|was in icu at|intubated at> {lctown} <last yr|in the spring|x2>.",
    ),
    fam(
        "common.hnick.dev",
        "prior adm <@|at> {lctown}; <rehab|snf> at {lchosp} <after|before that>.",
        dev=True,
    ),
    fam(
        "common.hnick.test",
        "<came over|sent> from {lchosp} - <was at|previously> {lctown} icu.",
        test=True,
    ),
)


def block(ctx: NoteContext, fams, lo: int = 1, hi: int = 2, sep: str = "\n") -> None:
    """Render `lo`..`hi` lines of one block, each on its own line."""
    ctx.nl()
    for i in range(ctx.rng.randint(lo, hi)):
        if i:
            ctx.add(sep)
        ctx.use(fams)


def maybe(ctx: NoteContext, p: float, fams, lo: int = 1, hi: int = 2) -> None:
    """`block` with probability `p`."""
    if ctx.chance(p):
        block(ctx, fams, lo, hi)
