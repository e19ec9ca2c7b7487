"""Clinical (non-PHI) slots: conditions, medications, vitals, labs, exam and
procedure vocabulary, filtered for the patient's sex and age."""

from .. import clinical_terms
from ..context import NoteContext, slot
from ..data import clinical

# Share of conditions and diagnosis codes drawn from ICD-10-CM
# (`clinical_terms`) rather than the curated lists.
ICD_SHARE = 0.3


@slot("cc")
def s_cc(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(vocab_for(ctx, "complaints")))


def _fits(limit, sex: str, age: int) -> bool:  # noqa: ANN001
    if not limit:
        return True
    if limit.get("sex") and limit["sex"] != sex:
        return False
    return limit.get("min_age", 0) <= age <= limit.get("max_age", 200)


ADULT = {"sex": None, "min_age": 18, "max_age": 200}


def conditions_for(sex: str, age: int):  # noqa: ANN201
    """Conditions plausible for a person of this sex and age."""
    limits = clinical("condition_limits")
    return [c for c in clinical("conditions") if _fits(limits.get(c, ADULT), sex, age)]


def vocab_for(ctx: NoteContext, key: str):  # noqa: ANN201
    """A vocabulary list filtered for the patient (sex, age, ventilator)."""
    limits = clinical("vocab_limits")
    items = list(clinical(key))
    if key == "abbrev":
        items += clinical("abbrev_vent" if ctx.vented() else "abbrev_awake")
    sex, age = ctx.p.person.sex, ctx.age()
    return [x for x in items if _fits(limits.get(x), sex, age)]


def _cond_subject(ctx: NoteContext, arg: str):  # noqa: ANN202
    if arg == "rel" and ctx.rel is not None:
        return ctx.rel.person.sex, max(ctx.rel_age(ctx.rel), 18)
    if arg == "fam":
        return "", 50
    return ctx.p.person.sex, ctx.age()


def icd_condition(ctx: NoteContext, sex: str, age: int) -> str:
    """An ICD-10-CM diagnosis that fits a person, as a note writes it (any
    casing)."""
    _, description = clinical_terms.diagnosis(ctx.rng, sex, age)
    return clinical_terms.written(ctx.rng, description)


@slot("cond")
def s_cond(ctx: NoteContext, arg: str) -> None:
    """A condition plausible for the patient (`rel`: the current relative;
    `fam`: an unnamed adult family member), or a diagnosis of ICD-10-CM."""
    subject = _cond_subject(ctx, arg)
    if ctx.chance(ICD_SHARE):
        ctx.add(icd_condition(ctx, *subject))
        return
    ctx.add(ctx.choice(conditions_for(*subject)))


@slot("pmh")
def s_pmh(ctx: NoteContext, arg: str) -> None:
    sex, age = ctx.p.person.sex, ctx.age()
    pool = conditions_for(sex, age)
    conds = ctx.rng.sample(pool, min(ctx.rng.randint(1, 4), len(pool)))
    conds = [
        icd_condition(ctx, sex, age) if ctx.chance(ICD_SHARE) else c for c in conds
    ]
    sep = ctx.choice((", ", ", ", "; ", " / "))
    ctx.add(sep.join(conds))


def _med_name(ctx: NoteContext, rec) -> str:  # noqa: ANN001
    name = rec["name"]
    if rec["brand"] and ctx.chance(0.35):
        name = rec["brand"]
        r = ctx.rng.random()
        if r < 0.2:
            name = name.upper()
        elif r < 0.5:
            name = name.lower()
    return name


def med_text(ctx: NoteContext, drip: bool = False) -> str:
    """A coherent medication string: dose, route and frequency of one record.

    Drips are IV infusions with rate units (`norepinephrine 0.1 mcg/kg/min`);
    others take a dose, an optional `PO` and a frequency valid for the drug.
    """
    meds = [m for m in clinical("medications") if m["drip"] == drip]
    return med_record_text(ctx, ctx.choice(meds))


def med_record_text(ctx: NoteContext, rec) -> str:  # noqa: ANN001
    """Render one medication record."""
    name, dose = _med_name(ctx, rec), ctx.choice(rec["doses"])
    if rec["drip"]:
        form = ctx.rng.randrange(5)
        if form == 0:
            out = f"{name} gtt @ {dose}"
        elif form == 1:
            out = f"{name} {dose} IV"
        elif form == 2:
            out = f"{name} drip at {dose}"
        elif form == 3:
            out = f"{name} infusion {dose}"
        else:
            out = f"{name} @ {dose}"
        return out.upper() if name.isupper() and len(name) > 4 else out
    route = ctx.choice(rec["routes"])
    parts = [name, dose]
    if route.lower() not in ("po", "p.o.") or ctx.chance(0.6):
        parts.append(route)
    parts.append(ctx.choice(rec["freqs"]))
    out = " ".join(parts)
    return out.upper() if name.isupper() and len(name) > 4 else out


@slot("med")
def s_med(ctx: NoteContext, arg: str) -> None:
    """A medication; `drip`: a continuous infusion."""
    ctx.add(med_text(ctx, drip=arg == "drip"))


