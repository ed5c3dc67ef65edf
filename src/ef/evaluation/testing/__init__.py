"""A kit for testing ef-evaluation plugins: throwaway distributions, registries, conformance.

* :func:`make_dist` installs a throwaway plugin distribution (real ``.dist-info`` metadata
  and modules) in a directory on ``sys.path``; the pytest fixture ``ef_make_dist`` of
  ``ef.evaluation.testing.fixtures`` does it in a test's ``tmp_path`` and undoes it after
  (enable it with ``pytest_plugins = ["ef.evaluation.testing.fixtures"]``).
* :func:`registry_with` builds a registry of the built-ins plus a test's own metrics or
  plugins, without the installed entry points.
* :func:`check_retrieval_metric` checks a retrieval metric on generated rankings: its
  ``batch`` and ``expected`` forms against its ``func``, its values, its names.
* :class:`~ef.evaluation.interfaces.JudgedHits` is the input of a metric's ``batch`` and
  ``expected`` forms.

Importing this package loads neither numpy nor pytest: they are imported where used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .conformance import check_retrieval_metric
from .dists import make_dist
from .registries import registry_with

if TYPE_CHECKING:
    from .._hits import JudgedHits

__all__ = ["JudgedHits", "check_retrieval_metric", "make_dist", "registry_with"]


def __getattr__(name: str) -> object:
    # JudgedHits needs numpy; importing this package must not (PEP 562).
    if name == "JudgedHits":
        from .._hits import JudgedHits

        return JudgedHits
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
