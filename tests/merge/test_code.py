"""merge/code.py: which lines of a note are source code."""

import pytest

from spacy_deid.merge.code import code_lines, is_code_line


@pytest.mark.parametrize(
    "line",
    [
        "for (int k = 0; k < n; k++) { total += weights[k]; }",
        "private int getCount() { return this.count; }",
        "from pathlib import Path; p = Path.home()",
        "const ids = rows.map((r) => r.id);",
        'if ok != true { return errors.New("no") }',
        'except KeyError: log.info("missing")',
        "INSERT INTO visits (id, ward) VALUES (1, 'B');",
        "SELECT ward FROM beds WHERE free = 1;",
        # A camel- or snake-case member after a scope is a second mark.
        "In Kotlin, Ward::bedCount returns the total.",
        "see Config::max_beds for the limit",
    ],
)
def test_code_lines(line):
    assert is_code_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Return to clinic in 2 weeks; call with questions.",
        "return precautions given; f/u next week",
        "BP 120/80; HR 88; RR 16;",
        "{Patient Name}: Ann Lee;",
        "Na 140 -> 138 overnight",
        "Sign-out: Lee -> Park :: stable",
        "user=ann;action=sign_note;ts=2088-04-19 22:41:07",
        "Class II obesity, import of records pending.",
        "Called pharmacy re: refill.",
        "Plan::Continue home meds",
        "Dx::HTN, DM2",
    ],
)
def test_lines_of_notes_are_no_code(line):
    assert not is_code_line(line)


def test_code_lines_gives_character_ranges():
    text = "Seen today.\nx.append(y);\nPlan: rest."
    assert code_lines(text) == [(12, 24)]
    assert text[12:24] == "x.append(y);"
    assert code_lines("Seen today; BP 120/80;") == []


CODE = [
    "for (int k = 0; k < n; k++) { total += weights[k]; }",
    "import pandas as pd; frame = pd.read_csv(path)",
    "const label = rows.filter((r) => r.ok).length;",
    "catch (TimeoutError err) { console.error(err.message); }",
    "SELECT ward, bed FROM census WHERE stay > 40;",
]


def test_the_shipped_english_pipeline_invents_nothing_on_code(nlp_en):
    """Source code pasted into a note: identifiers are no names, places,
    dates or ages; a name found elsewhere in the note is still found on such a
    line (phi_consistency runs after phi_relabel)."""
    labels = set(nlp_en.get_pipe("phi_relabel").cfg["code_line_labels"])
    for doc in nlp_en.pipe(CODE):
        assert not [e.label_ for e in doc.ents if e.label_ in labels]
    doc = nlp_en('notify("Dr. Ann Lee", 555); x.y();\nSeen by Dr. Ann Lee.')
    assert [e.text for e in doc.ents if e.label_ == "DOCTOR"] == ["Ann Lee"] * 2
