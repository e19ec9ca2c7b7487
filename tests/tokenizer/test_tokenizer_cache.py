"""Warming the tokenizer's cache with a pipeline's frequent non-PHI chunks."""

import json

import pytest
import spacy
from spacy.util import load_model_from_path

import spacy_deid
from spacy_deid.pretrained.chunks import SOURCE_KEY, corpus_chunks
from spacy_deid.pretrained.chunks import main as chunks_main
from spacy_deid.io.records import Record
from spacy_deid.run.runner import deidentify_items, setup_worker
from spacy_deid.text.tokenizer_cache import META_KEY, frequent_chunks, warm_up

from ..run_helpers import doctor_corpus

CHUNKS = ["the", "patient", "was", "seen", "BP", "(see", "note).", "Dr.", "a26"]
TEXT = "Dr. Whalen saw the patient (see note). BP 120/80, was seen a26 09/14/2067CPT"


def _blank(chunks=None):
    nlp = spacy.blank(
        "en",
        config={
            "nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}
        },
    )
    if chunks is not None:
        nlp.meta[META_KEY] = list(chunks)
    return nlp


def _counting_prefix_search(nlp):
    """Count the tokenizer's prefix searches (setting it flushes the cache)."""
    calls = []
    search = nlp.tokenizer.prefix_search

    def counted(text):
        calls.append(1)
        return search(text)

    nlp.tokenizer.prefix_search = counted
    return calls


def _tokens(nlp, text):
    with nlp.memory_zone():
        doc = nlp.make_doc(text)
        return [(t.text, t.idx, t.whitespace_) for t in doc]


def test_frequent_chunks_skip_phi_and_rare_chunks():
    docs = [
        ("Seen by Dr. Ames today.", [(12, 16)]),
        ("Seen by Dr. Ames again.", [(12, 16)]),
        ("Seen today, Ames.", [(12, 17)]),
        ("Ames seen.", []),
    ]
    chunks = frequent_chunks(docs, min_docs=2)
    # "Ames" occurs outside a PHI span in one document only; "Ames." is PHI.
    assert "Ames" not in chunks and "Ames." not in chunks
    # Most frequent first, ties in string order.
    assert chunks == ["Seen", "Dr.", "by"]
    assert frequent_chunks(docs, n=2, min_docs=2) == ["Seen", "Dr."]
    assert frequent_chunks(docs, min_docs=4) == []


def test_a_chunk_touching_phi_is_not_kept():
    """A chunk that only partly overlaps a PHI span ("MRN:12345", PHI at
    4:9) is not kept, however often it occurs."""
    docs = [("MRN:12345 seen", [(4, 9)])] * 5
    assert frequent_chunks(docs, min_docs=1) == ["seen"]


def test_warm_up_caches_the_chunks_for_memory_zones():
    """In a memory zone spaCy caches nothing, so every chunk is split again;
    warmed chunks are cached once and for all, with the same tokens."""
    cold, warm = _blank(), _blank(CHUNKS)
    cold_calls, warm_calls = (
        _counting_prefix_search(cold),
        _counting_prefix_search(warm),
    )
    assert warm_up(warm) == len(CHUNKS) and warm_up(cold) == 0
    assert _tokens(warm, TEXT) == _tokens(cold, TEXT)
    warm_calls.clear(), cold_calls.clear()
    for _ in range(2):
        _tokens(warm, "the patient was seen"), _tokens(cold, "the patient was seen")
    assert warm_calls == [] and len(cold_calls) >= 8
    # The warmed strings stay in the vocab after the zones; a note's do not.
    assert "patient" in warm.vocab.strings and "Whalen" not in warm.vocab.strings


def test_warm_up_runs_once_per_tokenizer():
    """The runner warms at every call: a pipeline warmed with its current
    tokenizer is not warmed again; a new tokenizer is."""
    from spacy_deid.text.tokenizer import make_clinical_tokenizer

    nlp = _blank(CHUNKS)
    assert warm_up(nlp) == len(CHUNKS)
    assert warm_up(nlp) == 0
    nlp.tokenizer = make_clinical_tokenizer(nlp)
    assert warm_up(nlp) == len(CHUNKS)


