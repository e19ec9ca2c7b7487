"""Common words that must not spread as PHI on their own (data only).

Sources, for each language:
- spaCy's stop words (`nlp.Defaults.stop_words`, passed in);
- the most frequent words of the language from Faker's lorem word lists
  (`faker.providers.lorem.en_US` / `es_ES`: about 1,000 words each, compiled
  by Faker from published top-1000 word lists; Faker is already a dependency,
  spacy-lookups-data is not installed), lower-case entries only;
- the lists below, written by hand for `phi_consistency`: words that are both
  frequent (in general or in clinical notes) and plausible PHI strings, so
  that one detection must not mark every other occurrence: first names and
  surnames that are ordinary words ("Hope", "Brown"), clinical eponyms of
  tests and devices ("Foley", "Doppler"), staff roles, facility words;
- for English, `spacy_deid.rules.lexicons.clinical.CLINICAL_WORDS` (clinical
  words of family-history lines) and the abbreviations of weekdays and
  months (`spacy_deid.text.datenames`): alone they date nothing that their
  other occurrences need, and several are ordinary words ("sat" in "O2 sat
  97%", "sun", "wed", "mar").
Entries are lower case; the guard compares them without accents.
"""

import importlib
from typing import Dict, FrozenSet, Iterable, List

from ..rules.lexicons.clinical import CLINICAL_WORDS
from ..text.datenames import MONTH_ABBRS, WEEKDAY_ABBRS

# Faker lorem locale per language (its `Provider.word_list`).
FAKER_WORD_LISTS: Dict[str, str] = {"en": "en_US", "es": "es_ES"}

# First names and surnames that are ordinary English words.
EN_NAME_WORDS: List[str] = [
    "angel", "art", "bell", "bill", "bishop", "black", "bliss", "bond",
    "bright", "brook", "brooks", "brown", "buck", "bud", "buddy", "bush",
    "butler", "candy", "carter", "case", "chance", "charity", "chase",
    "cherry", "chip", "chuck", "church", "clay", "cliff", "cook", "cooper",
    "cross", "crystal", "dale", "dawn", "dean", "drake", "drew", "duke",
    "early", "earl", "faith", "field", "fields", "fisher", "ford", "fox",
    "frank", "gates", "gene", "gold", "good", "grace", "gray", "green",
    "grey", "guy", "hall", "hart", "hazel", "head", "heath", "hill", "holly",
    "honor", "hope", "house", "hunt", "hunter", "iris", "ivy", "jack", "jade",
    "joy", "just", "king", "knight", "lamb", "lance", "land", "lane", "long",
    "lord", "love", "major", "mark", "marsh", "mason", "max", "merry", "miles",
    "mills", "moon", "moss", "nick", "noble", "page", "park", "parker", "pat",
    "patience", "pearl", "penny", "pierce", "pike", "pool", "pope", "porter",
    "post", "power", "price", "prince", "ray", "reed", "rich", "ridge",
    "rivers", "rock", "rose", "ruby", "rush", "sage", "sandy", "sharp",
    "short", "silver", "small", "snow", "sparks", "spring", "star", "sterling",
    "stone", "storm", "strong", "sue", "summer", "sweet", "swift", "tower",
    "wade", "walker", "wall", "ward", "waters", "way", "weeks", "wells", "west",
    "white", "wild", "will", "winter", "wise", "wolf", "wood", "woods", "young",
]  # fmt: skip

# Eponyms of clinical signs, tests, devices and scores, frequent in notes.
EN_EPONYMS: List[str] = [
    "apgar", "babinski", "barrett", "bell's", "braden", "doppler", "foley",
    "gleason", "gram", "heimlich", "hickman", "holter", "homans",
    "kussmaul", "lachman", "murphy", "murphy's", "papanicolaou", "penrose",
    "romberg", "swan", "ganz", "tinel", "trendelenburg", "valsalva", "whipple",
    "wilson's", "graves", "cushing's", "addison's", "hodgkin", "hodgkin's",
    "down", "turner", "marfan", "lyme", "coombs", "jackson", "pratt",
]  # fmt: skip

