from random import Random

import pytest

from spacy_deid.core.types import PhiSpan
from spacy_deid.synth import generate
from spacy_deid.synth.everyday import everyday_pool, paragraph, with_everyday
from spacy_deid.synth.pools import split_of


def test_split_pools_are_disjoint_and_large():
    pools = {split: set(everyday_pool(split)) for split in ("train", "dev", "test")}
    assert len(pools["train"]) > 10_000 and len(pools["dev"]) > 1_000
    assert not pools["train"] & pools["dev"]
    assert not pools["train"] & pools["test"]
    assert not pools["dev"] & pools["test"]
    assert all(split_of(s) == "dev" for s in list(pools["dev"])[:200])


def test_a_paragraph_is_capitalised_ended_sentences():
    text = paragraph(Random(4), "train")
    assert text[0].isupper() and text[-1] in ".!?"
    assert "\n" not in text


def test_the_paragraph_goes_between_lines_and_moves_the_spans_after_it():
    text = "Pt: Zelma Varga\nSeen 4/2/2066.\nPlan: rest."
    name, date = text.index("Zelma Varga"), text.index("4/2/2066")
    spans = [PhiSpan(name, name + 11, "PATIENT"), PhiSpan(date, date + 8, "DATE")]
    for n in range(40):
        new, moved = with_everyday(f"note-{n}", text, spans, "train", 1.0)
        assert new != text and new.count("\n") == text.count("\n") + 1
        assert [new[s.start : s.end] for s in moved] == ["Zelma Varga", "4/2/2066"]
        assert [s.label for s in moved] == ["PATIENT", "DATE"]
    # CRLF notes keep their line ends; a rate of 0 changes nothing.
    crlf = text.replace("\n", "\r\n")
    new, _ = with_everyday("note-1", crlf, spans, "train", 1.0)
    assert "\n" not in new.replace("\r\n", "")
    assert with_everyday("note-1", text, spans, "train", 0.0) == (text, spans)


def test_notes_are_the_same_apart_from_the_paragraphs():
    plain = list(generate(60, seed=5, split="train"))
    mixed = list(generate(60, seed=5, split="train", everyday_rate=0.5))
    gained = 0
    for a, b in zip(plain, mixed, strict=True):
        assert a.id == b.id
        assert [a.text[s.start : s.end] for s in a.spans] == [
            b.text[s.start : s.end] for s in b.spans
        ]
        if a.text != b.text:
            gained += 1
            assert "everyday" in b.meta["family"]
            assert len(b.text) > len(a.text)
    assert 15 <= gained <= 45


@pytest.mark.parametrize("rate", ["-0.1", "1.5"])
def test_cli_rejects_a_rate_outside_0_1(tmp_path, rate):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    result = CliRunner().invoke(
        app, ["synth", "2", str(tmp_path / "o.jsonl"), "--everyday-rate", rate]
    )
    assert result.exit_code != 0
