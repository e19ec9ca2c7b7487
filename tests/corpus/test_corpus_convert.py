"""Conversion: tokenizer choice, atomic writes, empty input, unknown labels."""

import warnings

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus import (
    CorpusError,
    Note,
    PhiSpan,
    UnknownLabelWarning,
    convert,
    make_converter_nlp,
    read_docbin,
    read_i2b2_dir,
    read_jsonl,
    write_brat_dir,
    write_i2b2_dir,
    write_jsonl,
)

SEX_TEXT = "Paciente de 53 años. Sexo: H. Vive en Soria."
SEX_NOTE = Note(
    "s1",
    SEX_TEXT,
    [
        PhiSpan(12, 19, "EDAD_SUJETO_ASISTENCIA"),
        PhiSpan(27, 28, "SEXO_SUJETO_ASISTENCIA"),
    ],
)
SECRET = "Zorba Quill"


def _no_tmp(path):
    return not any(p.name.endswith(".tmp") for p in path.rglob("*"))


@pytest.mark.parametrize("lang", ["en", "es", "xx"])  # fr builds too, slowly
def test_clinical_tokenizer_for_every_language(lang):
    nlp = make_converter_nlp(lang)
    assert nlp.lang == lang
    assert [t.text for t in nlp.make_doc("Sexo: H.")] == ["Sexo", ":", "H", "."]


def test_default_tokenizer_on_request_and_bad_choice():
    nlp = make_converter_nlp("es", tokenizer="default")
    assert "H." in [t.text for t in nlp.make_doc("Sexo: H.")]
    with pytest.raises(ValueError, match="tokenizer"):
        make_converter_nlp("es", tokenizer="nope")


def test_spanish_spacy_output_aligns_with_clinical_tokenizer(tmp_path):
    write_jsonl([SEX_NOTE], tmp_path / "es.jsonl")
    result = convert(tmp_path / "es.jsonl", tmp_path / "es.spacy", lang="es")
    assert result["alignment"]["misaligned"] == 0
    with pytest.warns(Warning):
        default = convert(
            tmp_path / "es.jsonl", tmp_path / "d.spacy", lang="es", tokenizer="default"
        )
    assert default["alignment"]["per_label"]["SEXO_SUJETO_ASISTENCIA"]["misaligned"]
    runner = CliRunner()
    args = ["convert", str(tmp_path / "es.jsonl"), str(tmp_path / "c.spacy")]
    out = runner.invoke(app, args + ["--lang", "es"])
    assert out.exit_code == 0, out.output
    assert "0 misaligned" in out.output
    out = runner.invoke(app, args + ["--lang", "es", "--tokenizer", "default"])
    assert out.exit_code == 0 and "1 misaligned" in out.output
    bad = runner.invoke(app, args + ["--tokenizer", "whitespace"])
    assert bad.exit_code != 0


def test_i2b2_writer_is_atomic_and_names_the_failing_note(tmp_path):
    notes = [
        Note("e0", "Seen by Kim.", [PhiSpan(8, 11, "DOCTOR")]),
        Note("e1", f"{SECRET}\x0cpage two", [PhiSpan(0, 11, "PATIENT")]),
        Note("e2", "Fine.", []),
    ]
    with pytest.raises(CorpusError) as info:
        write_i2b2_dir(notes, tmp_path / "xml")
    message = str(info.value)
    assert "'e1'" in message and "U+000C" in message and "1 notes written" in message
    assert SECRET not in message
    assert sorted(p.name for p in (tmp_path / "xml").iterdir()) == ["e0.xml"]
    assert [n.id for n in read_i2b2_dir(tmp_path / "xml")] == ["e0"]


def test_cli_convert_to_i2b2_leaves_no_partial_file(tmp_path):
    bad = Note("e1", f"{SECRET}\x0cpage two", [PhiSpan(0, 11, "PATIENT")])
    write_jsonl([bad], tmp_path / "in.jsonl")
    out = CliRunner().invoke(
        app,
        ["convert", str(tmp_path / "in.jsonl"), str(tmp_path / "xml"), "--to", "i2b2"],
    )
    assert out.exit_code == 1
    assert "'e1'" in out.output and SECRET not in out.output
    assert list((tmp_path / "xml").glob("*")) == []


