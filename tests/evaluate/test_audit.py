"""`spacy-deid audit`: residual-risk report of de-identified output."""

import csv
import json
import stat
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import audit as audit_cmd  # noqa: F401  (registers the command)
from spacy_deid.cli._app import app
from spacy_deid.core.errors import CorpusError
from spacy_deid.core.types import Note, PhiSpan
from spacy_deid.evaluate.audit import audit, format_audit, group_texts

from ..extras import need

# Fictional notes: (id, text, [(surface, label)]) and their de-identified text.
GOLD = [
    (
        "a",
        "Pt John Smith seen 2020-01-02 at Mercy Hospital by Dr Ann Lee.",
        [
            ("John Smith", "PATIENT"),
            ("2020-01-02", "DATE"),
            ("Mercy Hospital", "HOSPITAL"),
            ("Ann Lee", "DOCTOR"),
        ],
    ),
    (
        "b",
        "Maria Lopez called from 555-0142 on 03/04/2021. Seen by Dr Kevin Park.",
        [
            ("Maria Lopez", "PATIENT"),
            ("555-0142", "PHONE"),
            ("03/04/2021", "DATE"),
            ("Kevin Park", "DOCTOR"),
        ],
    ),
    (
        "c",
        "Dr Helen Ward reviewed the chart of Tom Baker.",
        [("Helen Ward", "DOCTOR"), ("Tom Baker", "PATIENT")],
    ),
    ("d", "Rejected note of Paul Green.", [("Paul Green", "PATIENT")]),
    ("e", "Lost note of Sara Hill.", [("Sara Hill", "PATIENT")]),
]
DEID = {
    # the patient name and the date left (2 HIPAA leaks)
    "a": "Pt John Smith seen 2020-01-02 at [HOSPITAL] by Dr [DOCTOR].",
    # the date and the doctor left (1 HIPAA leak, 2 in all)
    "b": "[PATIENT] called from [PHONE] on 03/04/2021. Seen by Dr Kevin Park.",
    # only the doctor left (not HIPAA)
    "c": "Dr Helen Ward reviewed the chart of [PATIENT].",
    "z": "A record that is not in gold.",
}
PHI_STRINGS = [surface for _, _, spans in GOLD for surface, _ in spans]


def make_note(note_id: str, text: str, spans) -> Note:
    found = []
    for surface, label in spans:
        start = text.index(surface)
        found.append(PhiSpan(start, start + len(surface), label))
    return Note(note_id, text, found)


def gold_notes():
    return [make_note(*row) for row in GOLD]


def write_jsonl(path: Path, records) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


@pytest.fixture
def files(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [n.to_dict() for n in gold_notes()])
    deid = [{"id": i, "text": t, "spans": []} for i, t in DEID.items()]
    deid_path = write_jsonl(tmp_path / "deid.jsonl", deid)
    rejects = [{"id": "d", "line": 4, "error": "DeidCheckError"}]
    rejects_path = write_jsonl(tmp_path / "rejects.jsonl", rejects)
    return gold, deid_path, rejects_path


def invoke(*args: str):
    return CliRunner().invoke(app, ["audit", *map(str, args)])


def rate(leaked: int, total: int) -> dict:
    return {"leaked": leaked, "total": total, "rate": leaked / total}


def assert_no_phi(*outputs: str) -> None:
    for output in outputs:
        for surface in PHI_STRINGS:
            assert surface not in output


