"""The token measures: i2b2 2014 tokens (`token`, `binary_token`) and
whole-text tokens (`text_token`, `binary_text_token`), with counts worked
out by hand."""

import pytest

from spacy_deid.core.types import PhiSpan
from spacy_deid.evaluate import evaluate_notes
from spacy_deid.evaluate.tokens import span_tokens

from .conftest import note, span


def counts(result, measure):
    m = result[measure]["micro"]
    return (m["tp"], m["fp"], m["fn"])


def test_span_tokens_are_alphanumeric_runs_of_the_span_text():
    text = "Call (617) 555-0101 re: St. Mary's"
    spans = [span("(617) 555-0101", "PHONE", text), span("St. Mary's", "HOSPITAL", text)]
    at = text.index("617")
    got = sorted(span_tokens(text, spans), key=lambda t: t[1])
    assert got == [
        ("PHONE", at, at + 3),
        ("PHONE", at + 5, at + 8),
        ("PHONE", at + 9, at + 13),
        ("HOSPITAL", text.index("St"), text.index("St") + 2),
        ("HOSPITAL", text.index("Mary"), text.index("Mary") + 4),
        ("HOSPITAL", text.index("'s") + 1, text.index("'s") + 2),
    ]
    # a span starting inside a word tokenizes its own text only
    inside = span("ary", "HOSPITAL", text)
    assert span_tokens(text, [inside]) == {("HOSPITAL", inside.start, inside.end)}


TEXT = "Seen by Dr. Ann Lee on 05/06/2093 at St. Mary's. Call (617) 555-0101."


def test_stretched_shrunk_relabelled_and_punctuation_edged_spans():
    gold = [
        span("Ann Lee", "DOCTOR", TEXT),
        span("05/06/2093", "DATE", TEXT),
        span("St. Mary's", "HOSPITAL", TEXT),
        span("(617) 555-0101", "PHONE", TEXT),
    ]
    pred = [
        span("Dr. Ann Lee", "DOCTOR", TEXT),  # stretched over a word
        span("05/06/2093", "DATE", TEXT, dend=-1),  # shrunk: 05/06/209
        span("St. Mary's.", "ORGANIZATION", TEXT),  # relabelled, stretched over "."
        span("(617) 555-0101.", "PHONE", TEXT, dstart=1),  # "617) 555-0101."
    ]
    result = evaluate_notes([note(gold, text=TEXT)], [note(pred, text=TEXT)])
    # i2b2 tokens (the [A-Za-z0-9] runs of each span):
    #   gold: DOCTOR Ann Lee; DATE 03 04 2091; HOSPITAL St Mary s;
    #         PHONE 617 555 0101 (11 tokens)
    #   pred: DOCTOR Dr Ann Lee; DATE 03 04 209; ORGANIZATION St Mary s;
    #         PHONE 617 555 0101 (12 tokens)
    #   DOCTOR: TP Ann Lee (2), FP Dr (1)
    #   DATE: TP 03 04 (2), FP 209 (1), FN 2091 (1): a cut word is another token
    #   HOSPITAL: FN St Mary s (3); ORGANIZATION: FP St Mary s (3)
    #   PHONE: TP 3: the "(" left out and the "." added are not tokens
    #   total TP 7, FP 5, FN 4
    assert counts(result, "token") == (7, 5, 4)
    per_label = result["per_label"]["subcategory"]
    assert per_label["DATE"]["token"]["tp"] == 2
    assert per_label["DATE"]["token"]["fp"] == 1
    assert per_label["DATE"]["token"]["fn"] == 1
    assert per_label["PHONE"]["token"]["tp"] == 3
    assert per_label["ORGANIZATION"]["token"]["fp"] == 3
    # binary i2b2 tokens (offsets only): every gold token but 2091 is
    # predicted (10 TP); Dr and 209 are not gold (2 FP); 2091 is missed (1 FN)
    assert counts(result, "binary_token") == (10, 2, 1)
    # whole-text tokens (\w+|[^\w\s]), labelled by the overlapping spans:
    #   gold: Ann Lee (2); 03 / 04 / 2091 (5); St . Mary ' s (5);
    #         ( 617 ) 555 - 0101 (6): 18 tokens
    #   pred: Dr . Ann Lee (4); 03 / 04 / 2091 (5: "2091" is partly covered);
    #         St . Mary ' s . (6, ORGANIZATION); 617 ) 555 - 0101 . (6): 21
    #   DOCTOR: TP 2, FP 2 (Dr .); DATE: TP 5; HOSPITAL: FN 5;
    #   ORGANIZATION: FP 6; PHONE: TP 5, FP 1 (the final "."), FN 1 ("(")
    #   total TP 12, FP 9, FN 6
    assert counts(result, "text_token") == (12, 9, 6)
    # binary: TP 2 + 5 + 5 + 5 = 17; FP Dr, ".", the two final "." = 4;
    # FN "(" = 1
    assert counts(result, "binary_text_token") == (17, 4, 1)


