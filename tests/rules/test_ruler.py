"""The `phi_rules` component: factory, policies, serialization, multiprocessing."""

import json
import pickle
import subprocess
import sys
import textwrap

import pytest
import spacy
import srsly
from spacy.tokens import Doc, Span
from spacy.util import make_tempdir

from spacy_deid.rules.patterns import default_patterns
from spacy_deid.rules.ruler import PhiRuler

NOTE = (
    "Pt is a 68 yo M seen by Dr. Smith on 3/14/2067 (MRN: 7194334).\n"
    "Tel: (617) 555-1212, Fax: 617-555-1213. Lives in Boston, MA 02114.\n"
    "BP 120/80, strength 5/5, 1/2 tab q6h. Email jdoe@example.org."
)
EXPECTED = [
    ("68", "AGE"),
    ("Smith", "DOCTOR"),
    ("3/14/2067", "DATE"),
    ("7194334", "MEDICALRECORD"),
    ("(617) 555-1212", "PHONE"),
    ("617-555-1213", "FAX"),
    ("Boston", "CITY"),
    ("MA", "STATE"),
    ("02114", "ZIP"),
    ("jdoe@example.org", "EMAIL"),
]
USER_PATTERN = {
    "id": "user.room",
    "label": "ROOM",
    "pattern": r"\b(?i:room|rm)\.?[ \t]*(?P<phi>\d{3,4}[A-Z]?)\b",
    "priority": 40,
}


def _ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def _full(doc):
    return [
        (e.start_char, e.end_char, e.label_, e._.phi_source, e._.phi_flags)
        for e in doc.ents
    ]


@pytest.fixture
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_rules")
    return nlp


