import pytest

from spacy_deid.surrogates.offsets import (
    apply_replacements,
    map_in_to_out,
    map_out_to_in,
    map_span_in_to_out,
    map_span_out_to_in,
)

from .conftest import deidentify

TEXT = "Pt John Smith seen 09/14/2067 at MGH, call 617-555-1234."
PHI = [
    ("John Smith", "PATIENT"),
    ("09/14/2067", "DATE"),
    ("MGH", "HOSPITAL"),
    ("617-555-1234", "PHONE"),
]


def test_apply_replacements():
    out, omap = apply_replacements("abcdefgh", [(1, 3, "XYZW"), (5, 6, "")])
    assert out == "aXYZWdegh"
    assert omap == [[1, 3, 1, 5], [5, 6, 7, 7]]


def test_apply_replacements_rejects_overlap():
    with pytest.raises(ValueError):
        apply_replacements("abcdef", [(1, 4, "x"), (3, 5, "y")])


def test_map_offsets_both_ways():
    omap = [[2, 4, 2, 7], [6, 9, 9, 10]]
    # before any region
    assert map_in_to_out(omap, 1) == 1 and map_out_to_in(omap, 1) == 1
    # region starts and ends
    assert map_in_to_out(omap, 2) == 2 and map_in_to_out(omap, 4) == 7
    assert map_out_to_in(omap, 7) == 4 and map_out_to_in(omap, 9) == 6
    # inside a region
    assert map_in_to_out(omap, 3) == 2 and map_in_to_out(omap, 3, "right") == 7
    assert map_out_to_in(omap, 5) == 2 and map_out_to_in(omap, 5, "right") == 4
    # between and after regions
    assert map_in_to_out(omap, 5) == 8 and map_out_to_in(omap, 8) == 5
    assert map_in_to_out(omap, 12) == 13 and map_out_to_in(omap, 13) == 12
    assert map_span_in_to_out(omap, 3, 7) == (2, 10)
    assert map_span_out_to_in(omap, 3, 9) == (2, 6)
    assert map_in_to_out([], 5) == 5


@pytest.mark.parametrize("config", [{}, {"mode": "redact"}, {"mode": "tag"}])
def test_offset_map_realigns_every_span(config):
    from .conftest import make_nlp

    nlp = make_nlp(**config)
    doc = deidentify(nlp, TEXT, PHI)
    out, omap = doc._.deidentified, doc._.offset_map
    assert len(omap) == len(doc.ents)
    prev_in = prev_out = 0
    for ent, (i_s, i_e, o_s, o_e) in zip(doc.ents, omap, strict=True):
        assert doc.text[i_s:i_e] == ent.text
        assert out[o_s:o_e] == ent._.surrogate
        # untouched text between spans is identical
        assert doc.text[prev_in:i_s] == out[prev_out:o_s]
        assert map_in_to_out(omap, i_s) == o_s
        assert map_in_to_out(omap, i_e) == o_e
        assert map_out_to_in(omap, o_s) == i_s
        assert map_out_to_in(omap, o_e) == i_e
        prev_in, prev_out = i_e, o_e
    assert doc.text[prev_in:] == out[prev_out:]
    assert all(isinstance(entry, list) for entry in omap)


def test_every_unchanged_offset_maps_back(nlp):
    doc = deidentify(nlp, TEXT, PHI)
    out, omap = doc._.deidentified, doc._.offset_map
    inside = {i for i_s, i_e, _, _ in omap for i in range(i_s, i_e)}
    for i, char in enumerate(doc.text):
        if i not in inside:
            j = map_in_to_out(omap, i)
            assert out[j] == char
            assert map_out_to_in(omap, j) == i
