"""Curated word lists for the PHI rule patterns (data only, no logic).

The lists are written by hand for precision: a word is listed only when it is
unambiguous in the context its pattern requires.
"""
