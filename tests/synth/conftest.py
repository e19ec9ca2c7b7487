import pytest

from spacy_deid.synth import generate


@pytest.fixture(scope="session")
def notes_all():
    return list(generate(600, seed=7))


@pytest.fixture(scope="session")
def notes_train():
    return list(generate(400, seed=3, split="train"))


@pytest.fixture(scope="session")
def notes_dev():
    return list(generate(400, seed=3, split="dev"))


@pytest.fixture(scope="session")
def notes_test():
    return list(generate(400, seed=3, split="test"))
