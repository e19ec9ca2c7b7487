"""A rule-based tokenizer for clinical notes.

`spacy_deid.ClinicalTokenizer.v1` is the language's default tokenizer with
extra prefix, suffix and infix patterns, special cases and a `token_match`.
It never rewrites the text (`doc.text == text`, exact `token.idx`), and every
rule is a regex, a special case or `token_match`, so `nlp.to_disk` saves the
rules and `spacy.load` restores them (a stock `Tokenizer.from_disk` reads
them too).

The extra splits target text glued together when line breaks or spaces
were lost ("09/14/2067CPT", "WhalenChief", "AnnMRN", "hcuutaj@bdd.comOther",
"2067-03-140800", "28001-Madrid") and field labels glued to values
("MR:6746781", "Tfno.+34"), so that PHI boundaries fall on token
boundaries. A period that may end an abbreviation or the sentence ("Inc.",
"Izq..", "Apt 3B.", "J.") and the "+" of a phone number are split off, so
that a span may end (or start) with or without them. PHI shapes that must
stay whole (phone numbers, ISO dates, hyphenated IDs, emails, URLs) are kept
by `token_match`, which spaCy checks before splitting off each prefix or
suffix and before infixes.

Tokenization time is linear in the length of the text. spaCy splits
affixes off a whitespace-free run one at a time and runs the whole suffix
regex (a `search` that tries every start position) over the rest of the run
after each split, so a long run made of affixes ("ab:ab:...", "=====...")
took quadratic time (minutes for 12 KB); spaCy's `url_match` is quadratic on
long runs with many ":" by itself. Runs longer than
`MAX_AFFIX_RUN` characters therefore skip the prefix and suffix rules and
`url_match` (their patterns fail at once on them) and are split by the infix
rules only, in one pass: "a;b;c..." still splits at the separators, but a long
camel-case run or a separator line ("=====...") stays one token. Every
prefix and suffix pattern is also bounded, so that no attempt scans far.

Building the tokenizer compiles a few long regexes (spaCy's character classes
make them slow to compile: about 0.3 s). The engine code of the shipped
languages' regexes is saved in `regex_code.xz` beside this module
(`write_regex_table`, run by `spacy_deid.pretrained.build`) and read back
through `core/regex_code.py`; a regex it does not hold is compiled as usual.

Usage in a config:

    [nlp.tokenizer]
    @tokenizers = "spacy_deid.ClinicalTokenizer.v1"
"""

import re
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Pattern, Set, Tuple

from spacy.lang.char_classes import ALPHA, ALPHA_LOWER, ALPHA_UPPER
from spacy.lang.tokenizer_exceptions import emoticons
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import get_lang_class, registry

from ..core import regex_code
from ..core.regex_code import sre_parse as _sre_parse

REGEX_TABLE = Path(__file__).parent / "regex_code.xz"
"""The saved engine code of the shipped languages' tokenizer regexes."""
# Suffix pattern -> its width, from the saved table (parsing every suffix
# pattern for its width takes about 50 ms).
_WIDTHS: Dict[str, int] = {}
_TABLE_READ = False

_A = ALPHA
_AL = ALPHA_LOWER
_AU = ALPHA_UPPER

# Name particles written in camel case ("MacArthur", "VanDyke"), as negative
# lookbehinds so that the camel-case split below leaves them alone. Particles
# of one lowercase letter ("McDonald", "DeVries", "LaToya") need no entry,
# because the split wants two lowercase letters before the capital.
_NAME_PARTICLES = ("Mac", "Van", "Von", "Del", "Dela", "Della", "Fitz", "Abu", "Ben")
_NOT_AFTER_PARTICLE = "".join(rf"(?<!\b{p})" for p in _NAME_PARTICLES)

# Clinical units, as one token. Numerator and denominator lists are kept
# small on purpose: a generic "word/word" rule would glue names ("son/John").
_UNIT_NUM = (
    r"(?:[mµμunpkd]?(?:g|l|mol|eq|iu|u)|mcg|mm|cm|units?|cells?|copies|"
    r"beats|breaths|gtts?|drops|puffs?|tabs?|caps?)"
)
_UNIT_DEN = (
    r"(?:[mµμunpkd]?(?:l|g|mol)|kg|min|hr?|hrs|day|d|wk|mo|m2|m²|1\.73m2|"
    r"hpf|lpf|mm3|mm²|mm³|dose)"
)
UNIT_PATTERN = rf"(?i:{_UNIT_NUM}(?:/{_UNIT_DEN}){{1,2}}|mmhg|cmh2o|meq)"

