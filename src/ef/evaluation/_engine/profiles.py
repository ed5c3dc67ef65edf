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
  (``success`` is its ``hit_rate``), rounded to 5 decimals; its own ``mrr``, ``r_cap`` and
  ``hole`` tie by ``(score, doc_id)`` descending with scores as float64 and are not rounded:
  ``mrr`` divides by the queries scored, ``r_cap`` by those with a relevant doc, ``hole``
  (over the annotated corpus) by every query of the run. Identical ids are kept.
* ``"ir_measures"``: ir_measures' ``calc_aggregate`` and ``iter_calc``: trec_eval's numbers
  per query (its pytrec_eval provider), and every query of qrels averaged in: one with no
  relevant doc scores 0, and one the run lacks scores 0 on every measure (``NumRel``
  included). ``RR@k`` (its msmarco provider) and ``Judged`` (its own) rank ties by doc id
  ascending, scores as float64.
* ``"ranx"``: ranx's ``evaluate``: every query of qrels is averaged in (one the run lacks,
  or one with no relevant doc, scores 0: ``make_comparable=True``), tied docs land where
  ranx's quicksort puts them in ``evaluate(Qrels(qrels), Run(run))``, with
  ``make_comparable=True`` only where the query sets differ, as ranx asks
  (:mod:`ef.evaluation._runs.ranx_order`: sorted twice then; :mod:`ef.evaluation.compat.ranx`
  follows each other call shape), a measure's ``rel=`` is ranx's ``-l`` (nDCG included), and
  bpref counts a negative grade as judged non-relevant. Where ranx's bpref is no number (a
  relevant doc retrieved and no judged non-relevant one: an unguarded 0/0), the profile keeps
  trec_eval's value and says so with an ``InputWarning``.

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

from .._runs.order import check_tie_policy
from .._runs.ranked import RankedLists
from .._runs.ranx_order import ranx_order
from ..interfaces import aggregate_values

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from .._progress import Phase
    from .._runs.ranked import RankedRun
    from ..types import ProfileName, Qrels
    from .measures import Measure
    from .scoring import Evaluation, Scored

__all__ = ["PROFILES", "Profile", "Rule", "ranx_bpref_undefined"]


def _valid_policy(_: object, __: object, value: str) -> None:
    check_tie_policy(value)


@attrs.frozen
class Rule:
    """How a profile scores a metric.

    * ``tie_policy`` and ``float64``: the order of tied docs, with scores compared as Python
      floats rather than trec_eval's float32; ``order="ranx"`` instead ranks each query as
      ranx's quicksort does (:mod:`ef.evaluation._runs.ranx_order`).
    * ``denominator``: what a mean divides by: ``"scored"`` (the queries scored), ``"qrels"``
      (every query of qrels), ``"run"`` (every query of the run) or ``"relevant"`` (the
      queries scored that have a relevant doc).
    * ``digits``: the decimals the mean is rounded to.
    * ``annotated_hole``: Hole counts a doc as judged if any query judges it, over every
      query of the run (BEIR's and MTEB's Hole).
    * ``negatives_judged``: a negative grade is a judged non-relevant doc (ranx), not an
      unjudged one (trec_eval).
    * ``missing_zero``: a query the run lacks scores 0, whatever the metric (ir_measures'
      fill of missing queries; ``num_rel`` would otherwise count its judgements).
    """

    tie_policy: str = attrs.field(default="trec_eval", validator=_valid_policy)
    float64: bool = False
    order: Literal["policy", "ranx"] = "policy"
    denominator: Literal["scored", "qrels", "run", "relevant"] = "scored"
    digits: int | None = None
    annotated_hole: bool = False
    negatives_judged: bool = False
    missing_zero: bool = False


