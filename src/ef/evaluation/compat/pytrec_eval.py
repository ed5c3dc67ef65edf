"""pytrec_eval's call shape: ``RelevanceEvaluator(qrels, measures).evaluate(run)``.

The same measure names (``map``, ``ndcg``, ``ndcg_cut.10``, ``P.5,10``, ``P_5``, ``recall``
and the nicknames ``official``, ``set`` and ``all_trec``), read as trec_eval reads them (a
bare ``P`` or ``recall`` is cut at 5, 10, ..., 1000; a bare ``map`` or ``ndcg`` is the whole
ranking), and the same result: ``{query_id: {name: value}}`` for each query of the run that
the qrels judge, keyed by the names trec_eval prints (``ndcg_cut_10``, ``P_5``, ``map``).
The numbers are trec_eval's, through ``profile="trec_eval"``: the change is the import.

>>> from ef.evaluation.compat import pytrec_eval
>>> qrels = {"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 1}}
>>> run = {"q1": {"d1": 1.5, "d9": 2.0}, "q2": {"d3": 0.5}}
>>> evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.1"})
>>> evaluator.evaluate(run)["q1"]
{'P_1': 0.0, 'map': 0.25, 'ndcg_cut_10': 0.23981246656813146}

``runid`` and ``num_q`` (in ``official``, ``set`` and ``all_trec``, or by name) are what
pytrec_eval gives per query: ``num_q`` is 1.0 (the query counts once), and ``runid`` is 0.0,
since a result holds only floats and pytrec_eval has no run name to give.

>>> pytrec_eval.RelevanceEvaluator(qrels, {"runid", "num_q", "map"}).evaluate(run)["q2"]
{'map': 1.0, 'num_q': 1.0, 'runid': 0.0}

Unlike pytrec_eval, grades may be any finite numbers (``numpy.int64`` included), and a run
that shares no query with the qrels is an error instead of ``{}``. An empty run gives ``{}``,
as in pytrec_eval, with an :class:`~ef.evaluation.InputWarning` that says it is empty.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._engine.measures import TREC_EVAL_SETS, parse_trec_eval_measure, trec_eval_printed
from .._evaluate.inputs import check_qrels
from .._evaluate.run import evaluate_run
from ..errors import InputWarning, UnknownNameError
from ..interfaces import MIN_GEO_MEAN

if TYPE_CHECKING:
    from .._engine.measures import Measure
    from .._plugin_engine.registry import Registry
    from ..types import Qrels, Run

__all__ = ["RelevanceEvaluator", "supported_measures", "supported_nicknames"]

#: pytrec_eval's nicknames, each the trec_eval measures it stands for.
supported_nicknames: Mapping[str, frozenset[str]] = {
    name: frozenset(members) for name, members in TREC_EVAL_SETS.items()
}


supported_measures: frozenset[str]  # trec_eval's names ef-evaluation implements (lazily)


def _supported_measures(registry: Registry | None = None) -> frozenset[str]:
    from .._plugin_engine.registry import registry_or_default

    metrics = registry_or_default(registry).retrieval_metrics.values()
    names = {s.name for m in metrics for s in m.synonyms if s.syntax == "trec_eval"}
    return frozenset(names | _CONSTANT.keys())


def __getattr__(name: str) -> object:
    # The measures come from the registry, loaded on first use, not at import (PEP 562).
    if name == "supported_measures":
        return _supported_measures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _combined(measures: Iterable[str]) -> list[str]:
    """The measures as pytrec_eval combines them: the nicknames expanded, and a bare family
    dropped where the same family is also given with parameters (``{"P", "P.5"}`` is
    ``P.5``, as in pytrec_eval); sorted, so that a set gives its results in one order."""
    if isinstance(measures, str):
        raise TypeError(f"measures is a set of names, e.g. {{{measures!r}}}, not a str")
    expanded: list[str] = []
    for measure in measures:
        if not isinstance(measure, str):
            raise TypeError(f"a measure is a str such as 'ndcg_cut.10', got {measure!r}")
        if measure in supported_nicknames:
            expanded.extend(sorted(supported_nicknames[measure]))
        else:
            expanded.append(measure)
    with_params = {m.partition(".")[0] for m in expanded if "." in m}
    return sorted({m for m in expanded if "." in m or m not in with_params})


#: What pytrec_eval gives per query for trec_eval's summary-only rows: a query counts once in
#: ``num_q``, and ``runid`` (a name, where a result holds floats only) is 0.0.
_CONSTANT: Mapping[str, float] = {"num_q": 1.0, "runid": 0.0}
#: What is scored when only constants are asked for: it gives the queries pytrec_eval scores.
_PLACEHOLDER = "num_ret"


class RelevanceEvaluator:
    """Evaluate runs against ``query_relevance`` with trec_eval's ``measures``.

    Args:
        query_relevance: ``{query_id: {doc_id: grade}}``; a query with no judgement
            (``{}``) is left out, as pytrec_eval leaves it out.
        measures: trec_eval measure names: ``map``, ``ndcg``, ``ndcg_cut.10``,
            ``P.5,10``, ``recall``, ``recip_rank``, ``Rprec``, ``bpref``, ..., or the
            nicknames ``official``, ``set``, ``all_trec`` (their members that ef-evaluation
            does not implement are left out, with an :class:`~ef.evaluation.InputWarning`).
        relevance_level: the lowest grade that counts as relevant (trec_eval's ``-l``;
            nDCG uses the grades, as in trec_eval).
        judged_docs_only_flag: drop unjudged docs from the ranking first (trec_eval's
            ``-J``).
        registry: the plugins to use; ``None`` is the default registry.

    Raises:
        UnknownNameError: (a ``ValueError``) for a measure ef-evaluation does not
            implement, naming it.

    >>> evaluator = RelevanceEvaluator({"q1": {"d1": 2, "d2": 1}}, {"P.2"}, relevance_level=2)
    >>> evaluator.evaluate({"q1": {"d1": 1.0, "d2": 0.5}})
    {'q1': {'P_2': 0.5}}
    """

    def __init__(
        self,
        query_relevance: Mapping[str, Mapping[str, float]],
        measures: Iterable[str],
        relevance_level: int = 1,
        judged_docs_only_flag: bool = False,
        *,
        registry: Registry | None = None,
    ) -> None:
        check_qrels(query_relevance)
        # A copy: later changes to the caller's dict change nothing here (pytrec_eval copies).
        self._qrels: Qrels = {q: dict(j) for q, j in query_relevance.items() if j}
        self._registry = registry
        left_out = sorted(
            {
                m
                for name in measures
                if name in supported_nicknames
                for m in supported_nicknames[name]
            }
            - _supported_measures(registry)
        )
        if left_out:
            warnings.warn(
                f"ef-evaluation does not implement trec_eval's {', '.join(left_out)}: left out "
                "of the results",
                InputWarning,
                stacklevel=2,
            )
        self._names: dict[str, str] = {}  # our key -> the name pytrec_eval gives its value
        self._logged: set[str] = set()  # keys of the gm_ measures: pytrec_eval gives their log
        # Each result's names in order (by spec): a key of ours, or a constant's name.
        self._order: list[tuple[str, str]] = []
        for spec in _combined(measures):
            if spec in left_out:
                continue
            if spec in _CONSTANT:
                self._order.append(("constant", spec))
                continue
            for measure in parse_trec_eval_measure(spec, registry=registry):
                name = trec_eval_printed(measure)
                if name is None:
                    raise UnknownNameError(f"{spec!r} has no trec_eval name")
                changed = _with_switches(measure, relevance_level, judged_docs_only_flag)
                if changed.key not in self._names:
                    self._order.append(("key", changed.key))
                self._names.setdefault(changed.key, name)
                if measure.metric.aggregate == "geometric":
                    self._logged.add(changed.key)

    def evaluate(self, scores: Run) -> dict[str, dict[str, float]]:
        """The value of every measure for each query of ``scores`` that the qrels judge:
        ``{query_id: {name: value}}`` with trec_eval's names (``ndcg_cut_10``, ``P_5``).

        ``scores`` is ``{query_id: {doc_id: score}}``; it is not changed. Docs are ranked by
        trec_eval's rule (score descending as float32, then doc id descending).

        An empty run (``{}``) gives ``{}``, as pytrec_eval does, with an
        :class:`~ef.evaluation.InputWarning`; ef-evaluation's own
        :func:`~ef.evaluation.evaluate_run` refuses it.
        """
        if isinstance(scores, Mapping) and not scores:
            warnings.warn(
                "the run is empty (no query): no query is scored, and the result is {} as "
                "pytrec_eval gives; evaluate_run refuses an empty run",
                InputWarning,
                stacklevel=2,
            )
            return {}
        report = evaluate_run(
            scores,
            self._qrels,
            # Only num_q or runid: a measure still scored, for the queries pytrec_eval gives.
            metrics=list(self._names) or [_PLACEHOLDER],
            profile="trec_eval",
            registry=self._registry,
            check_doc_ids="warn",  # pytrec_eval scores misspelt doc ids 0: so do we, and say so
        )
        return {
            query_id: {
                self._names[name] if kind == "key" else name: (
                    self._value(name, values[name]) if kind == "key" else _CONSTANT[name]
                )
                for kind, name in self._order
            }
            for query_id, values in report.per_query.items()
        }

    def _value(self, key: str, value: float) -> float:
        """What pytrec_eval gives per query: trec_eval's per-query value, which for a
        geometric-mean measure (gm_map, gm_bpref) is the log of the floored value."""
        if key in self._logged:
            return math.log(max(float(value), MIN_GEO_MEAN))
        return float(value)


def _with_switches(measure: Measure, relevance_level: int, judged_only: bool) -> Measure:
    """``measure`` under trec_eval's ``-l`` and ``-J``: the level of every measure that has
    one but nDCG's (trec_eval's nDCG takes the grades as gains)."""
    values: dict[str, Any] = {}
    names = {p.name for p in measure.metric.params}
    if relevance_level != 1 and "rel" in names and measure.metric.name != "ndcg":
        values["rel"] = relevance_level
    if judged_only and "judged_only" in names:
        values["judged_only"] = True
    return measure.with_params(**values) if values else measure
