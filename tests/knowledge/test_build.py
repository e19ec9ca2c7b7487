"""The build script's parsing on tiny fixture inputs, and its deterministic bytes.

No download: the tests make small wheels holding fixture data files.
"""

import gzip
import hashlib
import importlib.util
import io
import json
import struct
import tarfile
import zipfile

import pytest

from spacy_deid.knowledge.tables import read_table, table_path

from ..conftest import ROOT

SPEC = importlib.util.spec_from_file_location(
    "build_knowledge", ROOT / "scripts" / "build_knowledge.py"
)
build_knowledge = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(build_knowledge)

CITIES = {
    "1": {"name": "Zürich", "population": 415367, "countrycode": "CH"},
    "2": {"name": "Zurich", "population": 900, "countrycode": "US"},
    "3": {"name": "Tiny", "population": 600, "countrycode": "US"},
    "4": {"name": "Tiny", "population": 600, "countrycode": "FR"},
    "5": {"name": "Smallville", "population": 400, "countrycode": "US"},
}
COUNTRIES = {"NZ": {"name": "New Zealand", "iso": "NZ", "iso3": "NZL"},
             "GB": {"name": "United Kingdom", "iso": "GB", "iso3": "GBR"}}  # fmt: skip
STATES = {"TX": {"name": "Texas", "code": "TX"}, "CA": {"name": "California", "code": "CA"}}
COUNTIES = [{"name": "Brazos County", "state": "TX"},
            {"name": "Washington County", "state": "TX"},
            {"name": "Washington County", "state": "CA"}]  # fmt: skip
SURNAMES = {"name": ["SMITH", "OBRIEN", "RARE", "ALL OTHER NAMES"],
            "count": [2442977, 150000, 50, 999]}  # fmt: skip
SSA = {"sex": ["F", "F", "M", "M"], "name": ["June", "June", "June", "Bo"],
       "n": [100, 50, 7, 3]}  # fmt: skip
CENSUS_FIRST = {"name": ["JUNE", "XIMENA"], "count": [900, 200], "pctfemale": [99.0, 90.0]}
WORD_BUCKETS = [["the"], [], ["café", "cafe"], ["x-ray", "don't", "123"]] + [[]] * 296 + [
    ["reading"], [], ["ikwuemesi"]
]
UNII = (
    "Name\tTYPE\tUNII\tDisplay Name\n"
    "METFORMIN\tof\tX\tMETFORMIN\n"
    "METFORMIN\tbn\tX\tMETFORMIN\n"
    "HUMIRA\tbn\tY\tADALIMUMAB\n"
    "ADALIMUMAB-ATTO\tof\tY\tADALIMUMAB\n"
    "A VERY LONG CHEMICAL NAME INDEED\tof\tZ\tQ\n"
    "METFORMIN HCL\tcn\tX\tMETFORMIN\n"
)
# The shape of the ICD-10-CM tabular list: nested chapters, sections and codes.
ICD_XML = b"""<?xml version="1.0" encoding="utf-8"?>
<ICD10CM.tabular><chapter><name>7</name><desc>Diseases of the eye (H00-H59)</desc>
<section id="H40-H42"><desc>Glaucoma (H40-H42)</desc>
<diag><name>H40</name><desc>Glaucoma</desc>
<diag><name>H40.83</name><desc>Aqueous  misdirection</desc></diag>
<diag><name>H40.9</name><desc>Unspecified glaucoma</desc></diag>
<diag><name>H40.89</name><desc>Other specified glaucoma</desc></diag>
<diag><name>H40.1</name><desc>Open-angle glaucoma [primary]</desc></diag>
<diag><name>H40.2</name><desc>Primary angle-closure glaucoma of the right eye, mild stage</desc>
</diag></diag></section></chapter>
<chapter><name>19</name><desc>Injury</desc>
<diag><name>S52.5</name><desc>Fracture of lower end of radius</desc></diag></chapter>
</ICD10CM.tabular>"""


def test_place_rows_keep_the_largest_place_above_the_thresholds():
    places = build_knowledge.place_rows(CITIES.values(), world_min=5000, us_min=500)
    assert places == {"zurich": (415367, "CH"), "tiny": (600, "US")}


