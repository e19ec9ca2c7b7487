"""Notes longer than the pipeline's `max_length`, de-identified in pieces
(`spacy_deid.run.pieces`): windows that overlap, cuts at safe boundaries,
the same surrogates as a whole pass, consistency across pieces, fail closed."""

import spacy
import spacy_deid
import pytest

from spacy_deid.io.records import Record, Rejected
from spacy_deid.run import pieces
from spacy_deid.run.runner import Result, deidentify_items

from .conftest import SESSION_KEY

UNIT = (
    "Seen by Dr. Whalen on 09/14/2067 in clinic. Call 617-555-0199 for results.\n\n"
    "MRN 7194334 was checked by the front desk staff.\n"
)


def _run(nlp, records, **kwargs):
    return list(deidentify_items(nlp, records, **kwargs))


@pytest.fixture
def small_pieces(nlp_rules):
    """`en_rules` with a `max_length` of 2,000 characters, restored after."""
    before = nlp_rules.max_length
    nlp_rules.max_length = 2_000
    yield nlp_rules
    nlp_rules.max_length = before


def test_windows_cover_the_text_with_overlaps_at_boundaries():
    text = UNIT * 200
    bounds = pieces.windows(text, 2_000, overlap=300)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    for (start, end), (next_start, _) in zip(bounds[:-1], bounds[1:], strict=True):
        assert end - start <= 2_000
        assert end - next_start >= 300  # they overlap
        assert next_start > start
        # A blank line is the preferred cut, and there is one near every end.
        assert text[end - 2 : end] == "\n\n"


def test_windows_without_boundaries_cut_at_spaces_or_hard():
    text = "word " * 1000
    bounds = pieces.windows(text, 1_000, overlap=100)
    assert all(text[end - 1] == " " for _, end in bounds[:-1])
    solid = "x" * 5_000
    bounds = pieces.windows(solid, 1_000, overlap=100)
    assert bounds[0] == (0, 1_000) and bounds[-1][1] == 5_000


def test_own_parts_split_each_overlap_at_its_midpoint():
    parts = pieces.own_parts([(0, 100), (80, 200), (180, 250)])
    assert parts == [(0, 90), (90, 190), (190, 250)]


def test_resolve_keeps_the_longer_of_two_overlapping_spans():
    found = [
        pieces.Found(10, 20, "DOCTOR", None, "rules:a", None),
        pieces.Found(12, 25, "PATIENT", None, "ner", 0.9),
        pieces.Found(30, 34, "DATE", None, "rules:b", None),
    ]
    out = pieces.resolve(found)
    assert [(f.start, f.end, f.label) for f in out] == [
        (10, 25, "PATIENT"),
        (30, 34, "DATE"),
    ]


def test_segment_cuts_never_split_an_entity():
    found = [pieces.Found(95, 105, "DATE", None, None, None)]
    text = "x" * 300
    cuts = pieces.segment_cuts(text, [(0, 100), (100, 200), (200, 300)], found)
    assert cuts == [105, 200]


def test_pieces_give_the_output_of_a_whole_pass(nlp_rules, small_pieces):
    """The rules find the same spans in pieces as in one doc, and the keyed
    surrogates are the same: the output is identical."""
    text = UNIT * 60  # about 7,800 characters: four windows
    record = Record(0, "n", text, "p1")
    (cut,) = _run(small_pieces, [record])
    small_pieces.max_length = len(text)
    (whole,) = _run(small_pieces, [record])
    assert isinstance(cut, Result) and isinstance(whole, Result)
    assert cut.spans == whole.spans
    assert cut.text == whole.text
    assert "Whalen" not in cut.text and "7194334" not in cut.text


def test_offsets_in_the_output_line_up(small_pieces):
    text = UNIT * 40
    (out,) = _run(small_pieces, [Record(0, "n", text)], with_offsets=True)
    assert isinstance(out, Result)
    for span in out.spans:
        assert span["end"] - span["start"] > 0
        replaced = out.text[span["out_start"] : span["out_end"]]
        assert replaced and replaced != text[span["start"] : span["end"]]


def test_phi_cut_by_every_window_edge_is_found_whole(small_pieces):
    """Units without line breaks or sentence ends: windows are cut at spaces,
    between a title and its name and next to every number."""
    unit = "seen by Dr. Whalen MRN 7194334 call 617-555-0199 on 09/14/2067 "
    text = unit * 200
    (out,) = _run(small_pieces, [Record(0, "n", text)])
    assert isinstance(out, Result)
    found = [text[s["start"] : s["end"]] for s in out.spans]
    for phi in ("Whalen", "7194334", "617-555-0199", "09/14/2067"):
        assert found.count(phi) == 200, phi
        assert phi not in out.text


def test_consistency_holds_across_pieces():
    """A name found after a title in the first piece is marked where it stands
    alone in the last piece (`phi_consistency` collects from every window)."""
    nlp = spacy_deid.load("en_rules")
    nlp.add_pipe("phi_consistency", before="phi_surrogates", config={"scope": "doc"})
    nlp.get_pipe("phi_surrogates").set_key(SESSION_KEY)
    nlp.max_length = 2_000
    filler = "The wound was dressed and the plan was reviewed with nursing.\n\n" * 60
    text = "Seen by Dr. Whalen today.\n\n" + filler + "Whalen will follow up.\n"
    (out,) = _run(nlp, [Record(0, "n", text)])
    assert isinstance(out, Result)
    assert [text[s["start"] : s["end"]] for s in out.spans] == ["Whalen", "Whalen"]
    assert "Whalen" not in out.text


@spacy.Language.component("test_raise_on_piece_mark")
def _raise_on_mark(doc):
    if "RAISEHERE" in doc.text:
        raise ValueError("fails")
    return doc


def test_a_failing_piece_rejects_only_its_note(nlp_rules):
    nlp = spacy_deid.load("en_rules")
    nlp.add_pipe("test_raise_on_piece_mark", first=True)
    nlp.get_pipe("phi_surrogates").set_key(SESSION_KEY)
    nlp.max_length = 2_000
    bad = UNIT * 30 + "RAISEHERE Whalen\n" + UNIT * 30
    records = [Record(0, "bad", bad), Record(1, "good", UNIT * 30)]
    outs = _run(nlp, records)
    assert isinstance(outs[0], Rejected) and "Whalen" not in outs[0].error
    assert isinstance(outs[1], Result) and "Whalen" not in outs[1].text
    (redacted, _) = _run(nlp, records, on_error="redact-all")
    assert redacted.redacted_all and "Whalen" not in redacted.text


def test_long_notes_in_worker_processes(small_pieces):
    records = [Record(i, str(i), UNIT * 30, "p") for i in range(3)]
    one = _run(small_pieces, records)
    two = _run(small_pieces, records, n_process=2, batch_size=1)
    assert one == two and all(isinstance(o, Result) for o in one)
