"""Compatibility profiles: another tool's numbers, on the same inputs.

Tools that "all compute nDCG@10" disagree in the third decimal because each makes its own
choices: how tied docs are ordered, which queries a mean divides by, whether a relevance
threshold reaches nDCG, whether means are rounded. ``evaluate_run(..., profile=NAME)``
makes the choices of one tool, metric by metric:

* ``"trec_eval"``: trec_eval 9 without ``-c``, and pytrec_eval: ties by doc id descending
  (scores as float32); the mean is over the run's judged queries, one with no relevant doc
  included.
* ``"beir"``: BEIR's ``EvaluateRetrieval``. ``ndcg``, ``map``, ``recall`` and ``precision``
  come from pytrec_eval (as above) and divide by the queries pytrec_eval scored; BEIR's own
  ``mrr``, ``r_cap``, ``hole`` and ``success`` (its ``Accuracy``) sort with Python's stable
  sort (ties in the run's order, scores as float64) and divide by every query of qrels.
  Its ``hole`` counts a doc as judged if any query judges it, over every query of the run.
  Every mean is rounded to 5 decimals, and a doc whose id is its query's id is dropped.
* ``"mteb"``: MTEB's retrieval evaluator (2.x): pytrec_eval's metrics as in ``"beir"``
  (``success`` is its ``hit_rate``), rounded to 5 decimals; its own ``mrr`` ties by
  ``(score, doc_id)`` descending with scores as float64, divides by the queries scored,
  and is not rounded. Identical ids are kept (MTEB's default).
* ``"ranx"``: ranx's ``evaluate`` with ``make_comparable=True``: every query of qrels is
  averaged in (one the run lacks, or one with no relevant doc, scores 0), and a measure's
  ``rel=`` drops the lower grades from the judgements, nDCG included (ranx's ``-l``).
  ranx's own order of tied docs is unspecified (an unstable sort); the profile uses
  trec_eval's.

Metrics a tool does not compute follow that tool's pytrec_eval metrics.

>>> from ef.evaluation import evaluate_run
>>> run = {"q1": {"d1": 1.0, "d2": 1.0, "d3": 0.5}, "q2": {"d4": 1.0}}
>>> qrels = {"q1": {"d1": 1}, "q2": {"d5": 1}, "q3": {"d6": 1}}
>>> evaluate_run(run, qrels, metrics=("mrr@10", "ndcg@10"), profile="beir").metrics
{'mrr@10': 0.33333, 'ndcg@10': 0.31546}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import attrs

from ._manifest import retrieval_manifest
from .reports import RetrievalEvalReport
from .ties import check_tie_policy

if TYPE_CHECKING:
    from ._registry import Registry
    from .run_eval import Scored, Table
    from .scoring import Measure
    from .types import Qrels

__all__ = ["PROFILES", "Profile", "Rule"]


def _valid_policy(_: object, __: object, value: str) -> None:
    check_tie_policy(value)


@attrs.frozen
class Rule:
    """How a profile scores a metric: the order of tied docs (``float64``: scores compared
    as Python floats, not as trec_eval's float32), what a mean divides by (``"scored"``: the
    queries scored; ``"qrels"``: every query of qrels) and the decimals it is rounded to."""

    tie_policy: str = attrs.field(default="trec_eval", validator=_valid_policy)
    float64: bool = False
    denominator: Literal["scored", "qrels"] = "scored"
    digits: int | None = None
    #: BEIR's Hole: judged means judged for any query, over every query of the run.
    annotated_hole: bool = False


@attrs.frozen
class Profile:
    """A tool's choices: which queries are scored (``"run"``: the run's judged queries;
    ``"all"``: every query of qrels), identical ids, each metric's :class:`Rule` (by metric
    name, ``default`` for the rest), and whether ``rel=`` thresholds the judgements."""

    name: str
    description: str
    queries: Literal["run", "all"]
    default: Rule
    rules: Mapping[str, Rule] = attrs.field(factory=dict)
    ignore_identical_ids: bool = False
    threshold_qrels: bool = False

    def rule(self, metric: str) -> Rule:
        """The rule of the metric named ``metric``."""
        return self.rules.get(metric, self.default)


_PYTREC = Rule("trec_eval")
_PYTREC_5 = Rule("trec_eval", digits=5)
_BEIR_OWN = Rule("input_order", float64=True, denominator="qrels", digits=5)

#: The profiles ``evaluate_run(..., profile=...)`` knows, by name.
PROFILES: Mapping[str, Profile] = {
    "trec_eval": Profile(
        "trec_eval",
        "trec_eval 9 without -c, and pytrec_eval",
        queries="run",
        default=_PYTREC,
    ),
    "beir": Profile(
        "beir",
        "BEIR 2.2 EvaluateRetrieval.evaluate and evaluate_custom",
        queries="run",
        default=_PYTREC_5,
        rules={
            "mrr": _BEIR_OWN,
            "r_cap": _BEIR_OWN,
            "success": _BEIR_OWN,
            "hole": attrs.evolve(_BEIR_OWN, annotated_hole=True),
        },
        ignore_identical_ids=True,
    ),
    "mteb": Profile(
        "mteb",
        "MTEB 2.x retrieval evaluator (calculate_retrieval_scores)",
        queries="run",
        default=_PYTREC_5,
        rules={"mrr": Rule("trec_eval", float64=True)},
    ),
    "ranx": Profile(
        "ranx",
        "ranx 0.3 evaluate(make_comparable=True)",
        queries="all",
        default=_PYTREC,
        threshold_qrels=True,
    ),
}


def profile_named(name: str) -> Profile:
    """The profile called ``name``; a ValueError listing the profiles otherwise."""
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        valid = ", ".join(map(repr, PROFILES))
        raise ValueError(f"profile must be one of {valid}; got {name!r}") from None


def _thresholded(qrels: Qrels, level: float | None) -> Qrels:
    """ranx's ``-l``: the judgements without the grades below ``level``."""
    if level is None:
        return qrels
    return {q: {d: g for d, g in judged.items() if g >= level} for q, judged in qrels.items()}