@slot("meds")
def s_meds(ctx: NoteContext, arg: str) -> None:
    """A medication list (numbered, bulleted or inline), distinct drugs."""
    n = ctx.rng.randint(3, 12)
    style = ctx.rng.randrange(4)
    recs, seen = [], set()
    for rec in ctx.rng.sample(clinical("medications"), 24):
        if not rec["drip"] and rec["name"] not in seen:
            seen.add(rec["name"])
            recs.append(rec)
    items = [med_record_text(ctx, rec) for rec in recs[:n]]
    if style == 0:
        ctx.add(", ".join(items))
        return
    for i, item in enumerate(items):
        ctx.nl()
        bullet = (f"{i + 1}. ", "- ", "* ", "\u2022 ")[style] if style else ""
        ctx.add(bullet + item)


@slot("drug")
def s_drug(ctx: NoteContext, arg: str) -> None:
    """Any drug of the FDA's lists, named without a dose (allergies, drugs
    tried before): the curated records keep doses coherent."""
    ctx.add(clinical_terms.written(ctx.rng, clinical_terms.drug_name(ctx.rng)))


@slot("vitals")
def s_vitals(ctx: NoteContext, arg: str) -> None:
    vit = ctx.rng.sample(clinical("vitals"), ctx.rng.randint(3, 6))
    ctx.add(ctx.choice((", ", "  ", " | ", " ")).join(vit))


@slot("labs")
def s_labs(ctx: NoteContext, arg: str) -> None:
    labs = ctx.rng.sample(clinical("labs"), ctx.rng.randint(2, 7))
    ctx.add(ctx.choice((", ", "; ", " ", "  ")).join(labs))


@slot("exam")
def s_exam(ctx: NoteContext, arg: str) -> None:
    items = ctx.rng.sample(clinical("exam"), ctx.rng.randint(2, 5))
    if ctx.chance(0.4):
        items.append(ctx.choice(vocab_for(ctx, "eponym_phrases")))
    ctx.add(ctx.choice((", ", ". ", "; ")).join(items))


@slot("eponym")
def s_eponym(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(vocab_for(ctx, "eponym_phrases")))


@slot("amb")
def s_amb(ctx: NoteContext, arg: str) -> None:
    """A sentence using a name/place-like word in a non-PHI sense."""
    ctx.add(ctx.choice(clinical("ambiguous")))


@slot("proc")
def s_proc(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(vocab_for(ctx, "procedures")))


@slot("icd")
def s_icd(ctx: NoteContext, arg: str) -> None:
    """A diagnosis code, sometimes with its description."""
    if not ctx.chance(ICD_SHARE * 2):
        ctx.add(ctx.choice(clinical("icd")))
        return
    code, description = clinical_terms.diagnosis(ctx.rng, ctx.p.person.sex, ctx.age())
    if ctx.chance(0.5):
        ctx.add(code)
    else:
        ctx.add(f"{clinical_terms.written(ctx.rng, description)} ({code})")


@slot("cpt")
def s_cpt(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(clinical("cpt")))


@slot("abbr")
def s_abbr(ctx: NoteContext, arg: str) -> None:
    items = ctx.rng.sample(vocab_for(ctx, "abbrev"), ctx.rng.randint(2, 5))
    ctx.add(ctx.choice((", ", ". ", "; ", " ")).join(items))


@slot("resp")
def s_resp(ctx: NoteContext, arg: str) -> None:
    """Respiratory support consistent with the note's ventilator state.

    `status`: `intubated`/`on 4L NC`; `plan`: a plan item; `neuro`: sedation;
    default: settings.
    """
    vent = ctx.vented()
    if arg == "neuro":
        opts = (
            ("sedated on propofol", "sedated on fentanyl", "sedated on precedex")
            if vent
            else ("off sedation", "no sedation", "on precedex for agitation")
        )
    elif arg == "status":
        opts = (
            ("intubated", "intubated/sedated", "on the vent")
            if vent
            else ("on BiPAP", "on 4L NC", "on RA", "on 2L NC", "on 40% face tent")
        )
    elif arg == "plan":
        opts = (
            ("wean vent", "SBT in AM", "cont. current vent settings", "diurese")
            if vent
            else ("OOB to chair", "ambulate w/ PT", "wean O2 as tol", "diurese")
        )
    else:
        opts = (
            ("vent AC", "AC 500/14/5/40%", "PSV 10/5", "CMV, FiO2 40%")
            if vent
            else ("extubated to NC", "4L NC", "RA", "BiPAP overnight", "NC 2L")
        )
    ctx.add(ctx.choice(opts))


@slot("stars")
def s_stars(ctx: NoteContext, arg: str) -> None:
    ctx.add(ctx.choice(("***", "***", "[***]", "_____", "{***}")))


@slot("n")
def s_n(ctx: NoteContext, arg: str) -> None:
    """A line break."""
    ctx.nl()


@slot("num")
def s_num(ctx: NoteContext, arg: str) -> None:
    """A small non-PHI number (doses, counts, scores)."""
    lo, _, hi = (arg or "1-10").partition("-")
    ctx.add(str(ctx.rng.randint(int(lo), int(hi))))
