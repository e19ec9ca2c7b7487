"""The `phi_relabel` component: check each span's type with public knowledge.

A tagger trained where names occur mostly in headers ("Nombre: ...") and
places mostly in narrative learns the wrong type for a name in narrative text:
MEDDOCAN's `phi_ner` labels "Ana Fernández" in "la atiende la Dra. Ana
Fernández" as a country, "marido" as a territory, and a sentence-initial
"María José García López, de 67 años" as one street. The span is found (the
binary recall is there); its type is wrong, which garbles the surrogate and
costs strict F1. This component checks the type of every span labelled as a
place (`place_labels`) with what public data knows (`spacy_deid.knowledge`):

- a span of one kin word (`kin_words`: "marido", "hijo") gets `kin_label`;
- a span of two or more name words, the first a given name more than a
  surname, each a name more than a place or an ordinary word, and the whole
  no known place, is a name: `clinician_label` after a clinician title
  (`clinician_cues`: "Dra.") within three tokens, else `patient_label`;
- a span that holds a comma is cut there when the part before it is such a
  name (words alone: no "C/", no "Av.") and the rest holds an age, a number
  followed by an age word (`age_words`: "años"): the name and the age
  (`age_label`) are kept, the rest ("de") is not PHI. A street such as
  "Ramón Puga, 52" has no age and stays whole.

A span labelled as an occupation (`occupation_labels`) that has no word able to
head a job title (`knowledge.occupations`: "dealer", "nurse", an "-er" or "-ist"
noun that WordNet does not know as a thing, a head noun that names a person,
"chef"; or an abbreviation of 2 to 4 capitals, "RN") is dropped: "banana",
"raking the lawn" or "skin stapler" named no job (a job word glued to the
next one counts: "journalistand"), and its surrogate
would garble the note. A name that starts such a span before "'s" stays, as
`possessor_label` ("Kaveh" of "Kaveh's nebulizer"), a span that is a name
stays as `job_name_label` (the tagger read "Haverty" as a job: dropping it
would leave the name), and a span that holds a
code stays whole ("pickup truck (plate 7KQX22915)": the label is wrong, but
dropping it would leave the plate).

A span labelled as a name or a place (`word_labels`) made only of lower-case,
very common English words (zipf >= `min_word_zipf`, and `is_common_word`: more
used as a word than as a name; no digit) is dropped unless a cue word
(`cue_words`: "wife", "dr") comes right before it: "availability" tagged as
a person, "firewall" as a login, "lazy" as a country. "wife opal" stays, and so
do a span that a rule found as it is (`rule_spans_key`), a person's name next
to another in a list ("to watch: akin, burden"), a place after a work cue
that names no job ("works at walmart") and a hospital after a facility cue
(`facility_cues`: "icu at spring mount"). With `initial_words`
the first word may also be a title-case one that opens a sentence or line and
that almost nobody bears as a name ("The stock market" as a firm); with
`nameless_word_zipf` a lower-case word nobody bears as a name and no place is
called, at least that common, counts too ("spatula" as a person). A span the
check drops that names a job takes `job_label` instead ("laborer" as a person).
For `cased_clause_labels`, in a clause that opens with a capitalised word
(sentence case), plainer words pass too: used at zipf >= 2 and mostly as
words rather than names ("The band played a slow waltz"); lower-case
telegraphic notes name people and places in lower case, so there the
stricter test holds.
Dropped too: a span of `nameless_labels` that is one capitalised English word
(zipf >= 3) that nobody in the name tables bears and no place is called:
"Belongings" or "Confidential" at the start of a sentence, tagged as a person;
and one of `nameless_phrase_labels` made of two or more such words that
fewer than `min_name_count` people bear ("Unemployment Insurance").

Spans of a shape that is no PHI whatever their label (`not_phi.py`) are
dropped: a number with its unit (`quantity_labels`: "20 lb", "148 mg/dL"),
"a/b" that is no month and day either way (`fraction_labels`: "20/25"), one
word that is a drug's name, hardly a person's and no place's, unless a work
cue, a cue word or a clinician's title comes before it (`drug_labels`), a
gestational age (`gestation_labels`: "33 2/7", "26w3d"), a date span with no
digit, no month, weekday or season and no capitalised word (`date_labels`:
"OD", "would") or only words for a length of time ("day"), or that is a
number or range of numbers before a unit of time ("2-3" in "in 2-3 weeks"), a
piece of a source-code identifier (`code_labels`: "String" in "Widget::toString()"), a
number of years that something lasted (`duration_labels`: "for 34 years",
"x 1 yr"), a span that the tagger alone found on a line of source code
(`code_line_labels`, `code.py`: "values[i" in "sum += values[i];"), a job
title after a person's name and a comma (`title_labels`: "Consultant
Cardiologist" in "Ana Ruiz, MD, Consultant Cardiologist"; an "-er" word no
table knows is a surname there: "mccall, redifer"), a clinician's role
beside a credentialed name (`role_labels`: "charge nurse" in "charge nurse
Ana Ruiz, RN"), a name before an eponym's head (`eponym_labels`: "Epley
maneuver"), a score out of ten after a score word or an arrow
(`score_labels`: "pain 7/10"), an ordinal alone with no "the" or date
preposition before it (`ordinal_labels`: "3rd IV", "9th grade"), a list
item's number at its line's start (`list_number_labels`: "1." of "1. Lagos"),
a clinical specialty's name (`specialty_labels`: "(Vascular Surgery)"), four
digits that are no year (`no_year_labels`: "over at 2330"), a day counter
(`day_count_labels`: "POD 3", "DOL 9"), a modal verb that opens a sentence
before a verb's base form (`modal_labels`: "Will schedule", not "Will is"),
a season's name used for an event (`season_labels`: "admitted for fall"),
"sat" before a percentage (`saturation_labels`: "O2 sat 97%"), "sat" the
verb (`sat_verb_labels`: "sat in chair"), technical text (`tech_labels`:
"Ctrl+V", "docker run -p"), a form's field label (`field_labels`: "UNIT
NUMBER:"), a word right after an article (`article_labels`: "a Honda"), a
span right before "by" and another entity (`by_labels`: "Gross by Ford"), a
section's header (`header_labels`: "GROSS", "CRASH CART" on its own line),
a measurement (`lab_value_labels`: "LDL 131"), numbers in a run of a numeric
table's cells (`table_labels`: a flowsheet's "400"), capitals shaped like a
credential after a name (`credential_shape_labels`: "Ana Ruiz, CCDS";
`second_credential_labels`: "Ana Ruiz, MD, FCCP"), a 24-hour time opening a
log's line or after "at" (`clock_labels`: "2140"), a login with a space or
no letter (`no_login_labels`: "(bl 88)"), a document's title in capitals
(`title_line_labels`: "NEWBORN NURSERY DISCHARGE SUMMARY"), a number after
"=" (`reading_labels`: "PHQ-9 = 11"), small numbers joined by commas
(`number_list_labels`: follicle sizes "18,17,16"), and a lone credential after a
person's name, a comma and maybe other credentials ("MA" in "Ana Ruiz, MA"
and "CCM" in "Ana Ruiz, RN, CCM", not "MA" in "Salem, MA"); a name span of
`person_labels` loses its trailing ", CNM". A range of years is two dates (`year_range_labels`:
"2079-2087"), and a table's column gap cuts a span (`gap_labels`). Before
all that, a span of `credentialed_labels` that a
comma and a credential follow becomes a clinician's name
(`credentialed_label`): "Ana Ruiz" in "Ana Ruiz, LCSW" tagged as an
organisation, "Ana Ruiz, MD" tagged as a city; a place that a state code
follows stays ("Salem, MA").

The text around a span and the knowledge tables correct the rest: a span of
`clause_labels` is cut at the lower-case stop words inside it that the
label's train spans never hold ("nurse who visits on weekends": a tagger that
runs on over a clause), a span
loses the words of the text around it at its edges (`edge_labels`: "slides."
in "slides. Ana Ruiz", a trailing "·"), is cut at a semicolon inside it, and
a name span at a sentence end inside it; a country's name is a country and a
city's a city (`country_labels`), and a place with its country or state in
one span is split in two (`pair_labels`: "Lagos, Nigeria"), and so is a name
span that lists two people (`name_pair_labels`, `name_pairs.py`: "Tove
Haverty, Anselm Quillon", not "Haverty, Tove"); a name beside the record
number is the patient's, and so are its other mentions (`record_cues`,
`record_labels`, `records.py`: "Call from: Ana Ruiz" above "Ana Ruiz  MRN
00412"); a post office box is an address (`po_box_labels`); a floor number
and a compass direction is a ward (`ward_labels`: "5 East" tagged as a date;
`login_labels`: "Bigelow 11" tagged as a login), and a number in brackets
after a relative's name an age (`kin_age_labels`: "Kids: Anselm (9)"); a job title
loses the lower-case words after its job word (`job_tail_labels`:
"schoolteacher admitted"); a phone or fax number takes the label of the cue
word before it (`contact_cues`); a name right after "Dr." is a clinician's
(`titled_labels`); a job that no head word of the tables names is kept after
a work cue (`job_cues`: "worked as a seamstress"), and a job word counts
only at a head of the phrase (`job_heads`); a clinic or practice named for a
place is a facility (`facility_heads`: "Cleveland Clinic" tagged as a
department), and a word that can head a job title after a work cue is a job
(`cued_job_labels`: "occupation - tailor" tagged as a person). A span of
`edge_labels` is cut at an opening bracket it does not close ("catering
manager (self-employed"), each piece checked alone. Pieces that lose every
letter and digit to these cuts are dropped.

The defaults change nothing; the MEDDOCAN pipeline sets the place settings,
the English one the others too (there a name among firms, cities and
hospitals becomes a clinician's, as most such names on the generator's dev
split are), except `job_heads` and `nameless_phrase_labels`: they trade
recall for precision (on the generator's test split they dropped spans that
covered an employer, a hospital and a school).
On MEDDOCAN train, 2 of 2,580 gold place spans ("Sierra Leona") pass the
name test. A place label that is also a word label gets the word check first.
"""