# Whitespace-free runs longer than this skip the prefix and suffix rules and
# `url_match`, and are split by the infix rules only (see the module
# docstring). Long enough for any real word, date, ID or email; a longer URL
# with a scheme is still kept whole by TOKEN_MATCH.
MAX_AFFIX_RUN = 200
# Fails where more than MAX_AFFIX_RUN characters follow (at the start: the
# string is long). A negative lookahead of fixed length, so at most
# MAX_AFFIX_RUN + 1 characters are read.
_SHORT_AHEAD = rf"(?!(?s:.){{{MAX_AFFIX_RUN + 1}}})"
# No suffix is longer than this (the longest bounded one is "Nº" and a word
# of 40 letters; an ellipsis "....." longer than this splits in pieces). The
# suffix regex starts with a check that at most this many characters remain,
# so that its `search` skips the start positions far from the end after
# reading MAX_SUFFIX + 1 characters, instead of trying each of the 100 suffix
# patterns there (one search over 1 MB: 3.4 s before, 0.05 s after).
MAX_SUFFIX = 50
_NEAR_END = rf"(?!(?s:.){{{MAX_SUFFIX + 1}}})"
# Suffix patterns are grouped by their width, up to these bounds (see
# `_compile_suffixes`).
_SUFFIX_WIDTHS = (1, 5, MAX_SUFFIX)
# Fails where more than MAX_AFFIX_RUN characters precede (at the end: the
# string is long). Fixed-width, so `re` allows it in a lookbehind; checked
# only after a suffix matched up to the end, so it costs nothing elsewhere.
_SHORT_BEHIND = rf"(?<!(?s:.){{{MAX_AFFIX_RUN + 1}}})"

# A hexadecimal group of an IPv6 address.
_HEX = r"[0-9a-f]{1,4}"

# Field labels of an email address, glued to it by "." or "-"
# ("E-mail.ann@x.org", "Correo-ann@x.org").
_EMAIL_LABEL = r"(?i:e-?mail|correo)"
# The start of an email address: a local part (not starting with "." or "-")
# and "@". Bounded, for the lookaheads of the prefixes.
_EMAIL_AHEAD = r"[\w%+][\w.%+-]{0,63}@"

# A comma that is not a thousands separator ("1,000"): after a non-digit, or
# not before three digits ("EDIT,797-18-92" and "a,b" split; "1,000" not).
_FIELD_COMMA = r"(?:(?<![0-9]),|,(?![0-9]{3}(?![0-9.])))"

# A time glued to the date before it: "0800", "14:30", "08:15:00", "3pm".
_TIME = r"(?:[0-9]{4}|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?|[0-9]{1,2}(?i:[ap]m))"
# The ends of dates a time may be glued to, each of fixed width (for a
# lookbehind): "/2067", "/67", "2067-03-14", "03-14-2067", "-Mar-2067",
# "14MAR2067", "14.03.2067", "4.3.2067".
_DATES = (
    r"/[0-9]{4}",
    r"/[0-9]{2}",
    r"[12][0-9]{3}-[01][0-9]-[0-3][0-9]",
    r"[01][0-9]-[0-3][0-9]-[12][0-9]{3}",
    rf"-[{_A}]{{3}}-[12][0-9]{{3}}",
    rf"[0-9][{_A}]{{3}}[12][0-9]{{3}}",
    r"[0-9]\.[0-9]{2}\.[12][0-9]{3}",
    r"[0-9]\.[0-9]\.[12][0-9]{3}",
)

# An English ordinal suffix that agrees with the digits before it ("1st",
# "11th", "22nd", "3rd", "13th"), at the position after the digits; and the
# same, as a lookbehind after the suffix.
_ORDINAL = (
    r"(?:(?<=1)(?<!11)st|(?<=2)(?<!12)nd|(?<=3)(?<!13)rd|(?<=[04-9])th"
    r"|(?<=1[0-9])th)"
)
_ORDINAL_BEHIND = (
    r"(?:(?<=1st)(?<!11st)|(?<=2nd)(?<!12nd)|(?<=3rd)(?<!13rd)|(?<=[04-9]th)"
    r"|(?<=1[0-9]th))"
)

# Clinical shorthand of two letters and a slash ("d/c", "f/u"), split off a
# number it is glued to ("4/3/2102D/C", "7585F/U").
_SLASH_SHORTHAND = (
    "s/p", "c/o", "h/o", "w/o", "r/o", "n/v", "d/c", "f/u", "b/l", "s/s",
    "a/w", "c/w", "n/a",
)  # fmt: skip

