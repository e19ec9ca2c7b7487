"""The pure merge strategies on (start, end, label, source, score) tuples."""

import random

import pytest

from spacy_deid.merge.strategies import (
    STRATEGIES,
    SourceSpan,
    merge_priority,
    merge_sources,
    merge_union,
    merge_vote,
    overlap_runs,
)

S = SourceSpan
AB = ["a", "b"]


def _out(merged):
    """(start, end, label, source) per output span."""
    return [(m.start, m.end, m.label, m.source) for m in merged]


def _all(spans, sources=AB, **kwargs):
    """The output of every strategy (priority with and without extend)."""
    votes = kwargs.pop("min_votes", 2)
    return {
        "extend": _out(merge_priority(spans, sources, extend=True, **kwargs)),
        "classic": _out(merge_priority(spans, sources, extend=False, **kwargs)),
        "union": _out(merge_union(spans, sources, **kwargs)),
        "vote": _out(merge_vote(spans, sources, min_votes=votes, **kwargs)),
    }


def test_overlap_runs_split_touching_intervals():
    assert overlap_runs([(4, 6), (0, 2), (1, 3), (3, 4), (5, 9)]) == [
        [1, 2],
        [3],
        [0, 4],
    ]
    assert overlap_runs([]) == []


def test_overlap_from_two_sources():
    spans = [S(0, 2, "PATIENT", "a"), S(1, 4, "DOCTOR", "b")]
    assert _all(spans) == {
        "extend": [(0, 4, "PATIENT", "a")],
        "classic": [(0, 2, "PATIENT", "a")],
        "union": [(0, 4, "PATIENT", "a")],
        "vote": [(0, 2, "PATIENT", "a")],
    }


def test_source_priority_beats_length():
    spans = [S(2, 3, "CITY", "a"), S(0, 5, "HOSPITAL", "b")]
    assert _all(spans) == {
        "extend": [(0, 5, "CITY", "a")],
        "classic": [(2, 3, "CITY", "a")],
        "union": [(0, 5, "CITY", "a")],
        "vote": [(2, 3, "CITY", "a")],
    }


def test_nested_lower_priority_span_changes_nothing():
    spans = [S(0, 5, "HOSPITAL", "a"), S(1, 3, "CITY", "b")]
    expected = [(0, 5, "HOSPITAL", "a")]
    assert _all(spans) == dict.fromkeys(
        ["extend", "classic", "union", "vote"], expected
    )


def test_adjacent_spans_stay_apart():
    spans = [S(0, 2, "DOCTOR", "a"), S(2, 4, "HOSPITAL", "b")]
    both = [(0, 2, "DOCTOR", "a"), (2, 4, "HOSPITAL", "b")]
    result = _all(spans)
    assert result["extend"] == result["classic"] == result["union"] == both
    # Touching is not overlapping: each run has one source only.
    assert result["vote"] == []
    assert _out(merge_vote(spans, AB, min_votes=1)) == both


def test_identical_spans_from_two_sources():
    spans = [S(1, 3, "DATE", "b", 0.8), S(1, 3, "DATE", "a", 0.6)]
    for strategy in STRATEGIES:
        (merged,) = merge_sources(spans, AB, strategy=strategy)
        assert (merged.start, merged.end, merged.label) == (1, 3, "DATE")
        assert merged.source == "a"
        assert merged.sources == ("a", "b")
        assert merged.score == pytest.approx(0.8)


def test_same_offsets_different_labels_take_the_earlier_source():
    spans = [S(1, 3, "AGE", "b"), S(1, 3, "DATE", "a")]
    for strategy in STRATEGIES:
        assert _out(merge_sources(spans, AB, strategy=strategy)) == [(1, 3, "DATE", "a")]