from typing import AbstractSet, Any, Callable, Dict, FrozenSet, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from ..core.cfg_io import CfgSerializable, is_str_list
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, FLAGS, SCORES, SOURCE_ATTR
from ..core.extensions import SPAN_GROUPS, install_extensions
from ..knowledge import lookup
from ..knowledge.lookup import region_codes
from ..knowledge.occupations import glued_job, heads_an_occupation
from ..knowledge.occupations import names_an_occupation
from ..knowledge.credentials import is_credential
from ..rules.lexicons.professions import PROFESSIONS
from .not_phi import credential_after_space, credential_follows, credential_start
from .not_phi import after_title, follows_name, is_clinician_role, is_eponym
from .not_phi import is_test_result
from .not_phi import is_drug_word, is_language_name, is_list_entry
from .not_phi import is_gestational_age, is_non_date_fraction, is_quantity
from .not_phi import in_code, is_duration, is_nameless_word, is_title_after_name
from .not_phi import in_cased_clause, is_nameless_phrase, is_plain_word
from .not_phi import is_bare_ordinal, is_list_number, is_no_date, is_score
from .not_phi import is_day_count, is_modal_verb, is_no_year, is_specialty
from .not_phi import holds_code, is_saturation, is_season_event, word_at
from .not_phi import is_sat_verb, is_technical, is_field_label, is_word_after_article
from .not_phi import is_before_by, is_clock_time, is_credential_shaped, is_lab_value
from .not_phi import is_document_title, is_no_login, is_number_list, is_reading
from .not_phi import is_second_credential
from .not_phi import is_section_header, is_table_number
from .code import code_lines
from .cues import cue_after, cue_word, cued_label, job_cued, phrase_before
from .edges import arrow_pieces, clause_end_start, clause_pieces, sentence_pieces
from .edges import ARROWS, arrow_length, bracket_pieces, job_tail_start, symbol_end
from .edges import gap_pieces, symbol_start, year_range_pieces
from .edges import semicolon_pieces
from .name_pairs import name_pair
from .records import is_titled, name_words, record_name_words
from .places import (
    holds_own_word,
    holds_place,
    holds_surname,
    is_city_not_country,
    is_country_name,
    is_po_box,
    is_street_name,
    is_named_ward,
    is_ward_span,
    names_facility,
    place_pair,
    state_follows,
)
from ..tagging.ents import write_ents
from ..text.datenames import MONTHS
from ..text.kin_ages import bracketed_kin_age

install_extensions()

_COPIED = ("phi_source", "phi_score", "phi_flags")
# The settings of shapes that are no PHI whatever the label, and their tests.
_SHAPES: Dict[str, Callable[[Span], bool]] = {
    "quantity_labels": is_quantity,
    "fraction_labels": is_non_date_fraction,
    "gestation_labels": is_gestational_age,
    "date_labels": is_no_date,
    "code_labels": in_code,
    "duration_labels": is_duration,
    "score_labels": is_score,
    "ordinal_labels": is_bare_ordinal,
    "list_number_labels": is_list_number,
    "specialty_labels": is_specialty,
    "no_year_labels": is_no_year,
    "day_count_labels": is_day_count,
    "modal_labels": is_modal_verb,
    "season_labels": is_season_event,
    "saturation_labels": is_saturation,
    "sat_verb_labels": is_sat_verb,
    "tech_labels": is_technical,
    "field_labels": is_field_label,
    "article_labels": is_word_after_article,
    "by_labels": is_before_by,
    "header_labels": is_section_header,
    "lab_value_labels": is_lab_value,
    "table_labels": is_table_number,
    "credential_shape_labels": is_credential_shaped,
    "clock_labels": is_clock_time,
    "no_login_labels": is_no_login,
    "second_credential_labels": is_second_credential,
    "title_line_labels": is_document_title,
    "reading_labels": is_reading,
    "number_list_labels": is_number_list,
}
_CUE_WINDOW = 3
# Marks between the items of a list of names ("akin, burden & manana").
_LIST_MARKS = frozenset((",", "&", "and"))

DEFAULT_CONFIG: Dict[str, Any] = {
    "place_labels": [],
    "patient_label": "",
    "clinician_label": "",
    "clinician_cues": [],
    "kin_label": "",
    "kin_words": [],
    "age_label": "",
    "age_words": [],
    "particles": [],
    "min_name_count": 1000,
    "occupation_labels": [],
    "word_labels": [],
    "min_word_zipf": 4.0,
    "cue_words": [],
    "quantity_labels": [],
    "fraction_labels": [],
    "drug_labels": [],
    "person_labels": [],
    "gestation_labels": [],
    "date_labels": [],
    "code_labels": [],
    "duration_labels": [],
    "nameless_labels": [],
    "title_labels": [],
    "credentialed_labels": [],
    "credentialed_label": "",
    "rule_spans_key": "",
    "country_labels": [],
    "country_label": "",
    "city_label": "",
    "edge_labels": [],
    "contact_cues": {},
    "titled_labels": [],
    "job_cues": [],
    "job_heads": False,
    "facility_cues": [],
    "nameless_phrase_labels": [],
    "facility_heads": {},
    "facility_label": "",
    "pair_labels": [],
    "name_pair_labels": [],
    "record_cues": [],
    "record_labels": {},
    "state_label": "",
    "po_box_labels": [],
    "street_label": "",
    "ward_labels": [],
    "login_labels": [],
    "ward_label": "",
    "kin_age_labels": [],
    "kin_age_cues": [],
    "job_tail_labels": [],
    "arrow_labels": [],
    "code_line_labels": [],
    "clause_labels": [],
    "clause_kept": {},
    "clause_joiners": [],
    "possessor_label": "",
    "job_name_label": "",
    "initial_words": False,
    "nameless_word_zipf": 0.0,
    "job_label": "",
    "clause_word_labels": [],
    "state_labels": [],
    "month_name_cues": {},
    "given_name_labels": [],
    "facility_name_count": 0,
    "facility_own_words": False,
    "language_labels": [],
    "language_cues": [],
    "cased_clause_labels": [],
    "role_labels": [],
    "eponym_labels": [],
    "score_labels": [],
    "ordinal_labels": [],
    "list_number_labels": [],
    "specialty_labels": [],
    "no_year_labels": [],
    "day_count_labels": [],
    "cued_job_labels": [],
    "modal_labels": [],
    "season_labels": [],
    "saturation_labels": [],
    "sat_verb_labels": [],
    "tech_labels": [],
    "field_labels": [],
    "article_labels": [],
    "by_labels": [],
    "header_labels": [],
    "street_suffix_labels": [],
    "year_range_labels": [],
    "gap_labels": [],
    "lab_value_labels": [],
    "table_labels": [],
    "credential_shape_labels": [],
    "clock_labels": [],
    "no_login_labels": [],
    "second_credential_labels": [],
    "title_line_labels": [],
    "reading_labels": [],
    "number_list_labels": [],
}


