"""Generate the benchmark run and qrels deterministically (same seed, same bytes).

    python benchmarks/generate.py M benchmarks/data     # 7,000 queries x 1,000 docs
    python benchmarks/generate.py L benchmarks/data     # 50,000 queries x 1,000 docs
    python benchmarks/generate.py S /tmp/bench          # 200 x 100, for tests
    python benchmarks/generate.py XL /big/disk          # 200,000 x 1,000: 7.0 GB, written in slices

Each scale writes ``run.<scale>.trec`` (TREC, 6 columns, written in rank order) and
``qrels.<scale>.txt`` (TREC qrels). The shape follows MS MARCO passage dev:

* ids are MS MARCO-like integers: query ids below 1.2 million, passage ids below 8.8 million;
* about 1.1 relevant passages per query, graded 1 to 3, plus a few judged non-relevant;
* 85% of the relevant passages are somewhere in the run, at a rank skewed to the top;
* scores are rounded to 3 decimals, so many tie, and some ties straddle a relevant passage;
* 1% of the judged queries are missing from the run, and 1% of the run's queries are unjudged.

Needs numpy only.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import numpy as np

#: Queries and docs per query of each scale; S is a tiny one for tests.
SCALES = {"S": (200, 100), "M": (7_000, 1_000), "L": (50_000, 1_000), "XL": (200_000, 1_000)}
#: Scales written a slice of queries at a time (XL is 7.0 GB: its arrays would not fit at once).
SLICED = {"XL": 5_000}
N_PASSAGES = 8_841_823
SEED = 20261130


def generate(scale: str, out: Path) -> tuple[Path, Path]:
    n_queries, depth = SCALES[scale]
    rng = np.random.default_rng(SEED + n_queries)
    out.mkdir(parents=True, exist_ok=True)
    qids = rng.choice(1_200_000, size=n_queries, replace=False)
    n_missing = n_queries // 100
    judged = qids  # every generated query is judged...
    run_qids = qids[n_missing:]  # ...but the first 1% are missing from the run
    extra = 1_200_000 + np.arange(n_queries // 100)  # and these are in the run only
    qrels_path = out / f"qrels.{scale}.txt"
    relevant = _write_qrels(rng, judged, qrels_path)
    all_run_q = np.concatenate([run_qids, extra])
    run_path = out / f"run.{scale}.trec"
    with open(run_path, "w", encoding="utf-8") as f:
        step = SLICED.get(scale, all_run_q.size)
        for start in range(0, all_run_q.size, step):
            # One slice (all of S, M, L): the scale's own generator; else one per slice.
            part = rng if step == all_run_q.size else np.random.default_rng([SEED, start])
            _write_run(part, all_run_q[start : start + step], relevant, depth, f)
    return run_path, qrels_path


def _write_qrels(rng: np.random.Generator, judged: np.ndarray, path: Path) -> dict[int, int]:
    """Write the qrels; each query's first relevant passage."""
    n_queries = judged.size
    # Qrels: 1 relevant passage, a second for 10% of queries, grades 1-3; 0.3 non-relevant.
    n_rel = 1 + (rng.random(n_queries) < 0.1)
    rel_q = np.repeat(judged, n_rel)
    rel_doc = rng.integers(0, N_PASSAGES, size=rel_q.size)
    rel_grade = rng.integers(1, 4, size=rel_q.size)
    nonrel_q = judged[rng.random(n_queries) < 0.3]
    nonrel_doc = rng.integers(0, N_PASSAGES, size=nonrel_q.size)
    q_all = np.concatenate([rel_q, nonrel_q])
    d_all = np.concatenate([rel_doc, nonrel_doc])
    g_all = np.concatenate([rel_grade, np.zeros(nonrel_q.size, dtype=rel_grade.dtype)])
    # A pair drawn twice would be a duplicate judgement: keep the first.
    _, first = np.unique(np.stack([q_all, d_all]), axis=1, return_index=True)
    keep = np.sort(first)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(
            f"{q} 0 {d} {g}\n"
            for q, d, g in zip(q_all[keep], d_all[keep], g_all[keep], strict=True)
        )
    return dict(zip(rel_q.tolist(), rel_doc.tolist(), strict=False))


def _write_run(
    rng: np.random.Generator,
    all_run_q: np.ndarray,
    relevant: dict[int, int],
    depth: int,
    f: TextIO,
) -> None:
    """Write the run lines of the queries ``all_run_q``."""
    # Run: 1,000 distinct passages per query, scores falling with rank, rounded (ties).
    n_run = all_run_q.size
    docs = rng.integers(0, N_PASSAGES, size=(n_run, depth))
    ranks = np.minimum((rng.pareto(1.2, size=n_run) * 5).astype(np.int64), depth - 1)
    place = rng.random(n_run) < 0.85
    for i, q in enumerate(all_run_q.tolist()):
        if place[i] and q in relevant:
            docs[i, ranks[i]] = relevant[q]
    # Distinct within a query: a rare collision is moved to a passage id past the collection.
    docs.sort(axis=1)
    dup = np.zeros_like(docs, dtype=bool)
    dup[:, 1:] = docs[:, 1:] == docs[:, :-1]
    docs[dup] = N_PASSAGES + np.arange(int(dup.sum()))
    for i in range(n_run):  # back to a random order, the relevant passage at its rank
        rng.shuffle(docs[i])
        if place[i] and all_run_q[i] in relevant:
            j = int(np.flatnonzero(docs[i] == relevant[int(all_run_q[i])])[0])
            docs[i, [j, ranks[i]]] = docs[i, [ranks[i], j]]
    base = rng.uniform(20.0, 30.0, size=(n_run, 1))
    scores = np.round(base - np.sort(rng.exponential(0.01, size=(n_run, depth)).cumsum(1), 1), 3)
    rank_col = np.arange(1, depth + 1)
    for i, q in enumerate(all_run_q.tolist()):
        f.writelines(
            f"{q} Q0 {d} {r} {s:.3f} bench\n"
            for d, r, s in zip(docs[i].tolist(), rank_col.tolist(), scores[i].tolist(), strict=True)
        )


if __name__ == "__main__":
    scale, out = sys.argv[1], Path(sys.argv[2] if len(sys.argv) > 2 else "benchmarks/data")
    for path in generate(scale, out):
        print(path, f"{path.stat().st_size / 1e6:.0f} MB")
