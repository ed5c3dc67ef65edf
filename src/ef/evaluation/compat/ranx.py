"""ranx's call shape: ``evaluate(qrels, run, metrics)``, with ``Qrels`` and ``Run``.

Metrics are ranx's strings (``ndcg@10``, ``map@100-l2``, ``mrr``, ``r-precision``,
``ndcg_burges@10``, ``dcg@10``; a name without ``@k`` is the whole ranking); one metric gives
a float, several a dict keyed by the strings as given, and ``return_mean=False`` each
query's values (a numpy array, queries in ranx's order: sorted by id). The numbers are
ranx's, through ``profile="ranx"``, tied docs included: ranx's quicksort leaves them in an
order that depends on the call, and the call here gets the order ranx gives it (a plain dict
is sorted one way, a ``Run`` another, and ``make_comparable=True`` sorts a ``Run`` once more:
:mod:`ef.evaluation._runs.ranx_order`). As in ranx, qrels and a run whose query sets differ
are refused unless ``make_comparable=True``.

>>> from ef.evaluation.compat.ranx import Qrels, Run, evaluate
>>> qrels = Qrels({"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 1}})
>>> run = Run({"q1": {"d1": 1.5, "d9": 2.0}, "q2": {"d3": 0.5}}, name="bm25")
>>> evaluate(qrels, run, "ndcg@10")
0.6199062332840657
>>> evaluate(qrels, run, ["map@10", "mrr"])
{'map@10': 0.625, 'mrr': 0.75}

Unlike ranx, nothing is saved in the run (``save_results_in_run`` changes nothing), ``Run``
and ``Qrels`` take polars DataFrames and pandas' string columns, and ``make_comparable``
applies to plain dicts too. ranx holds whole grades (it truncates ``1.5`` to ``1``), and so
do these ``Qrels``, with an :class:`~ef.evaluation.InputWarning` naming a grade it cut: the
numbers stay ranx's, and the change is said. Where some query has no relevant doc, ranx's
``bpref`` divides 0 by 0 (a NaN, or 0.0 for the other queries of the thread's chunk), and
so does it where no judged doc is non-relevant (every BEIR test qrels file): ours is
trec_eval's there, with an :class:`~ef.evaluation.InputWarning` that names the queries.

An empty run is refused as ranx refuses it (its query ids differ from the qrels'), unless
``make_comparable=True``: then every judged query scores 0, as ranx gives, with an
:class:`~ef.evaluation.InputWarning` that says the run is empty.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import warnings
from collections.abc import KeysView, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._engine.id_forms import shown_ids
from .._engine.syntax.ranx import parse_ranx_measure
from .._evaluate.inputs import check_qrels
from .._evaluate.run import empty_run_report, evaluate_run
from .._evaluate.swapped import check_not_swapped
from .._formats._io import load_json
from .._formats.files import read_qrels, read_run
from .._formats.frames import qrels_of_table, run_of_table
from .._formats.parquet import read_parquet_table
from .._runs.ranx_order import ranx_dict_order, ranx_order
from ..errors import DatasetFormatError, InputWarning

if TYPE_CHECKING:
    import numpy.typing as npt

    from .._plugin_engine.registry import Registry

__all__ = ["Qrels", "Run", "evaluate"]

_KINDS = ("trec", "json", "gz")


def _kind(path: str | os.PathLike[str], kind: str | None) -> str:
    """ranx's file kind: named, or from the name (``.json``; else TREC, gzip read alike)."""
    if kind is None:
        return "json" if str(path).endswith(".json") else "trec"
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {', '.join(_KINDS)}; got {kind!r}")
    return kind


def _json(path: str | os.PathLike[str]) -> dict[str, dict[str, float]]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = load_json(handle.read(), Path(path))
    except json.JSONDecodeError as exc:
        raise DatasetFormatError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise DatasetFormatError(f"{path}: expected a JSON object {{query_id: {{doc_id: ...}}}}")
    return data


def _fractional(grade: object) -> bool:
    """True for a finite grade that is no whole number: a float, numpy's too (ranx's
    ``int(grade)`` truncates an ``np.float32`` as it does a float).

    >>> import numpy as np
    >>> [_fractional(g) for g in (1.5, np.float32(-0.5), 2.0, 3, float("nan"), "1.5")]
    [True, True, False, False, False, False]
    """
    if isinstance(grade, numbers.Integral) or not isinstance(grade, numbers.Real):
        return False  # whole, or for the qrels checks to refuse
    value = float(grade)
    return math.isfinite(value) and not value.is_integer()


