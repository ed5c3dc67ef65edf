"""Shared fixtures: the shared data folder, a built-ins-only registry, and (from the shipped
kit, ef.evaluation.testing.fixtures) ``ef_make_dist`` for fake plugin distributions."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ef.evaluation import Registry
from ef.evaluation.testing.fixtures import ef_make_dist

from . import profiles_hypothesis  # noqa: F401  (loads the small or the large profile)

# Haystack's usage telemetry stays off (it would only send from pipelines; tests stay offline).
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")

#: ../shared beside the checkout (CI lays it there), or EF_EVALUATION_SHARED.
SHARED = Path(os.environ.get("EF_EVALUATION_SHARED", Path(__file__).parents[2] / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or a skip naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared data folder is not beside this checkout")
    return path


@pytest.fixture
def builtin_registry() -> Registry:
    """The built-in plugins only: what a test sees does not depend on what is installed."""
    return Registry.load(autoload=False)


__all__ = ["builtin_registry", "ef_make_dist", "shared_path"]
