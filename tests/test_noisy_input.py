"""Noisy input to `spacy-deid run`: a binary file, a file that is no JSONL,
many bad lines, an empty file, records without an id. Counts, ids and line
numbers only; never text."""

import json
import os

from spacy_deid.io.records import SNIFF_LINES, Rejected, parse_jsonl_line
from spacy_deid.io.rejects import MAX_SHOWN

from .run_helpers import invoke, write_jsonl


def test_a_binary_file_stops_the_run_with_one_clear_message(tmp_path):
    binary = tmp_path / "in.jsonl"
    binary.write_bytes(os.urandom(20_000) + b"\x00" + os.urandom(20_000))
    result = invoke(str(binary), str(tmp_path / "out.jsonl"), expect=1)
    assert "NUL byte: the input is not a JSONL text file" in result.output
    assert len(result.output.splitlines()) <= MAX_SHOWN + 3


def test_a_text_file_that_is_no_jsonl_stops_after_the_first_lines(tmp_path):
    text = tmp_path / "in.jsonl"
    text.write_text("Seen by Dr. Whalen today.\n" * 500)
    reject_file = tmp_path / "rejects.jsonl"
    result = invoke(
        str(text), str(tmp_path / "out.jsonl"), "--reject-file", str(reject_file),
        expect=1,
    )  # fmt: skip
    assert f"none of the first {SNIFF_LINES} lines is a JSON object" in result.output
    assert "Whalen" not in result.output
    assert "Whalen" not in reject_file.read_text()
    assert len(reject_file.read_text().splitlines()) < SNIFF_LINES


def test_many_bad_lines_are_listed_up_to_a_limit_then_counted(tmp_path):
    lines = [json.dumps({"id": "a", "text": "MRN 7194334"})]
    lines += ["{not json Whalen"] * 40
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    reject_file = tmp_path / "rejects.jsonl"
    result = invoke(
        str(source), str(tmp_path / "out.jsonl"), "--reject-file", str(reject_file),
        expect=3,
    )  # fmt: skip
    listed = [line for line in result.output.splitlines() if "Rejected" in line]
    assert len(listed) == MAX_SHOWN
    assert f"... and {40 - MAX_SHOWN} more rejected records" in result.output
    assert len(reject_file.read_text().splitlines()) == 40
    assert "Whalen" not in result.output


def test_an_empty_input_says_so(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text("\n\n")
    result = invoke(str(source), str(tmp_path / "out.jsonl"))
    assert "The input holds no records" in result.output


def test_a_record_without_an_id_is_rejected_by_line(tmp_path):
    """As the documentation says: never processed under its line number."""
    item = parse_jsonl_line(json.dumps({"text": "MRN 7194334"}), 7, 6)
    assert isinstance(item, Rejected)
    assert (item.id, item.line, item.error) == (None, 7, "InvalidRecord: no 'id' field")
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": "a", "text": "MRN 7194334"}, {"text": "MRN 7194334"}],
    )
    out = tmp_path / "out.jsonl"
    result = invoke(str(source), str(out), expect=3)
    assert "(line 2): InvalidRecord: no 'id' field" in result.output
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a"]