def test_source_overlapping_itself_longer_then_earlier_wins():
    spans = [S(0, 2, "DATE", "a"), S(1, 4, "PHONE", "a")]
    result = _all(spans, min_votes=1)
    assert result["classic"] == [(1, 4, "PHONE", "a")]
    assert result["extend"] == [(0, 4, "PHONE", "a")]
    assert result["union"] == [(0, 4, "PHONE", "a")]
    assert result["vote"] == [(1, 4, "PHONE", "a")]
    # Same length: the earlier span wins.
    tie = [S(1, 3, "CITY", "a"), S(0, 2, "STATE", "a")]
    assert _out(merge_priority(tie, AB, extend=False)) == [(0, 2, "STATE", "a")]
    # A source overlapping itself is one vote, not two.
    assert merge_vote(spans, AB, min_votes=2) == []


def test_extend_gives_a_gap_to_the_better_ranked_neighbour():
    spans = [
        S(0, 1, "PATIENT", "a"),
        S(3, 5, "CITY", "a"),
        S(0, 4, "HOSPITAL", "b"),
    ]
    # The gap 1-3 of the HOSPITAL span touches both kept spans: the longer
    # CITY span ranks better and is widened.
    assert _out(merge_priority(spans, AB)) == [
        (0, 1, "PATIENT", "a"),
        (1, 5, "CITY", "a"),
    ]
    assert _out(merge_priority(spans, AB, extend=False)) == [
        (0, 1, "PATIENT", "a"),
        (3, 5, "CITY", "a"),
    ]
    assert _out(merge_union(spans, AB)) == [(0, 5, "CITY", "a")]


def test_extend_chains_through_widened_spans():
    spans = [S(2, 3, "DATE", "a"), S(1, 4, "DATE", "b"), S(3, 6, "AGE", "c")]
    assert _out(merge_priority(spans, ["a", "b", "c"])) == [(1, 6, "DATE", "a")]
    # Classic priority: the dropped "b" span no longer links "a" and "c".
    assert _out(merge_priority(spans, ["a", "b", "c"], extend=False)) == [
        (2, 3, "DATE", "a"),
        (3, 6, "AGE", "c"),
    ]


def test_protected_span_is_kept_whole_and_wins():
    spans = [S(0, 3, "PATIENT", "a"), S(2, 5, "PHONE", "b")]
    result = _all(spans, protected=["PHONE"])
    assert result["classic"] == [(2, 5, "PHONE", "b")]
    assert result["vote"] == [(2, 5, "PHONE", "b")]
    # The part of the losing span outside the protected one is kept.
    assert result["extend"] == [(0, 2, "PATIENT", "a"), (2, 5, "PHONE", "b")]
    assert result["union"] == [(0, 2, "PATIENT", "a"), (2, 5, "PHONE", "b")]


def test_protected_span_is_not_widened_but_others_are():
    spans = [
        S(2, 4, "PHONE", "a"),
        S(4, 5, "DOCTOR", "a"),
        S(1, 7, "PATIENT", "b"),
    ]
    assert _out(merge_priority(spans, AB, protected=["PHONE"])) == [
        (1, 2, "PATIENT", "b"),
        (2, 4, "PHONE", "a"),
        (4, 7, "DOCTOR", "a"),
    ]


def test_overlapping_protected_spans_are_joined():
    spans = [S(0, 2, "SSN", "b"), S(1, 3, "SSN", "a"), S(2, 4, "DATE", "a")]
    for strategy in STRATEGIES:
        out = merge_sources(spans, AB, strategy=strategy, protected=["SSN"])
        assert _out(out)[0] == (0, 3, "SSN", "a")
        assert out[0].sources == ("a", "b")