def test_region_rows():
    rows = set(build_knowledge.region_rows(COUNTRIES.values(), STATES.values(), COUNTIES))
    assert {("new zealand", "country", "NZ"), ("nz", "country_code", "NZ"),
            ("nzl", "country_code", "NZ"), ("uk", "country", "GB"),
            ("texas", "state", "TX"), ("tx", "state_code", "TX"),
            ("calif.", "state", "CA"), ("brazos", "county", "TX"),
            ("washington", "county", "CA,TX")} <= rows  # fmt: skip


def test_name_rows():
    assert build_knowledge.surname_rows(SURNAMES, min_count=100) == {
        "smith": 2442977, "obrien": 150000}  # fmt: skip
    given = build_knowledge.given_rows(SSA, CENSUS_FIRST, min_count=5)
    assert given == {"june": (150, 7), "ximena": (180, 20)}


def test_word_rows_fold_merge_and_cut():
    words = build_knowledge.word_rows(WORD_BUCKETS, min_zipf=6.0)
    assert words["the"] == 900
    assert words["cafe"] == 928  # café + cafe at 8.98: twice as frequent, +0.30
    assert words["x-ray"] == 897 and words["don't"] == 897
    assert "123" not in words and "reading" in words and "ikwuemesi" not in words
    assert words["reading"] == 600


def test_drug_rows():
    drugs = build_knowledge.drug_rows(UNII)
    assert drugs["metformin"] == "generic" and drugs["humira"] == "brand"
    assert drugs["adalimumab-atto"] == "generic" and drugs["norco"] == "combination"
    assert "metformin hcl" not in drugs
    assert "a very long chemical name indeed" not in drugs


ABBREVIATIONS = {
    "_version": "abc123",
    "BPH": ["benign prostatic hyperplasia"],
    "OSH": ["outside hospital"],
    "QVH": ["Quillon Valley Hospital"],
    "AHFS": ["American Hospital Formulary Service"],
    "T1DM": ["type 1 diabetes mellitus"],
    "A": ["artery"],
    "ED": ["emergency department", "Tove Medical Center"],
}


def test_abbreviation_rows_keep_one_word_of_letters_and_mark_hospitals():
    assert build_knowledge.abbreviation_rows(ABBREVIATIONS) == {
        "ahfs": "term",  # names a service, not a hospital
        "bph": "term",
        "ed": "term",  # not every meaning names a hospital
        "osh": "term",
        "qvh": "hospital",
    }


def test_condition_rows_keep_short_plain_diagnoses():
    rows = build_knowledge.condition_rows(ICD_XML, max_words=6)
    # Spaces normalised; "unspecified", "Other ...", brackets, long
    # descriptions and injury chapters left out.
    assert rows == {"H40": "Glaucoma", "H40.83": "Aqueous misdirection"}


def test_read_cbpack():
    srsly = pytest.importorskip("srsly")
    data = gzip.compress(srsly.msgpack_dumps([{"format": "cB", "version": 1}, ["the"]]))
    assert build_knowledge.read_cbpack(data) == [["the"]]
    with pytest.raises(ValueError):
        build_knowledge.read_cbpack(gzip.compress(srsly.msgpack_dumps([{}, []])))

