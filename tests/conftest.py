"""Suite-wide test settings.

Hypothesis profiles: `default` keeps the property tests inside the suite's
time budget on a busy two-core machine (no per-example deadline, since a
shared CPU makes timings meaningless); `thorough` is for hunting bugs by
hand: `HYPOTHESIS_PROFILE=thorough ./dev test tests/engine`.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
