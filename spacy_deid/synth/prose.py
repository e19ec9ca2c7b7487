"""PHI-free clinical prose: the negatives that surround PHI in real notes.

Eponyms, drug doses, vitals, scores, lab values, times, codes and words that
are sometimes names or places (May, Will, Bill, Reading, Nitro, ...) appear
here without annotation.
"""

from .context import NoteContext, slot
from .families import fam, group

PROSE = group(
    fam(
        "prose.ros",
        "<ROS|Review of systems|ROS otherwise> <negative for|notable for|without> "
        "<fevers, chills, night sweats|chest pain or palpitations|nausea, vomiting, "
        "diarrhea|dysuria or hematuria|focal weakness or numbness>.",
        "<Denies|No> <recent travel|sick contacts|weight loss|melena|orthopnea or "
        "PND|headache or vision change>.",
        "<Appetite|Sleep|Energy> <has been|is> <poor|fair|good|improved>[ over the "
        "past <week|few days|month>].",
    ),
    fam(
        "prose.exam",
        "<On exam|Exam notable for|PE:> {exam}.",
        "{vitals}.",
        "<Neuro|Neurologic> exam: {eponym}; <strength 5/5 throughout|4+/5 in the "
        "LLE|sensation intact to light touch>.",
        "GCS <15|14|E4V5M6|E3V4M6>, <pupils 3mm reactive|PERRL>.",
    ),
    fam(
        "prose.labs",
        "<Labs|Chemistries|Labs this AM> <notable for|showed|remarkable for> {labs}.",
        "EKG: <NSR at 78|sinus tach 112|AF with RVR 130s|NSR, LBBB|"
        "no acute ST changes>[, QTc <440|468|502>].",
        "<CXR|CT|Echo> <showed|with|notable for> <mild cardiomegaly|RLL "
        "infiltrate|EF 35-40%|small bilateral effusions|no acute process>.",
    ),
    fam(
        "prose.assess",
        "{cond}, likely <secondary to|in setting of|complicated by> {cond}.",
        "<Differential includes|DDx:> {cond} vs {cond}.",
        "<Likely|Possible|Probable> {cond}; <less likely|doubt|r/o> {cond}.",
        "Code status: <Full code|DNR/DNI|DNR but OK to intubate|comfort measures>.",
    ),
    fam(
        "prose.plan",
        "<Continue|Start|Hold|Increase|Decrease|Titrate> {med}.",
        "<Check|Repeat|Trend> <BMP|CBC|lytes|INR|troponins|LFTs> <in AM|q6h|"
        "at {time}|daily>.",
        "<Consult|Page|Discuss with> <cardiology|renal|"
        "surgery|PT/OT|SW|nutrition> <re:|regarding|for> {cond}.",
        "{amb}",
        "Goal <SBP \\<140|INR 2-3|K \\>4, Mg \\>2|euvolemia|BG 140-180>.",
        "<DVT ppx|GI ppx|Bowel regimen>: {med}.",
    ),
    fam(
        "prose.meds",
        "<Received|Got|Was given> {med} at {time} with <good|minimal|no> effect.",
        "<Allergic to|Intolerant of|Reaction to> <PCN|sulfa|codeine|ACE-I "
        "(cough)|iodinated contrast|{drug}>.",
        "<Previously on|Tried|Stopped> {drug} because of <side effects|cost|"
        "no benefit|a rash>.",
        "<Compliant|Non-compliant|Reports missing doses of> {med}.",
        "<Nitro|Aspirin|Tylenol> <prn|as needed> for <chest pain|fever|pain>.",
    ),
    fam(
        "prose.codes",
        "<Dx code|ICD-10|Billing dx>: {icd}[, {icd}].",
        "{cpt}.",
        "<Time spent|Total time>: <25|40|over 50> min, <\\>50% counseling|mostly "
        "coordination of care>.",
    ),
    fam(
        "prose.edu",
        "<Discussed|Reviewed> <risks and benefits|warning signs|diet and "
        "exercise|medication changes> with <patient|pt|family>, who <verbalized "
        "understanding|agrees with plan|had questions, answered>.",
        "<Return|Come back|Call> if <fever \\> 101|worsening pain|shortness of "
        "breath|bleeding> <occurs|develops>.",
        "<Low salt|Cardiac|Diabetic|"
        "Renal> diet. <May|Can> resume <activity|driving|work> as tolerated.",
    ),
    fam(
        "prose.course",
        "<Diuresed|Diuresis continued> with {med}<, net negative 1-2 L/day| with "
        "improvement in edema|>.",
        "<Blood cultures|Urine culture|Sputum culture> <grew pan-sensitive E. coli|"
        "showed no growth at 48h|were negative|grew MSSA>.",
        "<Transitioned|Switched> to {med} prior to discharge.",
        "<Tolerated|Advanced to> <a regular|a cardiac|a clear liquid|a diabetic> "
        "diet[ without difficulty].",
        "<Pain|Symptoms> <well controlled|improved> on {med}.",
        "<Hemodynamically|Clinically> stable <throughout the admission|for 24 hours "
        "prior to discharge|after transfer to the floor>.",
        "PT <recommended|evaluated and recommended> <home with services|acute "
        "rehab|home without services|short-term rehab>.",
        "Electrolytes <were |>repleted <as needed|PRN>[; {labs}].",
        "<Telemetry|Tele> <showed no events|notable for brief runs of NSVT|with "
        "occasional PVCs>.",
    ),
    fam(
        "prose.hpi",
        "Symptoms <began|started> <2 days|1 week|several hours|3 weeks> prior to "
        "presentation.",
        "<Pain|Discomfort> is <sharp|dull|pressure-like|burning>, <8/10|5/10|6/10>, "
        "<radiating to the L arm|non-radiating|radiating to the back>[, <worse with "
        "exertion|worse with deep breaths|worse after meals>].",
        "<Associated with|No associated> <diaphoresis|nausea|lightheadedness|"
        "palpitations>.",
        "<Tried|Took> <OTC ibuprofen|Tylenol|rest and fluids|an extra dose of "
        "{med}> without relief.",
        "<No|Denies> recent <hospitalizations|antibiotic use|sick contacts|falls>.",
        "<Baseline|At baseline> <walks with a cane|independent in ADLs|uses a "
        "walker|needs help with IADLs>.",
    ),
    fam(
        "prose.nursing",
        "<Skin|Wound> assessment: <dressing clean, dry and intact|no breakdown "
        "noted|stage I on sacrum, repositioned>.",
        "<Fall|Safety> precautions <maintained|in place>; bed alarm on.",
        "Oral care <given|provided> <q4h|per protocol>.",
        "Pain reassessed after {med}: <2/10|tolerable|improved>.",
        "<Intake|PO intake> <fair|poor|about 50% of meals>; <encouraged "
        "fluids|nutrition consult placed>.",
        "Voiding <without difficulty|via Foley|qs>; <last BM today|no BM x2 days>.",
        dev=True,
    ),
    fam(
        "prose.recs",
        "<Agree with|Would continue> current <antibiotic|diuretic|insulin> regimen.",
        "<Recommend|Suggest> <repeat echo|MRI|a sleep study> <in 6 weeks|as an "
        "outpatient|if no improvement>.",
        "<We will|Will> <sign off|follow along|continue to follow>; <please page with "
        "questions|reconsult as needed>.",
        "<Low|Moderate|High> <pretest probability|risk> for <PE|ACS|bacteremia>.",
        "<Check|Send> <lipid panel|A1c|TSH|iron studies> <with AM labs|as an "
        "outpatient>.",
        dev=True,
    ),
    fam(
        "prose.imaging",
        "<Imaging|Prior studies> reviewed: <stable|interval improvement in|new> "
        "<RLL opacity|pleural effusion|hydronephrosis>.",
        "<LE Doppler|US> <negative for DVT|shows patent vessels>.",
        "<MRI brain|CT head> <without acute findings|with chronic small vessel "
        "changes>.",
        "EF <55-60%|40%|25-30%> with <normal|mildly reduced|severely reduced> RV "
        "function.",
        dev=True,
    ),
    fam(
        "prose.events",
        "<Overnight|O/N> <uneventful|with one episode of {cc}>.",
        "<Tmax|T max> <38.2|37.9|38.6>, <HR 90s-110s|SBPs 100s-130s>.",
        "<UOP|Urine output> <adequate|about 30 cc/hr|down>.",
        "<Lytes|Electrolytes> repleted; {labs}.",
        test=True,
    ),
    fam(
        "prose.dispo",
        "<Dispo|Disposition> pending <PT eval|insurance auth|bed availability>.",
        "<Ready|Medically ready> for discharge <pending|once> <ride home|VNA "
        "set-up|PT clearance>.",
        "<Capacity|Decision-making capacity> <intact|assessed and present>; "
        "<goals of care|code status> <reviewed|discussed>.",
        test=True,
    ),
)


def prose(ctx: NoteContext, k: int = 2) -> None:
    """Render `k` PHI-free clinical sentences."""
    for i in range(k):
        if i:
            ctx.add(" ")
        ctx.use(PROSE, k=1)


@slot("prose")
def s_prose(ctx: NoteContext, arg: str) -> None:
    """`{prose}` or `{prose:3}`: PHI-free clinical sentences."""
    prose(ctx, int(arg) if arg else 1)