# Staff roles, facility and place words that are PHI only inside a name.
EN_CLINICAL_WORDS: List[str] = [
    "patient", "doctor", "physician", "surgeon", "nurse", "nursing", "staff",
    "attending", "resident", "fellow", "intern", "student", "provider",
    "therapist", "pharmacist", "technician", "tech", "aide", "worker",
    "hospital", "clinic", "center", "centre", "medical", "memorial", "general",
    "university", "community", "regional", "county", "city", "state",
    "national", "unit", "ward", "floor", "room", "bed", "bay", "department",
    "service", "services", "office", "practice", "emergency", "rehab",
    "rehabilitation", "facility", "institute", "north", "south", "east",
    "saint", "mount", "valley", "lake", "river", "street", "road", "avenue",
    "drive", "court", "place", "today", "tomorrow", "yesterday", "morning",
    "evening", "night", "noon", "midnight", "daily", "weekly", "monthly",
    "annual", "annually", "week", "month", "year", "years", "day", "days",
]  # fmt: skip

# Spanish: names and surnames that are ordinary words, clinical and place words.
ES_WORDS: List[str] = [
    "alba", "amparo", "angeles", "asuncion", "aurora", "blanca", "blanco",
    "bravo", "calvo", "campos", "castillo", "concepcion", "consuelo", "cruz",
    "delgado", "dolores", "encarnacion", "esperanza", "estrella", "fe",
    "flores", "franco", "fuentes", "gloria", "gracia", "iglesias", "leal",
    "leon", "lozano", "luz", "mar", "mercedes", "milagros", "moreno", "nieves",
    "paz", "pilar", "prieto", "purificacion", "remedios", "reyes", "rocio",
    "rosa", "rubio", "salud", "santos", "serrano", "socorro", "sol", "soledad",
    "torres", "valiente", "vega", "victoria",
    "paciente", "medico", "medica", "doctor", "doctora", "enfermera",
    "enfermero", "hospital", "clinica", "centro", "servicio", "urgencias",
    "planta", "consulta", "unidad", "general", "universitario", "provincial",
    "comarcal", "calle", "avenida", "plaza", "norte", "sur", "oeste", "san",
    "santa", "santo", "madre", "padre", "hijo", "hija", "esposa", "esposo",
    "hermano", "hermana", "abuelo", "abuela", "hoy", "ayer", "manana", "dia",
    "dias", "semana", "semanas", "mes", "meses", "ano", "anos",
]  # fmt: skip

EN_DATE_ABBREVIATIONS: List[str] = [a.lower() for a in MONTH_ABBRS + WEEKDAY_ABBRS]

COMMON_WORDS: Dict[str, List[str]] = {
    "en": EN_NAME_WORDS
    + EN_EPONYMS
    + EN_CLINICAL_WORDS
    + CLINICAL_WORDS
    + EN_DATE_ABBREVIATIONS,
    "es": ES_WORDS,
}


def faker_words(lang: str) -> List[str]:
    """The lower-case entries of Faker's lorem word list of a language.

    lang (str): "en" or "es"; other languages have none.
    RETURNS (List[str]): The words.
    """
    if lang not in FAKER_WORD_LISTS:
        return []
    module = importlib.import_module(f"faker.providers.lorem.{FAKER_WORD_LISTS[lang]}")
    return [word for word in module.Provider.word_list if word == word.lower()]


def common_words(lang: str, stop_words: Iterable[str] = ()) -> FrozenSet[str]:
    """The common words of a language: its stop words, Faker's frequent words
    and the bundled lists.

    lang (str): A language code; an unknown language gets every bundled list.
    stop_words (Iterable[str]): The language's stop words, e.g.
        `nlp.Defaults.stop_words`.
    RETURNS (FrozenSet[str]): Lower-case words.
    """
    langs = [lang] if lang in COMMON_WORDS else list(COMMON_WORDS)
    bundled = [word for code in langs for word in COMMON_WORDS[code]]
    bundled += [word for code in langs for word in faker_words(code)]
    return frozenset(word.lower() for word in list(bundled) + list(stop_words))
