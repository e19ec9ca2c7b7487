import types

import pytest

from spacy_deid.corpus import (
    CorpusError,
    Note,
    PhiSpan,
    detect_format,
    read_brat_dir,
    read_i2b2_dir,
    read_i2b2_file,
    read_jsonl,
    read_notes,
    write_brat_dir,
    write_i2b2_dir,
    write_jsonl,
    write_notes,
)
from spacy_deid.corpus.brat import read_brat_note
from spacy_deid.corpus.i2b2 import parse_i2b2, to_i2b2_xml

I2B2_SAMPLE = (
    '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA['
    "Record date: 2067-05-03\r\nLives near the old mill.]]></TEXT>\n<TAGS>\n"
    '<DATE id="P0" start="13" end="23" text="2067-05-03" TYPE="DATE" comment="" />\n'
    '<LOCATION id="P1" start="40" end="48" text="old mill" TYPE="LOCATION-OTHER" '
    'comment="" />\n</TAGS>\n</deIdi2b2>\n'
)


def _same(a, b):
    assert [n.id for n in a] == [n.id for n in b]
    for x, y in zip(a, b, strict=True):
        assert x.text == y.text
        assert sorted(x.spans) == sorted(y.spans)


def test_i2b2_sample_parses(tmp_path):
    path = tmp_path / "110-02.xml"
    path.write_bytes(I2B2_SAMPLE.encode("utf-8"))
    note = read_i2b2_file(path)
    assert note.id == "110-02" and note.patient == "110"
    assert "\r\n" in note.text
    assert note.spans == [PhiSpan(13, 23, "DATE"), PhiSpan(40, 48, "LOCATION_OTHER")]
    assert note.text[40:48] == "old mill"


def test_round_trip_all_formats(tmp_path, notes):
    write_jsonl(notes, tmp_path / "a.jsonl")
    write_i2b2_dir(read_jsonl(tmp_path / "a.jsonl"), tmp_path / "xml")
    write_brat_dir(read_i2b2_dir(tmp_path / "xml"), tmp_path / "brat")
    write_jsonl(read_brat_dir(tmp_path / "brat"), tmp_path / "b.jsonl")
    back = sorted(read_jsonl(tmp_path / "b.jsonl"), key=lambda n: n.id)
    _same(sorted(notes, key=lambda n: n.id), back)
    # the i2b2 file name gives the patient id
    assert {n.id: n.patient for n in read_i2b2_dir(tmp_path / "xml")}["110-01"] == "110"


def test_i2b2_cdata_terminator_and_crlf_kept(notes):
    note = notes[1]
    assert "]]>" in note.text
    xml = to_i2b2_xml(note)
    assert "]]]]><![CDATA[>" in xml
    back = parse_i2b2(xml, note.id)
    assert back.text == note.text and back.spans == sorted(note.spans)
    crlf = parse_i2b2(to_i2b2_xml(notes[0]), "x")
    assert crlf.text == notes[0].text


def test_i2b2_escaped_text_without_cdata():
    raw = (
        "<deIdi2b2><TEXT>a &lt;b&gt; &amp; Kim</TEXT><TAGS>"
        '<NAME id="P0" start="8" end="11" text="Kim" TYPE="PATIENT" />'
        "</TAGS></deIdi2b2>"
    )
    note = parse_i2b2(raw, "esc")
    assert note.text == "a <b> & Kim"
    assert note.spans == [PhiSpan(8, 11, "PATIENT")]


@pytest.mark.parametrize(
    "tag,problem",
    [
        ('start="13" end="99" text="x"', "out of range"),
        ('start="20" end="13" text="x"', "smaller than end"),
        ('start="13" end="23" text="2067-05-04"', "does not match"),
        ('start="a" end="23"', "non-integer"),
    ],
)
def test_i2b2_validation_errors_name_note_not_text(tag, problem):
    raw = I2B2_SAMPLE.replace('start="13" end="23" text="2067-05-03"', tag)
    with pytest.raises(CorpusError) as info:
        parse_i2b2(raw, "secret-note")
    message = str(info.value)
    assert "secret-note" in message and problem in message
    assert "2067" not in message and "mill" not in message


