"""Words that end a document's title ("DISCHARGE SUMMARY", "PROCEDURE
NOTE"), shared by `phi_relabel` and `phi_safety_net`: a title names the
document, not a unit or a firm."""

DOCUMENT_WORDS = frozenset(
    {
        "record", "report", "note", "notes", "summary", "log", "form", "letter",
        "notification", "consult", "consultation", "evaluation", "assessment",
    }
)  # fmt: skip
