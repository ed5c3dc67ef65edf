"""trec_eval's vocabulary, in one table: each measure's name, parameters, metric and sets.

trec_eval (``measures.c``, ``meas_init.c``) knows each measure by a name (``P``, ``binG``),
reads the parameters after its dot in one of five forms, prints it in one of a few ways and
sums it up over queries in one way. :data:`TREC_MEASURES` writes each of those facts once,
with the metric of ef-evaluation that computes the measure; :data:`TREC_EVAL_SETS` writes
trec_eval's named sets (``official``, ``set``, ``all_trec``), member by member. The parser
(:mod:`~ef.evaluation._engine.measures`), the drop-in (:mod:`~ef.evaluation._engine.trec_eval`),
``compat.pytrec_eval`` and the printed names read them; none keeps a table of its own.

>>> m = TREC_BY_NAME["binG"]
>>> m.metric, m.params, "binG" in TREC_EVAL_SETS["all_trec"]
('binary_gain', 'none', True)
>>> TREC_BY_NAME["P"].members
('P.5,10,15,20,30,100,200,500,1000',)
>>> TREC_BY_NAME["iprec_at_recall"].members[:2]
('iprec_at_recall(recall=0)', 'iprec_at_recall(recall=0.1)')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = [
    "MEASURE_SETS",
    "TREC_BY_NAME",
    "TREC_EVAL_CUTOFFS",
    "TREC_EVAL_SETS",
    "TREC_MEASURES",
    "VERSIONS",
    "TrecMeasure",
]

#: The two trec_eval versions whose output ``ef-eval trec_eval`` reproduces.
VERSIONS = ("9.0.8", "10.0")

#: trec_eval's default cutoffs of P, recall, map_cut, ndcg_cut and relative_P (m_P.c etc.).
TREC_EVAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALLS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def _number(x: float) -> str:
    """``x`` as a measure string writes it: ``0``, ``0.1``, ``2`` (no ``.0``)."""
    return str(int(x)) if float(x).is_integer() else repr(x)


@attrs.frozen
class TrecMeasure:
    """One measure of trec_eval: what ``-m`` calls it, how it reads its parameters, which
    metric computes it, and how trec_eval prints and sums it.

    ``params`` is trec_eval's parameter form: ``"none"``, ``"cut_long"`` (cutoffs,
    ``P.5,10``), ``"cut_double"`` (levels, ``iprec_at_recall.0.5``; each sets the metric's
    parameter ``point``), ``"doubles"`` (numbers, ``utility.1,-1,0,0``; they set the metric's
    parameters ``values`` in order, or, ``listed``, the one parameter ``values[0]`` holds
    them all) or ``"pairs"`` (``ndcg.1=3,2=9``, ``rbp.p=0.8``); ``default`` holds the
    parameters without a dot. ``metric`` is ours (None: no number, as ``runid``), with the
    parameters ``fixed``; ``rel`` says whether ``-l`` reaches it. ``kind`` and ``summary`` are
    as :class:`~ef.evaluation._engine.trec_eval.Column`'s. ``differs`` marks a bare name that
    ef-evaluation's parser reads otherwise (ours wins: ``map`` is every cutoff there).
    """

    name: str
    metric: str | None = None
    params: str = "none"
    default: tuple[Any, ...] = ()
    point: str | None = None
    kind: str = "float"
    summary: str = "mean"
    per_query: bool = True
    rel: bool = True
    fixed: tuple[tuple[str, Any], ...] = ()
    differs: bool = False
    values: tuple[str, ...] = ()
    listed: bool = False
    versions: tuple[str, ...] = VERSIONS

    @property
    def members(self) -> tuple[str, ...]:
        """The measure strings, in ef-evaluation's parser, of this measure as a named set
        lists it (trec_eval's default parameters); empty for one with no number here."""
        if self.metric is None:
            return ()
        if self.params == "cut_long":
            return (f"{self.name}.{','.join(map(str, self.default))}",)
        if self.params == "cut_double":
            return tuple(f"{self.metric}({self.point}={_number(x)})" for x in self.default)
        return (f"{self.name}@all" if self.differs else self.name,)


_CUTS = TREC_EVAL_CUTOFFS
_V10 = ("10.0",)
_UTILITY = ("rel_ret", "nonrel_ret", "rel_unret", "nonrel_unret")
_T = TrecMeasure

#: trec_eval's measures in its order (te_trec_measures in measures.c): the printed order.
TREC_MEASURES: tuple[TrecMeasure, ...] = (
    _T("runid", kind="runid", summary="runid", per_query=False),
    _T("num_q", kind="num_q", summary="num_q", per_query=False),
    _T("num_ret", "num_ret", kind="long", summary="sum", rel=False),
    _T("num_rel", "num_rel", kind="long", summary="num_rel"),
    _T("num_rel_ret", "num_rel_ret", kind="long", summary="sum"),
    _T("map", "map", differs=True),
    _T("gm_map", "gm_map", summary="geometric", per_query=False),
    _T("Rprec", "rprec"),
    _T("bpref", "bpref"),
    _T("recip_rank", "mrr"),
    _T("iprec_at_recall", "iprec_at_recall", "cut_double", _RECALLS, point="recall"),
    _T("P", "precision", "cut_long", _CUTS, differs=True),
    _T("relstring", params="doubles", default=(10.0,), kind="string", summary="none"),
    _T("recall", "recall", "cut_long", _CUTS, differs=True),
    _T("infAP", "infap"),
    _T("gm_bpref", "gm_bpref", summary="geometric", per_query=False),
    _T("Rprec_mult", "rprec_mult", "cut_double", _MULTS, point="mult"),
    _T("utility", "utility", "doubles", (1.0, -1.0, 0.0, 0.0), values=_UTILITY),
    _T("11pt_avg", "iprec_avg", "doubles", _RECALLS, values=("recalls",), listed=True),
    _T("binG", "binary_gain"),
    _T("G", "normalized_gain", "pairs", rel=False),
    _T("ndcg", "ndcg", "pairs", rel=False, differs=True),
    _T("ndcg_rel", "ndcg_rel", "pairs", rel=False),
    _T("Rndcg", "rndcg", "pairs", fixed=(("nan_if_empty", True),)),
    _T("ndcg_cut", "ndcg", "cut_long", _CUTS, rel=False, differs=True),
    _T("map_cut", "map", "cut_long", _CUTS, differs=True),
    _T("relative_P", "r_cap", "cut_long", _CUTS),
    _T("success", "success", "cut_long", (1, 5, 10)),
    _T("set_P", "precision"),
    _T("set_relative_P", "r_cap"),
    _T("set_recall", "recall"),
    _T("set_map", "set_map"),
    _T("set_F", "f1", "doubles", (1.0,), values=("beta2",)),
    _T("num_nonrel_judged_ret", "num_nonrel_judged_ret", kind="long", summary="sum"),
    _T("rbp", "rbp", "pairs", rel=False, fixed=(("graded", True),), versions=_V10),
    _T("rbp_resid", "rbp_resid", "pairs", rel=False, versions=_V10),
    _T("unj", "hole", "cut_long", (5, 10, 20), rel=False, versions=_V10),
)  # fmt: skip

#: :data:`TREC_MEASURES` by name.
TREC_BY_NAME: Mapping[str, TrecMeasure] = {m.name: m for m in TREC_MEASURES}

#: trec_eval 9.0.8's named sets (``-m official`` ...), member by member (measures.c).
TREC_EVAL_SETS: Mapping[str, tuple[str, ...]] = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP",
        "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success",
        "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
    ),
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F",
    ),
}  # fmt: skip

_OFFICIAL, _SET, _ALL_TREC_9 = (TREC_EVAL_SETS[name] for name in ("official", "set", "all_trec"))

#: Each version's named sets (``-m official``), member by member (trec_eval's measures.c).
MEASURE_SETS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "9.0.8": {"official": _OFFICIAL, "set": _SET, "all_trec": _ALL_TREC_9},
    "10.0": {
        "official": _OFFICIAL,
        "set": _SET,
        "all_trec": (*_ALL_TREC_9, "unj", "rbp", "rbp_resid"),
    },
}
