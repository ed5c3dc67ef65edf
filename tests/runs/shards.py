"""What the tests of streamed and sharded runs share: the generated runs and qrels, the files
written from them, and the check that two reports are the same report."""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ef.evaluation import RetrievalEvalReport, evaluate_run, evaluate_shards
from ef.evaluation._evaluate.sharded import shards_of

METRICS = ("ndcg@3", "recall@5", "precision@2", "mrr@10", "map@all", "num_ret", "P(rel=2)@3")
DOCS = [f"d{i}" for i in range(8)] + ["q1", "D1"]
SCORES = [1.0, 1.0 + 1e-9, 0.5, 2.0, -3.25]  # ties, and a pair equal only in float32

runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q4", "q5", "x9"]),
    st.dictionaries(st.sampled_from(DOCS), st.sampled_from(SCORES), min_size=1, max_size=7),
    min_size=1,
    max_size=5,
)
qrels_maps = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q4", "q6"]),
    st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 2), max_size=5),
    min_size=1,
    max_size=5,
)
averagings = st.sampled_from(["qrels", "intersection", "run"])
tie_policies = st.sampled_from(["trec_eval", "docno_asc", "input_order", "expected"])

#: The draws of a sharded run, for ``@given(**SHARDED)``: a run, qrels, and the shard (of
#: ``k``) of each of the run's queries.
SHARDED = {
    "run": runs,
    "qrels": qrels_maps,
    "k": st.integers(1, 4),
    "owners": st.lists(st.integers(0, 3), min_size=6, max_size=6),
    "averaging": averagings,
    "tie_policy": tie_policies,
}


def write_run(path: Path, run: dict[str, dict[str, float]], *, newline: bool = True) -> Path:
    lines = [
        f"{q} Q0 {d} {i} {s!r} tag"
        for q, docs in run.items()
        for i, (d, s) in enumerate(docs.items())
    ]
    path.write_text("\n".join(lines) + ("\n" if newline else ""), encoding="utf-8")
    return path


def write_parquet(path: Path, run: dict[str, dict[str, float]]) -> Path:
    import polars as pl

    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = pl.DataFrame(rows, schema=["q_id", "doc_id", "score"], orient="row")
    frame.write_parquet(path)
    return path


def split(run: dict[str, dict[str, float]], owners: list[int], k: int) -> list[dict[str, Any]]:
    shards: list[dict[str, Any]] = [{} for _ in range(k)]
    for (query_id, docs), owner in zip(run.items(), owners, strict=False):
        shards[owner % k][query_id] = docs
    return shards


def write_shards(folder: Path, shards: list[dict[str, Any]]) -> tuple[Path, list[Path]]:
    """The non-empty ``shards`` as ``part-NN.trec`` in ``folder``, and ``whole.trec``: the
    shards' files concatenated, in order."""
    paths = [write_run(folder / f"part-{i:02d}.trec", s) for i, s in enumerate(shards) if s]
    whole = folder / "whole.trec"
    whole.write_bytes(b"".join(p.read_bytes() for p in paths))
    return whole, paths


RUN = {f"q{i}": {f"d{j}": float((i * 7 + j * 3) % 5) for j in range(12)} for i in range(30)}
QRELS = {f"q{i}": {f"d{(i + j) % 12}": j % 3 for j in range(4)} for i in range(32)}


def sharded_files(folder: Path) -> tuple[Path, list[Path]]:
    """RUN in four shards of whole queries in ``folder``: the whole file and the shards."""
    return write_shards(folder, split(RUN, [i % 4 for i in range(len(RUN))], 4))


def entry(path: Path) -> dict[str, Any]:
    """A run file's entry in a report's manifest."""
    data = path.read_bytes()
    return {"path": str(path), "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def evaluate(run: Any, qrels: Any, **options: Any) -> RetrievalEvalReport:
    """evaluate_shards' report of a sharded run (a list, a glob or a URL), evaluate_run's of
    any other: the two journeys, to compare their numbers."""
    if shards_of(run) is None:
        return evaluate_run(run, qrels, **options)
    return evaluate_shards(run, qrels, **options)


def outcome(run: Any, qrels: Any, **options: Any) -> tuple[Any, list[str]]:
    """The report of METRICS (:func:`evaluate`), or its ValueError, and its warnings'
    messages."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got: Any = evaluate(run, qrels, metrics=METRICS, **options)
        except ValueError as exc:
            got = exc
    return got, [str(w.message) for w in caught]


def same(got: Any, expected: Any) -> None:
    """The same report (or the same ValueError), down to the order of its queries."""
    if isinstance(expected, ValueError):
        assert isinstance(got, ValueError)
        assert str(got) == str(expected)
        return
    assert got == expected  # metrics, per-query values, skipped, missing, extra
    assert list(got.per_query) == list(expected.per_query)
    assert list(got.skipped) == list(expected.skipped)
    assert got.ties == expected.ties
    assert got.manifest["tie_policy"] == expected.manifest["tie_policy"]
    assert got.manifest["averaging"] == expected.manifest["averaging"]