# WordNet's shapes: data.noun synsets (offset, lemmas, hypernym pointers) and
# index.noun senses (most used first), each after a licence header.
WN_DATA = """\
  1 This software and database is being provided to you
00000001 03 n 01 person 0 000 | a human being
00000002 18 n 02 chef 0 cook 0 001 @ 00000001 n 0000 | a cook
00000003 18 n 01 relative 0 001 @ 00000001 n 0000 | kin
00000004 18 n 01 son 0 001 @ 00000003 n 0000 | a male child
00000005 06 n 01 stapler 0 000 | a device; "the stapler jammed again today"
00000006 18 n 01 Swede 0 001 @ 00000001 n 0000 | a people
00000007 18 n 01 Kidd 0 001 @i 00000002 n 0000 | a pirate
00000008 06 n 01 driver 0 000 | a golf club
00000009 18 n 01 driver 0 001 @ 00000001 n 0000 | who drives
00000010 06 n 01 widget 0 000 | a gadget
00000011 06 n 01 blender 0 000 | a machine
00000012 06 n 01 blender 0 000 | a mixer
00000013 18 n 01 blender 0 001 @ 00000001 n 0000 | who blends
00000014 05 n 01 vixen 0 000 | an animal
00000015 18 n 01 vixen 0 001 @ 00000001 n 0000 | a shrew
00000016 18 n 01 worker 0 001 @ 00000001 n 0000 | who works
00000017 21 n 01 principal 0 000 | a sum lent
00000018 18 n 01 principal 0 001 @ 00000016 n 0000 | the head of a school
"""
WN_INDEX = """\
  1 This software and database is being provided to you
chef n 1 1 @ 1 0 00000002
cook n 1 1 @ 1 0 00000002
relative n 1 1 @ 1 0 00000003
son n 1 1 @ 1 0 00000004
stapler n 1 0 1 0 00000005
swede n 1 1 @ 1 0 00000006
kidd n 1 1 @ 1 0 00000007
driver n 2 1 @ 2 0 00000008 00000009
widget n 1 0 1 0 00000010
blender n 3 1 @ 3 0 00000011 00000012 00000013
vixen n 2 1 @ 2 0 00000014 00000015
worker n 1 1 @ 1 0 00000016
principal n 2 1 @ 2 0 00000017 00000018
ice_cream n 1 0 1 0 00000010
"""
WN_NOUNS = {"chef": "person", "cook": "person", "person": "person",
            "relative": "relation", "son": "relation", "stapler": "thing",
            "driver": "also_person", "blender": "thing",
            "vixen": "also_person", "worker": "person",
            "principal": "also_job"}  # fmt: skip


def test_noun_rows_say_what_the_most_used_senses_name():
    index = WN_INDEX + "person n 1 0 1 0 00000001\n"
    assert build_knowledge.noun_rows(WN_DATA, index) == WN_NOUNS


# Branches of medical science, a shop, and a word whose first sense is no
# branch of medicine.
WN_MEDICAL = """\
00000020 09 n 01 medical_science 0 000 | the science of medicine
00000021 09 n 01 oncology 0 001 @ 00000020 n 0000 | the study of tumors
00000022 09 n 01 cardiology 0 001 @ 00000021 n 0000 | made a child of oncology here
00000023 09 n 01 pharmaceutics 0 001 @ 00000020 n 0000 | preparing drugs
00000024 06 n 01 place_of_business 0 000 | a business
00000025 06 n 01 drugstore 0 001 @ 00000024 n 0000 | a shop
00000026 26 n 01 pathology 0 000 | a disease
"""
WN_MEDICAL_INDEX = """\
oncology n 1 1 @ 1 0 00000021
cardiology n 1 1 @ 1 0 00000022
pharmacy n 2 1 @ 2 0 00000023 00000025
pathology n 2 1 @ 2 0 00000026 00000021
medical_science n 1 0 1 0 00000020
"""


def test_noun_rows_mark_branches_of_medicine_that_name_no_shop():
    index = WN_INDEX + "person n 1 0 1 0 00000001\n" + WN_MEDICAL_INDEX
    rows = build_knowledge.noun_rows(WN_DATA + WN_MEDICAL, index)
    assert rows == {**WN_NOUNS, "oncology": "specialty", "cardiology": "specialty"}


# Usage examples in the glosses of the other databases: kept only when they
# have 4 to 20 words, plain characters and no capital after the first word.
WN_VERB = """\
  1 This software and database is being provided to you
00000001 29 v 01 sneeze 0 000 | exhale abruptly; "He sneezed twice"; "she sneezed loudly at the back of the hall"
00000002 29 v 01 visit 0 000 | go to see; "we visited Paris in spring"; "I visited my aunt last week"
00000003 29 v 01 mix 0 000 | combine; "mix 2 cups of flour with water"; "mix it well"
"""
WN_SENTENCES = {
    "the stapler jammed again today": "noun",
    "she sneezed loudly at the back of the hall": "verb",
    "I visited my aunt last week": "verb",
}


def test_sentence_rows_keep_plain_examples_without_proper_names():
    databases = {"noun": WN_DATA, "verb": WN_VERB, "adj": "", "adv": ""}
    assert build_knowledge.sentence_rows(databases) == WN_SENTENCES


