# TEMPORARY placeholder, replaced by the tokenizer work.
import spacy
from spacy.util import registry


@registry.tokenizers("spacy_deid.ClinicalTokenizer.v1")
def create_clinical_tokenizer():
    return spacy.language.create_tokenizer()
