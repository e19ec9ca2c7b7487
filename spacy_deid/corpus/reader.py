# TEMPORARY placeholder
def create_phi_corpus():
    raise NotImplementedError