@attrs.frozen
class Profile:
    """A tool's choices: which queries are scored (``"run"``: the run's judged queries;
    ``"all"``: every query of qrels), identical ids, and each metric's :class:`Rule` (by
    metric name, or ``name@k`` for the metric at a cutoff only; ``default`` for the rest)."""

    name: str
    description: str
    queries: Literal["run", "all"]
    default: Rule
    rules: Mapping[str, Rule] = attrs.field(factory=dict)
    ignore_identical_ids: bool = False

    def rule(self, metric: str, k: int | None = None) -> Rule:
        """The rule of the metric named ``metric`` (at the cutoff ``k``, None: the whole
        ranking)."""
        if k is not None and f"{metric}@k" in self.rules:
            return self.rules[f"{metric}@k"]
        return self.rules.get(metric, self.default)


_PYTREC = Rule("trec_eval")
_PYTREC_5 = Rule("trec_eval", digits=5)
_BEIR_OWN = Rule("input_order", float64=True, denominator="qrels", digits=5)
_MTEB_OWN = Rule("trec_eval", float64=True)
_RANX = Rule(order="ranx")
_IR_MEASURES = Rule("trec_eval", missing_zero=True)
_IR_MEASURES_OWN = Rule("docno_asc", float64=True, missing_zero=True)

#: The profiles ``evaluate_run(..., profile=...)`` knows, by name.
PROFILES: Mapping[ProfileName, Profile] = {
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
        "MTEB 2.x retrieval evaluator (calculate_retrieval_scores, recall_cap, hole)",
        queries="run",
        default=_PYTREC_5,
        rules={
            "mrr": _MTEB_OWN,
            "r_cap": attrs.evolve(_MTEB_OWN, denominator="relevant"),
            "hole": attrs.evolve(_MTEB_OWN, denominator="run", annotated_hole=True),
        },
    ),
    "ir_measures": Profile(
        "ir_measures",
        "ir_measures 0.4 calc_aggregate and iter_calc (its pytrec_eval provider)",
        queries="all",
        default=_IR_MEASURES,
        rules={"mrr@k": _IR_MEASURES_OWN, "judged": _IR_MEASURES_OWN},
    ),
    "ranx": Profile(
        "ranx",
        "ranx 0.3 evaluate (make_comparable=True where the query sets differ)",
        queries="all",
        default=_RANX,
        rules={"bpref": attrs.evolve(_RANX, negatives_judged=True)},
    ),
}


def profile_named(name: str) -> Profile:
    """The profile called ``name``; a ValueError listing the profiles otherwise."""
    try:
        return PROFILES[name]  # type: ignore[index]  # any str: the KeyError is the check
    except (KeyError, TypeError):
        valid = ", ".join(map(repr, PROFILES))
        raise ValueError(f"profile must be one of {valid}; got {name!r}") from None


def _negatives_judged(qrels: Qrels) -> Qrels:
    """ranx's view of negative grades: judged non-relevant, as a 0 is."""
    return {q: {d: max(g, 0) for d, g in judged.items()} for q, judged in qrels.items()}


def _ranx_ranked(table: RankedRun, qrels: Qrels) -> RankedRun:
    """The run as ranked lists in ranx's order: one quicksort of each query's scores, two
    when the run's queries are not qrels' (``make_comparable`` sorts again)."""
    if isinstance(table, RankedLists):
        return table  # ranked lists: no scores, no ties
    passes = 2 if set(table.query_ids) != set(qrels) else 1
    rankings = {}
    for query_id, scored in table.to_dict().items():  # type: ignore[attr-defined]  # a RunTable
        docs, scores = list(scored), list(scored.values())
        if len(set(scores)) < len(scores):
            rankings[query_id] = ranx_order(docs, scores, passes)
        else:  # no tie: the order is the scores'
            rankings[query_id] = sorted(docs, key=lambda doc: -scored[doc])
    return RankedLists(rankings, checked=True)


