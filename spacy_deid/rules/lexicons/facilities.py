"""Facility head words, hospital abbreviations and generic facility words."""

from typing import List

# Head words that end a facility name ("Mercy General Hospital"). Listed in
# title case; the patterns also accept the upper-case form.
FACILITY_HEADS: List[str] = [
    "Hospital", "Hospitals", "Medical Center", "Medical Centre", "Medical Centers",
    "Health Center", "Health Centre", "Health Centers", "Health System",
    "Health Systems", "Healthcare System", "Health Care System", "Clinic",
    "Clinics", "Infirmary", "Sanatorium", "Sanitarium", "Rehabilitation Center",
    "Rehabilitation Hospital", "Rehab Center", "Nursing Home", "Nursing Center",
    "Nursing and Rehabilitation Center", "Hospice", "Children's Hospital",
    "University Hospital", "University Hospitals", "Cancer Center",
    "Cancer Institute", "Heart Institute", "Surgery Center", "Surgical Center",
    "Skilled Nursing Facility", "Care Center", "Urgent Care",
    "Assisted Living", "Rehab", "Health Sciences Center", "VA Medical Center",
]  # fmt: skip
# Heads that are also ordinary words ("Mental Health", "Memorial Day"): only
# after a place cue ("at", "from", "to").
WEAK_FACILITY_HEADS: List[str] = [
    "Health", "Healthcare", "Health Care", "Memorial",
]  # fmt: skip
# Heads of lower-case facility names in sign-out shorthand ("norbu manor").
LOWER_FACILITY_HEADS: List[str] = [
    "house", "manor", "gardens", "nursing home", "general", "rehab", "memorial",
    "pavilion",
]  # fmt: skip
# Heads of lower-case schools and employers in sign-out shorthand.
LOWER_ORGANIZATION_HEADS: List[str] = [
    "elementary school", "middle school", "high school", "school", "elementary",
    "middle", "high", "academy", "impound", "auto impound", "tow", "towing",
    "wrecker service", "pharmacy", "drug", "bank", "savings bank", "country club",
    "diner",
]  # fmt: skip
# Well-known US hospital abbreviations; only with a context cue.
HOSPITAL_ABBRS: List[str] = [
    "MGH", "BWH", "BIDMC", "UCSF", "NYU", "UPMC", "OHSU", "MUSC", "UCLA", "UCSD",
    "CHOP", "MSKCC", "DFCI", "BMC", "NYP", "VUMC", "UAB", "UCSD", "UCD", "UCI",
    "UTSW", "UTMB", "UNMH", "LAC+USC", "OSUMC", "UVA", "UIC", "UIHC", "MUSC",
    "CCF", "JHH", "JHU", "MDACC", "BCH", "CHLA", "CHOA", "LLUMC", "NWH", "NEMC",
    "SFGH", "HUP", "TJUH", "UCMC", "UMMC", "UNC", "UTHSCSA", "BUMC",
]  # fmt: skip
# Words after a hospital abbreviation that mark it as a place ("MGH ED").
HOSPITAL_ABBR_FOLLOWERS: List[str] = [
    "ED", "ER", "ICU", "MICU", "SICU", "CCU", "NICU", "PICU", "Emergency",
    "Hospital", "Clinic", "clinic", "records", "Records", "admission",
    "discharge", "cardiology", "Cardiology", "oncology", "Oncology", "neurology",
    "Neurology", "surgery", "Surgery", "transplant", "Transplant", "OR", "PACU",
    "floor", "inpatient", "outpatient", "campus", "Campus",
]  # fmt: skip
# Words that do not make a facility name on their own: "General Hospital",
# "Cardiology Clinic", "Mental Health", "Outside Hospital". A candidate whose
# name words are all generic is rejected (departments are not HOSPITAL).
GENERIC_FACILITY_WORDS: List[str] = [
    # kinds of facility
    "general", "community", "regional", "memorial", "university", "state",
    "county", "city", "municipal", "district", "national", "federal", "public",
    "private", "teaching", "academic", "children's", "childrens", "women's",
    "womens", "men's", "veterans", "veteran's", "va", "psychiatric", "mental",
    "behavioral", "rehabilitation", "rehab", "acute", "chronic", "long-term",
    "specialty", "surgical", "medical", "health", "healthcare", "care",
    "primary", "urgent", "emergency", "outpatient", "inpatient", "ambulatory",
    "day", "same-day", "walk-in", "free", "resident", "residents", "fellows",
    "student", "employee", "occupational", "home", "nursing", "skilled", "field",
    "partial", "local", "outside", "referring", "receiving", "other", "new",
    "main", "satellite", "affiliated", "network", "system", "center", "centre",
    "osh", "clinic", "clinics", "hospital", "hospitals", "infirmary", "hospice",
    "follow-up", "followup", "brief", "prior", "previous", "recent", "current",
    "daily", "weekly", "monthly", "morning", "afternoon", "evening", "night",
    "good", "better", "poor", "fair", "excellent", "overall", "optimal",
    "perfect", "stable", "declining", "failing", "ill", "bad", "global", "population", "oral", "sexual",
    "reproductive", "family", "pediatric", "paediatric", "adult", "geriatric",
    "senior", "infusion", "dialysis", "transplant", "cancer", "heart", "eye",
    "ear", "dental", "bone", "joint", "spine", "sleep", "memory", "pain",
    "wound", "travel", "methadone", "suboxone", "addiction", "detox", "substance",
    "abuse", "recovery", "management", "comprehensive", "integrated",
    "integrative", "multidisciplinary", "interdisciplinary", "lipid", "coumadin", "warfarin", "anticoagulation",
    "diabetes", "diabetic", "obesity", "weight", "breast", "liver", "kidney",
    "renal", "lung", "allergy", "asthma", "vascular", "headache", "epilepsy",
    "seizure", "stroke", "movement", "disorders", "disorder", "fracture",
    "prenatal", "antenatal", "postnatal", "maternity", "fertility", "hiv", "aids",
    "tb", "std", "sti", "chf", "copd", "ibd", "ms", "als", "ckd", "ent", "gi",
    "id", "ob", "gyn", "ob/gyn", "obgyn", "pcp", "icu", "ed", "er", "or",
    "failure", "disease", "diseases", "infectious", "internal", "medicine",
    "surgery", "cardiology", "cardiac", "neurology", "neuro", "oncology",
    "hematology", "heme/onc", "urology", "dermatology", "endocrinology",
    "endocrine", "nephrology", "pulmonary", "pulmonology", "gastroenterology",
    "hepatology", "rheumatology", "orthopedic", "orthopedics", "orthopaedic",
    "psychiatry", "psychology", "neurosurgery", "ophthalmology", "optometry",
    "podiatry", "radiology", "obstetrics", "gynecology", "pediatrics",
    "geriatrics", "palliative", "physical", "therapy", "occupational", "speech",
    "audiology", "nutrition", "genetics", "immunology", "wellness", "women",
    "men", "children", "kids", "youth", "adolescent", "teen", "public",
    "student", "campus", "base", "army", "navy", "military", "prison", "jail",
    "correctional", "shelter", "mobile", "virtual", "telehealth", "convenient",
    "minute", "express", "retail", "fast", "quick", "walk", "in", "and", "of",
    "the", "&",
]  # fmt: skip
# Capitalised words that cannot be part of a facility name: function words,
# sentence-initial verbs, department words, months and days. They stop a name
# so that "Transferred to Mercy Hospital" gives "Mercy Hospital".
FACILITY_STOP_WORDS: List[str] = [
    "The", "This", "That", "These", "Those", "A", "An", "Our", "Your", "His",
    "Her", "Their", "Its", "My", "Any", "Each", "Every", "No", "Not", "All",
    "Some", "Same", "Another", "To", "From", "At", "In", "On", "By", "For",
    "With", "Via", "Per", "And", "Or", "But", "If", "When", "While", "After",
    "Before", "Since", "Until", "During", "Patient", "Pt", "Admitted",
    "Admission", "Admit", "Transferred", "Transfer", "Presented", "Presents",
    "Seen", "Discharged", "Discharge", "Sent", "Went", "Taken", "Brought",
    "Returned", "Return", "Followed", "Follows", "Follow", "Referred", "Referral",
    "Called", "Call", "Contacted", "Contact", "Visited", "Visit", "Evaluated",
    "Treated", "Hospitalized", "Hospitalised", "Lives", "Works", "Worked",
    "Employed", "Retired", "Records", "Record", "Obtained", "Requested", "Notes",
    "Note", "Report", "Reports", "History", "Hx", "Plan", "Go", "Is", "Was",
    "Will", "Would", "May", "Might", "Can", "Could", "Should", "Must", "Has",
    "Had", "Have", "Status", "Post", "Dr", "Doctor", "Mr", "Mrs", "Ms",
    "Department", "Dept", "Unit", "Ward", "Floor", "Service", "Services",
    "Division", "Section", "Room", "Suite", "Wing", "Building", "Bldg", "Team",
    "Course", "Summary", "Location", "Facility", "Site", "Name", "Address",
    "Phone", "Tel", "Fax", "Date", "Time", "Monday", "Tuesday", "Wednesday",
    "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March",
    "April", "June", "July", "August", "September", "October", "November",
    "December", "Please", "Thank", "Thanks", "Pain", "Past", "Brief",
    "Emergency", "Continue", "Continued", "Arrived", "Arrival", "Outside",
    "Previous", "Prior", "Recent", "Other", "Local", "Nearest", "Nearby",
    "MD", "DO", "RN", "NP", "PA", "PhD", "Referred", "Accepting", "Receiving",
    # head words end a name; they never start or continue one
    "Clinic", "Clinics", "Hospital", "Hospitals", "Infirmary", "Hospice",
]  # fmt: skip
