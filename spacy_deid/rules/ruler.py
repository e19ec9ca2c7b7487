# TEMPORARY placeholder
from spacy.language import Language


@Language.factory("phi_rules")
def make_phi_rules(nlp, name):
    raise NotImplementedError