@pytest.mark.parametrize(
    "dstart,dend,i2b2,text",
    [
        (0, 0, (2, 0, 0), (2, 0, 0)),
        (0, 1, (2, 0, 0), (2, 0, 0)),  # stretched over the space after
        (-1, 0, (2, 0, 0), (2, 0, 0)),  # stretched over the space before
        (0, 2, (2, 1, 0), (2, 1, 0)),  # stretched into "seen": token "s"
        (-2, 0, (2, 1, 0), (2, 1, 0)),  # stretched into "Pt": token "t"
        (0, -1, (1, 1, 1), (2, 0, 0)),  # shrunk: "Smit" is not "Smith"
        (1, 0, (1, 1, 1), (2, 0, 0)),  # shrunk: "ohn" is not "John"
    ],
)
def test_boundary_errors(dstart, dend, i2b2, text):
    # TEXT of conftest: "Pt John Smith seen ..."; gold tokens John, Smith
    gold = [span("John Smith", "PATIENT")]
    pred = [span("John Smith", "PATIENT", dstart=dstart, dend=dend)]
    result = evaluate_notes([note(gold)], [note(pred)])
    assert counts(result, "token") == i2b2
    assert counts(result, "binary_token") == i2b2
    assert counts(result, "text_token") == text
    assert counts(result, "binary_text_token") == text


def _issue_example():
    """77 spans in 7 notes: even spans are names ("Ann Lee": 2 i2b2 tokens, 2
    whole-text tokens), odd ones dates ("05/06/2093": 3 and 5), each followed
    by ", ". The prediction drops one span in five (i % 5 == 0), relabels one
    in eleven of the others (i % 11 == 0) and stretches one in seven of the
    rest by a character (i % 7 == 0: over the comma)."""
    gold, pred = [], []
    for n in range(7):
        pieces, gold_spans, pred_spans = [], [], []
        at = 0
        for i in range(11 * n, 11 * n + 11):
            surface, label, other = (
                ("Ann Lee", "PATIENT", "DOCTOR")
                if i % 2 == 0
                else ("05/06/2093", "DATE", "AGE")
            )
            start, end = at, at + len(surface)
            pieces.append(surface + ", ")
            at += len(surface) + 2
            gold_spans.append((start, end, label))
            if i % 5 == 0:
                continue
            if i % 11 == 0:
                pred_spans.append((start, end, other))
            elif i % 7 == 0:
                pred_spans.append((start, end + 1, label))
            else:
                pred_spans.append((start, end, label))
        text = "".join(pieces)
        gold.append(_note(f"n{n}", text, gold_spans))
        pred.append(_note(f"n{n}", text, pred_spans))
    return gold, pred


def _note(note_id, text, spans):
    return note([PhiSpan(*s) for s in spans], note_id, text)


def test_issue_example_counts():
    result = evaluate_notes(*_issue_example())
    # Spans 0..76: 39 names (even), 38 dates (odd).
    # dropped (i % 5 == 0): 0 5 10 ... 75 = 16: 8 names, 8 dates
    # relabelled (i % 11 == 0, not dropped): 11 22 33 44 66: 3 names, 2 dates
    # stretched (i % 7 == 0, neither): 7 14 21 28 42 49 56 63: 4 names, 4 dates
    # right (incl. stretched): 39 - 8 - 3 = 28 names, 38 - 8 - 2 = 28 dates
    # strict: TP 28 + 28 - 8 stretched = 48; FP 5 relabelled + 8 stretched = 13;
    #   FN 16 + 5 + 8 = 29
    assert counts(result, "strict") == (48, 13, 29)
    # i2b2 tokens (a stretch over the comma makes the same tokens):
    #   TP 28 * 2 + 28 * 3 = 140; FP (relabelled) 3 * 2 + 2 * 3 = 12;
    #   FN (dropped, relabelled) (8 + 3) * 2 + (8 + 2) * 3 = 52
    assert counts(result, "token") == (140, 12, 52)
    #   binary: TP (39 - 8) * 2 + (38 - 8) * 3 = 152, FP 0, FN 8 * 2 + 8 * 3 = 40
    assert counts(result, "binary_token") == (152, 0, 40)
    # whole-text tokens (each stretched span adds its comma as an FP):
    #   TP 28 * 2 + 28 * 5 = 196; FP 3 * 2 + 2 * 5 + 8 = 24;
    #   FN 11 * 2 + 10 * 5 = 72
    assert counts(result, "text_token") == (196, 24, 72)
    #   binary: TP 31 * 2 + 30 * 5 = 212; FP 8; FN 8 * 2 + 8 * 5 = 56
    assert counts(result, "binary_text_token") == (212, 8, 56)
    # so the i2b2 precision is the higher one, as in the issue
    token, text_token = result["token"]["micro"], result["text_token"]["micro"]
    assert token["precision"] == pytest.approx(140 / 152)
    assert text_token["precision"] == pytest.approx(196 / 220)
