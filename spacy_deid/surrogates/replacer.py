# TEMPORARY placeholder
from spacy.language import Language


@Language.factory("phi_surrogates")
def make_phi_surrogates(nlp, name):
    raise NotImplementedError