# language-data's name_data.py (a literal read as data) and the IANA registry.
NAME_DATA = (
    "# generated\nLANGUAGES_WITH_NAME_DATA = {'en'}\nCODE_TO_NAMES = {\n"
    "    '001': {'en': 'World'},\n"
    "    'ti': {" + ", ".join(f"'l{i}': 'x'" for i in range(24)) + ", 'en': 'Tigrinya'},\n"
    "    'zzq': {'en': 'Quxish'},\n"
    "    'yyq': {'en': 'Old Quxish (Northern)'},\n"
    "}\n"
)
REGISTRY = (
    "File-Date: 2025-01-01\n%%\nType: language\nSubtag: ti\nDescription: Tigrinya\n"
    "Description: Tigrigna\nAdded: 2005-10-16\n%%\nType: language\nSubtag: zzq\n"
    "Description: Quxish\n%%\nType: region\nSubtag: ZZ\nDescription: Zedland\n"
)
LANGUAGES = {"tigrinya": "major", "tigrigna": "major", "quxish": "minor"}


def test_language_rows_mark_the_widely_named_languages():
    assert build_knowledge.language_rows(NAME_DATA, REGISTRY) == LANGUAGES
    assert build_knowledge.language_rows(NAME_DATA, REGISTRY, min_locales=100) == {
        key: "minor" for key in LANGUAGES
    }


def test_language_rows_need_the_names_literal():
    with pytest.raises(ValueError, match="CODE_TO_NAMES"):
        build_knowledge.language_rows("X = {}\n", REGISTRY)


def _mo(messages):
    """A GNU message catalog (.mo) of (original, translation) pairs."""
    pairs = sorted(messages.items())
    ids = b"".join(k.encode() + b"\0" for k, _ in pairs)
    strs = b"".join(v.encode() + b"\0" for _, v in pairs)
    n, start = len(pairs), 28 + 16 * len(pairs)
    header = struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    table_ids, table_strs, offset = b"", b"", start
    for k, _ in pairs:
        table_ids += struct.pack("<2I", len(k.encode()), offset)
        offset += len(k.encode()) + 1
    for _, v in pairs:
        table_strs += struct.pack("<2I", len(v.encode()), offset)
        offset += len(v.encode()) + 1
    return header + table_ids + table_strs + ids + strs


HOLIDAY_MO = [
    _mo({"Fiesta de Quillon": "Quillon Festival", "Dia Nacional": "National Day",
         "Comienzo de Zarvan": "Beginning of Zarvan", "Dia %s": "%s (observed)"}),
    _mo({"Karneval": "Carnival", "Smithtag": "Smith", "Tinytown": "Tinytown"}),
]  # fmt: skip
HOLIDAYS = {"quillon festival": "Quillon Festival", "zarvan": "Zarvan",
            "beginning of zarvan": "Beginning of Zarvan"}  # fmt: skip


def test_holiday_rows_keep_specific_names():
    places = {"tinytown": (6000, "US")}
    words = {"carnival": 400}  # zipf 4.0: an everyday word
    surnames = {"smith": 2442977}
    rows = build_knowledge.holiday_rows(HOLIDAY_MO, places, words, surnames, {})
    assert rows == HOLIDAYS


def test_check_sha256(tmp_path):
    path = tmp_path / "a.whl"
    path.write_bytes(b"wheel")
    build_knowledge.check_sha256(path, hashlib.sha256(b"wheel").hexdigest())
    with pytest.raises(ValueError):
        build_knowledge.check_sha256(path, "0" * 64)


def _parquet(columns):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    buffer = io.BytesIO()
    pq.write_table(pa.table(columns), buffer)
    return buffer.getvalue()


