import pytest
import spacy

from ..toy_tagging import make_examples, toy_data

SURNAMES = ["Smith", "Jones", "Brown", "Garcia", "Miller", "Davis"]
FIRST_NAMES = ["Anna", "Maria", "Peter", "Omar"]
SMALL = {
    "@architectures": "spacy_deid.HMMDP.v1",
    "n_subtags_o": 4,
    "n_subtags_phi": 2,
    "max_iterations": 15,
    "min_count": 2,
    "seed": 0,
}


def make_data(n: int = 30):
    """Tiny fictional training data: (text, [(start, end, label)])."""
    return toy_data(n, SURNAMES, FIRST_NAMES)


def make_nlp(model=None, **config):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_hmm", config={"model": {**SMALL, **(model or {})}, **config})
    return nlp


def train_nlp(model=None, data=None, **config):
    nlp = make_nlp(model, **config)
    examples = make_examples(nlp, data or make_data())
    nlp.initialize(get_examples=lambda: examples)
    return nlp


@pytest.fixture(scope="module")
def trained_nlp():
    return train_nlp()