def ranx_bpref_undefined(table: RankedRun, qrels: Qrels, level: float = 1) -> list[str]:
    """The queries of ``qrels`` where ranx's bpref divides 0 by 0: a relevant doc (grade
    ``level`` or more) retrieved and no judged non-relevant one. ranx's bpref is NaN there,
    or 0.0 when a query with no relevant doc shares its thread's chunk; the profile gives
    trec_eval's.

    >>> run = RankedLists({"q1": ["d1"], "q2": ["d2"], "q3": ["d9"]})
    >>> ranx_bpref_undefined(run, {"q1": {"d1": 1}, "q2": {"d2": 0}, "q3": {"d3": 1}})
    ['q1']
    """
    undefined = []
    for query_id, judged in qrels.items():
        relevant = {doc for doc, grade in judged.items() if grade >= level}
        if len(relevant) == len(judged) and relevant.intersection(table.ranking(query_id)):
            undefined.append(query_id)
    return undefined


def _annotated_hole(table: RankedRun, qrels: Qrels, k: int, rule: Rule) -> dict[str, float]:
    """BEIR's and MTEB's Hole@k for every query of the run: the share of its top k that no
    query judges."""
    annotated = {doc for judged in qrels.values() for doc in judged}
    values = {}
    for q in table.query_ids:
        top = table.ranking(q, rule.tie_policy, float64=rule.float64)[:k]
        values[q] = sum(doc not in annotated for doc in top) / k
    return values


def _divisor(rule: Rule, scored: Mapping[str, object], qrels: Qrels, table: RankedRun) -> int:
    if rule.denominator == "qrels":
        return len(qrels)
    if rule.denominator == "run":
        return len(table.query_ids)
    if rule.denominator == "relevant":
        return sum(any(g > 0 for g in qrels[q].values()) for q in scored)
    return len(scored)


def _zero_missing(scored: Scored, table: RankedRun) -> Scored:
    """``scored`` with every value of the queries the run lacks set to 0 (ir_measures fills
    them so)."""
    per_query = {
        query_id: values if query_id in table else dict.fromkeys(values, 0.0)
        for query_id, values in scored.per_query.items()
    }
    return attrs.evolve(scored, per_query=per_query)


def _summary(
    m: Measure, per_query: Mapping[str, Mapping[str, float]], total: float, divisor: int
) -> float:
    """A measure's summary under a profile: the sum, a geometric mean over ``divisor``
    queries, or ``total / divisor``."""
    if m.metric.aggregate == "sum":
        return total
    if m.metric.aggregate == "geometric":
        values = [row[m.key] for row in per_query.values()]
        return aggregate_values("geometric", values, max(divisor, len(values)))
    return total / divisor if divisor else 0.0


def _with_run_ties(
    scored: Scored,
    rule: Rule,
    *,
    table: RankedRun,
    qrels: Qrels,
    group: Sequence[Measure],
    profile: Profile,
    cutoffs: Sequence[int],
    registry: Registry,
) -> Scored:
    """``scored`` as the report's main scoring: under ranx's order, which ranked lists have
    no ties in, with the ties the run itself has."""
    from .scoring import score_rankings

    if rule.order != "ranx":
        return scored
    ties = score_rankings(
        table,
        qrels,
        group,
        averaging=profile.queries,
        tie_policy="trec_eval",
        cutoffs=cutoffs,
        registry=registry,
    ).ties
    return attrs.evolve(scored, ties=attrs.evolve(ties, policy="ranx"))


def _rule_mean(
    m: Measure,
    rule: Rule,
    scored: Scored,
    *,
    table: RankedRun,
    qrels: Qrels,
    per_query: dict[str, dict[str, float]],
) -> float:
    """A measure's mean under its rule, rounded as the rule says; an annotated hole's
    per-query values are written into ``per_query``."""
    divisor = _divisor(rule, scored.per_query, qrels, table)
    if rule.annotated_hole and m.k is not None:
        values = _annotated_hole(table, qrels, m.k, rule)
        for query_id in scored.per_query:
            per_query[query_id][m.key] = values[query_id]
        total = math.fsum(values.values())  # every query of the run, judged or not
    else:
        total = math.fsum(row[m.key] for row in scored.per_query.values())
    mean = _summary(m, scored.per_query, total, divisor)
    return mean if rule.digits is None else round(mean, rule.digits)


