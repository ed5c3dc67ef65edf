"""Fixtures of the format tests: ir_datasets with its home in a temporary folder, and a
tiny dataset registered in it (``irds_dataset``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .irds_dataset import DL_PASSAGE, register


@pytest.fixture(scope="module")
def irds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """ir_datasets imported with its home in a temporary folder (it makes folders there)."""
    home = tmp_path_factory.mktemp("ir_datasets_home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IR_DATASETS_HOME", str(home))
        module = pytest.importorskip(
            "ir_datasets", reason="ir_datasets is the optional extra ef-evaluation[irds]"
        )
        yield module


@pytest.fixture
def tiny(irds: object, tmp_path: Path) -> Iterator[str]:
    """The id (without ``irds:``) of a dataset over files in ``tmp_path``, whose official
    measures are the TREC DL passage ones (relevance from grade 2)."""
    dataset_id = register(irds, tmp_path, measures=DL_PASSAGE)
    yield dataset_id
    irds.registry._registered.pop(dataset_id)  # type: ignore[attr-defined]