def test_warm_up_does_nothing_inside_a_memory_zone():
    nlp = _blank(CHUNKS)
    with nlp.memory_zone():
        assert warm_up(nlp) == 0
    assert "patient" not in nlp.vocab.strings


@pytest.mark.parametrize("value", ["the patient", [1, 2], {"a": 1}])
def test_warm_up_rejects_a_malformed_list(value):
    nlp = _blank()
    nlp.meta[META_KEY] = value
    with pytest.raises(ValueError, match=META_KEY):
        warm_up(nlp)


def test_shipped_pipelines_list_their_chunks():
    for name in spacy_deid.PIPELINES:
        meta = json.loads((spacy_deid.pipeline_path(name) / "meta.json").read_text())
        chunks = meta[META_KEY]
        assert 1000 <= len(chunks) <= 5000 and len(set(chunks)) == len(chunks)
        assert all(isinstance(c, str) and c.split() == [c] for c in chunks)
        assert (
            meta[SOURCE_KEY]["min_docs"] == 5 and len(meta[SOURCE_KEY]["sha256"]) == 64
        )


def test_load_and_workers_warm_the_cache():
    """`spacy_deid.load` warms a pipeline; so does a pool worker's setup (a
    pickled tokenizer comes with an empty cache)."""
    path = spacy_deid.pipeline_path("en_rules")
    warmed = spacy_deid.load("en_rules")
    cold = load_model_from_path(path)
    chunks = warmed.meta[META_KEY]
    assert len(warmed.vocab) - len(cold.vocab) >= len(chunks) // 2
    before = len(cold.vocab)
    setup_worker(cold)
    assert len(cold.vocab) == len(warmed.vocab) > before


def test_runner_output_is_the_same_with_a_warm_cache(examples_path, monkeypatch):
    monkeypatch.setenv("SPACY_DEID_KEY", "ab" * 32)
    path = spacy_deid.pipeline_path("en_rules")
    warm, cold = load_model_from_path(path), load_model_from_path(path)
    cold.meta.pop(META_KEY)
    records = [
        Record(i, str(i), json.loads(line)["text"], f"p{i}")
        for i, line in enumerate(examples_path.read_text().splitlines())
    ]
    assert len(records) > 2
    outputs = [
        [out.to_dict() for out in deidentify_items(nlp, records, batch_size=2)]
        for nlp in (warm, cold)
    ]
    assert outputs[0] == outputs[1] and len(outputs[0]) == len(records)
    # deidentify_items warmed the cache after its first batch, outside the
    # memory zones.
    assert len(warm.vocab) > len(cold.vocab) + 1000


def test_a_run_of_one_batch_leaves_the_cache_cold(examples_path, monkeypatch):
    """Warming costs about 0.2 s: a one-batch run (one note) skips it, and so
    does `spacy_deid.load(warm=False)`, which `spacy-deid run` uses."""
    monkeypatch.setenv("SPACY_DEID_KEY", "ab" * 32)
    nlp = spacy_deid.load("en_rules", warm=False)
    cold = len(nlp.vocab)
    assert cold == len(load_model_from_path(spacy_deid.pipeline_path("en_rules")).vocab)
    text = json.loads(examples_path.read_text().splitlines()[0])["text"]
    assert len(list(deidentify_items(nlp, [Record(0, "0", text, "p0")]))) == 1
    assert len(nlp.vocab) < cold + 100


def test_chunks_command_writes_meta(tmp_path):
    corpus = doctor_corpus(tmp_path / "train.jsonl", "Ames", 6)
    (tmp_path / "meta.json").write_text(json.dumps({"lang": "en"}))
    chunks_main([str(tmp_path), str(corpus), "--min-docs", "6"])
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta[META_KEY] == ["Dr.", "Seen", "by"] == corpus_chunks(corpus, min_docs=6)
    assert meta[SOURCE_KEY]["file"] == "train.jsonl" and meta["lang"] == "en"