@Language.factory(
    "phi_relabel",
    # The extensions are only carried over to relabelled pieces, never read:
    # declaring them would make `phi_ner` compute scores that nothing uses.
    requires=[ENTS, SPAN_GROUPS],
    assigns=[ENTS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES, FLAGS],
    default_config=DEFAULT_CONFIG,
)
def make_phi_relabel(
    nlp: Language,
    name: str,
    place_labels: List[str],
    patient_label: str,
    clinician_label: str,
    clinician_cues: List[str],
    kin_label: str,
    kin_words: List[str],
    age_label: str,
    age_words: List[str],
    particles: List[str],
    min_name_count: int,
    occupation_labels: List[str],
    word_labels: List[str],
    min_word_zipf: float,
    cue_words: List[str],
    quantity_labels: List[str],
    fraction_labels: List[str],
    drug_labels: List[str],
    person_labels: List[str],
    gestation_labels: List[str],
    date_labels: List[str],
    code_labels: List[str],
    duration_labels: List[str],
    nameless_labels: List[str],
    title_labels: List[str],
    credentialed_labels: List[str],
    credentialed_label: str,
    rule_spans_key: str,
    country_labels: List[str],
    country_label: str,
    city_label: str,
    edge_labels: List[str],
    contact_cues: Dict[str, List[str]],
    titled_labels: List[str],
    job_cues: List[str],
    job_heads: bool,
    facility_cues: List[str],
    nameless_phrase_labels: List[str],
    facility_heads: Dict[str, List[str]],
    facility_label: str,
    pair_labels: List[str],
    name_pair_labels: List[str],
    record_cues: List[str],
    record_labels: Dict[str, str],
    state_label: str,
    po_box_labels: List[str],
    street_label: str,
    ward_labels: List[str],
    login_labels: List[str],
    ward_label: str,
    kin_age_labels: List[str],
    kin_age_cues: List[str],
    job_tail_labels: List[str],
    arrow_labels: List[str],
    code_line_labels: List[str],
    clause_labels: List[str],
    clause_kept: Dict[str, List[str]],
    clause_joiners: List[str],
    possessor_label: str,
    job_name_label: str,
    initial_words: bool,
    nameless_word_zipf: float,
    job_label: str,
    clause_word_labels: List[str],
    state_labels: List[str],
    month_name_cues: Dict[str, List[str]],
    given_name_labels: List[str],
    facility_name_count: int,
    facility_own_words: bool,
    language_labels: List[str],
    language_cues: List[str],
    cased_clause_labels: List[str],
    role_labels: List[str],
    eponym_labels: List[str],
    score_labels: List[str],
    ordinal_labels: List[str],
    list_number_labels: List[str],
    specialty_labels: List[str],
    no_year_labels: List[str],
    day_count_labels: List[str],
    cued_job_labels: List[str],
    modal_labels: List[str],
    season_labels: List[str],
    saturation_labels: List[str],
    sat_verb_labels: List[str],
    tech_labels: List[str],
    field_labels: List[str],
    article_labels: List[str],
    by_labels: List[str],
    header_labels: List[str],
    street_suffix_labels: List[str],
    year_range_labels: List[str],
    gap_labels: List[str],
    lab_value_labels: List[str],
    table_labels: List[str],
    credential_shape_labels: List[str],
    clock_labels: List[str],
    no_login_labels: List[str],
    second_credential_labels: List[str],
    title_line_labels: List[str],
    reading_labels: List[str],
    number_list_labels: List[str],
) -> "PhiRelabel":
    """Create a PhiRelabel component (factory "phi_relabel").

    place_labels (List[str]): Labels whose spans must be places.
    patient_label, clinician_label (str): Labels for names found among them.
    clinician_cues (List[str]): Titles that make a name a clinician's.
    kin_label (str): Label of a kin word; kin_words (List[str]): the words.
    age_label (str): Label of an age; age_words (List[str]): "años", ...
    particles (List[str]): Name particles skipped by the name test ("de").
    min_name_count (int): People who must bear each name word.
    occupation_labels (List[str]): Labels whose spans must name a job.
    word_labels (List[str]): Labels whose spans may not be common words alone.
    min_word_zipf (float): How common such a word is (zipf).
    cue_words (List[str]): Words that keep a common-word span after them.
    quantity_labels (List[str]): Labels whose spans may not be a quantity.
    fraction_labels (List[str]): Labels whose spans may not be a non-date "a/b".
    drug_labels (List[str]): Labels whose spans may not be a drug name alone.
    person_labels (List[str]): Labels of person names: trailing credentials
        are cut off, and a credential right after one is dropped.
    gestation_labels (List[str]): Labels whose spans may not be a gestational
        age.
    date_labels (List[str]): Labels of dates, whose spans must hold a digit,
        a calendar word, a capitalised word or a less common word, and not be
        a number or range of numbers before a unit of time ("2-3" in "in 2-3
        weeks").
    code_labels (List[str]): Labels whose spans may not be a piece of a
        source-code identifier ("String" in "Widget::toString()").
    duration_labels (List[str]): Labels of ages, whose spans may not be how
        long something lasted ("for 34 years", "x 1 yr").
    nameless_labels (List[str]): Labels whose spans may not be one
        capitalised English word that no one bears as a name ("Belongings"),
        unless a cue word comes right before it.
    title_labels (List[str]): Labels whose spans may not be a job title
        after a person's name ("Consultant Cardiologist" in "Ana Ruiz, MD,
        Consultant Cardiologist").
    credentialed_labels (List[str]): Labels of spans that a comma and a
        credential follow, which then become `credentialed_label`: a
        clinician's name tagged as a firm ("Ana Ruiz, LCSW").
    credentialed_label (str): The label of such names ('' for none).
    rule_spans_key (str): The span group of the rules' spans (`phi_rules`'s
        `spans_key`); a `word_labels` span that a rule found as it is stays
        ("hammer" in the bed list row "447 hammer 89 F"). '' for none.
    country_labels (List[str]): Labels of place spans that become
        `country_label` when the knowledge tables know the whole span as a
        country ("Burundi" tagged as a city), unless it is also a US state
        ("Georgia") or a state follows it ("Lebanon, PA").
    country_label (str): The label of countries ('' for none).
    city_label (str): The label that a `country_label` span takes when the
        tables know it as a city and not as a country ("Kampala") or
        when a state follows it ("Lebanon, PA"); '' for none.
    edge_labels (List[str]): Labels whose spans lose a leading clause end of
        ordinary words ("slides." in "slides. Ana Ruiz", "person," in
        "person, Acme Services") and trailing symbols ("·", "→"); those of
        `person_labels` are also cut at a sentence end ("Ana Ruiz. Ben Okoro"),
        and all at a semicolon ("Harrowgate; rehab").
    contact_cues (Dict[str, List[str]]): Label -> cue words ("FAX": ["fax",
        "faxed"], "PHONE": ["tel", "call"]). A span of one of these labels
        takes the label of the nearest cue word before it in its clause
        ("fax the results to the clinic at 555-0101": FAX).
    titled_labels (List[str]): Labels of spans that become `clinician_label`
        right after a clinician title (`clinician_cues`): "Dr. Ana Ruiz"
        tagged as a patient; not a span that a `facility_heads` word ends
        ("PCP: Lakeside Family Practice").
    job_cues (List[str]): Words after which an `occupation_labels` span is
        kept though no word of it heads a job title in the tables: one of
        them within four words before it, in its clause ("worked as a
        seamstress", "occupation: chef").
    facility_cues (List[str]): Words after which a `facility_label` span
        (four words at most before it, in its clause) names a facility
        however ordinary its words ("icu at spring mount", "dispo to cape
        gardens"): the common-word check leaves it alone.
    job_heads (bool): The job word of an `occupation_labels` span must be
        at a head of the phrase (`knowledge.occupations.head_words`): the
        last word of a part, or a word before "of", "at", "and", ...; so
        "a village stay in the dry winter" names no job.
    nameless_phrase_labels (List[str]): Labels whose spans may not be two or
        more capitalised English words that fewer than `min_name_count`
        people bear and no place is called ("Unemployment Insurance").
    facility_heads (Dict[str, List[str]]): Label -> head words ("DEPARTMENT":
        ["clinic", "associates"]). A span of the label that ends in one of
        them and names a place before it (`places.holds_place`) becomes
        `facility_label`: "Cleveland Clinic" tagged as a department.
    facility_label (str): The label of such facilities ('' for none).
    pair_labels (List[str]): Labels of spans that are split when they name a
        place and then its country or US state (`places.place_pair`): "Lagos,
        Nigeria" tagged as one organisation becomes `city_label` and
        `country_label`, "Reno, Nevada" `city_label` and `state_label`.
    name_pair_labels (List[str]): Labels of person names whose spans are split
        at their one comma when one side is a whole name by itself
        (`name_pairs.name_pair`): "Tove Haverty, Anselm Quillon" tagged as one
        name becomes two of the same label; "Haverty, Tove" stays one.
    record_cues (List[str]): Words that, right after a name on its line, make
        it the patient's ("MRN", "DOB"; `records.py`).
    record_labels (Dict[str, str]): Label -> the patient's label: a name of
        the label made only of the words of a name a record cue follows, and
        with no clinician title (`clinician_cues`) or credential, takes the
        patient's label ({"DOCTOR": "PATIENT"}: "Call from: Ana Ruiz" above
        "Ana Ruiz  MRN 00412").
    state_label (str): The label of US states ('' for none: no pair with a
        state is split).
    po_box_labels (List[str]): Labels of spans that become `street_label`
        when they are a post office box and its number (`places.is_po_box`):
        "P.O. Box 4410" tagged as an ID.
    street_label (str): The label of street addresses ('' for none).
    ward_labels (List[str]): Labels of spans that become `ward_label` when
        they are a ward's floor number and compass direction
        (`places.is_ward_span`): "5 East" tagged as a date or a street.
    login_labels (List[str]): Labels of logins, which hold no space: a span
        of them that is a building's name and a floor (`places.is_named_ward`:
        "Bigelow 11", "CW 3") becomes `ward_label`.
    ward_label (str): The label of wards ('' for none).
    kin_age_labels (List[str]): Labels of spans that become `age_label` when
        they are a number in brackets after a person's name with a kin word
        before it (`kin_age_cues`; `cues.kin_age`): "Kids: Anselm (9)"
        tagged as a room.
    kin_age_cues (List[str]): The kin words ("kids", "siblings", "son").
    job_tail_labels (List[str]): Labels of spans that lose the lower-case
        words after their last job word (`edges.job_tail_start`):
        "schoolteacher admitted" becomes "schoolteacher".
    arrow_labels (List[str]): Labels of spans that are cut at the arrows
        inside them (`edges.arrow_pieces`): "Lima → Cusco" tagged as one
        span becomes two.
    code_line_labels (List[str]): Labels of spans that are dropped on a line
        of source code (`code.code_lines`) unless a rule found them with the
        same label: "values[i" in "sum += values[i];" tagged as a name.
    clause_labels (List[str]): Labels of spans that are cut at the words
        inside them that mark a clause (`edges.clause_pieces`): lower-case
        stop words of the language that gold spans of the label never hold
        (`clause_kept`, label -> words they hold), unless the word joins two
        capitalised words and is one of `clause_joiners` ("Bureau of
        Prisons"). `scripts/clause_words.py` derives the two lists
        from a train corpus.
    possessor_label (str): When an `occupation_labels` span names no job
        but starts with a capitalised name and "'s" ("Kaveh's nebulizer"),
        the name is kept with this label instead of being dropped with the
        rest ('' for none).
    job_name_label (str): When an `occupation_labels` span names no job but
        is a name (words that at least `min_name_count` people bear; a common
        English word only after no determiner, in title case or alone in
        lower case), it is kept with this label instead of being dropped
        ('' for none).
    initial_words (bool): The common-word check of `word_labels` also drops
        a span whose first word starts a sentence or line in title case and is
        a common word that almost nobody bears as a name ("The stock market",
        "Soup, noodles"), the rest being lower-case common words.
    nameless_word_zipf (float): The common-word check also takes a lower-case
        word of three letters or more used at least this often (zipf) that
        nobody in the name tables bears and no place is called ("spatula",
        "wheelbarrow"); 0 for off.
    job_label (str): A span the common-word check would drop that names a
        job ("laborer" tagged as a person) takes this label instead ('' to
        drop it).
    clause_word_labels (List[str]): Labels of `clause_labels` whose spans
        holding a capitalised word are also cut at a lower-case common word
        that fewer than `min_name_count` people bear ("Marta requests",
        `edges.common_word_marker`).
    state_labels (List[str]): Labels whose spans that are a US state's full
        name, borne by fewer than `STATE_NAME_BEARERS` people, take
        `state_label` ("Ohio" tagged as a clinician).
    month_name_cues (Dict[str, List[str]]): Label -> cue phrases: a span of
        `date_labels` that is one month's name right after such a phrase takes
        the label ("sister July", "nickname October": a name, not a date).
    given_name_labels (List[str]): Labels whose one-word spans in title case
        that at least `min_name_count` people bear as a given name take the
        label of a `month_name_cues` phrase right before them ("wife Lorraine"
        tagged as a firm, "Dr. Dallas" as a city).
    facility_name_count (int): With `facility_heads`, a surname borne by at
        least this many people and no common word before the head makes a
        facility too ("Mayo Clinic" tagged as a department); 0 for off.
    facility_own_words (bool): With `facility_heads`, a capitalised word
        before the head that is no common English word and no specialty
        makes a facility too ("Brackwater Recovery Clinic" tagged as a firm;
        not "Heart Failure Clinic" or "Gastroenterology Associates").
    cased_clause_labels (List[str]): Labels of `word_labels` whose spans in
        a clause written in sentence case (`in_cased_clause`) pass the
        common-word check with plainer words too (`is_plain_word`): "a slow
        waltz" tagged as a person in ordinary prose; in lower-case
        telegraphic text ("goes to maple grove park") the stricter check holds.
    role_labels (List[str]): Labels whose spans that are a job title beside
        a name of `person_labels` that credentials follow are that
        clinician's role, no PHI (`not_phi.is_clinician_role`: "charge nurse
        Ana Ruiz, RN").
    eponym_labels (List[str]): Labels whose spans that an eponym's head
        follows on their line, or that are a capitalised word and such a
        head, are no PHI (`not_phi.is_eponym`: "Epley" in "Epley maneuver"),
        nor one word that a test's result follows with no cue word before it
        (`not_phi.is_test_result`: "Neer (+)").
    score_labels (List[str]): Labels whose spans that are a score out of ten
        after a score word or an arrow are no PHI (`not_phi.is_score`:
        "pain 7/10", "6/10 -> 3/10").
    ordinal_labels (List[str]): Labels whose spans that are an ordinal alone,
        no "the" or date preposition before it and a word after it, are no
        PHI (`not_phi.is_bare_ordinal`: "3rd IV", "9th grade").
    list_number_labels (List[str]): Labels whose spans that number a list's
        item at a line's start are no PHI (`not_phi.is_list_number`: "1." of
        "1. Lagos, Nigeria").
    specialty_labels (List[str]): Labels whose spans that name a clinical
        specialty are no PHI (`not_phi.is_specialty`: "Vascular Surgery",
        "Obstetrics/Gynecology").
    no_year_labels (List[str]): Labels whose spans that are four digits no
        year of a note is (below 1900 or above 2199) are no PHI
        (`not_phi.is_no_year`: "over at 2330").
    day_count_labels (List[str]): Labels whose spans that count days in
        hospital are no PHI (`not_phi.is_day_count`: "POD 3", "DOL 9").
    cued_job_labels (List[str]): Labels whose one-word spans after a work
        cue (`job_cues`, four words at most before it) that can head a job
        title take `job_label` ("occupation - tailor" tagged as a person).
    modal_labels (List[str]): Labels whose spans that are a modal verb opening
        a sentence before a verb's base form are no PHI
        (`not_phi.is_modal_verb`: "Will schedule", not "Will is").
    season_labels (List[str]): Labels whose spans that are a season's name
        used for an event are no PHI (`not_phi.is_season_event`: "admitted
        for fall", "fall precautions").
    saturation_labels (List[str]): Labels whose spans that are "sat" before
        a percentage are no PHI (`not_phi.is_saturation`: "O2 sat 97%").
    sat_verb_labels (List[str]): Labels whose spans that are "sat" the verb
        are no PHI (`not_phi.is_sat_verb`: "pt sat in chair", not "on sat in
        clinic").
    tech_labels (List[str]): Labels whose spans that hold technical text
        are no PHI (`not_phi.is_technical`: "copy and Ctrl+V", "docker run
        -p", "Open Port 80:443").
    field_labels (List[str]): Labels whose spans that are a form's field
        label are no PHI (`not_phi.is_field_label`: "UNIT NUMBER:").
    article_labels (List[str]): Labels whose spans that are one word, used
        far more as a word than as a name, right after "a", "an" or "the" are
        no PHI (`not_phi.is_word_after_article`: "a SUV", "the Navy").
    by_labels (List[str]): Labels whose spans right before "by" and another
        entity are no PHI (`not_phi.is_before_by`: "Gross by Ford").
    header_labels (List[str]): Labels whose spans that are a section's
        header are no PHI (`not_phi.is_section_header`: "GROSS" alone on its
        line between a blank line and text).
    street_suffix_labels (List[str]): Labels whose spans of capitalised
        words that end in a street's abbreviated suffix take `street_label`
        ("Delancey St" tagged as a city, "Bandera Rd" as a firm).
    gap_labels (List[str]): Labels whose spans are cut at a table's column
        gap, a tab or three spaces or more (`edges.gap_pieces`: "Ana Ruiz
        OSI" across two columns).
    year_range_labels (List[str]): Labels whose spans that are a range of
        years are cut into its two years (`edges.year_range_pieces`:
        "2079-2087", "2093-94"), as i2b2 2014 marks ranges.
    lab_value_labels (List[str]): Labels whose spans that are a medical
        abbreviation and a number are no PHI (`not_phi.is_lab_value`: "LDL
        131" tagged as a department).
    table_labels (List[str]): Labels whose spans of numbers alone inside a
        run of five numeric cells on their line are no PHI
        (`not_phi.is_table_number`: a flowsheet's "400" tagged as an age).
    credential_shape_labels (List[str]): Labels whose spans of capitals that
        few bear as a name, after a comma and a name in mixed case, are no
        PHI (`not_phi.is_credential_shaped`: "CCDS" in "Ana Ruiz, CCDS").
    clock_labels (List[str]): Labels whose spans of four digits of a 24-hour
        time opening a line or after "at", "@" or "~" are no PHI
        (`not_phi.is_clock_time`: a nursing log's "2140").
    no_login_labels (List[str]): Labels (logins) whose spans without a letter
        or of a lower-case word and a number are no PHI
        (`not_phi.is_no_login`: "(bl 88)", "$85").
    second_credential_labels (List[str]): Labels whose spans shaped like a
        credential after a name and another credential are no PHI
        (`not_phi.is_second_credential`: "FCCP" in "Ana Ruiz, MD, FCCP"
        tagged as a hospital; "Dr. Ana Ruiz, SMPC" names her practice).
    title_line_labels (List[str]): Labels whose spans that are a document's
        title in capitals at a line's start are no PHI
        (`not_phi.is_document_title`: "NEWBORN NURSERY DISCHARGE SUMMARY").
    reading_labels (List[str]): Labels whose spans of a number right after
        "=" are no PHI (`not_phi.is_reading`: "PHQ-9 = 11" tagged as an age).
    number_list_labels (List[str]): Labels whose spans of numbers of one or
        two digits joined by commas are no PHI (`not_phi.is_number_list`:
        follicle sizes "18,17,16" tagged as a date).
    """
    return PhiRelabel(
        name,
        place_labels=place_labels,
        patient_label=patient_label,
        clinician_label=clinician_label,
        clinician_cues=clinician_cues,
        kin_label=kin_label,
        kin_words=kin_words,
        age_label=age_label,
        age_words=age_words,
        particles=particles,
        min_name_count=min_name_count,
        occupation_labels=occupation_labels,
        word_labels=word_labels,
        min_word_zipf=min_word_zipf,
        cue_words=cue_words,
        quantity_labels=quantity_labels,
        fraction_labels=fraction_labels,
        drug_labels=drug_labels,
        person_labels=person_labels,
        gestation_labels=gestation_labels,
        date_labels=date_labels,
        code_labels=code_labels,
        duration_labels=duration_labels,
        nameless_labels=nameless_labels,
        title_labels=title_labels,
        credentialed_labels=credentialed_labels,
        credentialed_label=credentialed_label,
        rule_spans_key=rule_spans_key,
        country_labels=country_labels,
        country_label=country_label,
        city_label=city_label,
        edge_labels=edge_labels,
        contact_cues=contact_cues,
        titled_labels=titled_labels,
        job_cues=job_cues,
        job_heads=job_heads,
        facility_cues=facility_cues,
        nameless_phrase_labels=nameless_phrase_labels,
        facility_heads=facility_heads,
        facility_label=facility_label,
        pair_labels=pair_labels,
        name_pair_labels=name_pair_labels,
        record_cues=record_cues,
        record_labels=record_labels,
        state_label=state_label,
        po_box_labels=po_box_labels,
        street_label=street_label,
        ward_labels=ward_labels,
        login_labels=login_labels,
        ward_label=ward_label,
        kin_age_labels=kin_age_labels,
        kin_age_cues=kin_age_cues,
        job_tail_labels=job_tail_labels,
        arrow_labels=arrow_labels,
        code_line_labels=code_line_labels,
        clause_labels=clause_labels,
        clause_kept=clause_kept,
        clause_joiners=clause_joiners,
        possessor_label=possessor_label,
        job_name_label=job_name_label,
        initial_words=initial_words,
        nameless_word_zipf=nameless_word_zipf,
        job_label=job_label,
        clause_word_labels=clause_word_labels,
        state_labels=state_labels,
        month_name_cues=month_name_cues,
        given_name_labels=given_name_labels,
        facility_name_count=facility_name_count,
        facility_own_words=facility_own_words,
        language_labels=language_labels,
        language_cues=language_cues,
        cased_clause_labels=cased_clause_labels,
        role_labels=role_labels,
        eponym_labels=eponym_labels,
        score_labels=score_labels,
        ordinal_labels=ordinal_labels,
        list_number_labels=list_number_labels,
        specialty_labels=specialty_labels,
        no_year_labels=no_year_labels,
        day_count_labels=day_count_labels,
        cued_job_labels=cued_job_labels,
        modal_labels=modal_labels,
        season_labels=season_labels,
        saturation_labels=saturation_labels,
        sat_verb_labels=sat_verb_labels,
        tech_labels=tech_labels,
        field_labels=field_labels,
        article_labels=article_labels,
        by_labels=by_labels,
        header_labels=header_labels,
        street_suffix_labels=street_suffix_labels,
        year_range_labels=year_range_labels,
        gap_labels=gap_labels,
        lab_value_labels=lab_value_labels,
        table_labels=table_labels,
        credential_shape_labels=credential_shape_labels,
        clock_labels=clock_labels,
        no_login_labels=no_login_labels,
        second_credential_labels=second_credential_labels,
        title_line_labels=title_line_labels,
        reading_labels=reading_labels,
        number_list_labels=number_list_labels,
    )