def _wheels(tmp_path):
    srsly = pytest.importorskip("srsly")
    files = build_knowledge.DATA_FILES
    members = {
        "geonames": {
            files["geonames"] + "cities500.json": json.dumps(CITIES),
            files["geonames"] + "countries.json": json.dumps(COUNTRIES),
            files["geonames"] + "us_states.json": json.dumps(STATES),
            files["geonames"] + "us_counties.json": json.dumps(COUNTIES),
        },
        "census": {
            files["census"] + "census_2010.parquet": _parquet(SURNAMES),
            files["census"] + "census_2020_first_names.parquet": _parquet(CENSUS_FIRST),
        },
        "ssa": {files["ssa"]: _parquet(SSA)},
        "wordfreq": {files["wordfreq"]: gzip.compress(
            srsly.msgpack_dumps([{"format": "cB", "version": 1}] + WORD_BUCKETS))},
        "unii": {files["unii"]: UNII},
        "icd10cm": {files["icd10cm"]: ICD_XML},
        "holidays": {
            build_knowledge.HOLIDAYS_PACKAGE_LICENSE: "MIT License\n",
            files["holidays"] + "AA.mo": HOLIDAY_MO[0],
            files["holidays"] + "BB.mo": HOLIDAY_MO[1],
        },
        "abbreviations": {
            build_knowledge.ABBREVIATIONS_PACKAGE_LICENSE: "MIT License\n",
            files["abbreviations"]: gzip.compress(json.dumps(ABBREVIATIONS).encode()),
        },
        "languages": {
            build_knowledge.LANGUAGES_PACKAGE_LICENSE: "MIT License\n",
            files["languages"] + "name_data.py": NAME_DATA,
            files["languages"] + "data/language-subtag-registry.txt": REGISTRY,
        },
    }  # fmt: skip
    source = build_knowledge.SOURCES["wordnet"]
    tarball = tmp_path / source.file_glob
    with tarfile.open(tarball, "w:gz") as archive:
        for member, data in {
            files["wordnet"] + "data.noun": WN_DATA,
            files["wordnet"] + "index.noun": WN_INDEX,
            files["wordnet"] + "data.verb": WN_VERB,
            files["wordnet"] + "data.adj": "",
            files["wordnet"] + "data.adv": "",
            build_knowledge.WORDNET_LICENSE: "WordNet Release 3.0\n",
        }.items():
            info = tarfile.TarInfo(member)
            info.size = len(data.encode("latin-1"))
            archive.addfile(info, io.BytesIO(data.encode("latin-1")))
    wheels = {source.package: tarball}
    for key, content in members.items():
        path = tmp_path / f"{build_knowledge.SOURCES[key].wheel_prefix}py3-none-any.whl"
        with zipfile.ZipFile(path, "w") as archive:
            for member, data in content.items():
                archive.writestr(member, data)
        wheels[build_knowledge.SOURCES[key].package] = path
    return wheels


def test_build_twice_gives_the_same_bytes(tmp_path):
    wheels = _wheels(tmp_path)
    first, second = tmp_path / "first", tmp_path / "second"
    counts = build_knowledge.build(wheels, first)
    assert build_knowledge.build(wheels, second) == counts
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir())
    assert "SOURCES.md" in names and "words.LICENSE.md" in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert read_table("surnames", first) == {"smith": 2442977, "obrien": 150000}
    assert read_table("places", first)["zurich"] == (415367, "CH")
    assert ("state", "TX") in read_table("regions", first)["texas"]
    assert table_path("words", first).stat().st_size > 0
    assert read_table("conditions", first)["H40.83"] == "Aqueous misdirection"
    assert read_table("nouns", first) == {k: v for k, v in WN_NOUNS.items() if k != "person"}
    assert read_table("sentences", first) == WN_SENTENCES
    assert read_table("languages", first) == LANGUAGES
    # The fixture's word and place tables know neither word: both stay.
    extra = {"carnival": "Carnival", "tinytown": "Tinytown"}
    assert read_table("holidays", first) == {**HOLIDAYS, **extra}
    assert "MIT" in (first / "holidays.LICENSE.md").read_text(encoding="utf-8")
    assert read_table("abbreviations", first)["qvh"] == "hospital"
    assert "imantsm" in (first / "abbreviations.LICENSE.md").read_text(encoding="utf-8")
    assert "UNICODE LICENSE V3" in (first / "languages.LICENSE.md").read_text(encoding="utf-8")
    assert "Princeton" in (first / "nouns.LICENSE.md").read_text(encoding="utf-8")
    assert "WordNet Release" in (first / "nouns.LICENSE.md").read_text(encoding="utf-8")


def test_find_wheel(tmp_path):
    wheels = _wheels(tmp_path)
    for key in ("unii", "wordnet"):
        source = build_knowledge.SOURCES[key]
        assert build_knowledge.find_wheel(source, tmp_path) == wheels[source.package]