def _whole_grades(qrels: Any, stacklevel: int) -> Any:
    """A copy of ``qrels`` with each fractional grade truncated, as ranx's ``int(grade)``
    does: an :class:`~ef.evaluation.InputWarning` names the first, ``stacklevel`` frames up
    (1: the caller). What is not a mapping of mappings of finite numbers is kept as it is,
    for the qrels checks to name.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _whole_grades({"q1": {"d1": 2.5, "d2": 1}}, stacklevel=1)
    {'q1': {'d1': 2, 'd2': 1}}
    >>> print(caught[0].message)
    ranx holds whole grades: qrels['q1']['d1'] = 2.5 is read as 2, as ranx truncates it \
(1 grade cut in all); round the grades yourself to choose otherwise
    """
    if not isinstance(qrels, Mapping) or not all(isinstance(j, Mapping) for j in qrels.values()):
        return qrels
    cut: list[tuple[str, str, float]] = []
    whole: dict[str, dict[str, float]] = {}
    for q, docs in qrels.items():
        judged = whole[q] = dict(docs)
        for d, grade in judged.items():
            if _fractional(grade):
                judged[d] = int(grade)
                cut.append((q, d, grade))
    if cut:
        q, d, grade = cut[0]
        warnings.warn(
            f"ranx holds whole grades: qrels[{q!r}][{d!r}] = {grade!r} is read as "
            f"{int(grade)}, as ranx truncates it ({len(cut)} grade"
            f"{'' if len(cut) == 1 else 's'} cut in all); round the grades yourself to "
            "choose otherwise",
            InputWarning,
            stacklevel=stacklevel + 1,
        )
    return whole


class _Judged:
    """What ranx's Qrels and Run share: a name and ``{query_id: {doc_id: value}}``."""

    _data: dict[str, dict[str, float]]
    name: str | None

    def keys(self) -> KeysView[str]:
        """The query ids."""
        return self._data.keys()

    def get_query_ids(self) -> list[str]:
        """The query ids, in order."""
        return list(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, query_id: object) -> bool:
        return query_id in self._data

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{query_id: {doc_id: value}}``, a copy."""
        return {q: dict(docs) for q, docs in self._data.items()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} queries, name={self.name!r})"


class Qrels(_Judged):
    """ranx's ``Qrels``: relevance judgements ``{query_id: {doc_id: grade}}`` and a name.
    Grades are whole, as ranx's: a fractional one is truncated, with an ``InputWarning``.

    >>> Qrels.from_dict({"q1": {"d1": 1}}).to_dict()
    {'q1': {'d1': 1}}
    """

    def __init__(
        self, qrels: Mapping[str, Mapping[str, float]] | None = None, name: str | None = None
    ) -> None:
        # stacklevel: the warning points at the line that made the Qrels.
        self._hold({} if qrels is None else qrels, name, stacklevel=2)

    def _hold(
        self, qrels: Mapping[str, Mapping[str, float]], name: str | None, stacklevel: int
    ) -> None:
        """Hold a copy of ``qrels``, grades truncated (the warning ``stacklevel`` frames
        above the caller, as :func:`_whole_grades` counts them) and checked, named ``name``."""
        data = _whole_grades(qrels, stacklevel=stacklevel + 1)
        check_qrels(data)
        self._data, self.name = data, name

    @staticmethod
    def _of(qrels: Mapping[str, Mapping[str, float]], name: str | None = None) -> Qrels:
        """The Qrels a factory makes of ``qrels``: one copy, and the warning of a grade cut
        points at the factory's caller, not inside this module."""
        made = Qrels.__new__(Qrels)
        made._hold(qrels, name, stacklevel=3)
        return made

    @staticmethod
    def from_dict(d: Mapping[str, Mapping[str, float]], name: str | None = None) -> Qrels:
        """The qrels of ``{query_id: {doc_id: grade}}``."""
        return Qrels._of(d, name)

    @staticmethod
    def from_file(path: str | os.PathLike[str], kind: str | None = None) -> Qrels:
        """TREC qrels (gzip or not) or ranx's JSON (``kind="json"`` or a ``.json`` name)."""
        if _kind(path, kind) == "json":
            return Qrels._of(_json(path))
        return Qrels._of(read_qrels(path, "trec"))

    @staticmethod
    def from_df(
        df: Any, q_id_col: str = "q_id", doc_id_col: str = "doc_id", score_col: str = "score"
    ) -> Qrels:
        """The qrels of a pandas or polars DataFrame, one row per judgement."""
        columns = (q_id_col, doc_id_col, score_col)
        return Qrels._of(qrels_of_table(df, columns, where="the qrels DataFrame"))

    @staticmethod
    def from_parquet(
        path: str | os.PathLike[str],
        q_id_col: str = "q_id",
        doc_id_col: str = "doc_id",
        score_col: str = "score",
        pd_kwargs: Mapping[str, Any] | None = None,
    ) -> Qrels:
        """The qrels of a Parquet file (read with polars; ``pd_kwargs`` is not used)."""
        table = read_parquet_table(Path(path))
        columns = (q_id_col, doc_id_col, score_col)
        return Qrels._of(qrels_of_table(table, columns, where=str(path)))


