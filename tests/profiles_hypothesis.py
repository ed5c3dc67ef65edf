"""How many examples each property test draws: a small profile by default, a large one in CI.

The README's test command must stay fast on a fresh machine, and CI has time to spare. A test
states the count it wants under the large profile, ``@settings(max_examples=examples(300))``;
the small profile draws a fifth of it (at least 10). ``EF_HYPOTHESIS=small|large`` picks one;
otherwise ``CI`` being set picks the large one.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("EF_HYPOTHESIS") or ("large" if os.environ.get("CI") else "small")
if PROFILE not in {"small", "large"}:
    raise ValueError(f"EF_HYPOTHESIS must be 'small' or 'large', not {PROFILE!r}")

# No test may depend on timing: no per-example deadline. On CI, the same examples every run.
settings.register_profile("small", deadline=None, max_examples=20)
settings.register_profile(
    "large", deadline=None, max_examples=100, derandomize=True, print_blob=True
)
settings.load_profile(PROFILE)


def examples(large: int) -> int:
    """The example count for a test that wants ``large`` examples under the large profile.

    >>> examples(300) in (60, 300)
    True
    """
    return large if PROFILE == "large" else max(10, large // 5)
