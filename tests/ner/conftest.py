import pytest
import spacy
from spacy.training import Example
from thinc.api import Adam, fix_random_seed

TINY_MODEL = {
    "@architectures": "spacy_deid.CharBiLSTMCRF.v1",
    "hidden_width": 16,
    "depth": 1,
    "dropout": 0.0,
    "char_embed": {
        "@architectures": "spacy_deid.CharBiLSTMEmbed.v1",
        "width": 8,
        "hidden_width": 8,
        "max_chars": 12,
    },
    "features": {
        "@architectures": "spacy_deid.TokenFeatures.v1",
        "width": 16,
        "attrs": ["NORM", "PREFIX", "SUFFIX", "SHAPE"],
        "rows": [200, 100, 100, 100],
        "include_static_vectors": False,
    },
}

TRAIN_DATA = [
    (
        "Seen by Dr John Smith on 12/03/2020 .",
        {"entities": [(11, 21, "DOCTOR"), (25, 35, "DATE")]},
    ),
    ("Patient Mary Jones called 555-1234 today", {"entities": [(8, 18, "PATIENT")]}),
    (
        "Follow up with Dr Kim on 01/02/2021",
        {"entities": [(18, 21, "DOCTOR"), (25, 35, "DATE")]},
    ),
    ("No PHI in this sentence at all", {"entities": []}),
]


def make_nlp(model=None, **config):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_ner", config={"model": model or TINY_MODEL, **config})
    return nlp


def make_examples(nlp, data=TRAIN_DATA):
    return [Example.from_dict(nlp.make_doc(text), annots) for text, annots in data]


def train(nlp, examples, steps=60, learn_rate=0.02):
    fix_random_seed(0)
    nlp.initialize(get_examples=lambda: examples)
    optimizer = Adam(learn_rate)
    losses = {}
    for _ in range(steps):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    return losses


@pytest.fixture(scope="module")
def trained_nlp():
    nlp = make_nlp()
    examples = make_examples(nlp)
    losses = train(nlp, examples)
    return nlp, losses
