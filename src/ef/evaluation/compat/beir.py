"""BEIR's call shape: ``EvaluateRetrieval.evaluate(qrels, results, k_values)``.

:meth:`EvaluateRetrieval.evaluate` returns BEIR's four dicts, ``(ndcg, _map, recall,
precision)`` keyed ``NDCG@k``, ``MAP@k``, ``Recall@k`` and ``P@k``;
:meth:`EvaluateRetrieval.evaluate_custom` returns one dict of BEIR's own metrics (``MRR@k``,
``R_cap@k``, ``Hole@k``, ``Accuracy@k``). Both are static methods, as in BEIR, and give
BEIR's numbers through ``profile="beir"``: pytrec_eval's metrics averaged over the queries
pytrec_eval scored, BEIR's own ones over every query of the qrels with ties in the run's
order, every mean rounded to 5 decimals.

>>> from ef.evaluation.compat.beir import EvaluateRetrieval
>>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
>>> results = {"q1": {"d1": 0.9, "d3": 0.5}, "q2": {"d3": 0.8, "d2": 0.1}}
>>> ndcg, _map, recall, precision = EvaluateRetrieval.evaluate(qrels, results, [1, 10])
>>> ndcg
{'NDCG@1': 0.5, 'NDCG@10': 0.81546}
>>> EvaluateRetrieval.evaluate_custom(qrels, results, [1, 10], metric="mrr")
{'MRR@1': 0.5, 'MRR@10': 0.75}

Unlike BEIR, ``ignore_identical_ids=True`` does not remove anything from ``results``: the
caller's dict is left as it was. A run query that the qrels do not judge is ignored, where
BEIR's own metrics raise ``KeyError``; an unknown ``metric`` is an error, where BEIR returns
``None``. An empty run is an error in :meth:`~EvaluateRetrieval.evaluate` (BEIR divides by
zero there), and 0 at every cutoff in :meth:`~EvaluateRetrieval.evaluate_custom`, as BEIR
gives, with an :class:`~ef.evaluation.InputWarning` that says the run is empty.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._evaluate.inputs import check_qrels
from .._evaluate.run import evaluate_run
from ..errors import InputWarning

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from ..types import Qrels, Run

__all__ = ["EvaluateRetrieval"]

#: BEIR's default cutoffs (EvaluateRetrieval's k_values).
DEFAULT_K_VALUES = (1, 3, 5, 10, 100, 1000)

# evaluate()'s dicts: BEIR's key prefix and our metric, in BEIR's order.
_PYTREC_METRICS = (("NDCG", "ndcg"), ("MAP", "map"), ("Recall", "recall"), ("P", "precision"))
# evaluate_custom()'s metric names (lower-cased, as BEIR compares them), BEIR's key prefix
# and our metric.
_CUSTOM_METRICS = {
    **dict.fromkeys(("mrr", "mrr@k", "mrr_cut"), ("MRR", "mrr")),
    **dict.fromkeys(("recall_cap", "r_cap", "r_cap@k"), ("R_cap", "r_cap")),
    **dict.fromkeys(("hole", "hole@k"), ("Hole", "hole")),
    **dict.fromkeys(
        ("acc", "top_k_acc", "accuracy", "accuracy@k", "top_k_accuracy"), ("Accuracy", "success")
    ),
}


def _cutoffs(k_values: Sequence[int]) -> list[int]:
    if isinstance(k_values, int) or not k_values:
        raise ValueError(f"k_values is a list of cutoffs, e.g. [1, 10, 100]; got {k_values!r}")
    return list(k_values)


class EvaluateRetrieval:
    """BEIR's ``EvaluateRetrieval``, for evaluation: ``k_values`` as BEIR keeps them.

    ``retriever`` and ``score_function`` are accepted and kept, as BEIR keeps them; running
    a retriever is :func:`~ef.evaluation.evaluate_retrieval`'s part, not this class's.

    >>> EvaluateRetrieval().k_values
    [1, 3, 5, 10, 100, 1000]
    """

    def __init__(
        self,
        retriever: object = None,
        k_values: Sequence[int] = DEFAULT_K_VALUES,
        score_function: str | None = "cos_sim",
    ) -> None:
        self.retriever = retriever
        self.k_values = _cutoffs(k_values)
        self.top_k = max(self.k_values)
        self.score_function = score_function

    @staticmethod
    def evaluate(
        qrels: Qrels,
        results: Run,
        k_values: Sequence[int],
        ignore_identical_ids: bool = True,
        *,
        registry: Registry | None = None,
    ) -> tuple[dict[str, float], dict[str, float], dict[str, float], dict[str, float]]:
        """BEIR's ``(ndcg, _map, recall, precision)``: each ``{"NDCG@k": mean, ...}`` over
        ``k_values``, rounded to 5 decimals.

        ``ignore_identical_ids`` leaves out a doc whose id is its query's id, as BEIR does,
        without removing it from ``results``.

        Raises:
            ValueError: if no query of ``results`` is judged, ``results`` being empty
                included (BEIR divides by zero), or for a score that is no finite number.
        """
        ks = _cutoffs(k_values)
        report = evaluate_run(
            results,
            qrels,
            metrics=[f"{ours}@{k}" for _, ours in _PYTREC_METRICS for k in ks],
            k_values=ks,
            profile="beir",
            ignore_identical_ids=ignore_identical_ids,
            registry=registry,
            check_doc_ids="warn",  # BEIR scores misspelt doc ids 0: so do we, and say so
        )
        ndcg, _map, recall, precision = (
            {f"{prefix}@{k}": report.metrics[f"{ours}@{k}"] for k in ks}
            for prefix, ours in _PYTREC_METRICS
        )
        return ndcg, _map, recall, precision

    @staticmethod
    def evaluate_custom(
        qrels: Qrels,
        results: Run,
        k_values: Sequence[int],
        metric: str,
        *,
        ignore_identical_ids: bool = False,
        registry: Registry | None = None,
    ) -> dict[str, float]:
        """One of BEIR's own metrics at each of ``k_values``: ``metric`` is ``"mrr"``,
        ``"r_cap"`` (or ``"recall_cap"``), ``"hole"`` or ``"acc"`` (``"top_k_accuracy"``),
        in any case, as BEIR reads it; the keys are ``MRR@k``, ``R_cap@k``, ``Hole@k`` or
        ``Accuracy@k``. Each mean divides by every query of ``qrels`` and is rounded to 5
        decimals, as BEIR's. An empty ``results`` gives 0 at each cutoff, as BEIR's, with an
        :class:`~ef.evaluation.InputWarning`.

        BEIR's ``evaluate_custom`` keeps identical ids (only ``evaluate`` drops them, from
        the caller's dict): ``ignore_identical_ids=True`` scores what BEIR's
        ``evaluate_custom`` scores when ``evaluate`` ran before it on the same dict.

        >>> qrels = {"q1": {"d1": 1, "d2": 1}}
        >>> EvaluateRetrieval.evaluate_custom(qrels, {"q1": {"d1": 1.0}}, [1, 2], "R_CAP")
        {'R_cap@1': 1.0, 'R_cap@2': 0.5}
        """
        if not isinstance(metric, str) or metric.lower() not in _CUSTOM_METRICS:
            names = ", ".join(map(repr, _CUSTOM_METRICS))
            raise ValueError(f"BEIR's custom metrics are {names}; got {metric!r}")
        prefix, ours = _CUSTOM_METRICS[metric.lower()]
        ks = _cutoffs(k_values)
        if isinstance(results, Mapping) and not results and qrels:
            check_qrels(qrels)
            warnings.warn(
                "the run is empty (no query): every cutoff scores 0, as BEIR's "
                "evaluate_custom gives; evaluate_run refuses an empty run",
                InputWarning,
                stacklevel=2,
            )
            return {f"{prefix}@{k}": 0.0 for k in ks}
        report = evaluate_run(
            results,
            qrels,
            metrics=[f"{ours}@{k}" for k in ks],
            k_values=ks,
            profile="beir",
            ignore_identical_ids=ignore_identical_ids,
            registry=registry,
            check_doc_ids="warn",  # BEIR scores misspelt doc ids 0: so do we, and say so
        )
        return {f"{prefix}@{k}": report.metrics[f"{ours}@{k}"] for k in ks}
