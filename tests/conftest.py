"""Test-wide settings: property tests draw the same examples on every run (CI must not flake).

Set ``HYPOTHESIS_PROFILE=explore`` to let them search new random examples instead; a failure
found that way prints its example, which then becomes an ``@example``."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