def test_vote_min_votes_and_boundaries_of_the_top_source():
    sources = ["a", "b", "c"]
    spans = [
        S(1, 2, "PATIENT", "b"),
        S(0, 3, "DOCTOR", "c"),
        S(5, 6, "DATE", "a"),
        S(5, 7, "DATE", "c"),
        S(9, 10, "CITY", "c"),
    ]
    assert _out(merge_vote(spans, sources, min_votes=2)) == [
        (1, 2, "PATIENT", "b"),
        (5, 6, "DATE", "a"),
    ]
    assert _out(merge_vote(spans, sources, min_votes=3)) == []
    assert _out(merge_vote(spans, sources, min_votes=1)) == [
        (1, 2, "PATIENT", "b"),
        (5, 6, "DATE", "a"),
        (9, 10, "CITY", "c"),
    ]
    three = spans + [S(0, 1, "PATIENT", "a")]
    out = merge_vote(three, sources, min_votes=3)
    # The top source ("a") has one span in the run 0-3: its boundaries win,
    # the run's provenance is kept.
    assert _out(out) == [(0, 1, "PATIENT", "a")]
    assert out[0].sources == ("a", "b", "c")


def test_vote_top_source_overlapping_itself():
    spans = [S(0, 2, "DATE", "a"), S(1, 4, "DATE", "a"), S(0, 4, "AGE", "b")]
    assert _out(merge_vote(spans, AB)) == [(1, 4, "DATE", "a")]


def test_provenance_and_scores():
    sources = ["z", "a"]
    spans = [
        S(0, 2, "DATE", "z", None),
        S(1, 3, "DATE", "a", 0.4),
        S(1, 2, "DATE", "a", 0.7),
        S(5, 6, "CITY", "z"),
    ]
    first, second = merge_priority(spans, sources)
    assert (first.start, first.end, first.source) == (0, 3, "z")
    assert first.sources == ("a", "z")
    assert first.score == pytest.approx(0.7)
    assert first.members == (0, 1, 2)
    assert (second.sources, second.score, second.members) == (("z",), None, (3,))
    classic = merge_priority(spans, sources, extend=False)
    # The beaten spans are still in the run of the span that beat them.
    assert classic[0].sources == ("a", "z")
    assert classic[0].score == pytest.approx(0.7)


def test_result_does_not_depend_on_input_order():
    rng = random.Random(7)
    spans = [
        S(0, 2, "DATE", "a", 0.5),
        S(0, 2, "AGE", "a", 0.5),
        S(0, 2, "CITY", "a", 0.9),
        S(1, 3, "DATE", "b", 0.2),
        S(1, 3, "DATE", "b", 0.3),
        S(4, 6, "PHONE", "b"),
        S(5, 7, "PATIENT", "a"),
    ]

    def strip(merged):
        return [m[:6] for m in merged]

    for strategy in STRATEGIES:
        expected = strip(merge_sources(spans, AB, strategy=strategy))
        for _ in range(10):
            shuffled = rng.sample(spans, len(spans))
            assert strip(merge_sources(shuffled, AB, strategy=strategy)) == expected
    # Same offsets, same source: the higher score, then the label, decides.
    assert _out(merge_priority(spans[:3], AB)) == [(0, 2, "CITY", "a")]
    assert _out(merge_priority(spans[:2], AB)) == [(0, 2, "AGE", "a")]


def test_empty_input():
    for strategy in STRATEGIES:
        assert merge_sources([], AB, strategy=strategy) == []


@pytest.mark.parametrize(
    "spans,sources,message",
    [
        ([S(0, 1, "DATE", "c")], AB, "not in sources"),
        ([S(2, 2, "DATE", "a")], AB, "invalid offsets"),
        ([S(-1, 2, "DATE", "a")], AB, "invalid offsets"),
        ([S(0, 1, "", "a")], AB, "no label"),
        ([], ["a", "a"], "repeat"),
    ],
)
def test_invalid_input_raises(spans, sources, message):
    for strategy in STRATEGIES:
        with pytest.raises(ValueError, match=message):
            merge_sources(spans, sources, strategy=strategy)


def test_invalid_strategy_and_min_votes():
    with pytest.raises(ValueError, match="strategy"):
        merge_sources([], AB, strategy="max")
    for votes in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="min_votes"):
            merge_vote([], AB, min_votes=votes)
