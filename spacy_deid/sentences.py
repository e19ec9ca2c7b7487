# TEMPORARY placeholder
from spacy.language import Language


@Language.factory("clinical_sentencizer")
def make_clinical_sentencizer(nlp, name):
    raise NotImplementedError
