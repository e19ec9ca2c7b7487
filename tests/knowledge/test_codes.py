"""Knowledge codes: buckets and flags packed into one integer."""

import pytest

from spacy_deid.knowledge import Knowledge, lookup
from spacy_deid.knowledge.codes import (
    FLAGS,
    UNKNOWN,
    code_of,
    count_bucket,
    pack,
    unpack,
    zipf_bucket,
)


def test_buckets():
    assert [count_bucket(c) for c in (0, 5, 999, 1000, 54_321, 2_442_977)] == [
        0,
        1,
        1,
        2,
        3,
        5,
    ]
    assert [zipf_bucket(z) for z in (0.0, 2.5, 3.0, 4.9, 6.3, 7.8)] == [
        0,
        1,
        2,
        3,
        5,
        5,
    ]


def test_pack_round_trip():
    k = Knowledge(
        surname_count=2_442_977,
        given_count=1_500,
        given_female=1_400,
        word_zipf=4.2,
        is_state=True,
    )
    buckets, flags = unpack(pack(k))
    assert buckets == (5, 2, 0, 3)
    named = dict(zip(FLAGS, flags, strict=True))
    assert named["state"] and named["female_given"] and not named["drug"]
    assert unpack(UNKNOWN) == ((0, 0, 0, 0), (False,) * len(FLAGS))


@pytest.mark.parametrize("text", ["Smith", "SMITH", "reading", "Zürich", "Texas"])
def test_code_of_folds_like_lookup(text):
    assert code_of(text) == pack(lookup(text))


def test_unknown_token():
    assert code_of("Xqzvbrt") == UNKNOWN

