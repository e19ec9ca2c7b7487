"""Shared list blocks: bed lists, call-back rows, word names, short dates."""

import re

import pytest

from spacy_deid.synth import generate
from spacy_deid.synth.slots.lists import word_firsts, word_surnames


@pytest.fixture(scope="module")
def train():
    return list(generate(400, seed=21, split="train"))


def _spans(note):
    return sorted(note.spans, key=lambda s: s.start)


def test_lowercase_patient_after_room(train):
    hits = 0
    for n in train:
        spans = _spans(n)
        for a, b in zip(spans, spans[1:], strict=False):
            if a.label == "ROOM" and b.label == "PATIENT":
                gap = n.text[a.end : b.start]
                name = n.text[b.start : b.end]
                if gap.strip() == "" and name.islower():
                    hits += 1
    assert hits >= 3, hits


def test_room_after_bed_bay_or_hallway(train):
    """The train split labels the number after "bed", "bay" or "hallway" as a
    room (the shape `room.bed_bay` finds)."""
    hits = 0
    for n in train:
        for s in n.spans:
            before = n.text[max(0, s.start - 9) : s.start].lower()
            if s.label == "ROOM" and re.search(r"\b(?:bed|bay|hallway) #?$", before):
                hits += 1
    assert hits >= 3, hits


def test_free_phrased_jobs(train):
    """The train split writes jobs outside the rules' lexicon after a shift
    word ("works nights as a ...") and after "is a" with an employer (the
    shapes `profession.works_shift_as` and `profession.is_a_at` find)."""
    shift = is_a = 0
    for n in train:
        for s in n.spans:
            before = n.text[max(0, s.start - 30) : s.start]
            after = n.text[s.end : s.end + 5]
            if s.label != "PROFESSION":
                continue
            shift += bool(re.search(r"(?i)\b(?:nights|weekends|days) as an? $", before))
            is_a += bool(re.search(r"(?i)\bis an? $", before) and re.match(r" (?:at|for) ", after))
    assert shift >= 1 and is_a >= 1, (shift, is_a)


def test_month_day_ranges_after_rule_out_or_icu(train):
    """The train split labels both ends of a month/day range after "r/o" or
    an intensive care unit (the cues `date.md_range_start` reads there)."""
    hits = 0
    for n in train:
        starts = {s.start for s in n.spans if s.label == "DATE"}
        ends = {s.end for s in n.spans if s.label == "DATE"}
        pattern = r"(?i)\b(?:r/o|[a-z]{0,2}icu|ccu) (\d{1,2}/\d{1,2})-(\d{1,2}/\d{1,2})"
        for m in re.finditer(pattern, n.text):
            hits += m.start(1) in starts and m.end(2) in ends
    assert hits >= 1, hits


def test_lower_case_facilities_after_transfer_cues(train):
    """The train split labels lower-case facilities after a transfer cue, with
    and without a head word (what `hospital.lower_cued` reads there)."""
    from spacy_deid.rules.patterns.facilities import PATTERNS

    pattern = next(p for p in PATTERNS if p["id"] == "hospital.lower_cued")
    regex = re.compile(pattern["pattern"])
    heads = bare = 0
    for n in train:
        hospitals = {(s.start, s.end) for s in n.spans if s.label == "HOSPITAL"}
        for m in regex.finditer(n.text):
            if m.span("phi") in hospitals:
                heads += m.group("head") is not None
                bare += m.group("head") is None
    assert heads >= 5 and bare >= 1, (heads, bare)


def test_lower_case_schools_and_employers_after_cues(train):
    """The train split labels lower-case schools and employers after a cue
    (what `organization.lower_cued` reads there)."""
    from spacy_deid.rules.patterns.social import PATTERNS

    pattern = next(p for p in PATTERNS if p["id"] == "organization.lower_cued")
    regex = re.compile(pattern["pattern"])
    hits = 0
    for n in train:
        orgs = {(s.start, s.end) for s in n.spans if s.label == "ORGANIZATION"}
        hits += sum(m.span("phi") in orgs for m in regex.finditer(n.text))
    assert hits >= 1, hits


def test_username_then_time(train):
    hits = 0
    for n in train:
        for s in n.spans:
            if s.label == "USERNAME" and re.match(r" \d\d:\d\d", n.text[s.end :]):
                hits += 1
    assert hits >= 3, hits


def test_new_classes_labelled(train):
    found = {"ext": 0, "ssn4": 0, "lic": 0, "day": 0, "sdate": 0}
    for n in train:
        for s in n.spans:
            val = n.text[s.start : s.end]
            if s.label == "PHONE" and re.fullmatch(r"[xX]\d[\d-]+", val):
                found["ext"] += 1
            if s.label == "SSN" and re.fullmatch(r"\d{4}", val):
                found["ssn4"] += 1
            if s.label == "LICENSE":
                found["lic"] += 1
            if s.label == "DATE" and val in ("sun", "sat", "thurs", "tues", "wed"):
                found["day"] += 1
            if s.label == "DATE" and re.fullmatch(r"\d{1,2}/\d{1,2}", val):
                found["sdate"] += 1
    assert all(found.values()), found


def test_ratios_unlabelled(train):
    for n in train:
        for m in re.finditer(r"(BP|FiO2) \d+/\d+|\b1/[24] tab", n.text):
            for s in n.spans:
                assert not (s.start < m.end() and m.start() < s.end), n.text[m.start():m.end()]


def test_word_name_tables():
    assert len(word_firsts("train")) >= 20
    assert len(word_surnames("train")) >= 50
    assert not set(word_firsts("train")) & set(word_firsts("test"))


def test_gen2_classes_labelled(train):
    from spacy_deid.synth.slots.lists import OBSERVANCES, FASTS

    obs = {o.lower() for o in OBSERVANCES + FASTS}
    found = dict.fromkeys(("obs", "wday", "lroom", "bay", "prof", "org", "hosp", "wn"), 0)
    for n in train:
        for s in n.spans:
            val, before = n.text[s.start : s.end], n.text[max(0, s.start - 40) : s.start]
            if s.label == "DATE" and val.lower() in obs:
                found["obs"] += 1
            if s.label == "DATE" and re.fullmatch(r"[A-Z][a-z]+days", val):
                found["wday"] += 1
            if s.label == "ROOM" and re.search(r"(bed|hallway) $", before):
                found["lroom"] += bool(re.search(r"[A-Za-z]", val))
            if s.label == "ROOM" and re.search(r"(PACU|pacu|Recovery) bay $", before):
                found["bay"] += 1
            if s.label == "PROFESSION" and re.search(r"works \w+ as an? $", before, re.I):
                found["prof"] += val[:1].islower()
            if s.label == "ORGANIZATION" and n.text[s.end :].startswith(" club team"):
                found["org"] += 1
            if s.label == "HOSPITAL" and re.search(r"icu at $", before):
                found["hosp"] += val.islower()
            if s.label == "PATIENT" and n.text[s.end :].startswith(" would like to"):
                found["wn"] += 1
    assert all(found.values()), found
