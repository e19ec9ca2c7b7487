# TEMPORARY placeholder
def make_phi_scorer():
    raise NotImplementedError
