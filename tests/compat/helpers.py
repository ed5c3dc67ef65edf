"""Inputs shared by the compat tests: runs with tied scores, graded qrels, and query sets
that differ on both sides (a judged query the run lacks, a run query nobody judged)."""

from __future__ import annotations

import copy
import random

Run = dict[str, dict[str, float]]
Qrels = dict[str, dict[str, int]]


def inputs(seed: int, *, queries: int = 12, ties: bool = True) -> tuple[Qrels, Run]:
    """(qrels, run): qrels first, as every peer takes them. Scores have one decimal when
    ``ties`` (so many tie), else they are distinct. q0..q2 are unjudged, q12 and q13 judged
    but not in the run, q13 has no relevant doc; a doc id equal to its query id appears."""
    rng = random.Random(seed)
    run: Run = {}
    for q in range(queries):
        docs = rng.sample(range(40), 15)
        scores = rng.sample(range(1000), 15)
        run[f"q{q}"] = {
            f"d{d}": round(rng.random(), 1) if ties else s / 7.0
            for d, s in zip(docs, scores, strict=True)
        }
    run["q5"]["q5"] = 0.95  # BEIR's identical ids
    qrels: Qrels = {
        f"q{q}": {f"d{d}": rng.choice((0, 1, 1, 2)) for d in rng.sample(range(40), 8)}
        for q in range(3, queries + 2)
    }
    qrels[f"q{queries + 1}"] = {"d1": 0}
    return qrels, run


def unchanged(*values: object):
    """A check that ``values`` are as they were when this was called."""
    before = copy.deepcopy(values)

    def check() -> None:
        assert values == before

    return check
