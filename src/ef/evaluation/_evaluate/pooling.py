"""pool(): the docs to judge, the union of each run's top ``depth`` docs for each query
(depth-k pooling, as TREC pools its runs), minus what the qrels judge already; and
merge_qrels(), the judged pool added to the old qrels for scoring again.

The runs are read as :func:`~ef.evaluation.evaluate_run` reads a run, each query's docs
ranked by the tie policy (:mod:`ef.evaluation._runs.order`); the value is
:class:`~ef.evaluation.Pool`, which writes the file the assessors fill in.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .._engine.score_order import score_order
from .._formats.sources import is_irds
from .._plugin_engine.registry import Registry, registry_or_default
from .._reports.pool import Pool
from .._runs.order import SINGLE_ORDER_POLICIES
from .inputs import load_named_run, load_qrels
from .score_order import check_score_order

if TYPE_CHECKING:
    from .._runs.ranked import RankedRun
    from .._runs.table import RunTable
    from ..types import Qrels, RunInput

    RunLike = RunInput | RunTable | RankedRun | str | os.PathLike[str]

__all__ = ["merge_qrels", "pool"]


def pool(
    runs: Sequence[RunLike] | Mapping[str, RunLike],
    *,
    depth: int = 10,
    qrels: Qrels | str | os.PathLike[str] | None = None,
    tie_policy: str = "trec_eval",
    run_format: str | None = None,
    qrels_format: str | None = None,
    registry: Registry | None = None,
) -> Pool:
    """The depth-``depth`` pool of ``runs``: for each query, the docs any run ranks in its top
    ``depth``, less those ``qrels`` judge already.

    Each run is read as :func:`~ef.evaluation.evaluate_run` reads one, and each query's docs
    are ranked by ``tie_policy`` (trec_eval's rule by default: score descending, compared as
    float32, then doc id descending), so which of several tied docs make the cut at
    ``depth`` is the policy's choice, the same every time. A query of any run is pooled; a
    run that lacks it brings nothing to it. A doc the qrels judge, with any grade, is not
    judged again.

    Args:
        runs: one or more runs, each a ``{qid: {doc: score}}`` mapping, ranked lists
            ``{qid: [doc, ...]}``, a :class:`~ef.evaluation.RunTable` or the path of a run
            file; a mapping ``{name: run}`` names them in the report.
        depth: how many of each run's top docs per query are pooled (TREC's usual: 100,
            or 10 to 50 for a small budget).
        qrels: the judgements there are already (a mapping, or the path of a qrels file):
            their docs are left out. ``None`` pools every top doc.
        tie_policy: ``"trec_eval"``, ``"docno_asc"`` or ``"input_order"``: how tied docs are
            ranked within a run.
        run_format: the format of runs given as paths; ``None`` detects it.
        qrels_format: the format of ``qrels`` given as a path; ``None`` detects it.
        registry: the plugins to use; ``None`` is the default registry.

    Returns:
        A :class:`~ef.evaluation.Pool`: its docs by query, and what each run contributed;
        ``pool.write(path)`` writes the file the assessors fill in.

    Raises:
        ValueError: for no run, a run given twice, a depth that is no positive int, or a
            tie policy that gives no single order (``"expected"``).

    >>> bm25 = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> dense = {"q1": {"d3": 0.9, "d4": 0.8, "d1": 0.1}}
    >>> pooled = pool({"bm25": bm25, "dense": dense}, depth=2, qrels={"q1": {"d1": 1}})
    >>> pooled.docs, pooled.judged
    ({'q1': ('d2', 'd3', 'd4')}, {'q1': ('d1',)})
    >>> pooled.contributed["dense"], pooled.unique("bm25")
    ({'q1': ('d3', 'd4')}, {'q1': ('d2',)})
    """
    _check_options(depth, tie_policy)
    registry = registry_or_default(registry)
    labelled = _labelled(runs)
    judged = {} if qrels is None else load_qrels(qrels, registry, qrels_format)
    tops: dict[str, dict[str, list[str]]] = {}
    for label, run in labelled:
        loaded = load_named_run(label, run, registry, run_format)
        check_score_order(score_order(loaded), stacklevel=3, name=label)  # pool's caller
        tops[label] = {q: loaded.ranking(q, tie_policy)[:depth] for q in loaded.query_ids}
    docs, left_out = _pooled_and_judged(tops, judged)
    contributed = {label: _unjudged(top, judged) for label, top in tops.items()}
    return Pool(depth, tuple(tops), docs, left_out, contributed)


def _check_options(depth: int, tie_policy: str) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a positive int (the top docs pooled), got {depth!r}")
    if tie_policy not in SINGLE_ORDER_POLICIES:
        valid = ", ".join(map(repr, SINGLE_ORDER_POLICIES))
        raise ValueError(
            f"tie_policy must be one of {valid} (a pool needs one order of each run; "
            f"'expected' averages a metric over orders); got {tie_policy!r}"
        )


def _pooled_and_judged(
    tops: Mapping[str, Mapping[str, list[str]]], judged: Qrels
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """By query, in first-seen order: the pooled docs still to judge, and those the qrels
    judge already; each sorted."""
    query_ids = list(dict.fromkeys(q for top in tops.values() for q in top))
    docs, left_out = {}, {}
    for query_id in query_ids:
        pooled = {doc for top in tops.values() for doc in top.get(query_id, ())}
        done = judged.get(query_id, {})
        docs[query_id] = sorted(doc for doc in pooled if doc not in done)
        left_out[query_id] = sorted(doc for doc in pooled if doc in done)
    return docs, left_out


def _unjudged(top: Mapping[str, list[str]], judged: Qrels) -> dict[str, list[str]]:
    """One run's top docs by query, less those the qrels judge: what it contributes."""
    return {q: [doc for doc in top.get(q, ()) if doc not in judged.get(q, {})] for q in top}