def _by_rule(profile: Profile, measures: Sequence[Measure]) -> dict[Rule, list[Measure]]:
    """The measures grouped by the rule they are scored under: scored alike, together."""
    groups: dict[Rule, list[Measure]] = {}
    for m in measures:
        groups.setdefault(profile.rule(m.metric.name, m.k), []).append(m)
    return groups


def _score_by_rule(
    profile: Profile,
    table: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    registry: Registry,
    progress: Phase | None,
) -> tuple[Scored, dict[str, dict[str, float]], dict[str, float]]:
    """The measures scored group by group, each under its rule: the main scoring (which
    gives skipped, missing and ties), every query's values, and every measure's mean."""
    from .scoring import score_rankings

    groups = _by_rule(profile, measures)
    per_query: dict[str, dict[str, float]] = {}
    means: dict[str, float] = {}
    main: Scored | None = None  # the default rule's scoring gives skipped, missing and ties
    cutoffs = sorted({m.k for m in measures if m.k is not None})  # for the tie diagnostic
    for rule, group in groups.items():
        scored = score_rankings(
            _ranx_ranked(table, qrels) if rule.order == "ranx" else table,
            _negatives_judged(qrels) if rule.negatives_judged else qrels,
            group,
            averaging=profile.queries,
            tie_policy=rule.tie_policy,
            float64=rule.float64,
            cutoffs=cutoffs,
            registry=registry,
            progress=progress,  # each measure is in one group: they add up to all of them
        )
        if main is None or rule == profile.default:
            main = _with_run_ties(
                scored,
                rule,
                table=table,
                qrels=qrels,
                group=group,
                profile=profile,
                cutoffs=cutoffs,
                registry=registry,
            )
        if rule.missing_zero:
            scored = _zero_missing(scored, table)
        for query_id, values in scored.per_query.items():
            per_query.setdefault(query_id, {}).update(values)
        for m in group:
            means[m.key] = _rule_mean(
                m, rule, scored, table=table, qrels=qrels, per_query=per_query
            )
    assert main is not None  # measures is never empty
    return main, per_query, means


def evaluate_with_profile(
    name: str,
    table: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    registry: Registry,
    inputs: Mapping[str, Any],
    ignore_identical_ids: bool | None,
    progress: Phase | None = None,
) -> Evaluation:
    """What :func:`~ef.evaluation.evaluate_run` reports under the profile called ``name``;
    ``progress`` advances by one per measure scored."""
    # Here, not at the top: the CLI lists PROFILES in --profile without loading the metrics.
    from .scoring import evaluation

    profile = profile_named(name)
    drop_identical = (
        profile.ignore_identical_ids if ignore_identical_ids is None else ignore_identical_ids
    )
    if drop_identical:
        table = table.without_identical_ids()
    main, per_query, means = _score_by_rule(
        profile, table, qrels, measures, registry=registry, progress=progress
    )
    scored_all = attrs.evolve(
        main,
        per_query={q: {m.key: row[m.key] for m in measures} for q, row in per_query.items()},
    )
    result = evaluation(
        registry,
        table,
        qrels,
        measures,
        scored_all,
        tie_policy=profile.default.tie_policy,
        averaging=profile.queries,
        inputs=inputs,
        means={m.key: means[m.key] for m in measures},
    )
    result.manifest["profile"] = {
        "name": profile.name,
        "tool": profile.description,
        "ignore_identical_ids": drop_identical,
        "rules": {m.key: attrs.asdict(profile.rule(m.metric.name, m.k)) for m in measures},
    }
    return result