class PhiRelabel(CfgSerializable):
    """Relabel place-labelled spans that are names, kin words or ages."""

    def __init__(self, name: str = "phi_relabel", **cfg: Any) -> None:
        self.name = name
        self.cfg: Dict[str, Any] = {**DEFAULT_CONFIG, **cfg}
        self._configure()

    def _configure(self) -> None:
        check_config(self.cfg)
        cfg = self.cfg
        self._places = set(cfg["place_labels"])
        self._cues = {cue_word(word) for word in cfg["clinician_cues"]}
        self._kin = {word.lower() for word in cfg["kin_words"]}
        self._ages = {word.lower() for word in cfg["age_words"]}
        self._particles = {word.lower() for word in cfg["particles"]}
        self._occupations = set(cfg["occupation_labels"])
        self._words = set(cfg["word_labels"])
        self._cased_clauses = frozenset(cfg["cased_clause_labels"])
        self._roles = frozenset(cfg["role_labels"])
        self._eponyms = frozenset(cfg["eponym_labels"])
        self._cued_jobs = frozenset(cfg["cued_job_labels"])
        self._cue_words = {cue_word(word) for word in cfg["cue_words"]}
        self._job_cues = frozenset(cue_word(word) for word in cfg["job_cues"])
        self._facility_cues = frozenset(cue_word(w) for w in cfg["facility_cues"])
        self._shapes = [
            (frozenset(cfg[key]), check) for key, check in _SHAPES.items() if cfg[key]
        ]
        self._drugs = set(cfg["drug_labels"])
        self._languages = frozenset(cfg["language_labels"])
        self._language_cues = frozenset(cue_word(w) for w in cfg["language_cues"])
        self._persons = frozenset(cfg["person_labels"])
        self._year_ranges = frozenset(cfg["year_range_labels"])
        self._gaps = frozenset(cfg["gap_labels"])
        self._nameless = frozenset(cfg["nameless_labels"])
        self._nameless_phrases = frozenset(cfg["nameless_phrase_labels"])
        self._facility_heads = {
            label: frozenset(w.lower() for w in words)
            for label, words in cfg["facility_heads"].items()
        }
        self._any_facility_head = frozenset().union(*self._facility_heads.values())
        self._titles = frozenset(cfg["title_labels"])
        self._credentialed = (
            frozenset(cfg["credentialed_labels"])
            if cfg["credentialed_label"]
            else frozenset()
        )
        self._countries = (
            frozenset(cfg["country_labels"]) if cfg["country_label"] else frozenset()
        )
        self._edges = frozenset(cfg["edge_labels"])
        self._arrows = frozenset(cfg["arrow_labels"])
        self._clauses = frozenset(cfg["clause_labels"])
        self._clause_kept = {
            label: frozenset(words) for label, words in cfg["clause_kept"].items()
        }
        self._clause_joiners = frozenset(cfg["clause_joiners"])
        self._clause_words = frozenset(cfg["clause_word_labels"])
        self._states = (
            frozenset(cfg["state_labels"]) if cfg["state_label"] else frozenset()
        )
        self._dates = frozenset(cfg["date_labels"])
        self._month_cues = {
            label: frozenset(tuple(cue_word(w) for w in cue.split()) for cue in cues)
            for label, cues in cfg["month_name_cues"].items()
        }
        self._given_names = (
            frozenset(cfg["given_name_labels"]) if self._month_cues else frozenset()
        )
        self._code_line_labels = frozenset(cfg["code_line_labels"])
        self._street_suffixes = (
            frozenset(cfg["street_suffix_labels"]) if cfg["street_label"] else frozenset()
        )
        self._po_boxes = (
            frozenset(cfg["po_box_labels"]) if cfg["street_label"] else frozenset()
        )
        self._wards = (
            frozenset(cfg["ward_labels"]) if cfg["ward_label"] else frozenset()
        )
        self._logins = frozenset(cfg["login_labels"])
        self._kin_ages = (
            frozenset(cfg["kin_age_labels"]) if cfg["age_label"] else frozenset()
        )
        self._kin_age_cues = frozenset(cue_word(word) for word in cfg["kin_age_cues"])
        self._job_tails = frozenset(cfg["job_tail_labels"])
        self._pairs = (
            frozenset(cfg["pair_labels"])
            if cfg["city_label"] and cfg["country_label"]
            else frozenset()
        )
        self._name_pairs = frozenset(cfg["name_pair_labels"])
        self._record_cues = frozenset(cue_word(w) for w in cfg["record_cues"])
        self._record_labels = dict(cfg["record_labels"]) if self._record_cues else {}
        # The labels a name beside a record cue may have: either side of the map.
        self._record_names = frozenset(self._record_labels) | frozenset(
            self._record_labels.values()
        )
        self._contact_cues = {
            cue_word(word): label
            for label, words in cfg["contact_cues"].items()
            for word in words
        }
        self._titled = (
            frozenset(cfg["titled_labels"]) if cfg["clinician_label"] else frozenset()
        )
        self._checked = frozenset().union(
            self._places,
            self._titled,
            cfg["contact_cues"],
            self._edges,
            self._pairs,
            self._name_pairs,
            frozenset(self._record_labels),
            self._arrows,
            self._clauses,
            self._code_line_labels,
            self._po_boxes,
            self._street_suffixes,
            self._wards,
            self._logins,
            self._kin_ages,
            self._job_tails,
            self._countries,
            self._states,
            self._dates if self._month_cues else (),
            self._given_names,
            {cfg["country_label"]} if cfg["city_label"] else (),
            self._occupations,
            self._words,
            self._drugs,
            self._languages,
            self._roles,
            self._eponyms,
            self._cued_jobs if cfg["job_label"] else (),
            self._persons,
            self._nameless,
            self._nameless_phrases,
            self._facility_heads if cfg["facility_label"] else (),
            self._titles,
            self._credentialed,
            self._year_ranges,
            self._gaps,
            *(labels for labels, _ in self._shapes),
        )

    def __call__(self, doc: Doc) -> Doc:
        """Check the type of every place-labelled entity."""
        checked = self._checked
        if not checked or not any(e.label_ in checked for e in doc.ents):
            return doc
        if self._credentialed:
            # First, so that the credentials after them count as after a name.
            found = doc.ents
            clinicians = [self._as_clinician(ent) for ent in found]
            if any(new is not old for new, old in zip(clinicians, found, strict=True)):
                write_ents(doc, clinicians)
        code = self._code_lines(doc)
        ents: List[Span] = []
        for whole in doc.ents:
            if self._not_phi(whole) or self._invented_in_code(whole, code):
                continue
            # A piece cut from the entity gets the same checks: "1.2 mcg/dL"
            # of "Lead level 1.2 mcg/dL" tagged as a firm is a quantity.
            ents.extend(
                piece
                for piece in self._checked_pieces(whole)
                if piece is whole or not self._not_phi(piece)
            )
        write_ents(doc, self._as_record_patients(ents), default="outside")
        return doc

    def _checked_pieces(self, whole: Span) -> List[Span]:
        """The spans an entity that is PHI becomes."""
        ents: List[Span] = []
        pieces = self._edge_pieces(whole)
        pieces = _cut_pieces(pieces, self._edges, semicolon_pieces)
        pieces = _cut_pieces(pieces, self._year_ranges, year_range_pieces)
        pieces = _cut_pieces(pieces, self._gaps, gap_pieces)
        pieces = self._arrow_pieces(self._clause_pieces(self._bracket_pieces(pieces)))
        for ent in self._pair_pieces(pieces):
            ent = self._without_credentials(ent)
            ent = self._without_cue(ent)
            ent = self._without_symbols(ent)
            ent = self._as_country_or_city(ent)
            ent = self._as_state(ent)
            ent = self._as_named_month(ent)
            ent = self._as_cued_given_name(ent)
            ent = self._as_po_box(ent)
            ent = self._as_street(ent)
            ent = self._as_ward(ent)
            ent = self._as_kin_age(ent)
            ent = self._without_job_tail(ent)
            ent = self._as_cued_contact(ent)
            ent = self._as_titled_clinician(ent)
            ent = self._as_facility(ent)
            ent = self._as_cued_job(ent)
            if ent.label_ in self._places:
                # A place label may also be a word label ("warehouse" as an
                # organisation): the word check comes first.
                common = ent.label_ in self._words and self._common_words_only(ent)
                pieces = self._as_job(ent) if common else self._relabel(ent)
            elif ent.label_ in self._occupations:
                # One that names no job but holds a code stays: its label is
                # wrong, but dropping it would leave a plate or an ID. A job
                # after "the" is a role, no one's occupation ("The compiler
                # inlines", "the nurse said"): no gold job of train, the dev
                # draws or the notes by other hands follows "the".
                job = self._names_a_job(ent) and not _after_the(ent)
                kept = job or holds_code(ent)
                pieces = [ent] if kept else self._possessor(ent) or self._job_name(ent)
            elif ent.label_ in self._words:
                pieces = self._as_job(ent) if self._common_words_only(ent) else [ent]
            else:
                pieces = [ent]
            ents.extend(_copy_attrs(ent, piece) for piece in pieces)
        if len(ents) == 1 and ents[0] is whole:
            return ents
        # Cut pieces lose their edge spaces; one of spaces and marks alone
        # holds no PHI.
        trimmed = (_without_spaces(piece) for piece in ents)
        return [piece for piece in trimmed if piece is not None]

    def _as_record_patients(self, ents: List[Span]) -> List[Span]:
        """The entities, each name made only of the words of a name that a
        record cue follows taking the patient's label (`record_labels`)."""
        if not self._record_labels:
            return ents
        words = record_name_words(ents, self._record_cues, self._record_names)
        if not words:
            return ents
        out = []
        for ent in ents:
            label = self._record_labels.get(ent.label_)
            own = name_words(ent.text) if label else frozenset()
            if own and own <= words and not is_titled(ent, self._cues):
                ent = _with_label(ent, label)
            out.append(ent)
        return out

    def _edge_pieces(self, ent: Span) -> List[Span]:
        """A span without a leading clause end of ordinary words, and a
        person's name span cut at the sentence ends inside it."""
        if ent.label_ not in self._edges:
            return [ent]
        start = clause_end_start(ent)
        if start is not None:
            ent = _copy_attrs(ent, Span(ent.doc, start, ent.end, label=ent.label_))
        if ent.label_ not in self._persons:
            return [ent]
        pieces = sentence_pieces(ent)
        if len(pieces) == 1:
            return [ent]
        return [
            _copy_attrs(ent, Span(ent.doc, start, end, label=ent.label_))
            for start, end in pieces
        ]

    def _clause_pieces(self, pieces: List[Span]) -> List[Span]:
        """The pieces, each cut at the words inside it that mark a clause
        ("nurse who visits on weekends")."""

        def cut(ent: Span) -> List[Tuple[int, int]]:
            kept = self._clause_kept.get(ent.label_, frozenset())
            least = (
                self.cfg["min_name_count"] if ent.label_ in self._clause_words else None
            )
            pieces = clause_pieces(ent, kept, self._clause_joiners, least)
            if ent.label_ not in self._occupations or len(pieces) < 2:
                return pieces
            # A job phrase cut from a clause must end in its job word:
            # "dry winter season" from "stays in the dry winter season".
            return [
                (start, end)
                for start, end in pieces
                if _names_a_job(ent.doc[start:end], at_head=True)
            ]

        return _cut_pieces(pieces, self._clauses, cut)

    def _bracket_pieces(self, pieces: List[Span]) -> List[Span]:
        """The pieces, each cut at an opening bracket it does not close
        ("catering manager (self-employed"). A job span is cut only where
        the words before the bracket name a job ("Acme (line cook" stays
        whole rather than lose "Acme"), and its aside stays only if its own
        words name one (the work cue before the span names no aside)."""

        def cut(ent: Span) -> List[Tuple[int, int]]:
            found = bracket_pieces(ent)
            if len(found) == 1 or ent.label_ not in self._occupations:
                return found
            doc = ent.doc
            if not self._names_a_job(doc[found[0][0] : found[0][1]]):
                return [(ent.start, ent.end)]
            at_head = self.cfg["job_heads"]
            return [found[0]] + [
                (start, end)
                for start, end in found[1:]
                if _names_a_job(doc[start:end], at_head)
            ]

        return _cut_pieces(pieces, self._edges, cut)

    def _arrow_pieces(self, pieces: List[Span]) -> List[Span]:
        """The pieces, each cut at the arrows inside it ("Lima → Cusco")."""
        return _cut_pieces(pieces, self._arrows, arrow_pieces)

    def _pair_pieces(self, pieces: List[Span]) -> List[Span]:
        """The pieces, each that names a place and its country or state split
        in two ("Lagos, Nigeria": a city and a country), and each that lists
        two people's names split into the two."""
        split: List[Span] = []
        for ent in pieces:
            names = name_pair(ent) if ent.label_ in self._name_pairs else None
            if names is not None:
                doc = ent.doc
                for start, end in ((ent.start, names), (names + 1, ent.end)):
                    split.append(_copy_attrs(ent, Span(doc, start, end, ent.label_)))
                continue
            pair = place_pair(ent) if ent.label_ in self._pairs else None
            region = self.cfg[f"{pair[1]}_label"] if pair is not None else ""
            if not region:
                split.append(ent)
                continue
            doc, sep = ent.doc, pair[0]
            city = Span(doc, ent.start, sep, label=self.cfg["city_label"])
            split.append(_copy_attrs(ent, city))
            split.append(_copy_attrs(ent, Span(doc, sep + 1, ent.end, label=region)))
        return split

    def _not_phi(self, ent: Span) -> bool:
        """A quantity, a non-date fraction, a gestational age, a date with
        nothing of a date, a piece of code, a drug or a credential after a
        name."""
        label = ent.label_
        if any(
            label in labels and check(ent) and not self._rule_date(ent, check)
            for labels, check in self._shapes
        ):
            return True
        if label in self._drugs and is_drug_word(ent, self.cfg["min_name_count"]):
            return not (self._workplace(ent) or self._after_cue(ent))
        if label in self._languages and self._is_language(ent):
            return True
        if label in self._nameless and is_nameless_word(ent) and not self._cued(ent):
            return True
        if label in self._nameless_phrases and is_nameless_phrase(
            ent, self.cfg["min_name_count"]
        ):
            return True
        if label in self._eponyms and is_eponym(ent):
            return True
        if label in self._eponyms and is_test_result(ent) and not self._cued(ent):
            return True  # "Neer (+)"; "sister Lena (+)" of a pedigree stays
        if label in self._roles and is_clinician_role(
            ent, self._persons, self.cfg["min_name_count"]
        ):
            return True
        if label in self._titles and is_title_after_name(
            ent, self._persons, self.cfg["min_name_count"]
        ):
            return True
        if not is_credential(ent.text.replace(" ", "")):
            return False
        # Only after a name ("MA" is also a state, "CNA" a patient's job), or
        # as a state that no region bears ("EMT lic #").
        if label == self.cfg["state_label"] and not region_codes(ent.text):
            return True
        return bool(self._persons and follows_name(ent, self._persons))

    def _is_language(self, ent: Span) -> bool:
        """A language's name, by a language cue or by itself."""
        return is_language_name(ent, self.cfg["min_name_count"], self._language_cued)

    def _language_cued(self, ent: Span) -> bool:
        """A language cue among the words before a span or right after it."""
        cues = self._language_cues
        return job_cued(ent, cues) or cue_after(ent, cues)

    def _code_lines(self, doc: Doc) -> List[Tuple[int, int]]:
        """The character ranges of the doc's lines of code, where an entity
        with a `code_line_labels` label may lie on one."""
        if not any(e.label_ in self._code_line_labels for e in doc.ents):
            return []
        return code_lines(doc.text)

    def _invented_in_code(self, ent: Span, code: List[Tuple[int, int]]) -> bool:
        """Whether the tagger alone found an entity on a line of code."""
        if not code or ent.label_ not in self._code_line_labels:
            return False
        start, end = ent.start_char, ent.end_char
        on_code = any(a <= start and end <= b for a, b in code)
        return on_code and not self._rule_found(ent)

    def _as_clinician(self, ent: Span) -> Span:
        """A span that credentials follow, as `credentialed_label`."""
        label = self.cfg["credentialed_label"]
        if ent.label_ not in self._credentialed or ent.label_ == label:
            return ent
        if any(c.isdigit() for c in ent.text):
            return ent
        comma = credential_start(ent)
        # Without a comma only after a person's name: "Salem MA" is a place.
        spaced = (
            comma is None
            and ent.label_ in self._persons
            and credential_after_space(ent)
        )
        if comma is None and not spaced and not credential_follows(ent):
            return ent
        if spaced:
            credential = ent.doc[ent.end]
        else:
            credential = ent.doc[(ent.end if comma is None else comma) + 1]
        name = ent if comma is None else ent.doc[ent.start : comma]
        if lookup(credential.text).is_state_code and lookup(name.text).place_population:
            return ent  # "Salem, MA", "Butte, MT"; not "Zelma Varga, MD"
        return _with_label(ent, label)

    def _as_country_or_city(self, ent: Span) -> Span:
        """A place span that is a country's name, as `country_label`; a
        country span that is only a city's name or that a state follows
        ("Lebanon, PA"), as `city_label`."""
        country, city = self.cfg["country_label"], self.cfg["city_label"]
        if ent.label_ in self._countries and ent.label_ != country:
            if is_country_name(ent):
                return _with_label(ent, country)
        elif (
            city
            and ent.label_ == country
            and (is_city_not_country(ent) or state_follows(ent))
        ):
            return _with_label(ent, city)
        return ent

    def _as_state(self, ent: Span) -> Span:
        """A span that is a US state's full name and hardly a person's, as
        `state_label` ("Ohio" tagged as a clinician; "Georgia" stays)."""
        label = self.cfg["state_label"]
        if ent.label_ not in self._states or ent.label_ == label:
            return ent
        text = ent.text
        if "." in text or len(text) < 4 or not text[:1].isupper():
            return ent  # "Calif." and "MA" are abbreviations
        k = lookup(text)
        if not k.is_state or k.surname_count + k.given_count >= STATE_NAME_BEARERS:
            return ent
        return _with_label(ent, label)

    def _as_named_month(self, ent: Span) -> Span:
        """A month's name right after a cue phrase of `month_name_cues`, as
        that phrase's label ("Brother July": a name)."""
        if not self._month_cues or ent.label_ not in self._dates:
            return ent
        if len(ent) != 1 or ent.text.title() not in MONTHS or ent.text.islower():
            return ent
        for label, phrases in self._month_cues.items():
            if phrase_before(ent, phrases):
                return _with_label(ent, label)
        return ent

    def _as_cued_given_name(self, ent: Span) -> Span:
        """A given name right after a cue phrase of `month_name_cues`, as that
        phrase's label ("wife Lorraine" tagged as a firm: a name)."""
        if ent.label_ not in self._given_names or len(ent) != 1:
            return ent
        if not ent.text.istitle() or not ent.text.isalpha():
            return ent
        if lookup(ent.text).given_count < self.cfg["min_name_count"]:
            return ent
        for label, phrases in self._month_cues.items():
            if label != ent.label_ and phrase_before(ent, phrases):
                return _with_label(ent, label)
        return ent

    def _as_street(self, ent: Span) -> Span:
        """Capitalised words and a street's abbreviated suffix, as
        `street_label` ("Delancey St", "Bandera Rd." tagged as a city)."""
        label = self.cfg["street_label"]
        if ent.label_ not in self._street_suffixes or ent.label_ == label:
            return ent
        if is_street_name(ent):
            return _with_label(ent, label)
        return ent

    def _as_po_box(self, ent: Span) -> Span:
        """A post office box and its number, as `street_label`, with the
        "P.O." that the tagger left before "Box 4410"."""
        label = self.cfg["street_label"]
        if ent.label_ not in self._po_boxes or ent.label_ == label:
            return ent
        if is_po_box(ent):
            return _with_label(ent, label)
        doc = ent.doc
        for start in range(ent.start - 1, max(ent.start - 5, -1), -1):
            if doc[start].ent_type_ or doc[start].is_space:
                break
            if doc[start].lower_[:1] == "p" and is_po_box(doc[start : ent.end]):
                box = Span(doc, start, ent.end, label=label)
                return _copy_attrs(ent, box)
        return ent

    def _as_ward(self, ent: Span) -> Span:
        """A ward's floor number and direction, or a login span that is a
        building's name and a floor, as `ward_label`."""
        label = self.cfg["ward_label"]
        if ent.label_ in self._wards and ent.label_ != label and is_ward_span(ent):
            return _with_label(ent, label)
        if label and ent.label_ in self._logins and is_named_ward(ent):
            return _with_label(ent, label)
        return ent

    def _without_job_tail(self, ent: Span) -> Span:
        """A job title without the lower-case words after its job word."""
        if ent.label_ not in self._job_tails:
            return ent
        return _ending_at(ent, job_tail_start(ent))

    def _as_kin_age(self, ent: Span) -> Span:
        """A relative's age in brackets after the name, as `age_label`."""
        label = self.cfg["age_label"]
        if ent.label_ not in self._kin_ages or ent.label_ == label:
            return ent
        if bracketed_kin_age(ent.doc, ent.start, ent.end, self._persons, self._kin_age_cues):
            return _with_label(ent, label)
        return ent

    def _as_titled_clinician(self, ent: Span) -> Span:
        """A span right after a clinician title, as `clinician_label`."""
        label = self.cfg["clinician_label"]
        if ent.label_ not in self._titled or ent.label_ == label or ent.start == 0:
            return ent
        before = ent.start - 1
        if ent.doc[before].text == "." and before > 0:
            before -= 1  # "DR ." split by the tokenizer
        if cue_word(ent.doc[before].text) not in self._cues:
            return ent
        if ent[-1].lower_ in self._any_facility_head:
            return ent  # "PCP: Lakeside Family Practice"
        return _with_label(ent, label)

    def _as_facility(self, ent: Span) -> Span:
        """A span ending in a facility head word, with a place's name (or,
        with `facility_name_count`, a surname; with `facility_own_words`, a
        word of its own) before it, as `facility_label` ("Cleveland Clinic",
        "Mayo Clinic", "Brackwater Recovery Clinic")."""
        label = self.cfg["facility_label"]
        heads = self._facility_heads.get(ent.label_)
        if not label or not heads or len(ent) < 2 or ent.label_ == label:
            return ent
        if ent[-1].lower_ not in heads:
            return ent
        least = self.cfg["facility_name_count"]
        named = holds_place(ent) or (least and holds_surname(ent, least))
        if not named and not (self.cfg["facility_own_words"] and holds_own_word(ent)):
            return ent
        return _with_label(ent, label)

    def _as_cued_contact(self, ent: Span) -> Span:
        """A phone or fax number with the label of the cue word before it."""
        if ent.label_ not in self.cfg["contact_cues"]:
            return ent
        label = cued_label(ent, self._contact_cues)
        if label is None or label == ent.label_:
            return ent
        return _with_label(ent, label)

    def _without_cue(self, ent: Span) -> Span:
        """A person's name span without a leading cue word that a name word
        follows ("daughters Claire", "son Tove"; "Son, Prestyn" is a name)."""
        if ent.label_ not in self._persons or len(ent) < 2:
            return ent
        word = cue_word(ent[0].text)
        plural = word.endswith("s") and word[:-1] in self._cue_words
        if word not in self._cue_words and not plural:
            return ent
        if not ent[1].is_alpha:
            return ent
        return _copy_attrs(ent, Span(ent.doc, ent.start + 1, ent.end, label=ent.label_))

    def _without_symbols(self, ent: Span) -> Span:
        """A span without its leading dashes and trailing symbols."""
        if ent.label_ not in self._edges:
            return ent
        start = symbol_start(ent)
        if start != ent.start:
            ent = _copy_attrs(ent, Span(ent.doc, start, ent.end, label=ent.label_))
        return _ending_at(ent, symbol_end(ent))

    def _without_credentials(self, ent: Span) -> Span:
        """A person's name span without its trailing ", CNM"."""
        if ent.label_ not in self._persons:
            return ent
        return _ending_at(ent, credential_start(ent))

    def _relabel(self, ent: Span) -> List[Span]:
        cfg = self.cfg
        if len(ent) == 1 and cfg["kin_label"] and ent.text.lower() in self._kin:
            return [Span(ent.doc, ent.start, ent.end, label=cfg["kin_label"])]
        if self._is_name(ent):
            return [self._as_name(ent)]
        comma = next((t.i for t in ent if t.text == ","), None)
        if comma is None or comma == ent.start:
            return [ent]
        head = ent.doc[ent.start : comma]
        if not self._is_name(head):
            return [ent]
        ages = self._ages_in(ent.doc[comma + 1 : ent.end])
        return [self._as_name(head)] + ages if ages else [ent]

    def _is_name(self, span: Span) -> bool:
        """Two or more name words, a given name first (a common word too if
        `_COMMON_GIVEN_NAME` people bear it), and no known place."""
        if not self.cfg["patient_label"] or any(c.isdigit() for c in span.text):
            return False
        whole = lookup(span.text)
        if whole.place_population or whole.is_country or whole.is_state:
            return False
        if not all(t.is_alpha and len(t) > 1 for t in span):
            return False  # "C/ Julio Palacios", "Av. Pedro Rubio": streets
        words = [t.text for t in span if t.lower_ not in self._particles]
        if len(words) < 2:
            return False
        first = lookup(words[0])
        if first.given_count <= first.surname_count:
            return False
        # A given name that is also a word opens a name ("Bill Manning",
        # "Summer Petroff") when many bear it and name words follow.
        common = first.given_count >= _COMMON_GIVEN_NAME
        return self._name_word(words[0], common=common) and all(
            self._name_word(word) for word in words[1:]
        )

    def _name_word(self, word: str, common: bool = False) -> bool:
        """A word that at least `min_name_count` people bear, more as a name
        than as a place's, no country or state, and (unless `common`) no
        common English word."""
        k = lookup(word)
        if k.is_country or k.is_state or (k.is_common_word and not common):
            return False
        if k.surname_count + k.given_count < self.cfg["min_name_count"]:
            return False
        return k.name_zipf > k.place_zipf

    def _as_name(self, span: Span) -> Span:
        cfg = self.cfg
        before = span.doc[max(0, span.start - _CUE_WINDOW) : span.start]
        clinician = cfg["clinician_label"] and any(
            cue_word(t.text) in self._cues for t in before
        )
        label = cfg["clinician_label"] if clinician else cfg["patient_label"]
        return Span(span.doc, span.start, span.end, label=label)

    def _ages_in(self, span: Span) -> List[Span]:
        """`age_label` spans of a number followed by an age word."""
        label = self.cfg["age_label"]
        if not label:
            return []
        return [
            Span(span.doc, t.i, t.i + 2, label=label)
            for t in span[:-1]
            if t.like_num and span.doc[t.i + 1].lower_ in self._ages
        ]

    def _rule_date(self, span: Span, check: Callable[[Span], bool]) -> bool:
        """A date without a digit or calendar word that a rule found as it is:
        a day of a schedule ("M" of "HD M/W/F")."""
        return check is is_no_date and self._rule_found(span)

    def _rule_found(self, span: Span) -> bool:
        """Whether a rule span (`rule_spans_key`) with the same label covers
        exactly this span."""
        key = self.cfg["rule_spans_key"]
        if not key or key not in span.doc.spans:
            return False
        return any(
            (s.start, s.end, s.label_) == (span.start, span.end, span.label_)
            for s in span.doc.spans[key]
        )

    def _names_a_job(self, span: Span) -> bool:
        """A job's head word or abbreviation, or a work cue before it."""
        return _names_a_job(span, self.cfg["job_heads"]) or job_cued(
            span, self._job_cues
        )

    def _job_name(self, span: Span) -> List[Span]:
        """A job-labelled span that is a name, as `job_name_label`: words that
        people bear as names ("Haverty", "haverty", "HAVERTY"). One that is a
        common English word too counts after no determiner, in title case
        ("Fields") or alone in lower case ("dtr fields"; not "the fields",
        "formerly a Make"); else nothing."""
        label = self.cfg["job_name_label"]
        words = [t for t in span if not (t.is_punct or t.is_space)]
        if not label or not words:
            return []
        as_noun = _after_determiner(span)
        alone = len(words) == 1
        if not all(self._job_name_word(t, as_noun, alone) for t in words):
            return []
        return [_with_label(span, label)]

    def _job_name_word(self, token: Token, as_noun: bool, alone: bool) -> bool:
        # The tagger read the word as a person (a job): a name that is a word
        # too is the name where it is written as one, after no determiner.
        written = not as_noun and (token.is_title or (alone and token.is_lower))
        return token.is_alpha and self._name_word(token.text, common=written)

    def _possessor(self, span: Span) -> List[Span]:
        """The name that owns what a span names ("Kaveh" in "Kaveh's
        nebulizer"), as `possessor_label`: capitalised words that are no
        common English word, right before "'s"; else nothing."""
        label = self.cfg["possessor_label"]
        doc = span.doc
        marks = range(span.start + 1, span.end)
        end = next((i for i in marks if doc[i].text in _POSSESSIVES), None)
        if not label or end is None:
            return []
        if not all(_is_name_like(t) for t in doc[span.start : end]):
            return []
        return [_copy_attrs(span, Span(doc, span.start, end, label=label))]

    def _cued(self, span: Span) -> bool:
        """Whether a cue word ("wife", "dr") comes right before a span."""
        return (
            span.start > 0
            and cue_word(span.doc[span.start - 1].text) in self._cue_words
        )

    def _common_words_only(self, span: Span) -> bool:
        """Lower-case common words alone (with `initial_words`, the first may
        be a title-case one that starts a sentence: `_initial_word`), with no
        context that names it (`_named_by_context`) and not found by a rule
        (a bed list's "447 hammer 89 F" names a patient by its shape). The
        words are tested first: most spans fail there, and the context checks
        read the tokens and entities around the span."""
        words = [t for t in span if not t.is_punct and not t.is_space]
        if not words or any(not _lower_word(t) for t in words[1:]):
            return False
        first = words[0]
        if not (first.is_alpha and first.is_lower) and not (
            self.cfg["initial_words"]
            and (_initial_word(first, span) or _before_article_end(words))
        ):
            return False
        if not all(self._common_word(t.text) for t in words):
            # Plainer words pass in a sentence-case clause, lower-case ones
            # only: a capitalised one may be a rare given name that opens a
            # sentence or follows a field's colon ("rehab: Amberly").
            if span.label_ not in self._cased_clauses or not self._plain_phrase(words):
                return False
            if not in_cased_clause(span):
                return False
        return not (self._named_by_context(span) or self._rule_found(span))

    def _named_by_context(self, span: Span) -> bool:
        """Whether the words around a span make its ordinary words PHI: a cue
        word right before it, a sign-out list entry ("laws (19)"), a name
        listed with names, an employer after a work cue or a hospital after a
        facility cue."""
        return (
            self._cued(span)
            or is_list_entry(span)
            or self._listed_with_name(span)
            or self._workplace(span)
            or self._facility(span)
        )

    def _after_cue(self, span: Span) -> bool:
        """Whether a cue word (`_cued`) or a clinician's title comes right
        before a span ("PCP Azlin")."""
        if self._cued(span):
            return True
        return span.start > 0 and cue_word(span.doc[span.start - 1].text) in self._cues

    def _facility(self, span: Span) -> bool:
        """Whether a `facility_label` span follows a facility cue ("icu at
        spring mount", "transferred from east bend memorial") or, with the
        cues set, names one by a facility's head words after a word of its
        own ("coconut creek nursing home", not "the nursing home")."""
        if not self._facility_cues or span.label_ != self.cfg["facility_label"]:
            return False
        return job_cued(span, self._facility_cues) or names_facility(span.text)

    def _workplace(self, span: Span) -> bool:
        """Whether a place-labelled span follows a work cue and names no job:
        "works at walmart" names an employer, however ordinary or drug-like
        its words ("job: librarian" is the job, tagged as a firm)."""
        if span.label_ not in self._places or not job_cued(span, self._job_cues):
            return False
        return not names_an_occupation(span.text)

    def _listed_with_name(self, span: Span) -> bool:
        """Whether a person's name span stands next to another one in a list
        or a hand-over, a comma, "&", "and" or an arrow between them
        ("to watch: akin, burden", "signout: ramos -> english")."""
        if span.label_ not in self._persons:
            return False
        doc = span.doc
        names = [e for e in doc.ents if e.label_ in self._persons]
        before = _linked_word(doc, span.start - 1, -1)
        if before is not None and any(e.end == before + 1 for e in names):
            return True
        after = _linked_word(doc, span.end, 1)
        return after is not None and any(e.start == after for e in names)

    def _plain_phrase(self, words: List[Token]) -> bool:
        """Words of a sentence-case clause that are common or plain, lower
        case; in a phrase of two or more, one of them may be an ordinary
        word that is a surname too, no given name and no place ("The quick
        brown fox"): written in lower case where names are capitalised, it
        is the word. Two such words ("mary jones") may be a name."""
        named = [
            t
            for t in words
            if not (self._common_word(t.text) or (t.is_lower and is_plain_word(t.text)))
        ]
        if not named:
            return True
        if len(named) > 1 or len(words) < 2:
            return False
        word = named[0]
        k = lookup(word.text)
        return (
            word.is_lower
            and k.word_zipf >= _NAMESAKE_WORD_ZIPF
            and k.word_zipf > k.name_zipf
            and k.given_count < _NAMESAKE_MAX_GIVEN
            and not k.place_zipf
        )

    def _common_word(self, word: str) -> bool:
        """More used as a word than as a name and at least `min_word_zipf`
        common, or (`nameless_word_zipf`) a word of three letters or more
        nobody bears as a name and no place is called."""
        k = lookup(word)
        if k.is_common_word and k.word_zipf >= self.cfg["min_word_zipf"]:
            return True
        least = self.cfg["nameless_word_zipf"]
        if not least or len(word) < 3 or k.word_zipf < least:
            return False
        if k.surname_count or k.given_count or k.place_population:
            return False
        return not (k.is_country or k.is_state or k.is_county)

    def _as_cued_job(self, ent: Span) -> Span:
        """A one-word span of `cued_job_labels` after a work cue that can
        head a job title, as `job_label`: "occupation - tailor" tagged as a
        person. After a person's title ("works with Dr. Baker") and as a
        place's name ("residing in Queens") it stays."""
        label = self.cfg["job_label"]
        if not label or ent.label_ not in self._cued_jobs or len(ent) != 1:
            return ent
        if after_title(ent) or lookup(ent.text).place_population:
            return ent
        if not heads_an_occupation(ent.text) or not job_cued(ent, self._job_cues):
            return ent
        return _with_label(ent, label)

    def _as_job(self, span: Span) -> List[Span]:
        """A common-word span that names a job as `job_label` ("laborer"
        tagged as a person is still an occupation); else nothing. A list of
        words is no job title ("Bread, butter")."""
        label = self.cfg["job_label"]
        if not label or "," in span.text or not names_an_occupation(span.text):
            return []
        return [_copy_attrs(span, Span(span.doc, span.start, span.end, label=label))]

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        merged = {**self.cfg, **cfg}
        check_config(merged)
        self.cfg = merged
        self._configure()


