"""The leaderboard site: static pages of recorded evaluations (``ef-eval site``).

It sits with ``presentation``: it reads records (``_store.record.Record``) and computes its
significance and regression marks with :func:`~ef.evaluation.compare`, when it is built.
"""

from __future__ import annotations

from .build import build_site

__all__ = ["build_site"]
