import pytest
import spacy

# Registers the phi_crf factory (imports python-crfsuite lazily, so this
# works without it; the test modules skip themselves then).
import spacy_deid.crfsuite.component  # noqa: F401

from ..toy_tagging import make_examples, toy_data

SURNAMES = [
    "Smith", "Jones", "Brown", "Garcia", "Miller", "Davis", "Lopez", "Wilson",
    "Moore", "Taylor", "Clark", "Lewis",
]  # fmt: skip
FIRST_NAMES = ["Anna", "Maria", "Peter", "Omar", "Lucy", "Tom"]
FAST = {"max_iterations": 50}


def make_data(n: int = 40):
    """Tiny fictional training data: (text, [(start, end, label)])."""
    return toy_data(n, SURNAMES, FIRST_NAMES)


def make_nlp(**config):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_crf", config={**FAST, **config})
    return nlp


def train_nlp(**config):
    nlp = make_nlp(**config)
    examples = make_examples(nlp, make_data())
    nlp.initialize(get_examples=lambda: examples)
    return nlp


@pytest.fixture(scope="module")
def trained_nlp():
    return train_nlp()