# Whole-token shapes that must never be split. Checked on the whole
# remaining string, so each alternative is anchored with `$` (spaCy restores
# `token_match` as `re.compile(pattern).match`).
TOKEN_MATCH_PATTERNS = [
    # Emails. The top-level domain is all lower- or all upper-case, so that
    # "bdd.comOther" is not an email and the camel-case suffix can split it.
    # The local part starts with neither "." nor "-" nor a field label and
    # its separator ("E-mail.ann@x.org"), which the prefixes split off.
    rf"(?!{_EMAIL_LABEL}[.-])[\w%+][\w.%+-]*@[\w-]+(?:\.[\w-]+)*"
    r"\.(?:[a-z]{2,}|[A-Z]{2,})",
    # URLs with a scheme (before the camel-case suffix can cut a path).
    r"(?:https?|ftp)://[^\s]*[\w/#=]",
    # Numbers joined by hyphens, three groups or more: IDs, SSNs, phone
    # numbers, dates ("258-16-49-2", "617-555-1234", "2067-09-14"), but not
    # a date glued to a time ("2067-09-140800", "09-14-20670800"), which a
    # suffix splits.
    r"(?![12][0-9]{3}-[01][0-9]-[0-3][0-9][0-9]|[01][0-9]-[0-3][0-9]-[12][0-9]{4})"
    r"\+?\d+(?:-\d+){2,}",
    # Two groups: both long ("943-8331", ZIP+4 "02115-1234") or one very long
    # (a check digit: "7600593-6"). Short ranges ("5-10") and year ranges
    # ("2010-2015", "2067-69") keep spaCy's split.
    r"(?![12]\d{3}-\d{2,4}$)(?:\d{3,}-\d{3,}|\d{5,}-\d+|\d+-\d{5,})",
    # Phone numbers with dots ("617.555.1234") or a glued area code.
    r"\d{3}\.\d{3}\.\d{4}",
    r"\(\d{3}\)\d{3}[-.]\d{4}",
    # IPv6 addresses: eight groups ("2001:0db8:0:0:0:0:0:1"), or fewer with
    # "::" ("2001:db8::1", "fe80::1ff:fe23:4567:890a", "::1"). Groups are
    # bounded and separated by ":", so nothing backtracks far.
    rf"(?i:{_HEX}(?::{_HEX}){{7}}"
    rf"|{_HEX}(?::{_HEX}){{0,6}}::(?:{_HEX}(?::{_HEX}){{0,5}})?"
    rf"|::{_HEX}(?::{_HEX}){{0,6}})",
    # MAC addresses: "00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E".
    r"(?i:[0-9a-f]{2}(?::[0-9a-f]{2}){5}|[0-9a-f]{2}(?:-[0-9a-f]{2}){5})",
    # Units such as "mEq/L", "mg/dL", "mcg/kg/min", "mmHg".
    UNIT_PATTERN,
]
TOKEN_MATCH = "|".join(f"(?:{p})$" for p in TOKEN_MATCH_PATTERNS)

# Extra prefixes (split off the front of a string, then the rest is checked
# again, so "Tel:617-555-1234" ends with a whole phone number). Repeats are
# bounded ("{1,40}", not "+") so that an attempt never reads far; spaCy
# anchors each prefix at the start of the string.
CLINICAL_PREFIXES = [
    # A field label glued to its value: "MR:6746781", "MRN#12345",
    # "DOB:01/02/1960", "Email:joe@x.org" (not "http://"), "mrn=123". The
    # ":", "#" or "=" is then a default prefix. "º" for labels like "NºCol:".
    rf"[{_A}](?:[{_A}º]|-(?=[{_A}])){{0,40}}(?=:[^/]|#[0-9]|=.)",
    # A field label glued to an email by "." or "-": "E-mail.ann@x.org",
    # "Correo-ann@x.org"; then the separator: "." here, "-" below.
    rf"{_EMAIL_LABEL}(?=[.-]{_EMAIL_AHEAD})",
    rf"\.(?={_EMAIL_AHEAD})",
    # A date glued to a time: "09/20/2015T0800Z" -> "09/20/2015" "T0800Z",
    # also with a month name: "14MAR2067T0800Z", "14-Mar-2067T08:00Z".
    rf"(?:[0-9][0-9/.-]{{0,20}}[0-9]|[0-9]{{1,2}}-?[{_A}]{{3}}-?[0-9]{{2,4}})"
    r"(?=T[0-9a-z])",
    # A field of a record glued to the next by "|", ";" or "," (not a
    # thousands separator): "E06-1336|Berry", "CAO352;src=", "08:15,SJ512",
    # "VIEW,123-45-67". The field stays one token; the separator is split by
    # the next prefix. A longer field is split at the separator by the infix
    # below.
    rf"[\w.:@/+#'-]{{1,100}}(?=(?:[|;]|{_FIELD_COMMA}).)",
    r"\|",
    # A person's title glued by its period to a name in lower case or in
    # capitals: "per dr.okoro", "PER DR.OKORO" -> "dr." "okoro" (as "dr. okoro"
    # is split); "Dr.Okoro" is split by the infix below, emails stay whole.
    r"(?i:drs?|dra|mrs?|ms)\.(?=[a-z]{2}|[A-Z]{2})",
    # A word glued to what follows it, in one pattern (one scan of the word):
    # - an abbreviation (five letters at most) glued by its period to a
    #   number: "Tfno.+34 600", "Tel.6175551234" -> "Tfno." ... (the "+" is
    #   split below); a longer word keeps a reference number ("lesion.12");
    # - a URL with a scheme: "viahttps://x.org" -> "via" ...;
    # - "(" and a number: "contact(617)" -> "contact" "(" ...;
    # - a year of two digits: "in'89" -> "in" "'89";
    # - an ordinal: "the3rd" -> "the" "3rd".
    rf"[{_A}]{{2,40}}(?:(?<![{_A}]{{6}})\.(?=\+?[0-9])|(?=(?:https?|ftp)://|\([0-9]"
    rf"|'[0-9]{{2}}(?![0-9{_A}])|[0-9](?:st|nd|rd|th)))",
    # The "+" of an international phone number: "+34 600 000 000" -> "+" "34"
    # (spaCy keeps "+34"), so that a span may start with or without it. A
    # number with hyphens ("+1-800-555-1234") stays whole by TOKEN_MATCH.
    r"\+(?=[0-9])",
    # A label glued to a number of three digits or more by a hyphen or slash:
    # "nhc-150679", "MRN-12345", "nhc/976421"; the hyphen or slash is split
    # by the next prefix. "IL-6", "COVID-19" stay whole.
    rf"[{_A}]{{1,40}}(?=[-/][0-9]{{3}})",
    r"[-/](?=[0-9]{3})",
    # Letters glued to a number of two digits or more, or to a date or a
    # decimal: "Results02/20/2087", "MRN12345", "a26", "on4/16", "pH7.35".
    # Needs two letters (or the article "a") so that "B12", "q12h", "x10" and
    # "HbA1c" stay whole; not inside an email local part.
    rf"(?:[{_A}]{{2,40}}|a)(?=(?:[0-9]{{2}}|[0-9][/.:-][0-9])"
    r"(?![0-9A-Za-z._%+-]{0,64}@))",
    # A phone extension: "x5493", "x645-3055" -> "x" ... ("x10", "x100" stay).
    r"[xX](?=[0-9][0-9-]{2,20}[0-9])",
    # A title glued to a name or an initial: "DrBarry" -> "Dr" "Barry",
    # "DrK" -> "Dr" "K".
    rf"(?:Drs|Dr|Mrs|Mr|Ms)(?=[{_AU}](?:[{_AL}]|$))",
    # "w/" glued to the next word: "w/pain" -> "w/" "pain".
    rf"[wW]/(?=[{_A}]{{2}})",
    # A dash glued to a word, as before a signature: "-S Johnson".
    rf"-(?=[{_A}])",
    # A slash glued to a word: "**/Ann Lee" -> ... "/" "Ann".
    rf"/(?=[{_A}])",
]

