"""Slot fillers for `{slot}` / `{slot:arg}` in templates, one module per kind
of value; importing this package registers them all (`context.slot`).

PHI slots emit spans with i2b2 2014 boundaries (the bare age number, the name
without the title, the full date expression); other slots emit clinical text.
"""

from . import clinical, contact, dates, patient, places, relatives, social, staff
from . import lists, styles
from .clinical import conditions_for, med_record_text, med_text, vocab_for

__all__ = [
    "clinical", "contact", "dates", "patient", "places", "relatives", "social",
    "staff", "styles", "lists", "conditions_for", "med_record_text", "med_text", "vocab_for",
]  # fmt: skip
