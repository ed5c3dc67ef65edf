"""trec_eval's command, measure by measure: what ``ef-eval trec_eval`` (``ef-trec-eval``) computes.

This module holds trec_eval's semantics that are neither a metric nor a name (its measures,
their parameters and metrics are :mod:`~ef.evaluation._engine.trec_vocabulary`'s): how each
measure's columns are made from its row of that table, how ``-m`` marks them (named sets,
``P.5,10``, the first parameter list of a measure winning), the query set (``-c``), ``-M``
and ``-J`` applied to the rankings before any measure, and the summary row (a mean, a sum, a
geometric mean). The metrics themselves are the registry's (``metrics/retrieval/``);
:func:`trec_eval_result` scores a run with their batch forms and returns the values in
trec_eval's order, which :mod:`~ef.evaluation._presentation.trec_names` prints as trec_eval does.

Two versions are known (:data:`VERSIONS`): 9.0.8, the one pytrec_eval wraps (the default),
and 10.0. They differ in how scores are kept (C ``float`` in 9.0.8, ``double`` in 10.0), the
recall cutoffs of ``iprec_at_recall`` and ``11pt_avg`` (``(long)(x * R + 0.9)`` against
``lround(x * R)``), ``-c`` (10.0 scores a judged query the run lacks on a one-document
ranking and prints its rows; without ``-c`` it stops at such a query), and ``all_trec``
(10.0 adds ``unj``, ``rbp`` and ``rbp_resid``).

>>> [c.name for c in columns(["P.5,10", "map"], Options())]
['map', 'P_5', 'P_10']
>>> [c.name for c in columns(["official"], Options())][:6]
['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map']
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import UnknownNameError
from ..interfaces import MIN_GEO_MEAN
from .id_forms import no_overlap_cause, shown_ids, with_cause
from .measures import Measure, param_problem
from .trec_vocabulary import MEASURE_SETS, TREC_BY_NAME, TREC_MEASURES, VERSIONS, TrecMeasure

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .._hits import JudgedHits
    from .._plugin_engine.registry import Registry
    from .._runs.table import RunTable

__all__ = [
    "LONG_MAX",
    "LONG_MIN",
    "MEASURE_SETS",
    "MIN_GEO_MEAN",
    "MISSING_ZSCORE",
    "VERSIONS",
    "Column",
    "Options",
    "TrecEvalResult",
    "c_long",
    "columns",
    "measure_names",
    "trec_eval_result",
]

#: trec_eval's measures that need other judgements than qrels (``-R prefs``, ``qrels_jg``).
_OTHER_FORMATS = frozenset({
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg",
})  # fmt: skip
_OTHER_SETS = frozenset({"all_prefs", "prefs", "qrels_jg"})
#: trec_eval measures on qrels that ef-evaluation does not implement.
_NOT_HERE = frozenset({"yaap", "dcg", "ideal_dcg", "ndcg_p"})


@attrs.frozen
class Options:
    """trec_eval's switches: ``-q``, ``-c``, ``-n``, ``-l``, ``-J``, ``-M``, ``-N``, the version.

    ``max_docs`` is ``-M`` (None: every doc), ``num_docs`` is ``-N`` (utility's collection
    size), ``rel_level`` is ``-l`` (the lowest grade that counts as relevant).

    >>> Options(rel_level=2).rel
    2.0
    """

    version: str = attrs.field(default="9.0.8", validator=attrs.validators.in_(VERSIONS))
    per_query: bool = False
    complete: bool = False
    summary: bool = True
    rel_level: int = 1
    judged_only: bool = False
    max_docs: int | None = None
    num_docs: int = 0

    @property
    def rel(self) -> float | None:
        """``-l`` as a metric's ``rel`` parameter (None for 1: any grade > 0)."""
        return None if self.rel_level == 1 else float(self.rel_level)

    @property
    def v10(self) -> bool:
        """True for trec_eval 10.0's behaviour."""
        return self.version == "10.0"


#: The printed names trec_eval 10.0 zeroes for a query the run lacks (and ``unj*``).
_CLEARED = frozenset({"num_ret", "utility", "relstring", "rbp_resid"})


