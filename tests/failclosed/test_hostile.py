"""Hostile input: odd bytes and characters, huge, empty and ill-typed records.
Each is handled on its own, named by id or line only, with exact offsets."""

import json
import time

import pytest

import spacy_deid
from spacy_deid.io.records import Record, Rejected, read_records
from spacy_deid.run.runner import Result, deidentify_items

PHI_NOTE = "Seen on 09/14/2067 by Dr. Whalen, MRN 7194334."


def _run(nlp, items, **kwargs):
    nlp.get_pipe("phi_surrogates").set_key(b"hostile-input-test-key-0123456789")
    return list(deidentify_items(nlp, items, **kwargs))


def _check_offsets(text, result, expected):
    """Every expected PHI string is covered by a span with exact offsets, and
    is gone from the output."""
    found = {text[s["start"] : s["end"]] for s in result.spans}
    for phi in expected:
        assert any(phi in f for f in found), (phi, found)
        assert phi not in result.text


def _write_jsonl(path, records, newline="\n", bom=False):
    data = newline.join(json.dumps(r, ensure_ascii=False) for r in records) + newline
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data.encode("utf8"))
    return path


@pytest.mark.parametrize(
    "text",
    [
        "Seen on 09/14/2067\r\nby Dr. Whalen,\r\nMRN 7194334.",
        "Seen on 09/14/2067\rby Dr. Whalen,\rMRN 7194334.",
        "Seen on 09/14/2067\x00 by Dr. Whalen,\x07\x1b MRN 7194334.\x7f",
        "Seen\u200b on 09/14/2067 by Dr. Whalen,\u200d\ufeff MRN 7194334.",
        "患者 Seen on 09/14/2067 by Dr. Whalen, МРН MRN 7194334. 😀 مريض",
        "Seen on\t09/14/2067\tby Dr. Whalen,\t\tMRN 7194334.",
    ],
    ids=["crlf", "lone_cr", "controls", "zero_width", "non_latin", "tabs"],
)
def test_odd_characters_keep_offsets(nlp_rules, text):
    records = [
        Record(0, "before", PHI_NOTE),
        Record(1, "odd", text),
        Record(2, "after", PHI_NOTE),
    ]
    outs = _run(nlp_rules, records)
    assert all(isinstance(o, Result) for o in outs), [
        getattr(o, "error", "") for o in outs
    ]
    _check_offsets(text, outs[1], ["09/14/2067", "Whalen", "7194334"])
    assert outs[0].to_dict()["spans"] == outs[2].to_dict()["spans"]


@pytest.mark.parametrize("text", ["", "   \n\t \r\n ", "0123456789 42"])
def test_empty_whitespace_digits(nlp_rules, text):
    outs = _run(nlp_rules, [Record(0, "a", text), Record(1, "b", PHI_NOTE)])
    assert isinstance(outs[0], Result) and outs[0].id == "a"
    if not text.strip():
        assert outs[0].text == text and outs[0].spans == []
    for span in outs[0].spans:
        assert 0 <= span["start"] < span["end"] <= len(text)
    assert isinstance(outs[1], Result) and "Whalen" not in outs[1].text


def test_bom_crlf_jsonl_file(tmp_path, nlp_rules):
    path = _write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": "a", "text": PHI_NOTE}, {"id": "b", "text": "ok\r\n"}],
        newline="\r\n",
        bom=True,
    )
    items = list(read_records(path))
    assert [(type(i).__name__, i.id, i.line) for i in items] == [
        ("Record", "a", 1),
        ("Record", "b", 2),
    ]
    assert items[0].text == PHI_NOTE and items[1].text == "ok\r\n"
    outs = _run(nlp_rules, items)
    _check_offsets(PHI_NOTE, outs[0], ["Whalen", "7194334"])
    assert outs[1].text == "ok\r\n"


def test_bom_text_folder(tmp_path, nlp_rules):
    (tmp_path / "a.txt").write_bytes(b"\xef\xbb\xbf" + PHI_NOTE.encode("utf8"))
    (tmp_path / "b.txt").write_bytes(b"\xff\xfeBad")
    items = list(read_records(tmp_path))
    assert isinstance(items[0], Record) and items[0].text == PHI_NOTE
    assert isinstance(items[1], Rejected) and items[1].id == "b"
    assert items[1].error.startswith("InvalidUTF8")