# Extra suffixes (split off the end of a string; the rest is checked again).
# spaCy anchors each suffix at the end and `search`es for it from every start
# position, so repeats are bounded here too.
CLINICAL_SUFFIXES = [
    # lower->Upper camel glue: "WhalenChief" -> "Whalen" "Chief". Needs two
    # lowercase letters before the capital, so "McDonald", "DeVries",
    # "iPhone", "mEq" stay whole ("mmHg" is kept by TOKEN_MATCH).
    rf"(?<=[{_AL}][{_AL}]){_NOT_AFTER_PARTICLE}[{_AU}][{_AL}]{{1,40}}",
    # lower->ALLCAPS glue: "AnnMRN" -> "Ann" "MRN", "seenICU" -> "seen"
    # "ICU". Two lowercase letters first, so "mRNA", "pCO2", "HbA1c" stay.
    rf"(?<=[{_AL}][{_AL}]){_NOT_AFTER_PARTICLE}[{_AU}]{{2,40}}",
    # Lower case glued to a capital and an ordinal indicator (Spanish "Nº"):
    # "LópezNºCol" -> "López" "NºCol".
    rf"(?<=[{_AL}][{_AL}])[{_AU}][ºª][{_A}]{{0,40}}",
    # ALLCAPS (or a number and a capital) glued to a capitalized word:
    # "USMeaningful" -> "US" "Meaningful", "Rm 12BOvernight" -> "12B"
    # "Overnight". The word needs two lowercase letters after its capital,
    # so that plurals and abbreviations stay whole: "ABGs", "CXRs",
    # "NSAIDs", "ACEi", "PMHx".
    rf"(?<=[{_AU}0-9][{_AU}])[{_AU}][{_AL}]{{2,40}}",
    # A number glued to a capitalized word: "1400Prior" -> "1400" "Prior".
    rf"(?<=[0-9])[{_AU}][{_AL}]{{1,40}}",
    # Two digits or more glued to an ALLCAPS word, except ordinals ("21ST"):
    # "09/14/2067CPT".
    rf"(?<=[0-9][0-9])(?!(?:ST|ND|RD|TH)$)[{_AU}]{{2,40}}",
    # One digit (not after a letter or a digit) glued to an ALLCAPS word:
    # "Unit 5INSURANCE" -> "5" "INSURANCE" ("B2BC", "G6PD" stay whole).
    rf"(?<=[0-9])(?<![{_A}0-9][0-9])(?!(?:ST|ND|RD|TH)$)[{_AU}]{{2,40}}",
    # Age glued to its unit, and sex: "26yo", "26y/o", "38Y.O.", "26yoM",
    # "3mos", "26M".
    r"(?<=[0-9])(?i:y/?o[fm]?|y\.o\.?|yrs?|y|mos?|wks?)",
    # "26F", "(26f)", "7F": one digit only when not after a letter ("V1F", "C7f").
    rf"(?<=[0-9])(?<![{_A}][0-9])[FMfm]",
    # A number glued to a lowercase word, except ordinals: "08/15/2069at",
    # "9499on", "2:30pm", "10the", "Clinic 4appt"; a single digit not after a
    # letter, so that "q4hrs" stays whole, and not before a Spanish ordinal
    # ("1er", "2do", "3ra"). Not before an ordinal glued to a word either
    # ("5thand"), split below.
    rf"(?<=[0-9][0-9])(?!(?:st|nd|rd|th)$|{_ORDINAL}[{_AL}]{{2}})"
    rf"[{_AL}]{{2,40}}",
    rf"(?<=[0-9])(?<![{_A}0-9][0-9])(?!(?:st|nd|rd|th|er|ra|do|da|to|ta|vo|va"
    rf"|no|na|mo|ma)$|{_ORDINAL}[{_AL}]{{2}})[{_AL}]{{2,40}}",
    # An ordinal glued to a word of two letters or more: "5thand" -> "5th"
    # "and", "2ndfloor" -> "2nd" "floor" ("3there", "15stitches" are split
    # after the number above: "3th", "15st" are no ordinals).
    rf"(?<={_ORDINAL_BEHIND})[{_AL}]{{2,40}}",
    # Clinical shorthand glued to a number: "4/3/2102D/C" -> ... "D/C".
    rf"(?<=[0-9])(?i:{'|'.join(_SLASH_SHORTHAND)})",
    # A time glued to a date: "2097-12-09T0800Z", "10/30/20250800",
    # "07/02/900600", "08/17/9411:00", "2067-03-140800", "03-14-20670800",
    # "14-Mar-20670800", "14MAR20673pm", "14.03.206708:00", and a year glued
    # to a time with a colon: "Mar 14 206714:30". Dates with hyphens must
    # have the shape of a date, so that IDs ("MR-78-024962") stay whole. A
    # date of eight digits and a time without a colon ("20670314" "0800")
    # cannot be told apart from a date ("20670314"), and stays whole.
    r"(?<=[0-9])T[0-9]{2}:?[0-9]{2}(?::?[0-9]{2})?Z?",
    rf"(?=[0-9])(?:{'|'.join(f'(?<={d})' for d in _DATES)}){_TIME}",
    r"(?<=[12][0-9]{3})(?<![0-9]{5})[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?",
    # The field separator "|" at the end.
    r"\|",
    # A phone extension glued to a phone number: "617-555-0142x12",
    # "617.555.0142ext.12" -> "617-555-0142" "x12" (the number is then kept
    # whole by TOKEN_MATCH instead of being split at its hyphens).
    r"(?<=[0-9][-.][0-9]{4})(?i:x|ext\.?)[0-9]{1,6}",
    # A hyphen after a number or a word, as before a lost range end or line
    # break: "09/14/2067-" -> "09/14/2067" "-", "Hospital-." -> "Hospital"
    # "-" ".".
    rf"(?<=[{_A}0-9])-",
    # A slash after a word of two letters or more: "Smith/***" -> "Smith" "/"
    # ("C/" and "w/" stay).
    rf"(?<=[{_A}][{_A}])/",
    # Clinical units after a number: "120/80mmHg", "5mg/kg", "20mEq/L".
    rf"(?<=[0-9]){UNIT_PATTERN}",
    # A period after a unit that ends in a capital: "mg/dL." -> "mg/dL" ".".
    rf"(?<=[{_AL}][{_AU}])\.",
    # A period after a single capital (not after a letter): "Apt 3B." ->
    # "3B" ".", "2º-A." -> "2º-A" ".", "ID 123-C." -> "123-C" "."; a single
    # capital initial: "Sexo: H." -> "H" ".", "J." -> "J" ".", so a span may
    # end with or without the period. Initials ("J.R.", "M.D.") stay whole.
    rf"(?<=[{_AU}])(?<![{_A}][{_AU}])(?<![{_AU}]\.[{_AU}])\.",
    # A period after an ordinal indicator: "3º." -> "3º" ".".
    r"(?<=[ºª])\.",
    # The second period of two: "Izq.." -> "Izq." "." -> "Izq" "." ".", an
    # abbreviation's period and the sentence's, so that a span may end with
    # or without the first ("Dr.." gives "Dr." "."). Three or more stay an
    # ellipsis: spaCy's suffix "\.\.+" becomes "\.{3,}" (see
    # `_no_double_period`).
    r"(?<=[^.]\.)\.",
    # A single letter before its period, after a slash: "s/n." , "S/N.".
    rf"(?<=/[{_A}])\.",
]

