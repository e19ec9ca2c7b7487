# TEMPORARY placeholder
def default_patterns():
    raise NotImplementedError
