"""rules/precompiled.py: regexes compiled when a pipeline is saved."""

import lzma
import re

import pytest
import srsly

from spacy_deid.core import regex_code
from spacy_deid.rules import precompiled
from spacy_deid.rules.gate import required_strings
from spacy_deid.rules.scout import make_scout

REGEXES = [
    (r"(?P<phi>\d{3})-(?P<rest>\d{4})", 0),
    (r"\b(?:Room|Rm)\b\.?[ \t]*(?P<phi>\d{1,4})", 0),
    (r"(?i:dr)\.? (?P<phi>[A-Z][a-z]+)", re.MULTILINE),
    (r"caf\u00e9|na\u00efve", re.IGNORECASE),
]


@pytest.fixture(autouse=True)
def empty_tables():
    precompiled.clear()
    yield
    precompiled.clear()


def table(regexes=REGEXES, scouts=None, needles=None):
    return precompiled.dumps(regexes, scouts or {}, needles or {})


def test_saved_code_compiles_to_what_re_compiles():
    assert precompiled.load(table())
    for pattern, flags in REGEXES:
        regex = precompiled.compile(pattern, flags)
        assert regex == re.compile(pattern, flags)  # same code, flags, text
        assert regex.groupindex == re.compile(pattern, flags).groupindex
    text = "Seen by Dr. Ames in Rm 12, call 555-0100, a NAIVE caf\u00e9 order."
    for pattern, flags in REGEXES:
        found = [m.span() for m in precompiled.compile(pattern, flags).finditer(text)]
        assert found == [m.span() for m in re.finditer(pattern, text, flags)]


def test_regexes_not_in_the_table_are_compiled_as_usual():
    precompiled.load(table(REGEXES[:1]))
    assert precompiled.compile(r"\d+x", 0) == re.compile(r"\d+x")


def test_a_table_of_another_engine_or_a_damaged_one_is_ignored():
    saved = srsly.msgpack_loads(lzma.decompress(table()))
    saved["engine"] = [[3, 99], 1, 4, "little"]
    assert not precompiled.load(lzma.compress(srsly.msgpack_dumps(saved)))
    assert not precompiled.load(table()[:-20])
    assert not precompiled.load(b"not a table")
    assert regex_code._CODE == {}


def test_scouts_and_needles_come_from_the_table():
    regex = re.compile(r"\bby trade (?P<phi>[a-z]+)")
    key = (regex.pattern, regex.flags)
    scout = make_scout(regex)
    needles = required_strings(*key)
    assert scout is not None and needles
    precompiled.load(table([], {key: scout.pattern}, {key: needles}))
    assert precompiled.scout(*key) == (True, scout.pattern)
    assert precompiled.needles(*key) == (True, needles)
    assert precompiled.scout("x+", 0) == (False, None)
    precompiled.load(table([], {key: None}, {key: None}))  # none saved as none
    assert precompiled.scout(*key) == (True, None)
    assert precompiled.needles(*key) == (True, None)


def test_a_ruler_saves_its_table_and_loads_it(tmp_path):
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("phi_rules")
    ruler.write_regex_table(tmp_path)
    saved = srsly.msgpack_loads(
        lzma.decompress((tmp_path / "regex_code.xz").read_bytes())
    )
    sources = {pattern for pattern, *_ in saved["code"]}
    assert {rule.source for rule in ruler._compiled} <= sources
    nlp.to_disk(tmp_path / "nlp")
    assert (tmp_path / "nlp" / "phi_rules" / "regex_code.xz").exists()
    loaded = spacy.load(tmp_path / "nlp")
    precompiled.clear()
    loaded.get_pipe("phi_rules").from_disk(tmp_path / "nlp" / "phi_rules")
    assert len(regex_code._CODE) == len(saved["code"])
    text = "Seen by Dr. Ames in Rm 12 on 3/4/2071, call 555-123-4567."
    assert [(e.text, e.label_) for e in loaded(text).ents] == [
        (e.text, e.label_) for e in nlp(text).ents
    ]