def test_audit_counts_and_categories():
    texts = group_texts(DEID.items())
    result = audit(gold_notes(), texts, rejected=["d"])
    assert result["overall"] == {**rate(5, 10), "kept": 0, "outside": 0, "surrogate": 0}
    assert result["hipaa"] == {**rate(3, 6), "kept": 0, "outside": 0, "surrogate": 0}
    assert result["hipaa_leak"] is True
    per_label = result["per_label"]
    assert per_label["PATIENT"]["leaked"] == 1 and per_label["PATIENT"]["total"] == 3
    assert per_label["DATE"]["rate"] == 1.0 and per_label["DATE"]["hipaa"] is True
    assert per_label["DOCTOR"]["leaked"] == 2 and per_label["DOCTOR"]["hipaa"] is False
    assert per_label["HOSPITAL"]["leaked"] == 0 and per_label["PHONE"]["leaked"] == 0
    categories = result["per_hipaa_category"]
    assert list(categories) == ["NAME", "DATE", "CONTACT"]
    assert categories["NAME"] == {**rate(1, 3), "kept": 0, "outside": 0, "surrogate": 0}
    assert categories["CONTACT"]["leaked"] == 0
    assert result["leaked_hipaa_categories"] == ["NAME", "DATE"]
    notes = result["notes"]
    assert notes["gold"] == 5 and notes["audited"] == 3
    assert notes["rejected"] == ["d"] and notes["absent"] == ["e"]
    assert notes["extra"] == ["z"] and notes["repeated"] == []
    assert result["unknown_labels"] == [] and result["contains_text"] is False


def test_audit_ranks_records_by_hipaa_leaks_then_all_leaks():
    records = audit(gold_notes(), group_texts(DEID.items()))["records"]
    assert [(r["id"], r["hipaa_leaks"], r["leaks"]) for r in records] == [
        ("a", 2, 2),
        ("b", 1, 2),
        ("c", 0, 1),
    ]
    assert records[1]["labels"] == {"DATE": 1, "DOCTOR": 1}
    text = GOLD[0][1]
    assert records[0]["spans"][0] == {
        "start": text.index("John Smith"),
        "end": text.index("John Smith") + len("John Smith"),
        "label": "PATIENT",
        "hipaa": True,
        "category": "NAME",
    }
    # c fully leaked: 1 HIPAA, 2 in all, like b, which comes first in gold
    deid = dict(DEID, c="Dr Helen Ward reviewed the chart of Tom Baker.")
    ranked = audit(gold_notes(), group_texts(deid.items()))["records"]
    assert [r["id"] for r in ranked] == ["a", "b", "c"]
    # a: 1 HIPAA, 1 in all; b and c: 1 HIPAA, 2 in all (then gold order)
    deid["a"] = "Pt [PATIENT] seen 2020-01-02 at [HOSPITAL] by Dr [DOCTOR]."
    ranked = audit(gold_notes(), group_texts(deid.items()))["records"]
    assert [(r["id"], r["hipaa_leaks"], r["leaks"]) for r in ranked] == [
        ("b", 1, 2),
        ("c", 1, 2),
        ("a", 1, 1),
    ]


def test_audit_repeated_output_ids_leak_if_any_copy_leaks():
    pairs = [("c", DEID["c"]), ("c", "Dr [DOCTOR] reviewed the chart of Tom Baker.")]
    result = audit([make_note(*GOLD[2])], group_texts(pairs))
    assert result["notes"]["repeated"] == ["c"]
    assert result["overall"]["leaked"] == 2 and result["hipaa_leak"] is True
    # a plain {id: text} mapping is read as one text per id
    single = audit([make_note(*GOLD[2])], {"c": DEID["c"]})
    assert single["overall"]["leaked"] == 1 and single["notes"]["repeated"] == []


def test_audit_rejects_repeated_gold_ids():
    with pytest.raises(CorpusError, match="'a'"):
        audit(gold_notes() + [make_note(*GOLD[0])], {})


def test_audit_unknown_labels_count_as_hipaa():
    note = Note("m", "Dra. Lucia Fernandez", [PhiSpan(5, 20, "NOMBRE_PERSONAL")])
    result = audit([note], {"m": [note.text]})
    assert result["unknown_labels"] == ["NOMBRE_PERSONAL"]
    assert result["hipaa_leak"] is True
    assert result["leaked_hipaa_categories"] == ["UNKNOWN"]


def test_format_audit_has_ids_and_counts_only():
    result = audit(gold_notes(), group_texts(DEID.items()), rejected=["d"])
    report = format_audit(result, top=1)
    assert "Records to review first (1 of 3)" in report
    assert "  a: 2 HIPAA, 2 in all (DATE 1, PATIENT 1)" in report
    assert "HIPAA categories with leaks: NAME, DATE" in report
    assert "1 records rejected by the run" in report and ": d" in report
    assert "absent from the de-identified output (not audited): e" in report
    assert "not in gold: z" in report
    assert_no_phi(report)