def test_brat_writer_is_atomic(tmp_path):
    notes = [Note("b0", "Kim", [PhiSpan(0, 3, "PATIENT")]), Note("b1", "Ki\ud800m")]
    with pytest.raises(CorpusError, match="'b1'.*U\\+D800"):
        write_brat_dir(notes, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b0.ann", "b0.txt"]


def test_jsonl_and_spacy_outputs_are_atomic(tmp_path, notes):
    write_jsonl(notes, tmp_path / "out.jsonl")
    before = (tmp_path / "out.jsonl").read_bytes()

    def failing():
        yield notes[0]
        raise CorpusError("reader failed")

    with pytest.raises(CorpusError, match="reader failed"):
        write_jsonl(failing(), tmp_path / "out.jsonl")
    assert (tmp_path / "out.jsonl").read_bytes() == before
    # an input that breaks half-way: no .jsonl, no .spacy, no temporary files
    src = tmp_path / "in.jsonl"
    src.write_text(before.decode("utf-8") + "{broken\n", encoding="utf-8")
    for name in ("new.jsonl", "new.spacy"):
        with pytest.raises(CorpusError, match="line 4"):
            convert(src, tmp_path / name)
        assert not (tmp_path / name).exists()
    assert _no_tmp(tmp_path)
    convert(tmp_path / "out.jsonl", tmp_path / "ok.spacy")
    assert (tmp_path / "ok.spacy").exists() and _no_tmp(tmp_path)


def test_jsonl_writer_names_unserialisable_note(tmp_path):
    note = Note("m1", "x", meta={"when": object()})
    with pytest.raises(CorpusError, match="'m1'.*JSON"):
        write_jsonl([note], tmp_path / "o.jsonl")
    assert not (tmp_path / "o.jsonl").exists() and _no_tmp(tmp_path)


@pytest.mark.parametrize("fmt", ["i2b2", "brat"])
def test_empty_input_is_an_error(tmp_path, fmt):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CorpusError, match="No notes found in"):
        convert(empty, tmp_path / "o.jsonl", from_format=fmt)
    out = CliRunner().invoke(
        app, ["convert", str(empty), str(tmp_path / "o.jsonl"), "--from", fmt]
    )
    assert out.exit_code == 1
    assert "No notes found in" in out.output and str(empty) in out.output
    assert "Converted 0" not in out.output
    assert not (tmp_path / "o.jsonl").exists()


def test_empty_jsonl_is_an_error(tmp_path):
    (tmp_path / "e.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="e.jsonl"):
        convert(tmp_path / "e.jsonl", tmp_path / "o.spacy")
    assert not (tmp_path / "o.spacy").exists()


def _brat_with_unknown(tmp_path):
    brat = tmp_path / "brat"
    brat.mkdir()
    (brat / "u1.txt").write_text(f"{SECRET} seen today.", encoding="utf-8")
    (brat / "u1.ann").write_text(
        "T1\tFOO 0 5\tZorba\nT2\tPATIENT 6 11\tQuill\nT3\tFOO 12 16\tseen\n",
        encoding="utf-8",
    )
    return brat


@pytest.mark.parametrize("output", ["o.jsonl", "o.spacy"])
def test_unknown_labels_are_counted_and_warned(tmp_path, output):
    brat = _brat_with_unknown(tmp_path)
    with pytest.warns(UnknownLabelWarning) as record:
        result = convert(brat, tmp_path / output)
    assert result["unknown_labels"] == {"FOO": 2}
    message = str(record[0].message)
    assert "FOO (2)" in message and "Zorba" not in message and "seen" not in message


def test_strict_labels_fail_and_write_nothing(tmp_path):
    brat = _brat_with_unknown(tmp_path)
    with pytest.raises(CorpusError, match="'u1'.*'FOO'"):
        convert(brat, tmp_path / "o.jsonl", strict_labels=True)
    assert not (tmp_path / "o.jsonl").exists()
    runner = CliRunner()
    args = ["convert", str(brat), str(tmp_path / "o.spacy")]
    out = runner.invoke(app, args + ["--strict-labels"])
    assert out.exit_code == 1 and "FOO" in out.output and "Zorba" not in out.output
    assert not (tmp_path / "o.spacy").exists()
    out = runner.invoke(app, args)
    assert out.exit_code == 0 and "FOO" in out.output
    # a dict label map's targets count as known
    mapped = convert(brat, tmp_path / "m.jsonl", label_map={"FOO": "THING"})
    assert mapped["unknown_labels"] == {}


def test_known_schemes_do_not_warn(tmp_path):
    note = Note(
        "k",
        "a b c d e",
        [
            PhiSpan(0, 1, "LOCATION-OTHER"),
            PhiSpan(2, 3, "TERRITORIO"),
            PhiSpan(4, 5, "NAME"),
            PhiSpan(6, 7, "OTHER"),
            PhiSpan(8, 9, "patient"),
        ],
    )
    write_jsonl([note], tmp_path / "k.jsonl")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = convert(tmp_path / "k.jsonl", tmp_path / "o.jsonl", strict_labels=True)
    assert result["unknown_labels"] == {}


def test_meta_survives_spacy_round_trip(tmp_path):
    note = Note(
        "n",
        "Kim",
        [PhiSpan(0, 3, "PATIENT")],
        meta={"kind": "ed", "family": ["a", "b"]},
    )
    write_jsonl([note], tmp_path / "n.jsonl")
    convert(tmp_path / "n.jsonl", tmp_path / "n.spacy")
    back = list(read_docbin(tmp_path / "n.spacy"))
    assert back[0].meta == {"kind": "ed", "family": ["a", "b"]}
    convert(tmp_path / "n.spacy", tmp_path / "back.jsonl")
    assert list(read_jsonl(tmp_path / "back.jsonl"))[0].meta == note.meta
