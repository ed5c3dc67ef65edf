"""The plots write real PNG files (matplotlib's Agg canvas, no GUI)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

from ef.evaluation import MissingDependencyError, RagEvalReport, compare
from ef.evaluation._render.plots import plot_differences, plot_distribution

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

IDS = [f"q{i}" for i in range(30)]
SYSTEMS = {
    "bm25": RagEvalReport.from_values({"ndcg@10": [(i % 7) / 7 for i in range(30)]}, IDS),
    "dense": RagEvalReport.from_values({"ndcg@10": [(i % 5) / 5 for i in range(30)]}, IDS),
    "hybrid": RagEvalReport.from_values({"ndcg@10": [(i % 4) / 4 for i in range(30)]}, IDS),
}


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture(scope="module")
def report():
    return compare(SYSTEMS, baseline="bm25", seed=0)


def test_sorted_differences_png(tmp_path: Path, report) -> None:
    path = tmp_path / "diff.png"
    figure = report.plot_differences(path=path)
    assert path.stat().st_size > 5_000
    assert png_size(path) == (800, 450)
    axes = figure.axes[0]
    heights = [bar.get_height() for bar in axes.patches]
    assert heights == sorted(heights)
    assert len(heights) == 30
    assert axes.get_ylabel() == "ndcg@10: dense - bm25"
    assert "dense vs bm25 on ndcg@10" in axes.get_title()
    other = plot_differences(report, "hybrid", "dense", path=tmp_path / "other.png")
    assert other.axes[0].get_ylabel() == "ndcg@10: dense - hybrid"


@pytest.mark.parametrize("kind", ["box", "violin"])
def test_distribution_png(tmp_path: Path, report, kind) -> None:
    path = tmp_path / f"{kind}.png"
    figure = plot_distribution(report, "ndcg@10", kind=kind, path=path)
    width, height = png_size(path)
    assert (width, height) == (560, 450)
    assert path.stat().st_size > 5_000
    labels = [label.get_text() for label in figure.axes[0].get_xticklabels()]
    assert labels == ["bm25", "dense", "hybrid"]


def test_other_formats_follow_the_suffix(tmp_path: Path, report) -> None:
    report.plot_distribution(path=tmp_path / "box.svg")
    assert (tmp_path / "box.svg").read_text().lstrip().startswith("<?xml")


def test_bad_plot_arguments(report) -> None:
    with pytest.raises(
        ValueError, match=r"metric 'map' is not in the report; its metrics are ndcg@10"
    ):
        report.plot_distribution("map")
    with pytest.raises(
        ValueError, match=r"system 'bm26' is not in the report; its systems are bm25, dense, hybrid"
    ):
        report.plot_differences("bm26")
    with pytest.raises(
        ValueError, match=r"plot_differences needs two different systems, got 'dense' twice"
    ):
        report.plot_differences("dense", "dense")
    with pytest.raises(ValueError, match=r"kind must be 'box' or 'violin', got 'bar'"):
        report.plot_distribution(kind="bar")


def test_without_matplotlib_the_error_names_the_extra(monkeypatch, report) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(MissingDependencyError, match=r'pip install "ef-evaluation\[plot\]"'):
        report.plot_differences()