class Run(_Judged):
    """ranx's ``Run``: ``{query_id: {doc_id: score}}`` and a name (a TREC file's run tag
    when read from one).

    >>> Run.from_dict({"q1": {"d1": 0.5}}, name="bm25").name
    'bm25'
    """

    def __init__(
        self, run: Mapping[str, Mapping[str, float]] | None = None, name: str | None = None
    ) -> None:
        # A copy; evaluate() checks the scores (a NaN is refused there, naming the doc).
        self._data = {} if run is None else {q: dict(docs) for q, docs in run.items()}
        self.name = name

    @staticmethod
    def from_dict(d: Mapping[str, Mapping[str, float]], name: str | None = None) -> Run:
        """The run of ``{query_id: {doc_id: score}}``."""
        return Run(d, name)

    @staticmethod
    def from_file(
        path: str | os.PathLike[str], kind: str | None = None, name: str | None = None
    ) -> Run:
        """A TREC run (gzip or not; ``name`` defaults to its run tag) or ranx's JSON."""
        if _kind(path, kind) == "json":
            return Run(_json(path), name)
        if name is None:
            from .._formats._records import run_tags

            tags = run_tags(Path(path))
            name = tags[0] if tags else None
        return Run(read_run(path, "trec"), name)

    @staticmethod
    def from_df(
        df: Any,
        q_id_col: str = "q_id",
        doc_id_col: str = "doc_id",
        score_col: str = "score",
        name: str | None = None,
    ) -> Run:
        """The run of a pandas or polars DataFrame, one row per (query, doc)."""
        columns = (q_id_col, doc_id_col, score_col)
        return Run(run_of_table(df, columns, where="the run DataFrame"), name)

    @staticmethod
    def from_parquet(  # noqa: PLR0917 - ranx's signature, positional as there
        path: str | os.PathLike[str],
        q_id_col: str = "q_id",
        doc_id_col: str = "doc_id",
        score_col: str = "score",
        pd_kwargs: Mapping[str, Any] | None = None,
        name: str | None = None,
    ) -> Run:
        """The run of a Parquet file (read with polars; ``pd_kwargs`` is not used)."""
        table = read_parquet_table(Path(path))
        columns = (q_id_col, doc_id_col, score_col)
        return Run(run_of_table(table, columns, where=str(path)), name)


def _plain(value: Qrels | Run | Mapping[str, Mapping[str, float]]) -> Mapping[str, Any]:
    return value.to_dict() if isinstance(value, _Judged) else value


def _check_keys(qrels: Mapping[str, object], run: Mapping[str, object]) -> None:
    """ranx's refusal of query sets that differ (its ``check_keys``), with the ids."""
    if set(qrels) == set(run):
        return
    lacking = [q for q in qrels if q not in run]
    extra = [q for q in run if q not in qrels]
    said = [] if run else ["the run is empty (no query)"]
    if lacking:
        said.append(f"{len(lacking)} judged queries are not in the run {shown_ids(lacking)}")
    if extra:
        said.append(f"{len(extra)} queries of the run are not judged {shown_ids(extra)}")
    raise ValueError(
        f"Qrels and Run query ids do not match: {'; '.join(said)}. Pass make_comparable=True "
        "to score a judged query the run lacks 0 and leave out the unjudged ones (as ranx)"
    )


