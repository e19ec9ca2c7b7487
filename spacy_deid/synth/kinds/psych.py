"""Psychiatric intake: identifying data, HPI, rich social and family history."""

from ..common import SIG, header
from ..context import NoteContext
from ..families import fam, group
from ..prose import prose

KIND = "psych"

HDR = group(
    fam(
        "psych.hdr.intake",
        "<PSYCHIATRIC INTAKE|Psychiatry Initial Evaluation|Behavioral Health Intake"
        "|PSYCHIATRY CONSULT NOTE>{n}<Date|Date of evaluation|DATE OF SERVICE>: "
        "{date:note}{n}<Patient|Name>: {pt_hdr}[   MRN: {mrn}]{n}<Clinician|"
        "Evaluator|Psychiatrist>: {dr:author}[{n}Location: {hosp}[, {dept}]]"
        "[{n}<SSN|SS#>: {ssn}]",
    ),
    fam(
        "psych.hdr.id",
        "<ID|Identifying Data|IDENTIFYING DATA>: {pt_ref} is a {age_phrase} "
        "{marital:lower}{job:adj} {sex} <living|residing> in {city}[, {state}]"
        "[ with {rel}].",
        "{date:note}{n}{pt} ({mrn}), {age_sex}, <referred|self-referred|brought in> "
        "by {rel}[ for evaluation].",
    ),
    fam(
        "psych.hdr.consult",
        "Reason for consult: <SI|safety eval|capacity|depression|agitation>{n}"
        "Requesting MD: {dr:any}[ ({hosp})]{n}Pt: {pt_hdr}  Rm {room}",
        dev=True,
    ),
    fam(
        "psych.hdr.crisis",
        "<Crisis team|Mobile crisis> evaluation {date:note}{n}<Client|Pt>: "
        "{pt_hdr}, {age_sex}, <brought in by|referred by> {rel}[ "
        "({relphone})]{n}<Clinician|Evaluator>: {staff}",
        test=True,
    ),
)

HPI = group(
    fam(
        "psych.hpi.narr",
        "{pt_ref} reports <worsening|persistent|several weeks of> <depressed mood|"
        "anxiety|insomnia|paranoia|auditory hallucinations> since {season}.",
        "<Stressors|Precipitants> include {stressor}.",
        "<{pt_first}'s|{Poss}> {relrole} <reports|is worried> that {pro} has been "
        "<withdrawn|irritable|not sleeping>.",
        "{Pro} <states|reports|endorses> that {poss} {relrole} {relname} "
        "<passed away|moved out|was hospitalized> <in|around> {pdate:past}.",
        "Last psychiatric admission was at {hosp:other} in {year}[ under {dr:any}].",
        "{Pro} denies SI/HI. {amb}",
        "<Symptoms|Mood> <worsened|have been worse> <since|around> <{month}|"
        "{holiday}|the holidays>[ when {poss} {relrole} <left|died|moved to "
        "{city:any}>].",
    ),
    fam(
        "psych.hpi.quote",
        "Pt states \"<I can't sleep|I don't want to be here anymore|they are "
        'watching me|I just need a break>".',
        "Per collateral from {rel} ({relphone}), pt has been <isolating|not "
        "eating|up all night|talking to himself> x <2 wks|a month|several days>.",
        "{Pro} was <seen|evaluated> in the {hosp:other} ED on {anydate:onset} "
        "and <discharged|sent home>.",
        "Reports {cc}. {amb}",
    ),
    fam(
        "psych.hpi.ed_eval",
        "<Brought in|BIBA|Brought to the ED> <by police|by ambulance|by {rel}> "
        "<from|after an incident at> <{landmark}|home|{org:emp}|{street}>.",
        "<Section 12|Pink paper|Hold> <placed|signed> by {dr:any} on {date:note}.",
        "<U tox|Tox screen> <positive for|+> <cocaine|THC|"
        "benzos|opiates>; BAL <210|0|85>.",
        "<Spoke with|Called> {poss} <outpatient psychiatrist|therapist|PCP> "
        "{drname:consult} at {phone} who <confirms|reports> {cond}.",
        "{prose}",
    ),
    fam(
        "psych.hpi.timeline",
        "<First|Initial> episode at age {age_other:pt} after {cond}.",
        "Hospitalized {year} ({hosp:other}) and {year:adm}.",
        "Trials of {med}; <stopped|d/c'd> due to side effects.",
        dev=True,
    ),
)

