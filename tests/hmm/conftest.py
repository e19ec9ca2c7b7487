import pytest
import spacy
from spacy.training import Example

# Registers the phi_hmm factory and spacy_deid.HMMDP.v1 (until the entry
# points are in pyproject.toml).
import spacy_deid.hmm.component  # noqa: F401

SURNAMES = ["Smith", "Jones", "Brown", "Garcia", "Miller", "Davis"]
FIRST_NAMES = ["Anna", "Maria", "Peter", "Omar"]
TEMPLATES = [
    "Seen by Dr. {last} today .",
    "Dr. {last} called back about the results .",
    "Patient {first} {last} was admitted overnight .",
    "Follow up on {date} in clinic .",
    "No new complaints and vitals are stable .",
]
SMALL = {
    "@architectures": "spacy_deid.HMMDP.v1",
    "n_subtags_o": 4,
    "n_subtags_phi": 2,
    "max_iterations": 15,
    "min_count": 2,
    "seed": 0,
}


def _date(i: int) -> str:
    return f"{i % 12 + 1:02d}/{i % 28 + 1:02d}/20{10 + i % 15}"


def make_data(n: int = 30):
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


def make_nlp(model=None, **config):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_hmm", config={"model": {**SMALL, **(model or {})}, **config})
    return nlp


def make_examples(nlp, data):
    return [
        Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in data
    ]


def train_nlp(model=None, data=None, **config):
    nlp = make_nlp(model, **config)
    examples = make_examples(nlp, data or make_data())
    nlp.initialize(get_examples=lambda: examples)
    return nlp


@pytest.fixture(scope="module")
def trained_nlp():
    return train_nlp()