def test_cli_hipaa_leak_exit_4_and_json_shape(files, tmp_path):
    gold, deid, rejects = files
    out = tmp_path / "report" / "audit.json"
    result = invoke(gold, deid, "--json", out, "--rejects", rejects, "--top", 2)
    assert result.exit_code == 4, result.stderr
    assert "Records to review first (2 of 3)" in result.stdout
    assert "exit code 4" in result.stderr
    assert_no_phi(result.stdout, result.stderr, out.read_text(encoding="utf8"))
    report = json.loads(out.read_text(encoding="utf8"))
    assert set(report) == {
        "overall", "hipaa", "hipaa_leak", "per_label", "per_hipaa_category",
        "leaked_hipaa_categories", "unknown_labels", "records", "notes",
        "skipped", "min_length", "keep_ages_under_90", "output_offsets",
        "contains_text",
    }  # fmt: skip
    assert [r["id"] for r in report["records"]] == ["a", "b", "c"]  # all, not --top
    assert report["notes"]["rejected"] == ["d"]
    assert report["notes"]["absent"] == ["e"]
    assert report["notes"]["extra"] == ["z"]
    assert all("text" not in s for r in report["records"] for s in r["spans"])


def test_cli_exit_0_without_hipaa_leak(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [make_note(*GOLD[2]).to_dict()])
    deid = write_jsonl(tmp_path / "d.jsonl", [{"id": "c", "text": DEID["c"]}])
    result = invoke(gold, deid)
    assert result.exit_code == 0, result.stderr
    assert "HIPAA labels: 0/1 (0.00%)" in result.stdout
    assert "  c: 0 HIPAA, 1 in all (DOCTOR 1)" in result.stdout
    assert_no_phi(result.stdout, result.stderr)


def test_cli_show_text_writes_phi_only_to_json(files, tmp_path):
    gold, deid, _ = files
    out = tmp_path / "audit.json"
    result = invoke(gold, deid, "--json", out, "--show-text")
    assert result.exit_code == 4
    assert "CONTAINS PHI" in result.stderr
    assert_no_phi(result.stdout, result.stderr)
    report = json.loads(out.read_text(encoding="utf8"))
    assert report["contains_text"] is True
    texts = [s["text"] for s in report["records"][0]["spans"]]
    assert texts == ["John Smith", "2020-01-02"]
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    refused = invoke(gold, deid, "--show-text")
    assert refused.exit_code == 2
    assert_no_phi(refused.stdout, refused.stderr)


def test_cli_reads_run_folder_output(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [n.to_dict() for n in gold_notes()[:2]])
    folder = tmp_path / "out"
    folder.mkdir()
    write_jsonl(folder / "spans.jsonl", [{"id": "a", "spans": []}, {"id": "b"}])
    (folder / "a.txt").write_text("Pt [PATIENT] seen [DATE] at [H] by Dr [D].")
    (folder / "b.txt").write_text(DEID["b"])
    result = invoke(gold, folder, "--json", tmp_path / "r.json")
    assert result.exit_code == 4
    report = json.loads((tmp_path / "r.json").read_text())
    assert [(r["id"], r["hipaa_leaks"]) for r in report["records"]] == [("b", 1)]
    (folder / "b.txt").unlink()
    broken = invoke(gold, folder)
    assert broken.exit_code == 1 and "no text file for 'b'" in broken.stderr


def test_cli_bad_input_exit_1_without_text(tmp_path, files):
    gold, _, _ = files
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "John Smith"}\nnot json\n')
    result = invoke(gold, bad)
    assert result.exit_code == 1 and "line 2" in result.stderr
    assert_no_phi(result.stdout, result.stderr)
    assert invoke(gold, tmp_path / "none.jsonl").exit_code == 1
    other = write_jsonl(tmp_path / "other.jsonl", [{"id": "x", "text": "[PATIENT]"}])
    unrelated = invoke(gold, other)
    assert unrelated.exit_code == 1 and "no gold note id" in unrelated.stderr
    assert invoke(gold, bad, "--label-map", "nope").exit_code == 2


