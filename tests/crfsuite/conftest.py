import pytest
import spacy
from spacy.training import Example

# Registers the phi_crf factory (imports python-crfsuite lazily, so this
# works without it; the test modules skip themselves then).
import spacy_deid.crfsuite.component  # noqa: F401

SURNAMES = [
    "Smith", "Jones", "Brown", "Garcia", "Miller", "Davis", "Lopez", "Wilson",
    "Moore", "Taylor", "Clark", "Lewis",
]  # fmt: skip
FIRST_NAMES = ["Anna", "Maria", "Peter", "Omar", "Lucy", "Tom"]
TEMPLATES = [
    "Seen by Dr. {last} today .",
    "Dr. {last} called back about the results .",
    "Patient {first} {last} was admitted overnight .",
    "Follow up on {date} in clinic .",
    "No new complaints and vitals are stable .",
]
FAST = {"max_iterations": 50}


def _date(i: int) -> str:
    return f"{i % 12 + 1:02d}/{i % 28 + 1:02d}/20{10 + i % 15}"


def make_data(n: int = 40):
    """Tiny fictional training data: (text, [(start, end, label)])."""
    data = []
    for i in range(n):
        template = TEMPLATES[i % len(TEMPLATES)]
        values = {
            "last": SURNAMES[i % len(SURNAMES)],
            "first": FIRST_NAMES[i % len(FIRST_NAMES)],
            "date": _date(i),
        }
        text = template.format(**values)
        ents = []
        if "{first} {last}" in template:
            name = f"{values['first']} {values['last']}"
            start = text.index(name)
            ents.append((start, start + len(name), "PATIENT"))
        elif "{last}" in template:
            start = text.index(values["last"])
            ents.append((start, start + len(values["last"]), "DOCTOR"))
        if "{date}" in template:
            start = text.index(values["date"])
            ents.append((start, start + len(values["date"]), "DATE"))
        data.append((text, ents))
    return data


def make_nlp(**config):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_crf", config={**FAST, **config})
    return nlp


def make_examples(nlp, data):
    return [
        Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in data
    ]


def train_nlp(**config):
    nlp = make_nlp(**config)
    examples = make_examples(nlp, make_data())
    nlp.initialize(get_examples=lambda: examples)
    return nlp


@pytest.fixture(scope="module")
def trained_nlp():
    return train_nlp()
