"""Modal verbs that are also given names ("Will", "May"), shared by
`phi_relabel` and `phi_safety_net`: the word after one tells the verb from
the name. A modal takes a verb's base form ("Will schedule", "May resume");
a name that opens a sentence takes a third-person or past form ("Will is",
"Will wondered") or a link word ("Will and his wife", "Will at bedside").
"""

MODALS = frozenset(
    {"will", "can", "may", "could", "would", "should", "must", "might", "shall"}
)
# Words that never follow a modal verb: other verbs' third-person and past
# forms, as train's notes write them after a sentence-opening name ("Will is
# a retired teacher", "Will wondered whether").
NOT_AFTER_MODAL = frozenset(
    {
        "is", "was", "has", "had", "does", "did", "says", "said", "wants",
        "wanted", "prefers", "preferred", "wonders", "wondered", "asks",
        "asked", "feels", "felt", "agrees", "agreed", "reports", "reported",
        "states", "stated", "denies", "denied", "lives", "lived", "works",
        "worked", "knows", "knew", "thinks", "thought", "understands",
        "understood", "likes", "liked", "needs", "needed", "remains",
    }
) | MODALS  # fmt: skip
# Words after a name that no verb's base form is: conjunctions, prepositions
# and the adjectives that telegraphic notes put right after a person ("Will
# aware of plan", "Will present").
_NAME_FOLLOWERS = frozenset(
    {
        "and", "or", "but", "&", "at", "from", "on", "in", "to", "with", "of",
        "for", "by", "as", "aware", "present", "here", "too", "also",
    }
)  # fmt: skip


def takes_base_form(word: str) -> bool:
    """Whether a word after a sentence-opening modal reads as a verb's base
    form, so that the modal is the verb ("schedule", "f/u"): lower case,
    letters (a "/" inside allowed), no link word, no third-person "-s" and no
    past "-ed" ("need" and "discuss" are base forms)."""
    if not word.islower() or not word.replace("/", "").isalpha():
        return False
    if word in NOT_AFTER_MODAL or word in _NAME_FOLLOWERS:
        return False
    if word.endswith("ed") and not word.endswith("eed"):
        return False
    return not (word.endswith("s") and not word.endswith(("ss", "us")))
