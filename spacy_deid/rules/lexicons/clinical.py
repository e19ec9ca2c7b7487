"""Clinical words that look like names in title case ("Mother (Breast Cancer)").

Used to reject relative-name candidates, mostly in family history lines.
"""

from typing import List

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
