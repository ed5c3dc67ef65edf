"""A tiny ir_datasets dataset, registered in ir_datasets' own registry over files a test
writes: ``irds:`` sources read by ir_datasets' loading code, with nothing to download."""

from __future__ import annotations

import uuid
from pathlib import Path

QRELS = "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq2 0 d2 1\nq2 0 d3 2\n"
RUN = "q1 Q0 d2 1 3.0 r\nq1 Q0 d1 2 2.0 r\nq1 Q0 d3 3 1.0 r\nq2 Q0 d3 1 2.5 r\nq2 Q0 d1 2 0.5 r\n"
#: The official measures of msmarco-passage/trec-dl-2019/judged, as ir_datasets 0.6.3 documents.
DL_PASSAGE = ["nDCG@10", "RR(rel=2)", "AP(rel=2)"]


class _Documented:
    """A constituent that documents official measures, as ir_datasets' YAML provider does."""

    def __init__(self, measures: list[str]) -> None:
        self._measures = measures

    def documentation(self) -> dict[str, object]:
        return {"official_measures": self._measures}


def register(
    irds: object,
    folder: Path,
    *,
    measures: list[str],
    run: bool = True,
    qrels: str = QRELS,
    run_text: str = RUN,
) -> str:
    """A dataset registered under a fresh id, over files written in ``folder``."""
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels, TrecScoredDocs, TsvDocs, TsvQueries
    from ir_datasets.util import LocalDownload

    files = {
        "docs.tsv": "d1\tParis is in France.\nd2\tLondon is in England.\nd3\tRome.\n",
        "queries.tsv": "q1\twhere is paris\nq2\trome\n",
        "qrels.txt": qrels,
        "run.trec": run_text,
    }
    for name, text in files.items():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    parts = [
        TsvDocs(LocalDownload(folder / "docs.tsv")),
        TsvQueries(LocalDownload(folder / "queries.tsv")),
        TrecQrels(LocalDownload(folder / "qrels.txt"), {0: "no", 1: "some", 2: "high"}),
        TrecScoredDocs(LocalDownload(folder / "run.trec")) if run else None,
        _Documented(measures),
    ]
    dataset_id = f"ef-test/{uuid.uuid4().hex[:8]}"
    irds.registry.register(dataset_id, Dataset(*parts))  # type: ignore[attr-defined]
    return dataset_id