# Extra infixes (split inside a string, after affixes are gone). Runs longer
# than MAX_AFFIX_RUN are split by infixes only.
CLINICAL_INFIXES = [
    # Record separators, as the record prefixes above split them: "|", ";",
    # and "," unless a thousands separator ("1,000"). For fields too long for
    # the prefix and for long log rows: "...,jsmith2,10.1.2.3,VIEW".
    r"[|;]",
    _FIELD_COMMA,
    # A closing parenthesis between digits: "(416)943" -> ... ")" "943".
    r"(?<=[0-9])\)(?=[0-9])",
    # A period between a number and a capital (a lost space after a
    # sentence): "2014.El" -> "2014" "." "El".
    rf"(?<=[0-9])\.(?=[{_AU}])",
    # A period between a capital (an ALLCAPS word or an initial) and a
    # capitalized word: "DR.Francisco", "J.Smith", "A.B.C.Phone".
    rf"(?<=[{_AU}])\.(?=[{_AU}][{_AL}])",
    # A period between two lowercase letters and a lowercase letter (a lost
    # space): "Palmas.e-mail" -> "Palmas" "." "e-mail". Web addresses
    # ("hotmail.com") are kept before by `url_match`, abbreviations of
    # single letters ("e.g", "b.i.d") do not match.
    rf"(?<=[{_AL}][{_AL}])\.(?=[{_AL}])",
    # A hyphen between letters or digits and letters (English has it by
    # default; Spanish not): "28001-Madrid", "Ruiz-Gómez".
    rf"(?<=[{_A}0-9])(?:-|–|—)(?=[{_A}])",
]

