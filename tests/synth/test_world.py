"""Values from the knowledge tables: real distributions, split by pool."""

from random import Random

import pytest

from spacy_deid.synth import orgs, world
from spacy_deid.synth.pools import in_pool, name_in_pool


@pytest.mark.parametrize("split", ["train", "dev", "test"])
def test_pools_are_large_and_disjoint(split):
    sizes = world.sizes(split)
    assert sizes["surnames"] > 10_000 and sizes["given_female"] > 5_000
    assert sizes["world_cities"] > 1_000 and sizes["us_towns"] > 1_000
    rng = Random(3)
    for _ in range(200):
        assert name_in_pool(world.surname(rng, split), split)
        assert name_in_pool(world.given_name(rng, split, "M"), split)
        city, country = world.world_city(rng, split)
        assert in_pool(city, split) and (not country or in_pool(country, split))
        assert in_pool(world.us_town(rng, split), split)
        assert in_pool(world.country(rng, split), split)


def test_display_writes_names_as_written():
    assert world.display("mcgillivray") == "McGillivray"
    assert world.display("new zealand") == "New Zealand"
    assert world.display("bosnia and herzegovina") == "Bosnia and Herzegovina"
    assert world.display("uk", acronyms=True) == "UK"
    assert world.display("al") == "Al"


def test_draws_are_seeded_and_varied():
    first = [world.surname(Random(7), "train") for _ in range(3)]
    assert first == [world.surname(Random(7), "train") for _ in range(3)]
    rng = Random(1)
    assert len({world.surname(rng, "train") for _ in range(500)}) > 400


@pytest.mark.parametrize("kind", sorted(orgs.PATTERNS))
def test_composed_organizations(kind):
    rng = Random(5)
    names = {orgs.organization(rng, "train", kind) for _ in range(50)}
    assert len(names) > 20
    assert all("{" not in name and name.strip() == name for name in names)
