"""Lower-case words inside names ("Idris bin Said", "Jan van den Berg",
"Ana dos Santos")."""

NAME_PARTICLES = frozenset(
    "al bin binti bint ibn da das de del della der den di do dos du el la le "
    "st ten ter van von".split()
)
# Particles that are English words or abbreviations as well ("et al", "do",
# "St"): a pattern reads them as a name's only after other evidence.
WORD_PARTICLES = frozenset({"al", "bin", "do", "el", "st"})