# Clinical abbreviations kept as one token. Lowercase, upper- and title-case
# variants are added by `_case_variants`.
CLINICAL_ABBREVIATIONS = [
    # Dosing frequency and route.
    "b.i.d.", "t.i.d.", "q.i.d.", "q.d.", "q.o.d.", "q.h.s.", "h.s.", "q.h.",
    "q.a.m.", "q.p.m.", "p.r.n.", "p.o.", "p.r.", "s.c.", "s.q.", "i.v.",
    "i.m.", "a.c.", "p.c.", "n.p.o.", "o.d.", "o.s.", "o.u.",
    # Shorthand with a slash.
    "s/p", "c/o", "h/o", "w/", "w/o", "r/o", "n/v", "d/c", "f/u", "b/l",
    "y/o", "s/s", "a/w", "c/w", "n/a", "and/or",
    # Titles and common abbreviations not in spaCy's English exceptions.
    "approx.", "Drs.", "Dept.",
]  # fmt: skip


def _case_variants(text: str) -> List[str]:
    """Return the lower-, upper- and title-case forms of an abbreviation.

    text (str): The abbreviation.
    RETURNS (List[str]): Unique variants, `text` first.
    """
    variants = [text, text.lower(), text.upper(), text[:1].upper() + text[1:]]
    return list(dict.fromkeys(variants))


def clinical_special_cases(
    abbreviations: Iterable[str] = CLINICAL_ABBREVIATIONS,
) -> Dict[str, List[Dict[str, str]]]:
    """Build tokenizer special cases that keep abbreviations whole.

    abbreviations (Iterable[str]): The abbreviations.
    RETURNS (Dict[str, List[Dict[str, str]]]): Special cases by string.
    """
    cases = {}
    for abbr in abbreviations:
        for variant in _case_variants(abbr):
            cases[variant] = [{"ORTH": variant}]
    return cases


SINGLE_LETTER = rf"[{_A}]\."


def _drop_single_letter_exceptions(rules: Dict[str, list]) -> Dict[str, list]:
    """Remove exceptions of one letter and a period ("a.", "n.").

    Split, "J." gives "J" "." and "s/n." gives "s" "/" "n" ".", so a PHI span
    may end with or without the period.

    rules (Dict[str, list]): Tokenizer exceptions.
    RETURNS (Dict[str, list]): The exceptions without single letters.
    """
    pattern = regex_code.compile(SINGLE_LETTER)
    return {k: v for k, v in rules.items() if not pattern.fullmatch(k)}


# Exceptions of spaCy's that are split: company and name suffixes, whose
# period often also ends the sentence ("works at Acme Inc."), so that a span
# may end with or without it (the sentencizer reads "Inc" "." as "Inc.").
SPLIT_ABBREVIATIONS = ("Inc.", "Ltd.", "Co.", "Corp.", "Bros.", "Jr.")


def _drop_split_exceptions(rules: Dict[str, list]) -> Dict[str, list]:
    """Remove the exceptions in SPLIT_ABBREVIATIONS and the emoticons that
    start with a digit ("8)", "8D"), which glue a room or a number to its
    parenthesis: "(White 8)" -> "8" ")".

    rules (Dict[str, list]): Tokenizer exceptions.
    RETURNS (Dict[str, list]): The exceptions without them.
    """
    drop = set(SPLIT_ABBREVIATIONS)
    drop.update(e for e in emoticons if e[:1].isdigit())
    return {k: v for k, v in rules.items() if k not in drop}


