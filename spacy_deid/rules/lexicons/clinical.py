"""Clinical words that look like names in title case ("Mother (Breast Cancer)").

Used to reject relative-name candidates, mostly in family history lines; and
the words after which a name-like word is an eponym ("Foley catheter").
"""

from typing import List, Tuple

from spacy.tokens import Token

CLINICAL_WORDS: List[str] = [
    "alive", "living", "deceased", "dead", "died", "passed", "late", "healthy",
    "well", "unknown", "adopted", "estranged", "twin", "twins", "older",
    "younger", "elder", "step", "half", "maternal", "paternal", "biological",
    "age", "aged", "ages", "yo", "none", "other", "no", "yes", "present",
    "bedside", "here", "home", "local", "nearby", "away", "out", "abroad",
    "primary", "contact", "proxy", "hcp", "poa", "guardian", "caregiver",
    "emergency", "legal", "health", "care", "agent", "surrogate", "decision",
    "maker", "next", "kin", "phone", "cell", "tel", "mobile", "see", "above",
    "below", "same", "also", "both", "all", "several", "many", "multiple",
    "cancer", "carcinoma", "tumor", "tumour", "malignancy", "leukemia",
    "lymphoma", "melanoma", "myeloma", "sarcoma", "breast", "colon", "lung",
    "prostate", "ovarian", "uterine", "cervical", "pancreatic", "gastric",
    "stomach", "liver", "kidney", "renal", "bladder", "brain", "skin", "bone",
    "blood", "thyroid", "heart", "cardiac", "coronary", "artery", "disease",
    "attack", "failure", "arrest", "stroke", "cva", "tia", "mi", "cad", "chf",
    "htn", "hld", "dm", "dm2", "t2dm", "iddm", "niddm", "copd", "ckd", "esrd",
    "afib", "pe", "dvt", "diabetes", "diabetic", "hypertension", "hyperlipidemia",
    "dyslipidemia", "cholesterol", "obesity", "asthma", "emphysema",
    "bronchitis", "pneumonia", "tuberculosis", "tb", "hepatitis", "cirrhosis",
    "hiv", "aids", "dementia", "alzheimer's", "alzheimers", "alzheimer",
    "parkinson's", "parkinsons", "parkinson", "huntington's", "epilepsy",
    "seizures", "seizure", "migraine", "migraines", "headaches", "depression",
    "anxiety", "bipolar", "schizophrenia", "psychosis", "suicide", "autism",
    "adhd", "alcoholism", "alcohol", "etoh", "substance", "drug", "drugs",
    "addiction", "abuse", "overdose", "arthritis", "rheumatoid", "lupus",
    "sle", "gout", "osteoporosis", "scoliosis", "glaucoma", "cataracts",
    "blindness", "deafness", "sickle", "cell", "anemia", "hemophilia",
    "thalassemia", "cystic", "fibrosis", "celiac", "crohn's", "crohns",
    "colitis", "ibd", "ibs", "polyps", "aneurysm", "clots", "clot",
    "thrombosis", "embolism", "hypothyroidism", "hyperthyroidism", "sudden",
    "death", "cardiac death", "sids", "accident", "trauma", "mva", "covid",
    "surgery", "cabg", "stent", "pacemaker", "transplant", "dialysis",
    "chemo", "chemotherapy", "radiation", "negative", "positive",
    "noncontributory", "non-contributory", "unremarkable", "significant",
    "history", "hx", "fhx", "family", "neg", "pos", "mother", "father", "mom",
    "dad", "sister", "brother", "son", "daughter", "wife", "husband", "spouse",
    "partner", "aunt", "uncle", "cousin", "grandmother", "grandfather",
    "grandparents", "parents", "siblings", "children", "kids",
]  # fmt: skip

# Words after which a name-like token is an eponym, not PHI ("Foley catheter").
EPONYM_HEADS: Tuple[str, ...] = (
    "catheter",
    "sign",
    "signs",
    "disease",
    "syndrome",
    "lymphoma",
    "procedure",
    "maneuver",
    "manoeuvre",
    "test",
    "score",
    "scale",
    "criteria",
    "reflex",
    "classification",
    "fracture",
    "tube",
    "bag",
    "stockings",
    "operation",
    "repair",
    "palsy",
    "phenomenon",
    "position",
    "line",
    "drain",
    "stain",
    "method",
    "formula",
)

_EPONYM_HEADS = frozenset(EPONYM_HEADS)


def before_eponym_head(token: Token) -> bool:
    """Whether the word after a token (past "'s") makes it an eponym: "Foley
    catheter" is no mention of a Dr. Foley.

    token (Token): The name-like token.
    RETURNS (bool): True when an eponym's head follows.
    """
    doc, i = token.doc, token.i + 1
    if i < len(doc) and doc[i].lower_ in ("'s", "'"):
        i += 1
    return i < len(doc) and doc[i].lower_ in _EPONYM_HEADS