@attrs.frozen
class Column:
    """One printed measure: its name, how its values print and sum up, and what computes it.

    ``kind`` is ``"float"`` (``%6.4f``), ``"long"`` (``%ld``), ``"string"`` (relstring's
    ``'...'``), ``"runid"`` or ``"num_q"``. ``summary`` is ``"mean"``, ``"sum"``,
    ``"geometric"`` (the mean of logs, printed as its exp: gm_map), ``"num_rel"`` (a sum;
    with ``-c``, every judged query's relevant docs) or ``"none"``. ``per_query`` says
    whether ``-q`` prints it per query; :attr:`cleared` whether trec_eval 10.0 zeroes it for
    a judged query the run lacks (``-c``).
    """

    name: str
    kind: str
    measure: Measure | None = None
    summary: str = "mean"
    per_query: bool = True
    #: relstring's length, for the ``string`` kind.
    length: int = 0

    @property
    def cleared(self) -> bool:
        """Whether trec_eval 10.0 zeroes (or empties) this value for a query the run lacks
        (``-c``): it looks the printed name up, so ``utility`` is, ``utility_2,-1,0,0`` not.

        >>> Column("unj_5", "float").cleared, Column("rbp_resid_p=0.5", "float").cleared
        (True, False)
        """
        return self.name in _CLEARED or self.name.startswith("unj")


#: How a measure's columns are made from it, its parameters, their text, the switches and the
#: registry.
_Build = Callable[[TrecMeasure, tuple[Any, ...], str | None, "Options", "Registry"], list["Column"]]


#: Parameters whose range trec_eval does not check, where ef's API does: a recall level
#: outside 0..1, a multiple of R <= 0. The drop-in prints what the C program prints for
#: them (:func:`_check_points` keeps them where C's numbers are defined).
_C_RANGES = frozenset({"recall", "recalls", "mult"})


def _metric(registry: Registry, name: str, k: int | None, **params: Any) -> Measure:
    """The registry's metric ``name`` at cutoff ``k`` with ``params`` (defaults dropped)."""
    metric = registry.retrieval_metric(name)
    for given in params:
        metric.param(given)  # an UnknownNameError for a parameter the metric lacks
    chosen = []
    for p in metric.params:
        if params.get(p.name) is not None:
            param = attrs.evolve(p, check=None) if p.name in _C_RANGES else p
            value = param.convert(params[p.name])
            if value != p.default:
                chosen.append((p.name, value))
    return Measure(metric, k, chosen)


def _printed(name: str, raw: str | None) -> str:
    """A float-parameter measure's name: ``utility`` or ``utility_2,-1,0,0`` (the raw text)."""
    return name if raw is None else f"{name}_{raw}"


def _extra(entry: TrecMeasure, opts: Options) -> dict[str, Any]:
    """The parameters every column of ``entry`` sets: its fixed ones, and ``-l`` if it applies."""
    extra = dict(entry.fixed)
    if entry.rel:
        extra["rel"] = opts.rel
    return extra


def _metric_of(entry: TrecMeasure) -> str:
    assert entry.metric is not None  # the table gives every measure with a number its metric
    return entry.metric