def _no_double_period(patterns: Iterable[str]) -> List[str]:
    """Return a language's suffix patterns with the ellipsis of two periods
    or more replaced by one of three or more, so that two periods are split
    one by one ("Izq.." -> "Izq" "." ".").

    patterns (Iterable[str]): The language's suffix patterns.
    RETURNS (List[str]): The patterns to use.
    """
    return [r"\.{3,}" if p == r"\.\.+" else p for p in patterns]


def _scope_flags(pattern: str) -> str:
    """Turn leading global flags ("(?iu)...") into a scoped group
    ("(?i:...)"), so that the pattern can join an alternation.

    pattern (str): A regex pattern.
    RETURNS (str): An equivalent pattern without global flags.
    """
    match = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    if match is None:
        return pattern
    flags = match.group(1).replace("u", "")
    rest = pattern[match.end() :]
    return f"(?{flags}:{rest})" if flags else f"(?:{rest})"


def _compile_prefixes(entries: Iterable[str]) -> Pattern:
    """Compile prefix patterns like `spacy.util.compile_prefix_regex`, but
    failing at once on strings longer than MAX_AFFIX_RUN.

    entries (Iterable[str]): The prefix patterns, in order of priority.
    RETURNS (Pattern): The regex; use its `search`.
    """
    alternatives = "|".join(f"(?:{p})" for p in entries if p.strip())
    # "^" first: `re` tries a pattern that starts with "^" at position 0 only.
    return regex_code.compile(f"^{_SHORT_AHEAD}(?:{alternatives})")


def _max_width(pattern: str) -> int:
    """Return the most characters a pattern can match (lookarounds match
    none), or MAX_SUFFIX when unbounded or unknown.

    pattern (str): A regex pattern.
    RETURNS (int): The width, at most MAX_SUFFIX.
    """
    try:
        width = _sre_parse.parse(pattern).getwidth()[1]
    except Exception:  # an internal module: fall back to the outer bound
        return MAX_SUFFIX
    return min(width, MAX_SUFFIX)


def _compile_suffixes(entries: Iterable[str]) -> Pattern:
    """Compile suffix patterns like `spacy.util.compile_suffix_regex`, but
    faster and never matching on strings longer than MAX_AFFIX_RUN.

    entries (Iterable[str]): The suffix patterns.
    RETURNS (Pattern): The regex; use its `search`.
    """
    # `search` tries every alternative at every start position. Every
    # alternative ends at "$", so a match is the rest of the string from the
    # leftmost position where any alternative matches: the order of the
    # alternatives does not change the result. They are grouped by their
    # width (at most 1, 5 or MAX_SUFFIX characters), each group behind one
    # check that at most that many characters remain, so that far from the
    # end the short ones (most of them: "," ")" "'s") are skipped together.
    # The result is that of spaCy's regex, in less than half the time.
    groups: Dict[int, List[str]] = {}
    for piece in entries:
        if not piece.strip():
            continue
        width = _WIDTHS.get(piece)
        if width is None:
            width = _max_width(piece)
        bound = next(b for b in _SUFFIX_WIDTHS if width <= b)
        groups.setdefault(bound, []).append(f"(?:{piece})$")
    alternatives = "|".join(
        f"(?!(?s:.){{{width + 1}}})(?:{'|'.join(group)})"
        for width, group in sorted(groups.items())
    )
    # The length check of the whole string runs only once a suffix matched.
    return regex_code.compile(f"{_NEAR_END}(?:{alternatives}){_SHORT_BEHIND}")


def _compile_infixes(entries: Iterable[str]) -> Pattern:
    """Compile infix patterns as `spacy.util.compile_infix_regex` does.

    entries (Iterable[str]): The infix patterns.
    RETURNS (Pattern): The regex; use its `finditer`.
    """
    return regex_code.compile("|".join(p for p in entries if p.strip()))


def _compile_short_match(pattern: str) -> Pattern:
    """Compile a `token_match` or `url_match` pattern that is not known to
    run in linear time, so that it fails at once on strings longer than
    MAX_AFFIX_RUN. spaCy's `URL_MATCH` takes quadratic time on long runs
    with many ":" ("a:a:a:...", 20,000 characters: 15 s).

    pattern (str): The pattern, maybe with leading global flags.
    RETURNS (Pattern): The regex; use its `match`.
    """
    return regex_code.compile(f"{_SHORT_AHEAD}(?:{_scope_flags(pattern)})")


@registry.tokenizers("spacy_deid.ClinicalTokenizer.v1")
def create_clinical_tokenizer() -> Callable[[Language], Tokenizer]:
    """Registered function that creates the clinical tokenizer.

    RETURNS (Callable[[Language], Tokenizer]): Builds the tokenizer for an nlp.
    """
    return make_clinical_tokenizer