SOCIAL = group(
    fam(
        "psych.sh.born",
        "<Born|Raised|Grew up> in {hometown}[, the <youngest|oldest|second> of "
        "<3|4|five|six> children].",
        "<Born in|Emigrated from|Came to this country from> {country}[ in {year}].",
        "<Graduated from|Attended|Dropped out of> {org:school}[ in {year}].",
        "{Pro} {job}.",
        "<Lives|Currently lives> with {rel} <in|at> <an apartment|a house> "
        "<in|on> <{city}|{street}>.",
        "{Poss} {relrole}, {relname}, is {relprof:a}[ and is supportive].",
    ),
    fam(
        "psych.sh.list",
        "Living situation: <with {rel}|alone|shelter ({landmark})|homeless, "
        "sleeps near {landmark}>",
        "Employment: {job:terse}",
        "Education: <HS|some college|BA|GED> ({org:school})",
        "Relationships: {partner}",
        "Legal: <none|DUI {year}|on probation (PO {staff:bare})|arrested at "
        "{landmark} {season}>",
        "Substances: <EtOH daily|cannabis|cocaine, last use {weekday}|denies>",
        "Hobbies: <{org:team} games at {landmark}|fishing at {landmark}|church at "
        "{org:church}|volunteers at {org:charity}>",
    ),
    fam(
        "psych.sh.travel",
        "<Recently returned from|Visited family in|Travels often to> {country}"
        "[ {season}].",
        "Drives a <Honda|pickup truck|minivan> (plate {vehicle}).",
        "Served in the <Army|Navy|Marines>[, stationed in {country:any}].",
        dev=True,
    ),
)

FH = group(
    fam(
        "psych.fh.rel",
        "<Mother|Father|Brother|Sister|Maternal uncle|Paternal aunt> with "
        "<depression|bipolar d/o|schizophrenia|EtOH abuse|completed suicide at age "
        "{age_other}|dementia>.",
        "{Poss} {relrole} {relname} <has|had> {cond:rel}[, died at {age_other:rel}].",
        "<No|Denies> FH of suicide.",
    ),
    fam(
        "psych.fh.terse",
        "FHx: <+|neg> <EtOH|mood d/o|psychosis|SA>",
        "<Mom|Dad|Sib> - {cond:fam}",
        "{relname} ({relrole}) - {cond:rel}",
    ),
)

AP = group(
    fam(
        "psych.ap.plan",
        "<Dx|Diagnosis|Impression>: {cond}[ ({icd})].",
        "<Start|Continue|Increase> {med}.",
        "<Will|Plan to> <follow up|f/u> with {dr:consult} <at|in> {dept}[ on "
        "{date:fu}].",
        "Safety plan reviewed; crisis line {phone}.",
        "{Pro} <may|will> contact {relname} at {relphone} if needed.",
    ),
    fam(
        "psych.ap.section12",
        "<Section 12|Pink paper|Involuntary hold> <signed|filed> {date:note} {time}.",
        "Bed search: {hosp:other}, {hosp:other}.",
        "{amb}",
    ),
)


def build(ctx: NoteContext) -> None:
    """Render a psychiatric intake."""
    ctx.use(HDR)
    header(ctx, "cc")
    ctx.t(
        '<"{cc}"|{cc}|<SI|Depression|Psychosis|Anxiety> - <referred by|per> {dr:pcp}>'
    )
    header(ctx, "hpi")
    ctx.use(HPI, k=ctx.rng.randint(2, 5))
    ctx.add(" ")
    prose(ctx, ctx.rng.randint(4, 8))
    header(ctx, "sh")
    ctx.use(SOCIAL, k=ctx.rng.randint(3, 6), sep=ctx.choice(("\n", " ")))
    if ctx.chance(0.7):
        header(ctx, "fh")
        ctx.use(FH, k=ctx.rng.randint(1, 3), sep="\n")
    header(ctx, "mse")
    ctx.t(
        "<Appearance|General>: <disheveled|well-groomed|appears stated age>. "
        "{exam}. [{eponym}.] "
    )
    prose(ctx, ctx.rng.randint(3, 6))
    header(ctx, "ap")
    ctx.use(AP, k=ctx.rng.randint(2, 4), sep="\n")
    ctx.nl()
    prose(ctx, ctx.rng.randint(4, 8))
    ctx.nl(2)
    ctx.use(SIG)