def _labelled(runs: Sequence[RunLike] | Mapping[str, RunLike]) -> list[tuple[str, RunLike]]:
    """Each run with the name the report gives it: its key, its path, its own name or its
    place (``runs[1]``)."""
    if isinstance(runs, (str, os.PathLike)) or not isinstance(runs, (Sequence, Mapping)):
        raise TypeError(
            "runs must be a sequence of runs (a list), or a mapping of name to run; got "
            f"{type(runs).__name__}"
        )
    if isinstance(runs, Mapping):
        labelled = [(str(name), run) for name, run in runs.items()]
    else:
        labelled = [(_label(index, run), run) for index, run in enumerate(runs)]
    if not labelled:
        raise ValueError("pool needs one or more runs, got none")
    _check_once([label for label, _ in labelled])
    return labelled


def _check_once(labels: list[str]) -> None:
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ValueError(
            f"run {twice[0]!r} is given twice: a pool counts what each run contributes, so "
            "give each run once (or a mapping {name: run} to name them apart)"
        )


def _label(index: int, run: RunLike) -> str:
    """A listed run's name: its path, its own ``name``, or its place (``runs[1]``)."""
    if isinstance(run, (str, os.PathLike)):
        return str(Path(run))
    own = getattr(run, "name", None)
    return own if isinstance(own, str) and own else f"runs[{index}]"


def merge_qrels(
    qrels: Qrels | str | os.PathLike[str],
    judged: Qrels | str | os.PathLike[str],
    *,
    qrels_format: str | None = None,
    registry: Registry | None = None,
) -> dict[str, dict[str, int | float]]:
    """The old ``qrels`` with the ``judged`` pool added: the qrels to score the runs again.

    ``judged`` is the pool file the assessors filled in (TREC qrels lines, or the CSV form
    :meth:`~ef.evaluation.Pool.write` writes for a name ending in ``.csv``) or its mapping;
    a doc left without a grade is an error naming the file and line. A doc both judge is
    kept if they agree; if their grades differ, nothing is merged and the error names every
    such query and doc.

    Args:
        qrels: the judgements there were (a mapping, or the path of a qrels file).
        judged: the judged pool (a mapping, or the path of a filled pool file).
        qrels_format: the format of ``qrels`` given as a path; ``None`` detects it.
        registry: the plugins to use; ``None`` is the default registry.

    Returns:
        ``{query_id: {doc_id: grade}}``, a new mapping: neither input is changed.

    Raises:
        ValueError: for a doc judged differently by the two.

    >>> merge_qrels({"q1": {"d1": 1}}, {"q1": {"d2": 0}, "q2": {"d5": 2}})
    {'q1': {'d1': 1, 'd2': 0}, 'q2': {'d5': 2}}
    >>> merge_qrels({"q1": {"d1": 1}}, {"q1": {"d1": 2}})
    Traceback (most recent call last):
        ...
    ValueError: the judged pool grades 1 doc the qrels grade otherwise: query 'q1' doc 'd1' \
(qrels 1, pool 2); nothing was merged: settle each grade in one of them
    """
    registry = registry_or_default(registry)
    old = load_qrels(qrels, registry, qrels_format)
    if isinstance(judged, (str, os.PathLike)) and not is_irds(judged):
        from .._formats.pool import read_judged_pool

        new: Qrels = read_judged_pool(Path(judged))
    else:
        new = load_qrels(judged, registry)
    merged = {q: dict(docs) for q, docs in old.items()}
    conflicts = []
    for query_id, grades in new.items():
        into = merged.setdefault(query_id, {})
        for doc_id, grade in grades.items():
            if doc_id in into and into[doc_id] != grade:
                conflicts.append(
                    f"query {query_id!r} doc {doc_id!r} (qrels {into[doc_id]!r}, pool {grade!r})"
                )
            into.setdefault(doc_id, grade)
    if conflicts:
        more = f" (and {len(conflicts) - 10} more)" if len(conflicts) > 10 else ""
        raise ValueError(
            f"the judged pool grades {len(conflicts)} doc{'s' if len(conflicts) > 1 else ''} "
            f"the qrels grade otherwise: {'; '.join(conflicts[:10])}{more}; nothing was "
            "merged: settle each grade in one of them"
        )
    return merged