# The rules' list of professions, for jobs that WordNet names by a relation.
_PROFESSIONS = frozenset(PROFESSIONS)
# People bearing a given name that is also a word for it to open a name.
_COMMON_GIVEN_NAME = 10_000
# An ordinary word that is a surname too ("brown") is this common, more used
# as a word than as a name, and hardly a given name ("pearl" is one).
_NAMESAKE_WORD_ZIPF = 4.0
_NAMESAKE_MAX_GIVEN = 10_000
_POSSESSIVES = ("'s", "\u2019s")
# A state's name borne by this many people is a person's name too ("Georgia",
# "Virginia", "Washington"); "Florida" (about 4,000) and "Nevada" are not.
STATE_NAME_BEARERS = 10_000
# A title-case first word counts as a common word at the start of a sentence
# only below this name zipf (few bearers: "The", "Soup"); first names of the
# train split's sentence-initial gold ("Eve", "Rocky", "Buddy") lie above it.
INITIAL_MAX_NAME_ZIPF = 1.5
_SENTENCE_ENDS = (".", "!", "?")
# Words before a noun, never before a name.
_DETERMINERS = frozenset(
    {
        "a", "an", "the", "this", "that", "these", "those", "my", "his",
        "her", "its", "our", "your", "their", "some", "any", "no", "each",
        "every",
    }
)  # fmt: skip


