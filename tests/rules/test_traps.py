"""PHI-free clinical text that no default pattern may tag."""

import pytest

TRAPS = [
    "120/80",
    "BP 120/80",
    "5/5 strength",
    "motor 5/5",
    "10 mg",
    "0800",
    "at 0800",
    "14:30",
    "pH 7.35",
    "GCS 15",
    "J45.909",
    "ICD-10 E11.9",
    "HbA1c 7.2%",
    "INR 2.5",
    "Na 140",
    "1/2 tab",
    "2/3 of",
    "grade 3/6 murmur",
    "0/10 pain",
    "T 98.6",
    "O2 sat 97%",
    "pack-year 30",
    "EF 55%",
    "x3",
    "q6h",
    "CPT 99213",
    "12345",
    "1234567",
    "3.14159",
    "Lasix 40 mg PO BID x 3 days",
    "Vitals: T 98.6 HR 72 BP 128/76 RR 16 SpO2 98% RA",
    "Labs: WBC 7.2, Hgb 13.1, Plt 250, Cr 1.1, K 4.2, Mg 2.0",
    "Strength 5/5 in bilateral upper and lower extremities, reflexes 2+ throughout.",
    "Metoprolol 25 mg q12h; aspirin 81 mg daily; 1/2 tab of lisinopril.",
    "Murmur grade 2/6, pain 4/10, 2/3 of the dose, ratio 1:4",
    "May consider increasing dose. Will follow up. MR 2+, MS flare.",
    "ID consult: continue vancomycin. MRN pending.",
    "Sat 97% on RA. The sun was bright.",
    "Take 2 tabs at 0800 and 2000.",
    "",
    "   \n\t  ",
]


@pytest.mark.parametrize("text", TRAPS)
def test_trap_has_no_phi(find, text):
    assert find(text) == []