def _simple(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    measure = _metric(reg, _metric_of(entry), None, **_extra(entry, opts))
    return [Column(entry.name, entry.kind, measure, entry.summary, entry.per_query)]


def _cut(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    metric, extra = _metric_of(entry), _extra(entry, opts)
    return [Column(f"{entry.name}_{k}", "float", _metric(reg, metric, k, **extra)) for k in params]


#: trec_eval turns a recall point (or an Rprec multiplier) times a query's relevant docs into
#: a C long: beyond this bound that can overflow, and what it prints is undefined.
_POINT_LIMIT = 2**31


def _check_points(entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, what: str) -> None:
    """Refuse a point whose product with the relevant docs could overflow trec_eval's long."""
    for x in params:
        if not -_POINT_LIMIT < x < _POINT_LIMIT:
            raise ValueError(
                f"-m {entry.name}.{raw}: {what} {x!r} is out of range: it must lie between "
                f"{-_POINT_LIMIT} and {_POINT_LIMIT} (trec_eval multiplies it by a query's "
                "relevant docs into a C long, whose overflow makes its numbers undefined)"
            )


def _float_name(name: str, x: float) -> str:
    """trec_eval's ``name_%3.2f``, cut as its buffer of ``len(name) + 10`` bytes cuts it."""
    return f"{name}_{x:3.2f}"[: len(name) + 9]


def _recall_points(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    metric, param = _metric_of(entry), str(entry.point)
    _check_points(entry, params, raw, "a recall point" if param == "recall" else "a multiple")
    extra = _extra(entry, opts)
    if metric == "iprec_at_recall":
        extra["rounding"] = "lround" if opts.v10 else "plus0.9"
        extra["nan_if_empty"] = True
    return [
        Column(
            _float_name(entry.name, x), "float", _metric(reg, metric, None, **extra, **{param: x})
        )
        for x in params
    ]


def _utility(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    if len(params) != 4:
        raise ValueError(
            f"-m utility.{raw}: utility takes 4 coefficients (relevant retrieved, nonrelevant "
            "retrieved, relevant not retrieved, nonrelevant not retrieved), e.g. utility.1,-1,0,0"
        )
    measure = _metric(
        reg,
        _metric_of(entry),
        None,
        **_extra(entry, opts),
        **dict(zip(entry.values, params, strict=True)),
        collection=opts.num_docs,
    )
    return [Column(_printed(entry.name, raw), "float", measure)]


def _iprec_avg(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    if not params:
        raise ValueError(f"-m 11pt_avg.{raw}: 11pt_avg needs recall points, e.g. 11pt_avg.0.2,0.8")
    _check_points(entry, params, raw, "a recall point")
    measure = _metric(
        reg,
        _metric_of(entry),
        None,
        **_extra(entry, opts),
        **{entry.values[0]: ",".join(repr(float(x)) for x in params)},
        rounding="lround" if opts.v10 else "plus0.9",
        nan_if_empty=True,
    )
    return [Column(_printed(entry.name, raw), "float", measure)]


def _set_f(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    beta = params[0] if params else 1.0
    measure = _metric(
        reg, _metric_of(entry), None, **_extra(entry, opts), **{entry.values[0]: beta}
    )
    return [Column(_printed(entry.name, raw), "float", measure)]


def _relstring(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    if params and not -(2**63) <= params[0] < 2**63:  # C's (long) of it is undefined
        raise ValueError(
            f"-m relstring.{raw}: the length {params[0]!r} is out of range: trec_eval reads it "
            f"as a C long, so it must lie between {LONG_MIN} and {LONG_MAX}"
        )
    length = max(0, int(params[0])) if params else 0
    return [Column(_printed(entry.name, raw), "string", summary="none", length=length)]


def _gains(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    metric = _metric_of(entry)
    gains: dict[int, float] = {}
    extra = _extra(entry, opts)
    for name, value in params:
        if name == "p" and metric in ("rbp", "rbp_resid"):
            extra["p"] = value
            continue
        level = _pair_level(entry.name, name, raw, opts)
        if level is None:
            continue
        if metric in ("rbp", "rbp_resid"):
            raise ValueError(
                f"-m {entry.name}.{raw}: ef-evaluation's {entry.name} takes p=... only, not gains"
            )
        gains.setdefault(level, value)  # trec_eval looks a level up from the first pair
    if gains:
        extra["gains"] = gains
    return [Column(_printed(entry.name, raw), "float", _metric(reg, metric, None, **extra))]


def _pair_level(name: str, text: str, raw: str | None, opts: Options) -> int | None:
    """The grade a ``grade=gain`` pair names; None where trec_eval 10.0 skips the pair."""
    read = c_long(text)
    if read is not None and read[1] == len(text) and text == text.strip():
        return read[0]
    if opts.v10:
        return None  # 10.0 skips a pair whose name is not an integer
    raise ValueError(f"-m {name}.{raw}: {text!r} is not a relevance grade (an integer)")


def _num_q(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    return [Column("num_q", "num_q", summary="num_q", per_query=False)]


def _runid(
    entry: TrecMeasure, params: tuple[Any, ...], raw: str | None, opts: Options, reg: Registry
) -> list[Column]:
    return [Column("runid", "runid", summary="runid", per_query=False)]


#: The measures whose columns are made their own way; the others by their parameter form.
_OWN_BUILD: Mapping[str, _Build] = {
    "runid": _runid,
    "num_q": _num_q,
    "relstring": _relstring,
    "utility": _utility,
    "11pt_avg": _iprec_avg,
    "set_F": _set_f,
}
_FORM_BUILD: Mapping[str, _Build] = {
    "none": _simple,
    "cut_long": _cut,
    "cut_double": _recall_points,
    "pairs": _gains,
}


def _build(entry: TrecMeasure) -> _Build:
    """How the columns of ``entry`` (a row of trec_eval's table) are made."""
    return _OWN_BUILD.get(entry.name) or _FORM_BUILD[entry.params]


def measure_names(version: str = "9.0.8") -> tuple[str, ...]:
    """The measures of trec_eval ``version`` that ``-m`` can name, in its order.

    >>> measure_names()[:5]
    ('runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret')
    """
    return tuple(e.name for e in TREC_MEASURES if version in e.versions)


_INT_MAX = 2**31 - 1  # C's INT_MAX

#: C's ``LONG_MAX`` and ``LONG_MIN`` (LP64, as trec_eval is built): glibc's ``atol`` reads a
#: number beyond them as the nearest of the two.
LONG_MAX, LONG_MIN = 2**63 - 1, -(2**63)

# ASCII digits only: Python's int() and \d also take other scripts' digits, C's atol does not.
_C_LONG = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")


def c_long(text: str) -> tuple[int, int] | None:
    """What C's ``atol`` reads at the start of ``text`` and how many characters it took, or
    None where no digits start it (atol would read 0). Beyond ``LONG_MAX`` (``LONG_MIN``)
    it reads ``LONG_MAX`` (``LONG_MIN``), as glibc does.

    >>> c_long("20x"), c_long(" -7"), c_long("99999999999999999999"), c_long("x")
    ((20, 2), (-7, 3), (9223372036854775807, 20), None)
    """
    match = _C_LONG.match(text)
    if match is None:
        return None
    return min(max(int(match.group(1)), LONG_MIN), LONG_MAX), match.end()


def _c_long(spec: str, text: str, notes: list[str]) -> int:
    """trec_eval's ``atol``, with a note where it reads less than the text says."""
    read = c_long(text)
    if read is None:
        raise ValueError(f"-m {spec}: {text!r} is not a whole number")
    value, end = read
    if end != len(text) or value != int(text[:end]):  # a suffix, or beyond LONG_MAX
        notes.append(f"-m {spec}: trec_eval reads {text!r} as {value}, and so does ef")
    return value


_C_DOUBLE = re.compile(
    r"[ \t\n\v\f\r]*[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)"
)


def _c_double(spec: str, text: str, notes: list[str]) -> float:
    """trec_eval's ``atof``, with a note where it reads less than the text says."""
    match = _C_DOUBLE.match(text)
    if match is None:
        raise ValueError(f"-m {spec}: {text!r} is not a number")
    value = float(match.group(0))
    if match.group(0) != text:
        notes.append(f"-m {spec}: trec_eval reads {text!r} as {value!r}, and so does ef")
    if not math.isfinite(value):
        raise ValueError(f"-m {spec}: {text!r} is not a finite number")
    return value


def _parse_params(entry: TrecMeasure, text: str, notes: list[str]) -> tuple[Any, ...]:
    """The parameters after ``-m name.``, read as trec_eval reads them (meas_init.c)."""
    spec = f"{entry.name}.{text}"
    read = _PARAM_READERS.get(entry.params)
    if read is None:
        raise ValueError(f"-m {spec}: {entry.name} takes no parameters")
    return read(entry, spec, text.split(","), notes)


def _cutoff_params(
    entry: TrecMeasure, spec: str, parts: list[str], notes: list[str]
) -> tuple[Any, ...]:
    """``P.5,10``: positive C longs, each once, sorted."""
    cutoffs = sorted(_c_long(spec, part, notes) for part in parts)
    if cutoffs[0] <= 0:
        raise ValueError(f"-m {spec}: cutoffs must be positive")
    if len(set(cutoffs)) != len(cutoffs):
        raise ValueError(f"-m {spec}: a cutoff is given twice")
    if cutoffs[-1] - cutoffs[0] > _INT_MAX:
        notes.append(
            f"-m {spec}: trec_eval sorts these cutoffs by their difference as a C int, "
            "which overflows, so its order and values for them may be wrong; ef's are not"
        )
    return tuple(cutoffs)


def _point_params(
    entry: TrecMeasure, spec: str, parts: list[str], notes: list[str]
) -> tuple[Any, ...]:
    """``iprec_at_recall.0.25,0.5``: C doubles, each once, sorted."""
    points = sorted(_c_double(spec, part, notes) for part in parts)
    if len(set(points)) != len(points):
        raise ValueError(f"-m {spec}: a cutoff is given twice")
    return tuple(points)


def _double_params(
    entry: TrecMeasure, spec: str, parts: list[str], notes: list[str]
) -> tuple[Any, ...]:
    """``utility.1,-1,0,0``: C doubles, in order."""
    return tuple(_c_double(spec, part, notes) for part in parts)


def _pair_params(
    entry: TrecMeasure, spec: str, parts: list[str], notes: list[str]
) -> tuple[Any, ...]:
    """``ndcg.1=3,2=9``: name=value pairs, each value a C double."""
    pairs = []
    for part in parts:
        name, equals, value = part.partition("=")
        if not equals or "=" in value:
            raise ValueError(
                f"-m {spec}: {entry.name}'s parameters are name=value pairs, e.g. "
                f"{entry.name}.1=3,2=9"
            )
        pairs.append((name, _c_double(spec, value, notes)))
    return tuple(pairs)


#: How each kind of trec_eval parameter list is read (meas_init.c's get_param functions).
_PARAM_READERS: dict[str, Callable[[TrecMeasure, str, list[str], list[str]], tuple[Any, ...]]] = {
    "cut_long": _cutoff_params,
    "cut_double": _point_params,
    "doubles": _double_params,
    "pairs": _pair_params,
}


def _marked(specs: Iterable[str], opts: Options) -> tuple[list[TrecMeasure], dict[str, str]]:
    """The measures ``-m`` marks, in trec_eval's order, and each name's first parameter text."""
    sets = MEASURE_SETS[opts.version]
    marked: set[str] = set()
    params: dict[str, str] = {}
    for spec in specs:
        name, dot, text = spec.partition(".")
        if dot:
            if not text:
                raise ValueError(f"-m {spec}: nothing after the dot (write {name} or {name}.5)")
            params.setdefault(name, text)  # trec_eval keeps a measure's first parameters
        if name in sets:
            marked.update(sets[name])
        elif name in TREC_BY_NAME and opts.version in TREC_BY_NAME[name].versions:
            marked.add(name)
        else:
            raise UnknownNameError(_unknown_measure(spec, name, opts))
    return [e for e in TREC_MEASURES if e.name in marked], params


def _unknown_measure(spec: str, name: str, opts: Options) -> str:
    if name in _OTHER_FORMATS or name in _OTHER_SETS:
        return (
            f"-m {spec}: {name} needs preference or judgement-group files (trec_eval -R prefs, "
            "qrels_jg), which ef-eval trec_eval does not read"
        )
    if name in _NOT_HERE:
        return f"-m {spec}: trec_eval's {name} is not implemented in ef-evaluation"
    if name in TREC_BY_NAME:
        return f"-m {spec}: {name} is a measure of trec_eval 10.0; use --compat 10.0"
    import difflib

    known = [*MEASURE_SETS[opts.version], *measure_names(opts.version)]
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return (
        f"-m {spec}: trec_eval {opts.version} has no measure {name!r}{hint} "
        f"(named sets: {', '.join(MEASURE_SETS[opts.version])})"
    )


def columns(
    specs: Sequence[str],
    opts: Options,
    *,
    registry: Registry | None = None,
    notes: list[str] | None = None,
) -> list[Column]:
    """The printed measures that ``-m specs`` ask for (``official`` if none), in trec_eval's
    order, with their parameters as trec_eval reads them; ``notes`` collects what it reads
    otherwise than the text says (``ndcg_cut.23.4`` is cutoff 23).

    >>> [c.name for c in columns(["ndcg_cut.20,5", "recip_rank", "P.5", "P.10"], Options())]
    ['recip_rank', 'P_5', 'ndcg_cut_5', 'ndcg_cut_20']
    """
    from .._plugin_engine.registry import registry_or_default

    registry = registry_or_default(registry)
    notes = [] if notes is None else notes
    entries, texts = _marked(specs or ["official"], opts)
    out: list[Column] = []
    for entry in entries:
        raw = texts.get(entry.name)
        params = entry.default if raw is None else _parse_params(entry, raw, notes)
        try:
            out.extend(_build(entry)(entry, params, raw, opts, registry))
        except ValueError as exc:  # a metric's parameter refused: name the option and measure
            if str(exc).startswith("-m "):
                raise
            spec = entry.name if raw is None else f"{entry.name}.{raw}"
            raise ValueError(f"-m {spec}: {param_problem(entry.name, exc)}") from None
    return out


@attrs.frozen(eq=False)
class TrecEvalResult:
    """What ``trec_eval`` prints, as values: the queries of the per-query rows, each column's
    value per query and its summary (the ``all`` row), and notes for stderr.

    ``values[i]`` holds column ``i``'s values, one per query of ``query_ids`` (a float array,
    or strings for relstring, or None for ``runid``/``num_q``); ``summary[i]`` is its ``all``
    value (None where trec_eval prints none).
    """

    columns: tuple[Column, ...]
    query_ids: tuple[str, ...]
    values: tuple[Any, ...]
    summary: tuple[Any, ...]
    opts: Options
    notes: tuple[str, ...] = ()
    #: Values are z-scores (``-Z``): the names print with a ``Z`` before them.
    zscored: bool = False


def _relstrings(hits: JudgedHits, length: int) -> list[str]:
    """trec_eval's relstring of each query: one character per doc of its first ``length``:
    the grade (0-9, ``>`` above 9), ``-`` for an unjudged doc, ``.`` for a negative grade."""
    chars: list[list[str]] = [["-"] * min(length, int(n)) for n in hits.n_retrieved.tolist()]
    for q, r, g in zip(hits.query.tolist(), hits.rank.tolist(), hits.grade.tolist(), strict=True):
        if r <= len(chars[q]):
            chars[q][r - 1] = ">" if g > 9 else (str(int(g)) if g >= 0 else ".")
    return ["".join(c) for c in chars]


#: trec_eval's value for a measure or query the z-scores file does not list.
MISSING_ZSCORE = -1000000.0


def _zscored(
    values: npt.NDArray[np.float64],
    name: str,
    query_ids: Sequence[str],
    zscores: Mapping[str, Mapping[str, tuple[float, float]]],
) -> npt.NDArray[np.float64]:
    """Each query's value as a z-score (trec_eval's -Z): ``(value - mean) / stddev``; with a
    zero stddev, 0 for the mean itself; :data:`MISSING_ZSCORE` where the file has no line."""
    import numpy as np

    out = np.empty_like(values)
    for i, (value, query_id) in enumerate(zip(values.tolist(), query_ids, strict=True)):
        found = zscores.get(query_id, {}).get(name)
        if found is None:
            out[i] = MISSING_ZSCORE
            continue
        mean, stddev = found
        if stddev:
            out[i] = (value - mean) / stddev
        else:
            out[i] = 0.0 if value == mean else MISSING_ZSCORE
    return out


def _sum(values: npt.NDArray[np.float64]) -> float:
    """The values added one by one in order, as trec_eval accumulates them."""
    import numpy as np

    return float(np.cumsum(values)[-1]) if values.size else 0.0


@attrs.frozen
class _Queries:
    """The queries trec_eval scores, and what its summary counts: the judged queries, those it
    scores (in its order), the relevant docs of every judged query (``-c``'s num_rel), and
    which scored queries the run lacks (10.0's ``-c``)."""

    judged: int
    scored: list[str]
    relevant: float
    absent: set[str]


def _queries_of(ids: Sequence[str]) -> str:
    return "1 query" if len(ids) == 1 else f"{len(ids)} queries"


def _no_query_in_common(run: RunTable, judged: Sequence[str]) -> str:
    """What trec_eval's "no query has both results and judgements" leaves out: a few ids of
    each side, and the likely cause (leading zeros, case, a prefix, ...)."""
    run_ids = list(run.query_ids)
    message = (
        f"no query has both results and judgements: the run has {_queries_of(run_ids)} "
        f"{shown_ids(run_ids)}, the qrels {_queries_of(judged)} {shown_ids(judged)}"
    )
    return with_cause(message, no_overlap_cause(run_ids, judged, ("run", "qrels")))


def _check_missing(
    run: RunTable, judged: list[str], missing: list[str], opts: Options, notes: list[str]
) -> None:
    """Stop, or note, where trec_eval does on judged queries the run lacks: all of them
    (but 10.0's -c scores each 0), or any of them for 10.0 without -c."""
    if judged and len(missing) == len(judged):
        if not (opts.complete and opts.v10):  # 10.0's -c scores each judged query 0
            raise ValueError(
                f"{_no_query_in_common(run, judged)}. Are the qrels and the run of the same "
                "topics, and in that order on the command line (QRELS RUN)?"
            )
        notes.append(f"{_no_query_in_common(run, judged)}; -c scores each judged query 0")
    if opts.v10 and missing and not opts.complete:
        raise ValueError(
            f"query {missing[0]!r} is judged but the run has no results for it, where trec_eval "
            "10.0 stops (add -c to score it 0, or use --compat 9.0.8 to leave it out)"
        )


def _queries(
    run: RunTable, qrels: Mapping[str, Mapping[str, float]], opts: Options, notes: list[str]
) -> _Queries:
    judged = sorted(qrels)  # trec_eval sorts topics by strcmp (UTF-8 byte order)
    missing = [q for q in judged if q not in run]
    _check_missing(run, judged, missing, opts, notes)
    scored = judged if opts.complete and opts.v10 else [q for q in judged if q in run]
    if not scored:
        raise ValueError("no query has both results and judgements: the qrels judge no query")
    relevant = _relevant_count(qrels, judged)
    return _Queries(len(judged), scored, relevant, set(missing) if opts.complete else set())


def _relevant_count(qrels: Mapping[str, Mapping[str, float]], judged: list[str]) -> float:
    """trec_eval's -c num_rel: every judged query's grades > 0, whatever -l says."""
    return float(sum(1 for q in judged for grade in qrels[q].values() if grade > 0))


def _hits(
    run: RunTable, qrels: Mapping[str, Mapping[str, float]], queries: _Queries, opts: Options
) -> tuple[JudgedHits, npt.NDArray[np.bool_]]:
    """Where the judged docs of the scored queries rank, as trec_eval's form_res_rels leaves
    them (``-M`` then ``-J``), and which queries 10.0 scores on a one-doc ranking."""
    import numpy as np

    from ..metrics.retrieval.kernels import cut, prepared

    scored = queries.scored
    hits = run.judged_hits(scored, [qrels[q] for q in scored], "trec_eval", float64=opts.v10)
    bogus = np.fromiter((q in queries.absent for q in scored), dtype=bool, count=len(scored))
    if bogus.any():  # trec_eval 10.0 scores them on one unjudged doc, then zeroes some values
        hits = attrs.evolve(hits, n_retrieved=np.where(bogus, 1, hits.n_retrieved))
    # -M then -J, as the metrics' own judged_only and cutoff do it
    return prepared(cut(hits, opts.max_docs), opts.judged_only), bogus


def _values(
    col: Column,
    hits: JudgedHits,
    bogus: npt.NDArray[np.bool_],
    scored: Sequence[str],
    zscores: Mapping[str, Mapping[str, tuple[float, float]]] | None,
    *,
    registry: Registry,
) -> Any:
    """One column's value for every scored query (None for runid and num_q)."""
    import numpy as np

    from .scoring import batch_values

    if col.kind == "string":
        strings = _relstrings(hits, col.length)
        if not col.cleared:
            return strings
        return [("" if b else s) for s, b in zip(strings, bogus.tolist(), strict=True)]
    if col.measure is None:
        return None
    raw, _ = batch_values(col.measure, scored, hits, registry)  # the engine's one call
    vals = np.asarray(raw, dtype=np.float64)
    if col.cleared and bogus.any():
        vals = np.where(bogus, 0.0, vals)
    if col.summary == "geometric":  # trec_eval keeps the log per query
        vals = np.log(np.maximum(vals, MIN_GEO_MEAN))
    if zscores is not None:
        vals = _zscored(vals, col.name, scored, zscores)
    return vals


def _summary(col: Column, vals: Any, opts: Options, queries: _Queries, runid: str) -> Any:
    """A column's ``all`` value (trec_eval's calc_avg_meas functions); None if not printed."""
    n_scored = len(queries.scored)
    n = queries.judged if opts.complete else n_scored
    if col.summary in ("runid", "num_q", "none"):
        return {"runid": runid, "num_q": n, "none": None}[col.summary]
    if col.summary == "num_rel" and opts.complete:
        return queries.relevant
    total = _sum(vals)
    if col.summary in ("sum", "num_rel"):
        return total
    if col.summary == "geometric":  # the values are logs
        if opts.complete and not opts.v10:  # 9.0.8 adds the queries the run lacks last
            total += (queries.judged - n_scored) * math.log(MIN_GEO_MEAN)
        return math.exp(total / n) if n else total
    return total / n if n else total


def trec_eval_result(
    run: RunTable,
    qrels: Mapping[str, Mapping[str, float]],
    specs: Sequence[str],
    opts: Options,
    *,
    runid: str,
    zscores: Mapping[str, Mapping[str, tuple[float, float]]] | None = None,
    registry: Registry | None = None,
) -> TrecEvalResult:
    """trec_eval's output for ``run`` against ``qrels``, as values (see :class:`TrecEvalResult`).

    The queries scored are those of both (9.0.8), or every judged one with ``-c`` (10.0; 9.0.8
    only averages over them). ``zscores`` (``-Z``) maps a query and a printed measure name to
    a mean and a standard deviation: each value becomes its z-score before the summary. A
    judged query that 10.0 would not find without ``-c`` is a ValueError, as it stops
    trec_eval 10.0.

    >>> from ef.evaluation import RunTable
    >>> run = RunTable.from_dict({"q1": {"d1": 2.0, "d2": 1.0}})
    >>> result = trec_eval_result(run, {"q1": {"d2": 1}}, ["P.1,2", "num_q"], Options(),
    ...                           runid="r")
    >>> [c.name for c in result.columns], result.summary
    (['num_q', 'P_1', 'P_2'], (1, 0.0, 0.5))
    """
    import numpy as np

    from .._plugin_engine.registry import registry_or_default

    registry = registry_or_default(registry)
    notes: list[str] = []
    cols = columns(specs, opts, registry=registry, notes=notes)
    queries = _queries(run, qrels, opts, notes)
    hits, bogus = _hits(run, qrels, queries, opts)
    if np.any(hits.n_retrieved == 0):
        empty = [q for q, n in zip(queries.scored, hits.n_retrieved.tolist(), strict=True) if not n]
        some = "1 query has" if len(empty) == 1 else f"{len(empty)} queries have"
        notes.append(
            f"{some} no docs left to score (-J or -M), {empty[0]!r} first; trec_eval prints "
            "-nan for their interpolated precision, and so does ef"
        )
    values = [_values(col, hits, bogus, queries.scored, zscores, registry=registry) for col in cols]
    summary = [
        _summary(col, vals, opts, queries, runid) for col, vals in zip(cols, values, strict=True)
    ]
    return TrecEvalResult(
        tuple(cols),
        tuple(queries.scored),
        tuple(values),
        tuple(summary),
        opts,
        tuple(notes),
        zscored=zscores is not None,
    )