def _initial_word(token: Token, span: Span) -> bool:
    """A title-case word that opens the span and its sentence or line and is
    almost never a name."""
    if not (token.is_alpha and token.is_title and token.i == span.start):
        return False
    if token.i > 0:
        before = token.doc[token.i - 1]
        if not (
            before.text in _SENTENCE_ENDS or (before.is_space and "\n" in before.text)
        ):
            return False
    return lookup(token.text).name_zipf < INITIAL_MAX_NAME_ZIPF


def _after_the(span: Span) -> bool:
    """Whether a span opens with "the" or follows it."""
    return span[0].lower_ == "the" or _after_determiner(span, _THE)


_THE = frozenset({"the"})


def _before_article_end(words: List[Token]) -> bool:
    """Whether a span of words ends in an article after a title-case word
    that opens it ("Mix the" of "Mix the flour"): no name ends so."""
    return len(words) > 1 and words[0].is_title and words[-1].lower_ in _ARTICLES


_ARTICLES = frozenset({"a", "an", "the"})


def _lower_word(token: Token) -> bool:
    """A word in lower case, or the pronoun "I"."""
    return token.is_alpha and (token.is_lower or token.text == "I")


def _after_determiner(span: Span, determiners: AbstractSet[str] = frozenset()) -> bool:
    """Whether a determiner ("the", "a", "his"; or one of `determiners`)
    comes right before a span."""
    before = word_at(span.doc, span.start - 1, step=-1)
    return before is not None and span.doc[before].lower_ in (determiners or _DETERMINERS)