def test_factory_from_entry_point_without_import():
    code = textwrap.dedent(
        """
        import sys, spacy
        assert "spacy_deid" not in sys.modules
        nlp = spacy.blank("en")
        nlp.add_pipe("phi_rules")
        doc = nlp("Call 617-555-1212 on 3/14/2067.")
        print([(e.text, e.label_) for e in doc.ents])
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[('617-555-1212', 'PHONE'), ('3/14/2067', 'DATE')]"


def test_note(nlp):
    doc = nlp(NOTE)
    assert _ents(doc) == EXPECTED
    for ent in doc.ents:
        assert ent._.phi_source.startswith("rules:")
        assert 0 < ent._.phi_score <= 1
    assert nlp.get_pipe("phi_rules").labels


def test_config_refers_to_registered_patterns(nlp):
    cfg = nlp.config["components"]["phi_rules"]
    assert cfg["patterns"]["@misc"] == "spacy_deid.phi_patterns.v1"
    assert len(nlp.get_pipe("phi_rules")) == len(default_patterns())


@pytest.mark.parametrize("text", ["", " ", "\n\n\t ", "no phi here"])
def test_empty_and_whitespace(nlp, text):
    doc = nlp(text)
    assert doc.ents == ()
    assert len(doc.spans["phi_rules"]) == 0


def test_labels_restriction():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("phi_rules", config={"labels": ["DATE", "FAX"]})
    assert set(ruler.labels) == {"DATE", "FAX"}
    assert _ents(nlp(NOTE)) == [("3/14/2067", "DATE"), ("617-555-1213", "FAX")]
    with pytest.raises(ValueError):
        spacy.blank("en").add_pipe("phi_rules", config={"labels": ["NAME"]})


def test_patterns_function_labels_and_exclude():
    pats = default_patterns(labels=["AGE"], exclude=["age.decade"])
    # NOT_PHI patterns stay: they never emit entities.
    assert {p["label"] for p in pats} == {"AGE", "NOT_PHI"}
    assert "age.decade" not in {p["id"] for p in pats}
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "phi_rules",
        config={"patterns": {"@misc": "spacy_deid.phi_patterns.v1", "labels": ["AGE"]}},
    )
    assert _ents(nlp(NOTE)) == [("68", "AGE")]
    with pytest.raises(ValueError):
        default_patterns(exclude=["no.such.id"])


def test_patterns_are_json_serializable():
    pats = default_patterns()
    assert json.loads(json.dumps(pats)) == pats
    assert len({p["id"] for p in pats}) == len(pats)


def _preset(nlp, text, start_char, end_char, label):
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(start_char, end_char, label=label)]
    return doc


def test_keep_existing_ents():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("phi_rules")
    text = "Seen by Dr. Smith on 3/14/2067."
    doc = _preset(nlp, text, 12, 17, "PATIENT")
    doc.ents[0]._.phi_source = "ner"
    doc = ruler(doc)
    assert _ents(doc) == [("Smith", "PATIENT"), ("3/14/2067", "DATE")]
    assert doc.ents[0]._.phi_source == "ner"
    # The DOCTOR candidate is still in the span group.
    assert ("Smith", "DOCTOR") in [(s.text, s.label_) for s in doc.spans["phi_rules"]]


def test_overwrite_ents():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("phi_rules", config={"overwrite_ents": True})
    text = "Call 617-555-1212 now please"
    # An existing entity that covers the phone and one more token.
    doc = _preset(nlp, text, 5, 21, "IDNUM")
    doc = ruler(doc)
    assert _ents(doc) == [("617-555-1212", "PHONE")]
    now = [t for t in doc if t.text == "now"][0]
    assert now.ent_iob_ == "O"  # the leftover token of the replaced entity
    # Non-overlapping existing entities stay.
    doc = _preset(nlp, text, 22, 28, "PATIENT")
    assert _ents(ruler(doc)) == [("617-555-1212", "PHONE"), ("please", "PATIENT")]


def test_untouched_tokens_keep_their_state():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_rules")
    doc = nlp("Call 617-555-1212 now")
    iob = [t.ent_iob_ for t in doc]
    assert iob[0] == iob[-1] == ""  # missing, not O: a later NER is unaffected
    assert iob[1:-1] == ["B"] + ["I"] * (len(doc) - 3)


def _ruler(patterns, **kwargs):
    return PhiRuler(patterns=patterns, **kwargs)


def test_overlap_priority_then_length_then_start():
    nlp = spacy.blank("en")
    text = "alpha beta gamma"
    pats = [
        {
            "id": "a.long",
            "label": "IDNUM",
            "pattern": "alpha beta gamma",
            "priority": 1,
        },
        {"id": "b.short", "label": "DEVICE", "pattern": "beta", "priority": 5},
    ]
    # Higher priority wins even though it is shorter.
    assert _ents(_ruler(pats)(nlp.make_doc(text))) == [("beta", "DEVICE")]
    pats[1]["priority"] = 1
    # Same priority: the longer span wins.
    assert _ents(_ruler(pats)(nlp.make_doc(text))) == [("alpha beta gamma", "IDNUM")]
    pats = [
        {"id": "x.first", "label": "IDNUM", "pattern": "alpha beta"},
        {"id": "x.second", "label": "DEVICE", "pattern": "beta gamma"},
    ]
    # Same priority and length: the earlier start wins.
    assert _ents(_ruler(pats)(nlp.make_doc(text))) == [("alpha beta", "IDNUM")]
    # All accepted candidates are in the span group.
    doc = _ruler(pats)(nlp.make_doc(text))
    assert len(doc.spans["phi_rules"]) == 2


def test_phi_group_and_expand_alignment():
    nlp = spacy.blank("en")
    pats = [{"id": "u.x", "label": "IDNUM", "pattern": r"key=(?P<phi>\d+)"}]
    doc = _ruler(pats)(nlp.make_doc("a key=123 b"))
    # "key=123" is one token: expand rather than lose the PHI.
    assert _ents(doc) == [("key=123", "IDNUM")]
    # The candidate itself is exact.
    cands = _ruler(pats).match(doc)
    assert [doc.text[c.start_char : c.end_char] for c in cands] == ["123"]


def test_a_pattern_can_name_its_phi_group():
    nlp = spacy.blank("en")
    shape = r"(?P<key>[a-z]+)=(?P<value>\d+)"
    pats = [
        {"id": "u.value", "label": "IDNUM", "pattern": shape, "phi_group": "value"},
        {"id": "u.key", "label": "USERNAME", "pattern": shape, "phi_group": "key"},
    ]
    cands = _ruler(pats).match(nlp.make_doc("a key=123 b"))
    found = [(c.start_char, c.end_char, c.pattern.id) for c in cands]
    assert found == [(2, 5, "u.key"), (6, 9, "u.value")]
    # The default group may be absent: then the whole match is the PHI.
    whole = [{"id": "u.w", "label": "IDNUM", "pattern": r"\d+", "phi_group": "phi"}]
    assert [
        (c.start_char, c.end_char)
        for c in _ruler(whole).match(nlp.make_doc("a key=123 b"))
    ] == [(6, 9)]
    with pytest.raises(ValueError, match="'u.bad' has no group named 'nope'"):
        _ruler(
            [{"id": "u.bad", "label": "IDNUM", "pattern": shape, "phi_group": "nope"}]
        )


def test_patterns_with_one_regex_share_their_matches(monkeypatch):
    """The default patterns that share a regex (city, state and ZIP of "Boston,
    MA 02114"; the city and state after a cue) are matched once per text, with
    the candidates each would find alone."""
    from spacy_deid.rules import matching as ruler_module

    # Without the prefilter, which would skip the groups that cannot match.
    ruler = PhiRuler(patterns=default_patterns(), prefilter=False)
    groups = {tuple(p.id for p in g) for g in ruler._sharing if len(g) > 1}
    assert ("zip.city_state", "state.before_zip", "city.before_state_zip") in groups
    assert ("city.cued_state", "state.cued_city") in groups
    assert sum(len(g) for g in ruler._sharing) == len(ruler)
    text = NOTE + "\nShe moved to Tulsa, OK last year; lives in Reading, PA 19601.\n"
    doc = spacy.blank("en").make_doc(text)
    alone = [c for p in ruler._compiled for c in ruler_module.find_candidates(text, p)]
    key = lambda c: (c.start_char, c.end_char, c.pattern.index)  # noqa: E731
    calls = []
    real = ruler_module.find_matches
    monkeypatch.setattr(
        ruler_module,
        "find_matches",
        lambda text, pattern: calls.append(pattern.id) or real(text, pattern),
    )
    shared = ruler.match(doc)
    assert shared == sorted(alone, key=key)
    assert len(calls) == len(ruler._sharing) < len(ruler)
    assert {"Tulsa", "OK", "Reading", "PA", "19601"} <= {
        text[c.start_char : c.end_char] for c in shared
    }


def test_exclusions():
    nlp = spacy.blank("en")
    pats = [
        {
            "id": "u.num",
            "label": "IDNUM",
            "pattern": r"\d{4}",
            "exclude_before": r"skip\s*$",
            "exclude_after": r"^\s*mg",
        }
    ]
    ruler = _ruler(pats)
    assert _ents(ruler(nlp.make_doc("skip 1234, 2345 mg, 3456"))) == [("3456", "IDNUM")]


def test_require_before():
    nlp = spacy.blank("en")
    pats = [
        {
            "id": "u.code",
            "label": "IDNUM",
            "pattern": r"\b\d{5}\b",
            "require_before": r"(?i:code)\s*$",
            "context_window": 10,
        }
    ]
    doc = _ruler(pats)(nlp.make_doc("code 12345 and 23456"))
    assert _ents(doc) == [("12345", "IDNUM")]


def test_spans_key_none():
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_rules", config={"spans_key": None})
    doc = nlp(NOTE)
    assert _ents(doc) == EXPECTED
    assert "phi_rules" not in doc.spans


@pytest.mark.parametrize(
    "bad",
    [
        {"id": "x", "label": "NOPE", "pattern": "a"},
        {"id": "x", "label": "DATE", "pattern": "("},
        {"id": "x", "label": "DATE", "pattern": "a", "validator": "nope"},
        {"id": "x", "label": "DATE", "pattern": "a", "flags": "q"},
        {"id": "x", "label": "DATE", "pattern": "a", "typo": 1},
        {"label": "DATE", "pattern": "a"},
        {"id": "date.weekday", "label": "DATE", "pattern": "a"},  # duplicate id
    ],
)
def test_invalid_patterns(nlp, bad):
    ruler = nlp.get_pipe("phi_rules")
    n = len(ruler)
    with pytest.raises(ValueError):
        ruler.add_patterns([bad])
    assert len(ruler) == n and ruler.user_patterns == []


def test_every_builtin_pattern_compiles():
    """The built-in patterns are compiled on first use (`patterns.is_builtin`),
    so their errors would only show when a text needs them: check them here."""
    from spacy_deid.rules.matching import compile_pattern
    from spacy_deid.rules.patterns import FAMILIES, is_builtin

    for family, patterns in FAMILIES.items():
        for index, pattern in enumerate(patterns):
            assert is_builtin(pattern), pattern["id"]
            rule = compile_pattern(pattern, index)  # compiles now, or raises
            assert rule.regex.pattern == pattern["pattern"], family
            _ = (rule.scout, rule.gate)  # never raise


def test_builtin_patterns_are_compiled_on_first_use_others_at_once():
    ruler = PhiRuler(patterns=default_patterns(), prefilter=False)
    assert not any(rule._lazy for rule in ruler._compiled)
    changed = dict(default_patterns()[0], pattern="(")
    with pytest.raises(ValueError, match="not a valid regex"):
        PhiRuler(patterns=[changed])
    ruler.add_patterns([USER_PATTERN])
    assert [r.id for r in ruler._compiled if r._lazy] == [USER_PATTERN["id"]]
    ruler(spacy.blank("en").make_doc(NOTE))
    assert all("regex" in rules[0]._lazy for rules in ruler._sharing)


def test_add_patterns_and_initialize(nlp):
    ruler = nlp.get_pipe("phi_rules")
    ruler.add_patterns([USER_PATTERN])
    assert ("412B", "ROOM") in _ents(nlp("moved to room 412B"))
    ruler.initialize(lambda: [], nlp=nlp, patterns=None)
    assert ruler.user_patterns == []
    ruler.initialize(lambda: [], nlp=nlp, patterns=[USER_PATTERN])
    assert ruler.user_patterns == [USER_PATTERN]


def test_initialize_from_config():
    with make_tempdir() as d:
        srsly.write_jsonl(d / "rooms.jsonl", [USER_PATTERN])
        nlp = spacy.blank("en")
        nlp.add_pipe("phi_rules")
        nlp.config["initialize"]["components"]["phi_rules"] = {
            "patterns": {
                "@readers": "srsly.read_jsonl.v1",
                "path": str(d / "rooms.jsonl"),
            }
        }
        nlp.initialize()
        assert ("412", "ROOM") in _ents(nlp("in Rm 412 today"))


def test_to_disk_from_disk(nlp):
    ruler = nlp.get_pipe("phi_rules")
    ruler.add_patterns([USER_PATTERN])
    text = NOTE + " Room 412."
    expected = _full(nlp(text))
    with make_tempdir() as d:
        nlp.to_disk(d)
        # Only the user-added patterns are written.
        written = list(srsly.read_jsonl(d / "phi_rules" / "patterns.jsonl"))
        assert written == [USER_PATTERN]
        nlp2 = spacy.load(d)
    assert _full(nlp2(text)) == expected
    assert ("412", "ROOM") in _ents(nlp2(text))


def test_to_bytes_from_bytes(nlp):
    ruler = nlp.get_pipe("phi_rules")
    ruler.add_patterns([USER_PATTERN])
    data = ruler.to_bytes()
    fresh = PhiRuler(patterns=default_patterns(), overwrite_ents=True)
    fresh.from_bytes(data)
    assert fresh.user_patterns == [USER_PATTERN]
    assert fresh.overwrite_ents is False  # restored from cfg
    assert len(fresh) == len(ruler)
    nlp2 = spacy.blank("en")
    nlp2.add_pipe("phi_rules")
    nlp2.from_bytes(nlp.to_bytes())
    assert _full(nlp2(NOTE + " Room 412.")) == _full(nlp(NOTE + " Room 412."))


def test_pickle(nlp):
    nlp.get_pipe("phi_rules").add_patterns([USER_PATTERN])
    nlp2 = pickle.loads(pickle.dumps(nlp))
    assert _full(nlp2(NOTE)) == _full(nlp(NOTE))
    ruler2 = pickle.loads(pickle.dumps(nlp.get_pipe("phi_rules")))
    assert ruler2.user_patterns == [USER_PATTERN]


def test_doc_to_bytes_keeps_extensions(nlp):
    doc = nlp("a 95 yo F")
    doc2 = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert _full(doc2) == _full(doc) == [(2, 4, "AGE", "rules:age.yo", ["AGE_OVER_89"])]


def test_pipe_n_process_2(nlp):
    texts = [NOTE, "", "Fax: 617-555-1212", "nothing", "Mrs. Jones, 92 yo"] * 4
    expected = [_full(nlp(t)) for t in texts]
    assert [_full(d) for d in nlp.pipe(texts, n_process=2, batch_size=3)] == expected
    tuples = [(t, {"note_id": i}) for i, t in enumerate(texts)]
    for i, (doc, ctx) in enumerate(nlp.pipe(tuples, as_tuples=True, n_process=2)):
        assert ctx == {"note_id": i} and _full(doc) == expected[i]


def test_pipe_spawn():
    code = textwrap.dedent(
        """
        import multiprocessing as mp
        import spacy
        if __name__ == "__main__":
            mp.set_start_method("spawn", force=True)
            nlp = spacy.blank("en")
            nlp.add_pipe("phi_rules")
            texts = ["Dr. Smith on 3/14/2067", "Age 95", "none"] * 2
            def full(doc):
                return [(e.text, e.label_, e._.phi_source, e._.phi_flags) for e in doc.ents]
            a = [full(nlp(t)) for t in texts]
            b = [full(d) for d in nlp.pipe(texts, n_process=2, batch_size=2)]
            assert a == b, (a, b)
            print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"


def test_offsets_on_long_unicode_note(nlp):
    text = ("Über 68 yo M — Dr. Smith, Tel: 617-555-1212; ★ 3/14/2067. " * 200).strip()
    doc = nlp(text)
    assert len(doc.ents) == 4 * 200
    for ent in doc.ents:
        assert text[ent.start_char : ent.end_char] == ent.text


def test_errors_do_not_leak_text(nlp):
    bad = {"id": "u.bad", "label": "DATE", "pattern": "(secret"}
    with pytest.raises(ValueError) as err:
        nlp.get_pipe("phi_rules").add_patterns([bad])
    assert "secret" not in str(err.value) and "u.bad" in str(err.value)


def test_span_is_created_for_existing_span_type():
    # Sanity: the ruler returns Span objects in the span group.
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_rules")
    doc = nlp("Tel: 617-555-1212")
    assert all(isinstance(s, Span) for s in doc.spans["phi_rules"])
