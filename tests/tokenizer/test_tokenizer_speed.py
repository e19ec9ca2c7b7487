"""Regression tests for the tokenizer's speed on pathological notes.

Before the fix, the clinical tokenizer took quadratic time on long
whitespace-free runs: 67 s for "ab:" * 4000 (12 KB). Each input must now be
tokenized within 10 times the time the stock English tokenizer takes on an
ordinary note of the same length, plus 1 s.
"""

import random
import string
import time

import pytest
import spacy

from spacy_deid.text.tokenizer import MAX_AFFIX_RUN

TOKENIZER_CONFIG = {
    "nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}
}

PATHOLOGICAL = {
    "colons": "ab:" * 4000,
    "semicolons": "a;" * 4000,
    "pipes": "ab|" * 3000,
    "camel_case": "PatientSeenToday" * 500,
    "equals": "=" * 8000,
    "underscores": "_" * 8000,
    "ellipsis": "…" * 8000,
    "thousands": ",".join(str(i) for i in range(3000)),
    "log_rows": ",".join(["2067-03-01T08:15Z,jsmith2,10.1.2.3,VIEW"] * 300),
    # Distinct runs just under the limit, so that the cache does not help:
    # still about 50 µs a character (as the stock tokenizer).
    "short_runs": " ".join("=" * (MAX_AFFIX_RUN - 10) + f"{i:03d}" for i in range(20)),
    "short_separators": " ".join(
        "1;" * (MAX_AFFIX_RUN // 2 - 5) + f"{i:03d}" for i in range(20)
    ),
    # Shapes that the splits of glued words, dates and periods look for.
    "double_periods": "ab.." * 3000,
    "initials": "A.Bc" * 3000,
    "hyphen_words": "ab-" * 4000,
    "glued_dates": "2067-03-140800" * 600,
    "short_glued": " ".join("aB.c" * 45 + f"+{i:03d}" for i in range(20)),
    "short_dates": " ".join("1-" * 90 + f"2067-03-14{i:04d}" for i in range(20)),
}


def ordinary_note(length: int, seed: int = 0) -> str:
    """Generate a clinical-looking note: words, numbers, dates, phones, IDs."""
    rng = random.Random(seed)
    words = (
        "patient seen today for follow up of hypertension and diabetes denies "
        "chest pain shortness of breath BP HR RR SpO2 mg/dL b.i.d. s/p CABG Dr. "
        "Smith Whalen MRN Assessment: Plan: continue ASA 81mg p.o. q.d. stable"
    ).split()
    parts = []
    size = 0
    while size < length:
        roll = rng.random()
        if roll < 0.05:
            word = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2067"
        elif roll < 0.08:
            word = f"617-555-{rng.randint(1000, 9999)}"
        elif roll < 0.12:
            word = f"MRN:{rng.randint(10**6, 10**7)}"
        elif roll < 0.2:
            word = str(rng.randint(0, 500)) + rng.choice(["", "mg", ".", ",", "/80"])
        else:
            word = rng.choice(words) + rng.choice(["", "", "", ".", ",", ":"])
        sep = rng.choice([" "] * 12 + ["\n", "\r\n", "  ", "\n\n"])
        parts.append(word + sep)
        size += len(word) + len(sep)
    return "".join(parts)[:length]


@pytest.fixture(scope="module")
def tokenizer():
    return spacy.blank("en", config=TOKENIZER_CONFIG).tokenizer


@pytest.fixture(scope="module")
def stock_seconds_per_char():
    """Seconds per character of the stock tokenizer on an ordinary note."""
    stock = spacy.blank("en").tokenizer
    text = ordinary_note(100_000, seed=1)
    start = time.perf_counter()
    stock(text)
    return (time.perf_counter() - start) / len(text)


def check_time(tokenizer, text, seconds_per_char):
    """Tokenize `text` within the bound; check that the text is kept."""
    start = time.perf_counter()
    doc = tokenizer(text)
    elapsed = time.perf_counter() - start
    bound = 10 * seconds_per_char * len(text) + 1.0
    assert elapsed < bound, f"{elapsed:.2f}s >= {bound:.2f}s for {len(text)} chars"
    assert doc.text == text
    assert "".join(t.text_with_ws for t in doc) == text
    return doc


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_tokenizer_pathological_runs(tokenizer, stock_seconds_per_char, name):
    check_time(tokenizer, PATHOLOGICAL[name], stock_seconds_per_char)


@pytest.mark.parametrize(
    "length", [100_000, pytest.param(1_000_000, marks=pytest.mark.slow)]
)
def test_tokenizer_random_ascii_without_spaces(
    tokenizer, stock_seconds_per_char, length
):
    """Random printable ASCII without whitespace (1 MB: about 3 s)."""
    chars = [c for c in string.printable if not c.isspace()]
    text = "".join(random.Random(0).choices(chars, k=length))
    check_time(tokenizer, text, stock_seconds_per_char)


@pytest.mark.slow
def test_tokenizer_ordinary_5mb_note(tokenizer, stock_seconds_per_char):
    """A 5 MB ordinary note (about 30 s)."""
    text = ordinary_note(5_000_000)
    doc = check_time(tokenizer, text, stock_seconds_per_char)
    for token in doc[:1000]:
        assert text[token.idx : token.idx + len(token)] == token.text