def _ranked_as_ranx(
    run: object,
    qrels: object,
    answered: Mapping[str, Any],
    judged: Mapping[str, Mapping[str, float]],
    *,
    make_comparable: bool,
) -> dict[str, list[str]]:
    """The run ranked as ranx ranks it in this call: tied docs move with how it was called
    (:mod:`ef.evaluation._runs.ranx_order`). A ``Run`` is sorted once, and once more by
    ``make_comparable`` when the qrels are a ``Qrels`` too; a plain dict the other way."""
    from .._runs.table import RunTable  # numpy, only once something is scored

    table = RunTable.from_dict(answered)  # a NaN or a non-number score is refused here
    check_not_swapped(table, judged, stacklevel=4)  # at evaluate's caller
    passes = 2 if make_comparable and isinstance(qrels, Qrels) else 1
    ranked: dict[str, list[str]] = {}
    for query_id in table.query_ids:
        docs, scores = table.docs_and_scores(query_id)
        values = scores.tolist()
        if len(set(values)) == len(values):  # no tie: every sort agrees
            ranked[query_id] = [docs[i] for i in sorted(range(len(docs)), key=lambda i: -values[i])]
        elif not isinstance(run, Run):
            ranked[query_id] = ranx_dict_order(docs, values)
        else:
            ranked[query_id] = ranx_order(docs, values, passes)
    return ranked


def evaluate(  # noqa: PLR0917 - ranx's signature, positional as there
    qrels: Qrels | Mapping[str, Mapping[str, float]],
    run: Run | Mapping[str, Mapping[str, float]],
    metrics: str | Sequence[str],
    return_mean: bool = True,
    return_std: bool = False,
    threads: int = 0,
    save_results_in_run: bool = True,
    make_comparable: bool = False,
    *,
    registry: Registry | None = None,
) -> Any:
    """ranx's ``evaluate``: a float for one metric, ``{metric: float}`` for several.

    With ``return_mean=False``, each metric's per-query values as a numpy array, queries
    sorted by id (ranx's order); with ``return_std=True`` (and the mean), each metric's
    ``{"mean": ..., "std": ...}``. ``threads`` and ``save_results_in_run`` are accepted and
    change nothing: the run is never written to.

    Raises:
        ValueError: if the query sets of ``qrels`` and ``run`` differ and not
            ``make_comparable`` (ranx's ``AssertionError``), for a metric ranx has and
            ef-evaluation does not (``hits``, ``rbp``), or a malformed metric string.
    """
    import numpy as np

    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names or not all(isinstance(m, str) for m in names):
        raise ValueError(f"metrics are ranx's metric strings, e.g. 'ndcg@10'; got {metrics!r}")
    keys = {name: parse_ranx_measure(name, registry=registry).key for name in names}
    # A dict becomes ranx's Qrels there too, grades truncated.
    judged = (
        qrels.to_dict() if isinstance(qrels, Qrels) else _whole_grades(_plain(qrels), stacklevel=2)
    )
    answered = _plain(run)
    if not make_comparable:
        _check_keys(judged, answered)
    measured = list(dict.fromkeys(keys.values()))
    if isinstance(answered, Mapping) and not answered:
        report = empty_run_report(judged, measured, "ranx", registry=registry)  # qrels checked
        warnings.warn(
            "the run is empty (no query): with make_comparable=True every judged query "
            "scores 0, as ranx gives; evaluate_run refuses an empty run",
            InputWarning,
            stacklevel=2,
        )
    else:
        report = evaluate_run(
            _ranked_as_ranx(run, qrels, answered, judged, make_comparable=make_comparable),
            judged,
            metrics=measured,
            profile="ranx",
            registry=registry,
            check_swapped=False,  # looked at above, while the scores were there
            check_doc_ids="warn",  # ranx scores misspelt doc ids 0: so do we, and say so
        )
    order = sorted(report.per_query)
    results: dict[str, Any] = {}
    for name, key in keys.items():
        values: npt.NDArray[np.float64] = np.asarray(
            [report.per_query[q][key] for q in order], dtype=np.float64
        )
        if not return_mean:
            results[name] = values
        elif return_std:
            results[name] = {"mean": report.metrics[key], "std": float(np.std(values))}
        else:
            results[name] = report.metrics[key]
    return results[names[0]] if len(names) == 1 else results