def make_clinical_tokenizer(nlp: Language) -> Tokenizer:
    """Create the clinical tokenizer for a pipeline's language.

    nlp (Language): The pipeline; its `Defaults` give the base rules.
    RETURNS (Tokenizer): The tokenizer.
    """
    _read_regex_table()
    return _build_tokenizer(nlp)


def _build_tokenizer(nlp: Language) -> Tokenizer:
    """Build the clinical tokenizer (`make_clinical_tokenizer`) with the
    regex code that `core/regex_code.py` holds now."""
    defaults = nlp.Defaults
    prefixes = CLINICAL_PREFIXES + list(defaults.prefixes or [])
    suffixes = CLINICAL_SUFFIXES + _no_double_period(defaults.suffixes or [])
    infixes = list(defaults.infixes or []) + CLINICAL_INFIXES
    rules = _drop_single_letter_exceptions(dict(defaults.tokenizer_exceptions))
    rules = _drop_split_exceptions(rules)
    rules.update(clinical_special_cases())
    # TOKEN_MATCH runs in linear time, so long emails and URLs with a scheme
    # stay whole; a language's own pattern is checked on short runs only.
    token_match = TOKEN_MATCH
    if defaults.token_match is not None:
        pattern = _compile_short_match(defaults.token_match.__self__.pattern)
        token_match += "|" + pattern.pattern
    url_match = None
    if defaults.url_match is not None:
        url_match = _compile_short_match(defaults.url_match.__self__.pattern).match
    return Tokenizer(
        nlp.vocab,
        rules=rules,
        prefix_search=_compile_prefixes(prefixes).search,
        suffix_search=_compile_suffixes(suffixes).search,
        infix_finditer=_compile_infixes(infixes).finditer,
        token_match=regex_code.compile(token_match).match,
        url_match=url_match,
    )


def _read_regex_table() -> None:
    """Read the saved tokenizer regexes once per process (if this Python made
    them), so that building a tokenizer compiles none of them."""
    global _TABLE_READ
    if _TABLE_READ:
        return
    _TABLE_READ = True
    if REGEX_TABLE.exists():
        saved = regex_code.read(REGEX_TABLE.read_bytes())
        if saved is not None:
            widths = saved.get("widths")
            if isinstance(widths, list):
                _WIDTHS.update((piece, width) for piece, width in widths)


def load_saved(nlp: Language, path: Path) -> bool:
    """Give a pipeline the tokenizer saved at path (its "tokenizer" file),
    unless the tokenizer its config built is that one already: loading it
    again would compile its regexes and add its special cases a second time
    (about 0.15 s).

    nlp (Language): The pipeline, its tokenizer built from its config.
    path (Path): The saved tokenizer.
    RETURNS (bool): Whether the saved tokenizer was loaded.
    """
    if nlp.tokenizer.to_bytes(exclude=["vocab"]) == path.read_bytes():
        return False
    nlp.tokenizer.from_disk(path, exclude=["vocab"])
    return True


def tokenizer_regexes(tokenizer: Tokenizer) -> List[Tuple[str, int]]:
    """The (text, flags) of a tokenizer's compiled regexes.

    tokenizer (Tokenizer): A tokenizer.
    RETURNS (List[Tuple[str, int]]): Its prefix, suffix, infix, token and URL
        regexes that are set.
    """
    found = []
    for search in (
        tokenizer.prefix_search,
        tokenizer.suffix_search,
        tokenizer.infix_finditer,
        tokenizer.token_match,
        tokenizer.url_match,
    ):
        regex = getattr(search, "__self__", None)
        if isinstance(regex, re.Pattern):
            found.append((regex.pattern, regex.flags & ~re.UNICODE))
    return found


def regex_table(languages: Iterable[str]) -> bytes:
    """The saved table of the clinical tokenizer's regexes for languages:
    their engine code and the widths of their suffix patterns.

    languages (Iterable[str]): Language codes ("en", "es").
    RETURNS (bytes): The table (`core/regex_code.dumps`).
    """
    regexes: Set[Tuple[str, int]] = {(SINGLE_LETTER, 0)}
    widths: Dict[str, int] = {}
    for lang in languages:
        nlp = get_lang_class(lang)()
        regexes.update(tokenizer_regexes(_build_tokenizer(nlp)))
        suffixes = CLINICAL_SUFFIXES + _no_double_period(nlp.Defaults.suffixes or [])
        for piece in suffixes:
            if piece.strip():
                widths[piece] = _max_width(piece)
    return regex_code.dumps(regexes, widths=sorted([p, w] for p, w in widths.items()))


def write_regex_table(languages: Iterable[str], path: Path = REGEX_TABLE) -> bool:
    """Save `regex_table(languages)` to path, unless it holds that already.

    languages (Iterable[str]): Language codes.
    path (Path): Where to save it.
    RETURNS (bool): Whether the file changed.
    """
    data = regex_table(languages)
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True