MEDDOCAN = (
    "m1",
    "Paciente: Juan Garcia Perez. Ingreso: 12/05/2019. Medico: Dra. Lucia Fernandez.",
    [
        ("Juan Garcia Perez", "NOMBRE_SUJETO_ASISTENCIA"),
        ("12/05/2019", "FECHAS"),
        ("Lucia Fernandez", "NOMBRE_PERSONAL_SANITARIO"),
        ("Paciente", "FAMILIARES_SUJETO_ASISTENCIA"),
    ],
)
MEDDOCAN_DEID = "Paciente: [NOMBRE]. Ingreso: [FECHA]. Medico: Dra. Lucia Fernandez."


def test_cli_label_mapped_meddocan(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [make_note(*MEDDOCAN).to_dict()])
    deid = write_jsonl(tmp_path / "d.jsonl", [{"id": "m1", "text": MEDDOCAN_DEID}])
    out = tmp_path / "r.json"
    mapped = invoke(gold, deid, "--label-map", "meddocan2i2b2", "--json", out)
    assert mapped.exit_code == 0, mapped.stderr
    report = json.loads(out.read_text())
    # FAMILIARES is dropped by the map; the clinician's name is not HIPAA
    assert set(report["per_label"]) == {"PATIENT", "DATE", "DOCTOR"}
    assert report["per_label"]["DOCTOR"]["leaked"] == 1
    assert report["hipaa"] == {**rate(0, 2), "kept": 0, "outside": 0, "surrogate": 0}
    assert "Lucia" not in mapped.stdout + mapped.stderr
    unmapped = invoke(gold, deid, "--json", out)
    assert unmapped.exit_code == 4  # unknown labels count as HIPAA
    assert "counted as HIPAA" in unmapped.stdout
    report = json.loads(out.read_text())
    assert "NOMBRE_PERSONAL_SANITARIO" in report["unknown_labels"]
    assert "Lucia" not in unmapped.stdout + unmapped.stderr


def test_cli_audits_real_run_output(nlp_rules, tmp_path):
    """The output of the runner (as `spacy-deid run` writes it) is audited:
    what the rules replace does not leak, an uncued name does."""
    from spacy_deid.io.records import Record
    from spacy_deid.run.runner import deidentify_items

    rows = [
        (
            "r1",
            "Seen 09/14/2067. MRN: 7194334. Call 617-555-0199.",
            [
                ("09/14/2067", "DATE"),
                ("7194334", "MEDICALRECORD"),
                ("617-555-0199", "PHONE"),
            ],
        ),
        ("r2", "Zorblax walked in today.", [("Zorblax", "PATIENT")]),
    ]
    gold = write_jsonl(tmp_path / "g.jsonl", [make_note(*r).to_dict() for r in rows])
    records = [Record(i, r[0], r[1]) for i, r in enumerate(rows)]
    with warnings.catch_warnings():  # no key given: an ephemeral one is used
        warnings.simplefilter("ignore")
        outputs = [o.to_dict() for o in deidentify_items(nlp_rules, records)]
    deid = write_jsonl(tmp_path / "d.jsonl", outputs)
    result = invoke(gold, deid, "--json", tmp_path / "r.json")
    assert result.exit_code == 4, result.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["hipaa"] == {**rate(1, 4), "kept": 0, "outside": 0, "surrogate": 0}
    assert [(r["id"], r["labels"]) for r in report["records"]] == [
        ("r2", {"PATIENT": 1})
    ]
    for surface in ("Zorblax", "7194334", "09/14/2067"):
        assert surface not in result.stdout + result.stderr


