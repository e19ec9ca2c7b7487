"""Clinical specialties: does a word name a branch of medicine?

A tagger trained on departments such as "Renal Associates" also tags a
bare specialty ("Clinician, MD (Vascular Surgery)", "Obstetrics/Gynecology") as
a department or a firm: no hospital is named by it, and a surrogate would
put a random firm in its place. The `nouns` table marks the single-word nouns
whose most used WordNet sense is a branch of medical science and that name no
place of business ("oncology", "surgery", "pediatrics"; not "pharmacy").
"""

from .tables import load


def is_specialty_word(word: str) -> bool:
    """Whether a word names a branch of medicine ("Oncology", "surgery").

    word (str): The word, in any case.
    RETURNS (bool): True if the `nouns` table marks it as a specialty.
    """
    return load("nouns").get(word.lower()) == "specialty"