def _annotated_hole(
    table: Table, qrels: Qrels, k: int, rule: Rule
) -> tuple[dict[str, float], float]:
    """BEIR's Hole@k: per query of the run, the share of its top k that no query judges;
    and their sum over every query of the run (judged or not, as BEIR sums it)."""
    annotated = {doc for judged in qrels.values() for doc in judged}
    values = {
        q: sum(
            doc not in annotated
            for doc in table.ranking(q, rule.tie_policy, float64=rule.float64)[:k]
        )
        / k
        for q in table.query_ids
    }
    return values, math.fsum(values.values())


def evaluate_with_profile(
    name: str,
    table: Table,
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    registry: Registry,
    inputs: Mapping[str, Any],
    ignore_identical_ids: bool | None,
) -> RetrievalEvalReport:
    """:func:`~ef.evaluation.evaluate_run` under the profile called ``name``."""
    from .run_eval import score_run

    profile = profile_named(name)
    drop_identical = (
        profile.ignore_identical_ids if ignore_identical_ids is None else ignore_identical_ids
    )
    if drop_identical:
        table = table.without_identical_ids()
    # Measures scored alike go together: same rule, and (ranx) same relevance level.
    groups: dict[tuple[Rule, float | None], list[Measure]] = {}
    for m in measures:
        level = dict(m.params).get("rel") if profile.threshold_qrels else None
        groups.setdefault((profile.rule(m.metric.name), level), []).append(m)
    per_query: dict[str, dict[str, float]] = {}
    means: dict[str, float] = {}
    main: Scored | None = None  # the default rule's scoring gives skipped, missing and ties
    for (rule, level), group in groups.items():
        scored = score_run(
            table,
            _thresholded(qrels, level),
            group,
            averaging=profile.queries,
            tie_policy=rule.tie_policy,
            float64=rule.float64,
        )
        if main is None or rule == profile.default:
            main = scored
        for query_id, values in scored.per_query.items():
            per_query.setdefault(query_id, {}).update(values)
        for m in group:
            divisor = len(scored.per_query) if rule.denominator == "scored" else len(qrels)
            if rule.annotated_hole and m.k is not None:
                values, total = _annotated_hole(table, qrels, m.k, rule)
                for query_id in scored.per_query:
                    per_query[query_id][m.key] = values[query_id]
            else:
                total = math.fsum(row[m.key] for row in scored.per_query.values())
            if m.metric.aggregate == "sum":
                divisor = 1
            mean = total / divisor if divisor else 0.0
            means[m.key] = mean if rule.digits is None else round(mean, rule.digits)
    assert main is not None  # measures is never empty
    if not per_query:
        reasons = sorted(set(main.skipped.values())) or ["qrels is empty"]
        raise ValueError(f"no query can be scored ({'; '.join(reasons)})")
    manifest = retrieval_manifest(
        registry,
        [(m.key, m.metric.name, m.k) for m in measures],
        tie_policy=profile.default.tie_policy,
        averaging=profile.queries,
        inputs=inputs,
    )
    manifest["profile"] = {
        "name": profile.name,
        "tool": profile.description,
        "ignore_identical_ids": drop_identical,
        "rules": {m.key: attrs.asdict(profile.rule(m.metric.name)) for m in measures},
    }
    return RetrievalEvalReport(
        metrics={m.key: means[m.key] for m in measures},
        per_query={q: {m.key: row[m.key] for m in measures} for q, row in per_query.items()},
        n_queries=len(per_query),
        k_values=tuple(dict.fromkeys(m.k for m in measures if m.k is not None)),
        skipped=main.skipped,
        missing=main.missing,
        extra=[q for q in table.query_ids if q not in qrels],
        manifest=manifest,
        ties=main.ties,
    )
