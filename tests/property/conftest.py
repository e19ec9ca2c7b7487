"""Hypothesis profiles for the property-based tests.

Profiles (registered here, so pass `tests/property` on the command line when
selecting one with `--hypothesis-profile`):

- "default": a few dozen examples per test, the whole directory runs in well
  under a minute with the rules-only pipeline.
- "medium": 500 examples per test (a few minutes).
- "large": 11,000 examples per test (about 100,000 in all over the ten
  parametrised tests, the two-process one running a fifth), about an hour.

Select one with `--hypothesis-profile=NAME` or the SPACY_DEID_HYPOTHESIS
environment variable, e.g.::

    SPACY_DEID_HYPOTHESIS=large nice -n 19 python -m pytest tests/property -q
    python -m pytest tests/property -q --hypothesis-profile=large

Failing examples are kept in `.hypothesis/` (git-ignored) and replayed first on
the next run.
"""

import os

from hypothesis import HealthCheck, settings

SLOW_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=SLOW_CHECKS
)
settings.register_profile(
    "medium", max_examples=500, deadline=None, suppress_health_check=SLOW_CHECKS
)
settings.register_profile(
    "large", max_examples=11_000, deadline=None, suppress_health_check=SLOW_CHECKS
)

_PROFILE = os.environ.get("SPACY_DEID_HYPOTHESIS")
if _PROFILE:
    settings.load_profile(_PROFILE)
