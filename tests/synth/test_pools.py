"""Disjoint value pools: no gold PHI string of dev or test occurs in train."""

from collections import defaultdict
from random import Random

import pytest

from spacy_deid.labels import LABEL_NAMES
from spacy_deid.synth import data, generate
from spacy_deid.synth.pools import (
    POOLED_SPLITS,
    draw,
    in_pool,
    name_in_pool,
    pool_key,
    pooled,
    split_of,
)
from spacy_deid.synth.values import Values

# Labels whose values are not partitioned, and why:
# - DATE: calendar dates, weekdays, months, seasons and holidays are one shared
#   calendar; a model must read any of them, and dates are shifted, not drawn
#   from a list.
# - AGE: ages are small numbers (1-104); splitting them would leave dev and
#   test without whole age ranges.
# - STATE: 50 states and their abbreviations; too few to split, so every split
#   uses them all (a dev city may sit in a state train also names).
EXEMPT = frozenset(("DATE", "AGE", "STATE"))
PARTITIONED = frozenset(LABEL_NAMES) - EXEMPT


def _gold(notes):
    """Case-folded gold strings of the partitioned labels -> their labels."""
    out = defaultdict(set)
    for note in notes:
        for span in note.spans:
            if span.label in PARTITIONED:
                out[pool_key(note.text[span.start : span.end])].add(span.label)
    return out


@pytest.fixture(scope="module")
def gold_train():
    return _gold(generate(700, seed=21, split="train"))


@pytest.mark.parametrize("split", ["dev", "test"])
def test_no_gold_string_of_dev_or_test_in_train(gold_train, split):
    # Compared case-insensitively and across labels: `Jordan` may not be a
    # train surname and a dev country. Exempt labels are left out on both sides
    # (a dev first name `Georgia` beside the shared state).
    gold = _gold(generate(400, seed=21, split=split))
    labels = {label for found in gold.values() for label in found}
    core = {"PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "CITY", "STREET"}
    core |= {"COUNTRY", "HOSPITAL", "DEPARTMENT", "ORGANIZATION", "LOCATION_OTHER"}
    assert core <= labels, core - labels
    shared = sorted(set(gold) & set(gold_train))
    assert not shared, [(s, gold[s], gold_train[s]) for s in shared[:20]]


def test_split_of_is_stable():
    # A stable hash, not Python's salted `hash`: these never change.
    assert [split_of(v) for v in ("Smith", "Boston", "nurse", "SMITH")] == [
        split_of("smith"),
        split_of("boston"),
        split_of("Nurse"),
        split_of("smith"),
    ]
    assert {split_of(str(i)) for i in range(100)} == set(POOLED_SPLITS)
    assert in_pool("anything", "all")


@pytest.mark.parametrize("split", POOLED_SPLITS)
def test_every_curated_pool_is_filled(split):
    for name in (
        "cities.txt",
        "countries.txt",
        "departments.txt",
        "extra_names.txt",
        "landmarks.txt",
        "professions.txt",
        "surnames_extra.txt",
    ):
        assert pooled(data.lines(name), split), (name, split)
    names = pooled(data.lines("extra_names.txt"), split, names=True)
    assert all(name_in_pool(n, split) for n in names)


def test_initials_and_suffixes_are_checked():
    split = split_of("JR")
    other = next(s for s in POOLED_SPLITS if s != split)
    assert name_in_pool("J.R.", split) and not name_in_pool("JR", other)
    last = next(f"Zq{i}x" for i in range(100) if split_of(f"Zq{i}x") == split)
    assert name_in_pool(f"{last} Jr.", split)


def test_draw_falls_back_inside_the_pool():
    for split in POOLED_SPLITS:
        # A maker that never hits the pool: the fallback still lands in it,
        # keeping a phone number's shape.
        phone = next(
            f"555-01{i:02d}" for i in range(99) if split_of(f"555-01{i:02d}") != split
        )
        out = draw(lambda v=phone: v, split)
        assert in_pool(out, split) and len(out) == len(phone) and out[:5] == "555-0"
        user = next(f"jdoe{i}" for i in range(99) if split_of(f"jdoe{i}") != split)
        out = draw(lambda v=user: v, split)
        assert in_pool(out, split) and out.startswith("jdoe")


def test_values_all_split_unchanged_draws():
    # "all" has no pools: each value is drawn once, as before splits had pools.
    a, b = Values(Random(5)), Values(Random(5), "all")
    assert [a.phone() for _ in range(20)] == [b.phone() for _ in range(20)]
