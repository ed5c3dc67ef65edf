"""Deprecated: ``ef.evaluation.runs`` is internal now; kept for one release.

Import its public names from :mod:`ef.evaluation`.
"""

from __future__ import annotations

from .._deprecated import moved

__getattr__ = moved(__name__, "ef.evaluation._runs", warn_now=False)
