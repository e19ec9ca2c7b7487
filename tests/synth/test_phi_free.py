"""PHI-free text must hold no PHI: unannotated years, ids, dates or names would be
gold errors (text the model is taught is not PHI)."""

import json
import re
from random import Random

import pytest

from spacy_deid.synth import data
from spacy_deid.synth.common import HEADERS
from spacy_deid.synth.families import REGISTRY
from spacy_deid.synth.grammar import parse
from spacy_deid.synth.kinds.pathology import GROSS_PROSE, MICRO_PROSE
from spacy_deid.synth.kinds.radiology import RAD_PROSE

MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|"
    r"Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
PATTERNS = {
    # a year 1900-2199 (not a shift time like `0700-1900`) or `'67`
    "year": re.compile(
        r"(?<![\d.,/])(?<!0\d{3}-)(?:19|20|21)\d\d(?![\d.,/])(?!-0\d{3})|'\d\d\b"
    ),
    "digits5": re.compile(r"(?<!CPT )(?<!HCPCS )\b\d{5,}\b"),
    "month_day": re.compile(rf"\b{MONTH}\.?\s+\d"),
    "numeric_date": re.compile(r"(?<![\d/.])\d{1,2}/\d{1,2}/\d{2,4}(?![\d/])"),
    "phone": re.compile(r"\b\d{3}[-.]\d{4}\b|\(\d{3}\)\s*\d"),
    "titled_name": re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Miss)\.?\s+[A-Z][a-z]"),
    "name_pair": re.compile(r"\b[A-Z][a-z]+ and [A-Z][a-z]+ (?:visited|called|came)"),
    "email_url": re.compile(r"@\w|www\.|https?:"),
}


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, val in obj.items():
            yield key
            yield from _strings(val)
    elif isinstance(obj, (list, tuple)):
        for val in obj:
            yield from _strings(val)


def _expand(seq, rng):
    out = []
    for kind, val in seq:
        if kind == "t":
            out.append(val)
        elif kind == "s":
            out.append(" {} ")
        elif kind == "a":
            out.append(_expand(rng.choice(val), rng))
        elif rng.random() < 0.5:
            out.append(_expand(val, rng))
    return "".join(out)


def _literals(seq):
    for kind, val in seq:
        if kind == "t":
            yield val
        elif kind == "a":
            for sub in val:
                yield from _literals(sub)
        elif kind == "o":
            yield from _literals(val)


def phi_free_strings():
    """Every PHI-free vocabulary string and template text the generator emits."""
    out = [("clinical.json", s) for s in _strings(data.load_json("clinical.json"))]
    out += [("headers", s) for s in _strings(HEADERS)]
    out += [("radiology", s) for s in RAD_PROSE]
    out += [("pathology", s) for s in GROSS_PROSE + MICRO_PROSE]
    rng = Random(0)
    for fid, fam in sorted(REGISTRY.items()):
        for frame in fam.frames:
            seq = parse(frame)
            out += [(fid, s) for s in _literals(seq)]
            out += [(fid, _expand(seq, rng)) for _ in range(40)]
    return out


def test_scanner_catches_known_gold_errors():
    bad = (
        "Warren-type distal splenorenal shunt in 2001 per records.",
        "Seen on March 3 by the team.",
        "Mark and Will visited pt.",
        "Call 555-1234.",
        "Acct 1234567.",
        "Dr. Smith aware.",
        "Labs 3/4/2067.",
        "On pressors 2001-2003.",
    )
    for text in bad:
        assert any(p.search(text) for p in PATTERNS.values()), text
    ok = (
        "1900-0700",
        "0700-1900",
        "CPT 99214",
        "BP 120/80",
        "AC 500/14/5/40%",
        "ABG 7.32/48/68",
        "INR 2-3",
    )
    for text in ok:
        assert not any(p.search(text) for p in PATTERNS.values()), text


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_phi_free_text_has_no_phi(name):
    pattern = PATTERNS[name]
    hits = sorted(
        {(src, text) for src, text in phi_free_strings() if pattern.search(text)}
    )
    assert not hits, json.dumps(hits[:20], indent=1)