def test_i2b2_rejects_illegal_xml_character():
    note = Note("bad", "A\x01B", [PhiSpan(0, 1, "PATIENT")])
    with pytest.raises(CorpusError, match="U\\+0001"):
        to_i2b2_xml(note)


def test_brat_discontinuous_split_and_cover(tmp_path):
    (tmp_path / "d1.txt").write_text("Jo Ann Smith here", encoding="utf-8")
    (tmp_path / "d1.ann").write_text(
        "T1\tPATIENT 0 2;7 12\tJo Smith\n#1\tAnnotatorNotes T1\tnote\n"
        "T2\tDATE 13 17\there\nA1\tNegated T2\n",
        encoding="utf-8",
    )
    split = read_brat_note(tmp_path / "d1.txt")
    assert split.spans == [
        PhiSpan(0, 2, "PATIENT"),
        PhiSpan(7, 12, "PATIENT"),
        PhiSpan(13, 17, "DATE"),
    ]
    cover = read_brat_note(tmp_path / "d1.txt", discontinuous="cover")
    assert cover.spans[0] == PhiSpan(0, 12, "PATIENT")


def test_brat_surface_mismatch_and_missing_ann(tmp_path):
    (tmp_path / "x.txt").write_text("Kim", encoding="utf-8")
    (tmp_path / "x.ann").write_text("T1\tPATIENT 0 3\tTom\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="'x'"):
        read_brat_note(tmp_path / "x.txt")
    (tmp_path / "y.txt").write_text("nothing", encoding="utf-8")
    assert read_brat_note(tmp_path / "y.txt").spans == []


def test_brat_keeps_bom_and_crlf(tmp_path):
    note = Note("bom", "\ufeffLine\r\nKim Lee", [PhiSpan(7, 14, "PATIENT")])
    write_brat_dir([note], tmp_path)
    back = read_brat_note(tmp_path / "bom.txt")
    assert back.text == note.text and back.spans == note.spans


def test_jsonl_streams_and_reports_bad_lines(tmp_path, notes):
    path = tmp_path / "n.jsonl"
    write_jsonl(notes, path)
    assert isinstance(read_jsonl(path), types.GeneratorType)
    path.write_text(path.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="line 4"):
        list(read_jsonl(path))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"id": "n1", "text": "abc", "spans": [{"start": 2, '
        '"end": 9, "label": "DATE"}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(CorpusError, match="Note 'n1', span 0"):
        list(read_jsonl(bad))
    assert len(list(read_jsonl(bad, validate=False))) == 1


def test_detect_format_and_generic_io(tmp_path, notes):
    write_notes(notes, tmp_path / "x", "i2b2")
    write_notes(notes, tmp_path / "b", "brat")
    assert detect_format(tmp_path / "x") == "i2b2"
    assert detect_format(tmp_path / "b") == "brat"
    assert detect_format(tmp_path / "out.jsonl", for_output=True) == "jsonl"
    assert detect_format(tmp_path / "out.spacy", for_output=True) == "spacy"
    with pytest.raises(CorpusError):
        detect_format(tmp_path / "unknown.txt", for_output=True)
    _same(sorted(notes, key=lambda n: n.id), list(read_notes(tmp_path / "b")))


def test_unsafe_note_id_rejected(tmp_path):
    with pytest.raises(CorpusError, match="file name"):
        write_i2b2_dir([Note("../evil", "x")], tmp_path)


def test_single_xml_file_output(tmp_path, notes):
    assert write_notes(notes[:1], tmp_path / "one.xml") == 1
    assert read_i2b2_file(tmp_path / "one.xml").text == notes[0].text
    with pytest.raises(CorpusError, match="more than one note"):
        write_notes(notes, tmp_path / "two.xml")