def _is_name_like(token: Token) -> bool:
    """A capitalised word that is no common English word ("Kaveh", not "Everyone")."""
    return token.is_alpha and token.is_title and not lookup(token.text).is_common_word


def check_config(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for settings of the wrong shape."""
    for key in (
        "occupation_labels",
        "word_labels",
        "cue_words",
        "place_labels",
        "clinician_cues",
        "kin_words",
        "given_name_labels",
        "street_suffix_labels",
        "year_range_labels",
        "gap_labels",
        "age_words",
        "particles",
        "drug_labels",
        "person_labels",
        "nameless_labels",
        "nameless_phrase_labels",
        "title_labels",
        "credentialed_labels",
        "country_labels",
        "edge_labels",
        "titled_labels",
        "job_cues",
        "facility_cues",
        "pair_labels",
        "name_pair_labels",
        "record_cues",
        "po_box_labels",
        "ward_labels",
        "login_labels",
        "kin_age_labels",
        "kin_age_cues",
        "job_tail_labels",
        "arrow_labels",
        "code_line_labels",
        "clause_labels",
        "clause_word_labels",
        "state_labels",
        "clause_joiners",
        "language_labels",
        "language_cues",
        "cased_clause_labels",
        "role_labels",
        "eponym_labels",
        "cued_job_labels",
        *_SHAPES,
    ):
        if not is_str_list(cfg[key]):
            raise ValueError(f"{key} must be a list of strings")
    for key in (
        "patient_label",
        "clinician_label",
        "kin_label",
        "age_label",
        "credentialed_label",
        "rule_spans_key",
        "country_label",
        "city_label",
        "facility_label",
        "state_label",
        "street_label",
        "ward_label",
        "possessor_label",
        "job_name_label",
        "job_label",
    ):
        if not isinstance(cfg[key], str):
            raise ValueError(f"{key} must be a label string ('' for none)")
    for key, words in (
        ("contact_cues", "cue words"),
        ("facility_heads", "head words"),
        ("clause_kept", "words"),
        ("month_name_cues", "cue phrases"),
    ):
        if not _maps_labels_to_words(cfg[key]):
            raise ValueError(f"{key} must map labels to lists of {words}")
    labels = cfg["record_labels"]
    if not isinstance(labels, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in labels.items()
    ):
        raise ValueError("record_labels must map labels to labels")
    if not isinstance(cfg["job_heads"], bool):
        raise ValueError("job_heads must be true or false")
    for key in ("initial_words", "facility_own_words"):
        if not isinstance(cfg[key], bool):
            raise ValueError(f"{key} must be true or false")
    for key in ("min_word_zipf", "nameless_word_zipf"):
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{key} must be a number")
    for key in ("min_name_count", "facility_name_count"):
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{key} must be an integer >= 0")


def _maps_labels_to_words(value: Any) -> bool:
    """Whether a setting is a dict of label -> list of words."""
    return isinstance(value, dict) and all(
        isinstance(label, str) and is_str_list(words) for label, words in value.items()
    )


def _names_a_job(span: Span, at_head: bool = False) -> bool:
    """A job's head word (at a head of the phrase with `at_head`), one glued
    to the next word ("journalistand"), a job of the rules' list of
    professions (WordNet names a "nanny" or a "homemaker" by a relation to
    others, not by work), or an abbreviation of 2 to 4 capitals ("RN")."""
    names = heads_an_occupation if at_head else names_an_occupation
    if names(span.text) or any(glued_job(t.text) for t in span if t.is_alpha):
        return True
    if span.text.lower() in _PROFESSIONS:
        return True
    return any(t.is_upper and t.is_alpha and 2 <= len(t) <= 4 for t in span)


def _linked_word(doc: Doc, i: int, step: int) -> Optional[int]:
    """From token `i` on, in the direction of `step`: the word beyond a list
    mark (`_LIST_MARKS`) or an arrow on the same line; None if there is none."""
    mark = word_at(doc, i, step)
    if mark is None:
        return None
    if doc[mark].lower_ in _LIST_MARKS or doc[mark].text in ARROWS:
        return word_at(doc, mark + step, step)
    if step < 0 and mark > 0 and arrow_length(doc, mark - 1, mark + 1) == 2:
        return word_at(doc, mark - 2, step)  # "-" ">" before the span
    if step > 0 and arrow_length(doc, mark, len(doc)) == 2:
        return word_at(doc, mark + 2, step)
    return None


def _cut_pieces(
    pieces: List[Span],
    labels: FrozenSet[str],
    cut: Callable[[Span], List[Tuple[int, int]]],
) -> List[Span]:
    """The pieces, each of `labels` replaced by the (start, end) pieces that
    `cut` gives, with its attributes; an uncut one stays as it is."""
    out: List[Span] = []
    for ent in pieces:
        if ent.label_ not in labels:
            out.append(ent)
            continue
        for start, end in cut(ent):
            if (start, end) == (ent.start, ent.end):
                out.append(ent)
            else:
                piece = Span(ent.doc, start, end, label=ent.label_)
                out.append(_copy_attrs(ent, piece))
    return out


def _without_spaces(span: Span) -> Optional[Span]:
    """A span without its leading and trailing space tokens, or None when it
    has no letter or digit."""
    if not any(c.isalnum() for c in span.text):
        return None
    start, end = span.start, span.end
    while span.doc[start].is_space:
        start += 1
    while span.doc[end - 1].is_space:
        end -= 1
    if (start, end) == (span.start, span.end):
        return span
    return _copy_attrs(span, Span(span.doc, start, end, label=span.label_))


def _ending_at(ent: Span, end: Optional[int]) -> Span:
    """The entity cut to end at the doc index `end`, with its attributes; the
    entity itself where `end` is None or its own end."""
    if end is None or end == ent.end:
        return ent
    return _copy_attrs(ent, Span(ent.doc, ent.start, end, label=ent.label_))


def _with_label(ent: Span, label: str) -> Span:
    """The same tokens under another label, with the entity's attributes."""
    return _copy_attrs(ent, Span(ent.doc, ent.start, ent.end, label=label))


def _copy_attrs(source: Span, target: Span) -> Span:
    """Give a relabelled or cut piece its entity's extension values."""
    if (target.start, target.end, target.label_) != (
        source.start,
        source.end,
        source.label_,
    ):
        for attr in _COPIED:
            setattr(target._, attr, getattr(source._, attr))
    return target


__all__ = ["PhiRelabel", "make_phi_relabel", "check_config", "DEFAULT_CONFIG"]