@pytest.mark.parametrize("fmt", ["csv", "parquet", "dataset"])
def test_cli_audits_table_outputs(tmp_path, fmt):
    """CSV, Parquet and Parquet-dataset outputs of `spacy-deid run` give the
    same report as its JSONL output; other column names are given with
    --id-column/--text-column; a row without text is an error naming it."""
    from ..run_helpers import invoke as run

    if fmt != "csv":
        need("pyarrow")
    notes = gold_notes()
    gold = write_jsonl(tmp_path / "g.jsonl", [n.to_dict() for n in notes])
    source = tmp_path / "in.csv"
    with source.open("w", encoding="utf8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "note"])
        writer.writerows([n.id, n.text] for n in notes)
    names = ["--id-column", "id", "--text-column", "note"]
    run(str(source), str(tmp_path / "out.jsonl"), *names)
    out = tmp_path / ("out.csv" if fmt == "csv" else "out.parquet")
    options = ["--output-format", "parquet"] if fmt != "csv" else []
    if fmt == "dataset":
        out = tmp_path / "out_parts"
        options += ["--rows-per-part", "2"]
    run(str(source), str(out), *names, *options)
    expected = invoke(gold, tmp_path / "out.jsonl", "--json", tmp_path / "j.json")
    result = invoke(gold, out, "--text-column", "note", "--json", tmp_path / "t.json")
    assert result.exit_code == expected.exit_code == 4, result.stderr
    assert result.stdout.replace("t.json", "j.json") == expected.stdout
    assert json.loads((tmp_path / "t.json").read_text()) == json.loads(
        (tmp_path / "j.json").read_text()
    )
    assert_no_phi(result.stdout, result.stderr)
    missing = invoke(gold, out)  # no "text" column in this output
    assert missing.exit_code == 1 and "text" in missing.stderr
    assert_no_phi(missing.stdout, missing.stderr)
    bad_format = invoke(gold, out, "--deid-format", "xml")
    assert bad_format.exit_code == 2


def test_cli_table_row_without_text_names_the_row(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [n.to_dict() for n in gold_notes()])
    table = tmp_path / "out.csv"
    table.write_text(f'id,text\na,"{DEID["a"]}"\nb\n', encoding="utf8")
    result = invoke(gold, table)
    assert result.exit_code == 1, result.stdout
    assert "row" in result.stderr
    assert_no_phi(result.stdout, result.stderr)


# Ages and short numbers, as in `spacy-deid run` output on synthetic notes.
AGES = (
    "g",
    "Tom Ode is 45 yo; his father died at 93 and his aunt is in her 90s.",
    [("Tom Ode", "PATIENT"), ("45", "AGE"), ("93", "AGE"), ("90s", "AGE")],
)
AGES_SURROGATE = "Mark Hale is 45 yo; his father died at 90+ and his aunt is in her 90s."


def test_audit_reports_ages_the_pipeline_keeps_as_kept():
    result = audit([make_note(*AGES)], {"g": AGES_SURROGATE})
    # 45 (<= 89) and "90s" (aggregated) are kept by phi_surrogates' default
    # policy; 93 became "90+"; the name was replaced
    age = result["per_label"]["AGE"]
    assert (age["leaked"], age["kept"], age["outside"], age["total"]) == (0, 2, 0, 3)
    assert result["hipaa"] == {**rate(0, 4), "kept": 2, "outside": 0, "surrogate": 0}
    assert result["hipaa_leak"] is False and result["records"] == []
    assert result["keep_ages_under_90"] is True


def test_audit_judges_ages_by_the_runs_keep_ages_setting():
    result = audit([make_note(*AGES)], {"g": AGES_SURROGATE}, keep_ages_under_90=False)
    # without keep_ages_under_90 the pipeline replaces 45: finding it is a leak;
    # "90s" is kept either way
    age = result["per_label"]["AGE"]
    assert (age["leaked"], age["kept"]) == (1, 1)
    assert result["hipaa_leak"] is True
    start = AGES[1].index("45")
    assert result["records"][0]["spans"] == [
        {"start": start, "end": start + 2, "label": "AGE", "hipaa": True,
         "category": "AGE"}
    ]  # fmt: skip


def test_audit_ages_over_89_are_never_kept():
    left = AGES_SURROGATE.replace("90+", "93")
    result = audit([make_note(*AGES)], {"g": left})
    assert result["per_label"]["AGE"]["leaked"] == 1
    assert result["hipaa_leak"] is True


def test_audit_meddocan_ages_follow_the_same_policy():
    text = "Paciente de 53 años."
    note = make_note("m", text, [("53 años", "EDAD_SUJETO_ASISTENCIA")])
    result = audit([note], {"m": text})
    # the type is outside the i2b2 scheme (HIPAA, UNKNOWN), but an age
    row = result["per_label"]["EDAD_SUJETO_ASISTENCIA"]
    assert (row["leaked"], row["kept"]) == (0, 1)
    assert result["hipaa_leak"] is False


NUMBERS = "Omeprazole 40 mg daily. Pt is 40 years old, seen by Dr Ann Lee."


def numbers_note() -> Note:
    start = NUMBERS.rindex("40")
    doctor = NUMBERS.index("Ann Lee")
    spans = [PhiSpan(start, start + 2, "AGE"), PhiSpan(doctor, doctor + 7, "DOCTOR")]
    return Note("n", NUMBERS, spans)


@pytest.mark.parametrize("keep", [True, False])
def test_audit_string_also_outside_gold_is_not_a_leak(keep):
    tagged = "Omeprazole 40 mg daily. Pt is [AGE] years old, seen by Dr [DOCTOR]."
    result = audit([numbers_note()], {"n": tagged}, keep_ages_under_90=keep)
    # the "40" left is the dose's: the input holds it once outside gold
    age = result["per_label"]["AGE"]
    assert (age["leaked"], age["kept"], age["outside"]) == (0, 0, 1)
    assert result["hipaa_leak"] is False


def test_audit_string_found_more_often_than_outside_gold_leaks():
    missed = NUMBERS  # the age was not replaced: "40" twice, once outside gold
    result = audit([numbers_note()], {"n": missed}, keep_ages_under_90=False)
    assert result["per_label"]["AGE"]["leaked"] == 1
    assert result["per_label"]["DOCTOR"]["leaked"] == 1
    assert result["hipaa_leak"] is True
    # by the default policy the age is kept, whatever the mode of the run
    kept = audit([numbers_note()], {"n": missed})
    assert kept["per_label"]["AGE"]["kept"] == 1 and kept["hipaa_leak"] is False


def test_count_outside_skips_occurrences_that_touch_a_gold_span():
    from spacy_deid.evaluate.leak import count_outside, count_words

    text = "40 and 40 and 40 and x40"
    middle = text.index("40", 3)
    assert count_words("40", text) == 3  # not the one inside "x40"
    assert count_outside("40", text, [PhiSpan(middle, middle + 2, "AGE")]) == 2
    # a span that only overlaps an occurrence still covers it
    wide = [PhiSpan(1, 3, "AGE"), PhiSpan(middle - 1, middle + 1, "DATE")]
    assert count_outside("40", text, wide) == 1
    assert count_outside("40", text, []) == 3


def test_cli_tag_mode_output_does_not_report_ages_as_leaked(tmp_path):
    notes = [make_note(*AGES), numbers_note()]
    gold = write_jsonl(tmp_path / "g.jsonl", [n.to_dict() for n in notes])
    # tag mode: every detected span tagged; "45" missed (an age <= 89)
    tagged = [
        {"id": "g", "text": "[PATIENT] is 45 yo; his father died at [AGE] and "
         "his aunt is in her [AGE]."},
        {"id": "n", "text": "Omeprazole 40 mg daily. Pt is [AGE] years old, "
         "seen by Dr [DOCTOR]."},
    ]  # fmt: skip
    deid = write_jsonl(tmp_path / "d.jsonl", tagged)
    out = tmp_path / "r.json"
    result = invoke(gold, deid, "--json", out)
    assert result.exit_code == 0, result.stderr
    report = json.loads(out.read_text())
    age = report["per_label"]["AGE"]
    assert (age["leaked"], age["kept"], age["outside"]) == (0, 1, 1)
    assert "Not leaks: 1 kept by the policy" in result.stdout
    strict = invoke(gold, deid, "--no-keep-ages-under-90", "--json", out)
    assert strict.exit_code == 4, strict.stderr
    assert json.loads(out.read_text())["per_label"]["AGE"]["leaked"] == 1
    for output in (result.stdout, result.stderr, strict.stdout, strict.stderr):
        assert "Tom Ode" not in output and "Ann Lee" not in output


# A date shift that turns one date into another the note also has.
SHIFTED = "Seen 03/04 by Dr Ann Lee; back 03/11."
SHIFTED_OUT = "Seen 03/11 by Dr Jo Fry; back 03/18."


def shifted_note() -> Note:
    return make_note(
        "w", SHIFTED, [("03/04", "DATE"), ("Ann Lee", "DOCTOR"), ("03/11", "DATE")]
    )


def replaced_spans(source: str, output: str, pairs) -> list:
    """(start, end, out_start, out_end) of each (original, surrogate) pair."""
    spans = []
    for original, surrogate in pairs:
        start, out_start = source.index(original), output.index(surrogate)
        spans.append(
            (start, start + len(original), out_start, out_start + len(surrogate))
        )
    return spans


def test_occurrences_inside_other_spans_surrogates():
    from spacy_deid.evaluate.audit import occurrences

    pairs = [("03/04", "03/11"), ("Ann Lee", "Jo Fry"), ("03/11", "03/18")]
    spans = replaced_spans(SHIFTED, SHIFTED_OUT, pairs)
    assert occurrences("03/11", SHIFTED_OUT, SHIFTED, spans) == (1, 0)
    assert occurrences("03/11", SHIFTED_OUT, SHIFTED, []) == (0, 1)
    # a surrogate that reproduces its own original explains nothing
    same = "Seen 03/04 by Dr Jo Fry; back 03/11."
    own = replaced_spans(SHIFTED, same, [("03/04", "03/04"), ("03/11", "03/11")])
    assert occurrences("03/04", same, SHIFTED, own) == (0, 1)
    # offsets beyond either text belong to another input: all ignored
    wrong = spans + [(0, 4, 0, len(SHIFTED_OUT) + 1)]
    assert occurrences("03/11", SHIFTED_OUT, SHIFTED, wrong) == (0, 1)


def test_audit_string_only_in_other_surrogates_is_not_a_leak():
    pairs = [("03/04", "03/11"), ("Ann Lee", "Jo Fry"), ("03/11", "03/18")]
    spans = replaced_spans(SHIFTED, SHIFTED_OUT, pairs)
    result = audit([shifted_note()], {"w": SHIFTED_OUT}, replaced={"w": [spans]})
    date = result["per_label"]["DATE"]
    assert (date["leaked"], date["surrogate"], date["total"]) == (0, 1, 2)
    assert result["hipaa_leak"] is False and result["output_offsets"] == 1
    # without the offsets the same output counts as a leak (fail closed)
    plain = audit([shifted_note()], {"w": SHIFTED_OUT})
    assert plain["per_label"]["DATE"]["leaked"] == 1 and plain["hipaa_leak"] is True
    assert plain["output_offsets"] == 0
    assert "not checked" in format_audit(plain)
    # the original left in the text as well as in a surrogate still leaks
    missed = "Seen 03/11 by Dr Jo Fry; back 03/11."
    kept = replaced_spans(SHIFTED, missed, [("03/04", "03/11")])
    leaked = audit([shifted_note()], {"w": missed}, replaced={"w": [kept]})
    assert leaked["per_label"]["DATE"]["leaked"] == 1


@pytest.mark.parametrize("folder", [False, True])
def test_cli_reads_output_offsets(tmp_path, folder):
    gold = write_jsonl(tmp_path / "g.jsonl", [shifted_note().to_dict()])
    pairs = [("03/04", "03/11"), ("Ann Lee", "Jo Fry"), ("03/11", "03/18")]
    spans = [
        {"start": s, "end": e, "label": "DATE", "out_start": os, "out_end": oe}
        for s, e, os, oe in replaced_spans(SHIFTED, SHIFTED_OUT, pairs)
    ]
    if folder:
        deid = tmp_path / "out"
        deid.mkdir()
        write_jsonl(deid / "spans.jsonl", [{"id": "w", "spans": spans}])
        (deid / "w.txt").write_text(SHIFTED_OUT, encoding="utf8")
    else:
        record = {"id": "w", "text": SHIFTED_OUT, "spans": spans}
        deid = write_jsonl(tmp_path / "d.jsonl", [record])
    result = invoke(gold, deid)
    assert result.exit_code == 0, result.stderr
    assert "1 only in other spans' surrogates" in result.stdout
    assert "03/11" not in result.stdout and "Ann Lee" not in result.stdout
