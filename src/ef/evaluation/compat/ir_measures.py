"""ir_measures' call shape: ``calc_aggregate(measures, qrels, run)`` and ``iter_calc``.

Measures are objects as in ir_measures (``nDCG@10``, ``P(rel=2)@5``, ``AP``, ``RR@10``,
``R@100``), importable from this module, or strings in its syntax (``"nDCG@10"``); results
are keyed by what was passed. qrels and runs may be dicts, TREC file paths, pandas or polars
DataFrames (``query_id, doc_id, relevance`` / ``score`` columns) or iterables of
namedtuples with those fields (ir_measures' ``Qrel`` and ``ScoredDoc``). The numbers are
ir_measures' through ``profile="ir_measures"``: trec_eval's per query, every query of the
qrels averaged in (one the run lacks scores 0).

>>> from ef.evaluation.compat.ir_measures import AP, P, nDCG, calc_aggregate, iter_calc
>>> qrels = {"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 1}}
>>> run = {"q1": {"d1": 1.5, "d9": 2.0}, "q2": {"d3": 0.5}}
>>> calc_aggregate([nDCG@10, P(rel=2)@5, AP], qrels, run)
{nDCG@10: 0.6199062332840657, P(rel=2)@5: 0.0, AP: 0.625}
>>> next(iter_calc([AP], qrels, run))
Metric(query_id='q1', measure=AP, value=0.25)

An empty run scores 0 on every measure, as in ir_measures (each judged query is one the run
lacks), with an :class:`~ef.evaluation.InputWarning` that says the run is empty;
:func:`~ef.evaluation.evaluate_run` refuses it.

The diversity measures (``alpha_nDCG@20``, ``alpha_DCG``, ``ERR_IA``, ``nERR_IA``, ``NRBP``,
``nNRBP``, ``AP_IA``, ``P_IA``, ``StRecall``), which ir_measures computes with pyndeval, are
scored as ir_measures' pyndeval provider scores them: against subtopic qrels (ir_measures'
``Qrel`` namedtuples, whose ``iteration`` is the subtopic, a
:class:`~ef.evaluation.SubtopicQrels` or a ``qid subtopic docno grade`` file), tied scores by
doc id ascending (pyndeval's order), every judged query averaged in. They are not mixed with
other measures in one call (ir_measures reads one grade per doc of subtopic qrels, the last
line's), and ``judged_only`` is not offered. An empty run is refused with them.

>>> from ef.evaluation.compat.ir_measures import ERR_IA, alpha_nDCG
>>> Qrel = NamedTuple("Qrel", [("query_id", str), ("doc_id", str), ("relevance", int),
...                            ("iteration", str)])
>>> intents = [Qrel("q1", "a", 1, "1"), Qrel("q1", "b", 1, "1"), Qrel("q1", "b", 1, "2"),
...            Qrel("q1", "c", 1, "2")]
>>> calc_aggregate([alpha_nDCG@2, ERR_IA@2], intents, {"q1": {"c": 2.0, "a": 1.0}})
{alpha_nDCG@2: 0.7043638493171503, ERR_IA@2: 0.6}
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from .._engine._diversity import is_diversity_spec, parse_diversity_measure
from .._engine.measures import format_value, literal_params
from .._engine.measures import parse_measure as parse_ef_measure
from .._evaluate.run import empty_run_report, evaluate_run
from .._formats.frames import is_table, qrels_of_table, run_of_table
from .._formats.trec._subtopics import SubtopicQrels
from ..errors import InputWarning

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from .._reports import RetrievalEvalReport

__all__ = [
    "AP",
    "AP_IA",
    "ERR",
    "ERR_IA",
    "MAP",
    "MRR",
    "NDCG",
    "NRBP",
    "P_IA",
    "RBP",
    "RR",
    "Bpref",
    "Judged",
    "Measure",
    "Metric",
    "NumRel",
    "NumRelRet",
    "NumRet",
    "P",
    "R",
    "Rprec",
    "SetF",
    "SetP",
    "SetR",
    "StRecall",
    "Success",
    "alpha_DCG",
    "alpha_nDCG",
    "calc_aggregate",
    "evaluator",
    "infAP",
    "iter_calc",
    "nDCG",
    "nERR_IA",
    "nNRBP",
    "parse_measure",
]


def _sorted_params(params: Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((name, _frozen(value)) for name, value in params))


def _frozen(value: Any) -> Any:
    """A dict value (nDCG's ``gains``) as its sorted ``(key, value)`` pairs, which a measure
    can be hashed with and which measure strings write as a dict (``{0:0,2:10}``); any
    other value as it is.

    >>> _frozen({2: 10, 0: 0}), _frozen(2)
    (((0, 0), (2, 10)), 2)
    """
    if not isinstance(value, Mapping):
        return value
    try:
        return tuple(sorted(value.items()))
    except TypeError:  # keys that do not sort (a str among numbers): ef's parse names them
        return tuple(value.items())


@attrs.frozen(repr=False)
class Measure:
    """An ir_measures measure: a name, its parameters and its cutoff, written as ir_measures
    writes it. ``measure@k`` sets the cutoff, ``measure(rel=2)`` a parameter; equal measures
    are equal objects, so they key a dict.

    >>> nDCG@10, P(rel=2)@5, (nDCG@10) == parse_measure("nDCG@10")
    (nDCG@10, P(rel=2)@5, True)
    """

    NAME: str
    params: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_sorted_params)
    cutoff: int | None = None

    def __matmul__(self, k: int) -> Measure:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"{self}@{k!r}: a cutoff is a positive int")
        return attrs.evolve(self, cutoff=k)

    def __call__(self, **params: Any) -> Measure:
        given = dict(self.params)
        given.update(params)
        return attrs.evolve(self, params=tuple(given.items()))

    def __str__(self) -> str:
        text = self.NAME
        if self.params:
            text += "(" + ",".join(f"{n}={format_value(v)}" for n, v in self.params) + ")"
        return text if self.cutoff is None else f"{text}@{self.cutoff}"

    __repr__ = __str__

    @property
    def spec(self) -> str:
        """The measure string ef-evaluation reads: ``()`` after a bare name, so that ``P`` is
        ir_measures' P over the whole ranking, not trec_eval's family of cutoffs."""
        text = str(self)
        return text if self.params or self.cutoff is not None else f"{text}()"


# ir_measures' measures that ef-evaluation implements, by ir_measures' names.
AP, MAP, RR, MRR = Measure("AP"), Measure("MAP"), Measure("RR"), Measure("MRR")
nDCG, NDCG, P, R = Measure("nDCG"), Measure("NDCG"), Measure("P"), Measure("R")
Rprec, Bpref = Measure("Rprec"), Measure("Bpref")
Success, Judged = Measure("Success"), Measure("Judged")
ERR, RBP, infAP = Measure("ERR"), Measure("RBP"), Measure("infAP")
NumRet, NumRel, NumRelRet = Measure("NumRet"), Measure("NumRel"), Measure("NumRelRet")
SetP, SetR, SetF = Measure("SetP"), Measure("SetR"), Measure("SetF")
# Its diversity measures (pyndeval's provider), over subtopic qrels.
alpha_nDCG, alpha_DCG = Measure("alpha_nDCG"), Measure("alpha_DCG")
ERR_IA, nERR_IA, P_IA = Measure("ERR_IA"), Measure("nERR_IA"), Measure("P_IA")
NRBP, nNRBP = Measure("NRBP"), Measure("nNRBP")
AP_IA, StRecall = Measure("AP_IA"), Measure("StRecall")

_MEASURE = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\((?P<params>.*)\))?(?:@(?P<k>\d+))?$")


def parse_measure(text: str | Measure) -> Measure:
    """The measure an ir_measures string names (``"nDCG@10"``, ``"P(rel=2)@5"``, ``"AP"``).

    Raises:
        ValueError: for a string that is no measure in ir_measures' syntax, or one
            ef-evaluation does not implement (an ``UnknownNameError`` with a "did you mean").

    >>> parse_measure("nDCG(dcg='exp-log2')@10")
    nDCG(dcg='exp-log2')@10
    """
    if isinstance(text, Measure):
        return text
    match = _MEASURE.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is no measure in ir_measures' syntax, e.g. nDCG@10, P(rel=2)@5")
    params = literal_params(text, match["params"]) if match["params"] else []
    measure = Measure(match["name"], tuple(params), int(match["k"]) if match["k"] else None)
    _key(measure, None)  # known here, or an error now rather than when scored
    return measure


def _key(measure: Measure | str, registry: Registry | None) -> str:
    """ef-evaluation's report key of ``measure``."""
    spec = parse_measure(measure).spec if isinstance(measure, str) else measure.spec
    if is_diversity_spec(spec):  # NRBP() is NRBP: no cutoff family to tell from
        found_k = parse_diversity_measure(str(measure).strip(), ())
        if not found_k:  # a cutoff family with none: ir_measures' pyndeval needs one
            raise ValueError(f"{measure!s} needs a cutoff, e.g. {measure!s}@20")
        return found_k[0].key
    found = parse_ef_measure(spec, registry=registry)
    if len(found) != 1:  # a spelling that names several (none of ir_measures' does)
        raise ValueError(f"{measure!s} names {len(found)} measures; name one, e.g. nDCG@10")
    return found[0].key


class Metric(NamedTuple):
    """One value of :func:`iter_calc`: a query's value of a measure, as ir_measures yields."""

    query_id: str
    measure: Measure | str
    value: float


#: The fields of ir_measures' ``Qrel`` and ``ScoredDoc`` namedtuples that hold the values.
_QREL_FIELDS = ("query_id", "doc_id", "relevance")
_RUN_FIELDS = ("query_id", "doc_id", "score")


def _records(items: Iterable[Any], fields: tuple[str, str, str], what: str) -> dict[str, list[Any]]:
    """The columns of an iterable of namedtuples (``Qrel``, ``ScoredDoc``, or any tuple with
    those fields), for :mod:`ef.evaluation._formats.frames` to check."""
    columns: dict[str, list[Any]] = {name: [] for name in fields}
    kind = "Qrel" if what == "qrels" else "ScoredDoc"
    for row, item in enumerate(items):
        if not (isinstance(item, tuple) and hasattr(item, "_fields")):
            raise TypeError(
                f"{what} row {row} is a {type(item).__name__}; expected namedtuples with the "
                f"fields {', '.join(fields)} (ir_measures' {kind})"
            )
        lacking = [name for name in fields if name not in item._fields]
        if lacking:
            shown = ", ".join(item._fields)
            raise TypeError(f"{what} row {row} has no field {lacking[0]!r}; its fields: {shown}")
        for name in fields:
            columns[name].append(getattr(item, name))
    return columns


def _qrels(qrels: Any) -> Any:
    if _read_as_given(qrels):
        return qrels
    return qrels_of_table(_records(qrels, _QREL_FIELDS, "qrels"), where="the qrels records")


def _subtopic_qrels(qrels: Any) -> Any:
    """Subtopic qrels as pyndeval's provider reads them: ``Qrel`` namedtuples' ``iteration``
    is the subtopic; a SubtopicQrels, a mapping or a path goes to evaluate_run as it is."""
    if isinstance(qrels, (SubtopicQrels, Mapping, str, os.PathLike)):
        return qrels
    if is_table(qrels) or not isinstance(qrels, Iterable):
        raise TypeError(
            "the diversity measures need subtopic qrels: ir_measures' Qrel namedtuples "
            "(query_id, doc_id, relevance, iteration: the subtopic), a SubtopicQrels or the "
            f"path of a qid subtopic docno grade file; got a {type(qrels).__name__}"
        )
    fields = ("query_id", "iteration", "doc_id", "relevance")
    columns = _records(qrels, fields, "qrels")  # type: ignore[arg-type]  # four fields
    return SubtopicQrels.from_records(zip(*columns.values(), strict=True))


def _run(run: Any) -> Any:
    if _read_as_given(run):
        return run
    return run_of_table(_records(run, _RUN_FIELDS, "run"), where="the run records")


def _read_as_given(value: Any) -> bool:
    """True for the shapes evaluate_run reads itself (a path: a TREC file, detected), and
    for what is no iterable of records (evaluate_run names the shape)."""
    return (
        isinstance(value, (Mapping, str, os.PathLike))
        or is_table(value)
        or not isinstance(value, Iterable)
    )


def _is_empty(run: Any) -> bool:
    """True for a run of no query: an empty mapping, or a DataFrame of no row (its columns
    are checked all the same)."""
    if isinstance(run, Mapping):
        return not run
    if is_table(run) and len(run) == 0:
        run_of_table(run, where="the run DataFrame")
        return True
    return False


class _Evaluator:
    """Measures and qrels fixed, runs scored one after another (ir_measures' ``evaluator``)."""

    def __init__(
        self, measures: Iterable[Measure | str], qrels: Any, registry: Registry | None
    ) -> None:
        if isinstance(measures, (str, Measure)):
            raise TypeError(f"measures is a list, e.g. [{measures!r}], not one measure")
        self._measures = list(measures)
        self._keys = [_key(m, registry) for m in self._measures]
        diverse = [m for m in self._measures if is_diversity_spec(str(m))]
        self._diverse = bool(diverse)
        if diverse and len(diverse) < len(self._measures):
            other = next(m for m in self._measures if m not in diverse)
            raise ValueError(
                f"{diverse[0]!s} is a diversity measure, {other!s} is not: ir_measures scores "
                "the second on subtopic qrels' last line for each doc; score them in two calls, "
                "the ordinary measures against ordinary qrels"
            )
        self._qrels = _subtopic_qrels(qrels) if diverse else _qrels(qrels)
        self._registry = registry

    def _report(self, run: Any, stacklevel: int) -> RetrievalEvalReport:
        """The report of ``run``; an empty run's warning goes ``stacklevel`` frames up."""
        given = _run(run)
        if self._diverse:  # pyndeval's rules: ties by doc id ascending, every judged query
            return evaluate_run(
                given,
                self._qrels,
                metrics=self._keys,
                tie_policy="docno_asc",
                averaging="qrels",
                qrels_format="subtopics",
                registry=self._registry,
                check_doc_ids="warn",
            )
        if _is_empty(given):
            # The qrels are read and checked first: a bad grade is still named.
            report = empty_run_report(
                self._qrels, self._keys, "ir_measures", registry=self._registry
            )
            warnings.warn(
                "the run is empty (no query): every judged query scores 0, as ir_measures "
                "scores a query the run lacks; evaluate_run refuses an empty run",
                InputWarning,
                stacklevel=stacklevel,
            )
            return report
        return evaluate_run(
            given,
            self._qrels,
            metrics=self._keys,
            profile="ir_measures",
            registry=self._registry,
            check_doc_ids="warn",  # ir_measures scores misspelt doc ids 0: so do we, and say so
        )

    def _aggregate(self, run: Any) -> dict[Measure | str, float]:
        report = self._report(run, stacklevel=4)  # the caller of calc_aggregate
        return {m: report.metrics[key] for m, key in zip(self._measures, self._keys, strict=True)}

    def calc_aggregate(self, run: Any) -> dict[Measure | str, float]:
        """The mean of each measure over every query of the qrels, keyed as given."""
        return self._aggregate(run)

    def iter_calc(self, run: Any) -> Iterator[Metric]:
        """Each query's value of each measure, query by query."""
        report = self._report(run, stacklevel=3)  # the caller of next()
        for query_id, values in report.per_query.items():
            for measure, key in zip(self._measures, self._keys, strict=True):
                yield Metric(query_id, measure, values[key])


def evaluator(
    measures: Iterable[Measure | str], qrels: Any, *, registry: Registry | None = None
) -> _Evaluator:
    """An evaluator of ``measures`` against ``qrels``, whose ``calc_aggregate(run)`` and
    ``iter_calc(run)`` score one run after another, as ir_measures' ``evaluator``."""
    return _Evaluator(measures, qrels, registry)


def calc_aggregate(
    measures: Iterable[Measure | str], qrels: Any, run: Any, *, registry: Registry | None = None
) -> dict[Measure | str, float]:
    """The mean of each measure over every query of ``qrels`` (a query the run lacks, or
    with no relevant doc, scores 0), keyed by the measures as given.

    Raises:
        UnknownNameError: (a ``ValueError``) for a measure ef-evaluation does not implement.
        ValueError: for a run that shares no query with the qrels, or a bad value (a NaN
            score, a doc twice for a query), naming it.
    """
    return _Evaluator(measures, qrels, registry)._aggregate(run)


def iter_calc(
    measures: Iterable[Measure | str], qrels: Any, run: Any, *, registry: Registry | None = None
) -> Iterator[Metric]:
    """Each query's value of each measure, as :class:`Metric` records ``(query_id, measure,
    value)``, for every query of ``qrels``."""
    return _Evaluator(measures, qrels, registry).iter_calc(run)
