"""BEIR 2.2.0's evaluation, restated from its public source for machines without ``beir``.

From https://github.com/beir-cellar/beir/blob/main/beir/retrieval/evaluation.py
(``EvaluateRetrieval.evaluate``) and
https://github.com/beir-cellar/beir/blob/main/beir/retrieval/custom_metrics.py (``mrr``,
``recall_cap``, ``hole``, ``top_k_accuracy``): the same steps, written again, with the
behaviours kept that the compat layer must reproduce or refuses to: ``evaluate`` removes
identical ids from the caller's dict, divides by the queries pytrec_eval scored and rounds
to 5 decimals; the custom metrics sort each query's docs with Python's stable sort, divide
by ``len(qrels)`` and index ``qrels[query_id]`` for every run query (a ``KeyError`` for an
unjudged one). tests/compat/test_beir.py checks it against the installed ``beir`` too.
"""

from __future__ import annotations

from typing import Any

import pytrec_eval


class EvaluateRetrieval:
    @staticmethod
    def evaluate(
        qrels: Any, results: Any, k_values: list[int], ignore_identical_ids: bool = True
    ) -> tuple[dict[str, float], ...]:
        if ignore_identical_ids:
            for qid, rels in results.items():
                for pid in list(rels):
                    if qid == pid:
                        rels.pop(pid)  # in place, as BEIR does
        names = {"NDCG": "ndcg_cut", "MAP": "map_cut", "Recall": "recall", "P": "P"}
        cut = ",".join(map(str, k_values))
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"{m}.{cut}" for m in names.values()})
        scores = evaluator.evaluate(results)
        out = []
        for prefix, measure in names.items():
            sums = dict.fromkeys((f"{prefix}@{k}" for k in k_values), 0.0)
            for values in scores.values():
                for k in k_values:
                    sums[f"{prefix}@{k}"] += values[f"{measure}_{k}"]
            out.append({key: round(total / len(scores), 5) for key, total in sums.items()})
        return tuple(out)

    @staticmethod
    def evaluate_custom(qrels: Any, results: Any, k_values: list[int], metric: str) -> Any:
        name = metric.lower()
        if name in ("mrr", "mrr@k", "mrr_cut"):
            return _mrr(qrels, results, k_values)
        if name in ("recall_cap", "r_cap", "r_cap@k"):
            return _recall_cap(qrels, results, k_values)
        if name in ("hole", "hole@k"):
            return _hole(qrels, results, k_values)
        if name in ("acc", "top_k_acc", "accuracy", "accuracy@k", "top_k_accuracy"):
            return _top_k_accuracy(qrels, results, k_values)
        return None


def _top(scores: dict[str, float], k: int) -> list[str]:
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: item[1], reverse=True)[:k]]


def _relevant(qrels: Any, query_id: str) -> set[str]:
    return {doc for doc, grade in qrels[query_id].items() if grade > 0}


def _mrr(qrels: Any, results: Any, k_values: list[int]) -> dict[str, float]:
    totals = dict.fromkeys(k_values, 0.0)
    for query_id, scores in results.items():
        top, relevant = _top(scores, max(k_values)), _relevant(qrels, query_id)
        for k in k_values:
            for rank, doc in enumerate(top[:k]):
                if doc in relevant:
                    totals[k] += 1.0 / (rank + 1)
                    break
    return {f"MRR@{k}": round(totals[k] / len(qrels), 5) for k in k_values}


def _recall_cap(qrels: Any, results: Any, k_values: list[int]) -> dict[str, float]:
    totals = dict.fromkeys(k_values, 0.0)
    for query_id, scores in results.items():
        top, relevant = _top(scores, max(k_values)), _relevant(qrels, query_id)
        for k in k_values:
            found = [doc for doc in top[:k] if qrels[query_id].get(doc, 0) > 0]
            totals[k] += len(found) / min(len(relevant), k)
    return {f"R_cap@{k}": round(totals[k] / len(qrels), 5) for k in k_values}


def _hole(qrels: Any, results: Any, k_values: list[int]) -> dict[str, float]:
    annotated = {doc for judged in qrels.values() for doc in judged}
    totals = dict.fromkeys(k_values, 0.0)
    for scores in results.values():
        top = _top(scores, max(k_values))
        for k in k_values:
            totals[k] += len([doc for doc in top[:k] if doc not in annotated]) / k
    return {f"Hole@{k}": round(totals[k] / len(qrels), 5) for k in k_values}


def _top_k_accuracy(qrels: Any, results: Any, k_values: list[int]) -> dict[str, float]:
    totals = dict.fromkeys(k_values, 0.0)
    for query_id, scores in results.items():
        top, relevant = _top(scores, max(k_values)), _relevant(qrels, query_id)
        for k in k_values:
            if any(doc in top[:k] for doc in relevant):
                totals[k] += 1.0
    return {f"Accuracy@{k}": round(totals[k] / len(qrels), 5) for k in k_values}