def test_invalid_bytes_and_stray_lines(tmp_path):
    path = tmp_path / "in.jsonl"
    good = json.dumps({"id": "ok", "text": "Dr. Whalen"}).encode()
    path.write_bytes(
        b'{"id": "x", "text": "Dr. Wh\xff"}\n' + good + b'\n\x00\x00\n{"id\r\n'
    )
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == [
        "Rejected",
        "Record",
        "Rejected",
        "Rejected",
    ]
    assert [i.line for i in items] == [1, 2, 3, 4]
    for item in items:
        if isinstance(item, Rejected):
            assert "Whalen" not in item.error and "Wh" not in item.error


@pytest.mark.parametrize(
    "record,error",
    [
        ({"id": 1.5, "text": "x"}, "'id' is not a string or integer"),
        ({"id": ["a"], "text": "x"}, "'id' is not a string or integer"),
        ({"id": True, "text": "x"}, "'id' is not a string or integer"),
        ({"id": None, "text": "x"}, "'id' is not a string or integer"),
        ({"id": "p", "text": "x", "patient": {"n": 1}}, "'patient' is not"),
        ({"id": "p", "text": "x", "patient": 2.5}, "'patient' is not"),
        ({"id": "p", "text": ["Dr. Whalen"]}, "'text' is list, not a string"),
        ({"id": "p", "text": None}, "'text' is NoneType"),
        (["Dr. Whalen"], "not a JSON object"),
    ],
)
def test_wrong_json_types(tmp_path, record, error):
    path = _write_jsonl(tmp_path / "in.jsonl", [record, {"id": "ok", "text": "x"}])
    items = list(read_records(path))
    assert isinstance(items[0], Rejected) and error in items[0].error
    assert items[0].line == 1 and "Whalen" not in items[0].error
    if isinstance(record, dict) and record.get("id") == "p":
        assert items[0].id == "p"
    assert isinstance(items[1], Record) and items[1].id == "ok"


def test_integer_ids_and_patients(tmp_path):
    path = _write_jsonl(tmp_path / "in.jsonl", [{"id": 7, "text": "x", "patient": 3}])
    (item,) = read_records(path)
    assert isinstance(item, Record) and (item.id, item.patient) == ("7", "3")


def test_duplicate_ids_are_both_processed(nlp_rules):
    """Duplicate ids are processed both, in input order (the output keeps
    the input order, so rows stay distinguishable by position)."""
    records = [Record(0, "dup", PHI_NOTE), Record(1, "dup", "MRN 7194334")]
    outs = _run(nlp_rules, records)
    assert [(type(o).__name__, o.id, o.index) for o in outs] == [
        ("Result", "dup", 0),
        ("Result", "dup", 1),
    ]
    assert "7194334" not in outs[1].text


def test_note_longer_than_max_length_is_done_in_pieces(nlp_rules):
    """A note over `max_length` is no longer rejected: it is de-identified in
    pieces, and "redact-all" changes nothing for it."""
    text = "Dr. Whalen. " * (nlp_rules.max_length // 12 + 1)
    records = [Record(0, "big", text), Record(1, "b", PHI_NOTE)]
    outs = _run(nlp_rules, records)
    assert [type(o).__name__ for o in outs] == ["Result", "Result"]
    assert "Whalen" not in outs[0].text and len(outs[0].spans) == text.count("Whalen")
    assert _run(nlp_rules, records, on_error="redact-all") == outs


@pytest.mark.slow
def test_five_megabyte_note():
    """A 5M-character note with the default `max_length` (1,000,000) goes
    through in pieces. Its units have no line break and no sentence end, so
    the pieces are cut at spaces between and inside PHI strings ("Dr. |
    Whalen", "MRN | 7194334"): every PHI string is still found whole."""
    nlp = spacy_deid.load("en_rules")
    unit = "seen on 09/14/2067 by Dr. Whalen MRN 7194334 call 617-555-0199 "
    text = unit * (5_000_000 // len(unit) + 1)
    assert len(text) > 5 * nlp.max_length
    start = time.perf_counter()
    (out,) = _run(nlp, [Record(0, "big", text)])
    elapsed = time.perf_counter() - start
    assert isinstance(out, Result), out
    assert len(text) >= 5_000_000 and elapsed < 300
    n_units = text.count(unit)
    by_label = {}
    for span in out.spans:
        by_label.setdefault(text[span["start"] : span["end"]], []).append(span)
    for phi in ("09/14/2067", "Whalen", "7194334", "617-555-0199"):
        assert len(by_label.get(phi, [])) == n_units, phi
        assert phi not in out.text
    # The last unit's offsets are exact too.
    last = max(out.spans, key=lambda s: s["start"])
    assert text[last["start"] : last["end"]] == "617-555-0199"
