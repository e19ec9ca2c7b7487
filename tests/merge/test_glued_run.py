"""`not_phi._glued_run` walks tokens; it must give the run of non-space
characters, cut at log-field separators (";", "&", "|"), that a walk over the
text gives."""

import spacy
from spacy.tokens import Span

from spacy_deid.merge.not_phi import _glued_run

TOKENIZER = {"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}}
TEXTS = [
    "Call Widget::toString() first, then self.owner.",
    "  x\n\ny::z()  tail",
    "a  b\tc\r\nd->e(f) g.h snake_case_name(x)",
    "\n\nSeen by Dr. Ames(cardiology) on 2/11; mail ivo_tamm@mail.org.",
    "node->nextValue is null",
    "ts=0827T1400Z;user=tg689;src=10.2.3.4;action=sign_note",
]


def _stop(char: str) -> bool:
    return char.isspace() or char in ";&|"


def _char_run(span: Span) -> str:
    text = span.doc.text
    start, end = span.start_char, span.end_char
    while start > 0 and not _stop(text[start - 1]):
        start -= 1
    while end < len(text) and not _stop(text[end]):
        end += 1
    return text[start:end]


def test_glued_run_equals_the_character_walk():
    nlp = spacy.blank("en", config=TOKENIZER)
    for doc in nlp.pipe(TEXTS):
        for start in range(len(doc)):
            for end in range(start + 1, min(len(doc), start + 4) + 1):
                span = Span(doc, start, end)
                assert _glued_run(span) == _char_run(span), (start, end)
