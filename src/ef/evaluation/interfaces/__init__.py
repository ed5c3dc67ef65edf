"""What plugins return from the hooks: frozen values with a stable ``name``.

A plugin builds these and returns them from a hook of :mod:`ef.evaluation.hookspecs`::

    from ef.evaluation import RetrievalMetric, hookimpl

    def hits_at_k(ranked, relevant, k):
        return float(any(relevant.get(doc, 0) > 0 for doc in ranked[:k]))

    @hookimpl
    def ef_evaluation_metrics():
        return [RetrievalMetric(name="hits", func=hits_at_k)]
"""

from __future__ import annotations

import math
import re
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import attrs

if TYPE_CHECKING:
    from .._dataset import Dataset, Document
    from .._hits import JudgedHits
    from ..types import Qrels, Queries, Run, RunInput
    from ._adapters import RetrieverAdapter
    from ._fusion import FUSION_INPUTS as FUSION_INPUTS
    from ._fusion import FUSION_PARAM_TYPES as FUSION_PARAM_TYPES
    from ._fusion import FusionMethod, FusionParam
    from ._rag import RAG_LEVELS, ClaimLabeler, NuggetAssigner, RagMetric

__all__ = [
    "AGGREGATES",
    "MIN_GEO_MEAN",
    "RAG_LEVELS",
    "BatchSearchFunction",
    "ClaimLabeler",
    "DatasetFormat",
    "FusionMethod",
    "FusionParam",
    "JudgedHits",
    "MetricParam",
    "NuggetAssigner",
    "RagMetric",
    "RetrievalMetric",
    "RetrieverAdapter",
    "SearchFunction",
    "Synonym",
    "aggregate_values",
]


#: The names defined in a module of their own, loaded on first use (PEP 562). JudgedHits, the
#: input of a metric's batch and expected forms, needs numpy, which importing this module must
#: not load. The values of the RAG, adapter and fusion plugins are attrs classes, each a
#: fraction of a millisecond to build: scoring a run builds none of them.
_ELSEWHERE = {
    "JudgedHits": "ef.evaluation._hits",
    **dict.fromkeys(("RAG_LEVELS", "ClaimLabeler", "NuggetAssigner", "RagMetric"), "._rag"),
    "RetrieverAdapter": "._adapters",
    **dict.fromkeys(
        ("FUSION_INPUTS", "FUSION_PARAM_TYPES", "FusionMethod", "FusionParam"), "._fusion"
    ),
}


def __getattr__(name: str) -> object:
    if name not in _ELSEWHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_ELSEWHERE[name], __name__), name)
    globals()[name] = value  # the next use is a plain global
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})  # the names not loaded yet too


#: Names are lower-case identifiers, optionally dotted for a namespace (``ragas.bleu``).
#: ``@`` is reserved for cut-offs in report keys (``ndcg@10``).
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")

#: ``(query, limit) -> results``: what an adapter turns a retriever into, one query at a time.
SearchFunction = Callable[[str, int], Sequence[Any]]

#: ``(query_ids, query_texts, limit) -> results per query``, in the order of the queries: what
#: an adapter turns a retriever into when it answers many queries in one call. The ids let a
#: precomputed run answer by query id; a search engine uses the texts.
BatchSearchFunction = Callable[[Sequence[str], Sequence[str], int], Sequence[Sequence[Any]]]


_V = attrs.validators


def _qualified(validator: Callable[[Any, Any, Any], Any], hint: str = "") -> Any:
    """``validator`` (an attrs one), its error prefixed with the class being built, so that
    an error raised inside a plugin's hook says which object was wrong:
    ``RetrievalMetric: 'func' must be callable (got 'ndcg' that is a <class 'str'>).``"""

    def check(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        try:
            validator(instance, attribute, value)
        except (TypeError, ValueError) as exc:
            # attrs puts its message first and the attribute, rule and value after it.
            message = exc.args[0] if exc.args else str(exc)
            kind = TypeError if isinstance(exc, TypeError) else ValueError
            raise kind(f"{type(instance).__name__}: {message}{hint}") from None

    return check


_NAME_HINT = " (names are lower-case, digits, '_', dots for a namespace)"
#: A name: a ``str`` matching :data:`NAME_PATTERN`.
_name = _qualified(_V.and_(_V.instance_of(str), _V.matches_re(NAME_PATTERN)), _NAME_HINT)
_callable = _qualified(_V.is_callable())
_optional_callable = _qualified(_V.optional(_V.is_callable()))


def is_score(value: object) -> bool:
    """True for what a metric may return: a finite real number (``bool`` is not; a NaN or an
    infinity would poison a mean silently).

    >>> is_score(0.5), is_score(float("nan")), is_score(float("inf")), is_score(None)
    (True, False, False, False)
    >>> is_score(True)
    False
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


#: How a retrieval metric's per-query values make its summary (``RetrievalMetric.aggregate``).
AGGREGATES = ("mean", "sum", "geometric")

#: The floor of a value before the geometric mean takes its log (trec_eval's MIN_GEO_MEAN).
MIN_GEO_MEAN = 0.00001


def aggregate_values(aggregate: str, values: Sequence[float], n: int | None = None) -> float:
    """The summary of per-query ``values`` by ``aggregate``, over ``n`` queries (default: as
    many as there are values; the queries beyond them count as 0, as trec_eval's ``-c`` counts
    a query the run lacks): their mean, their sum, or their geometric mean with each value
    floored at ``MIN_GEO_MEAN``. Exactly summed (``math.fsum``).

    >>> aggregate_values("mean", [0.5, 1.0]), aggregate_values("sum", [2.0, 3.0])
    (0.75, 5.0)
    >>> round(aggregate_values("geometric", [0.25, 1.0]), 12), aggregate_values("mean", [], 0)
    (0.5, 0.0)
    """
    n = len(values) if n is None else n
    if aggregate == "sum":
        return math.fsum(values)
    if not n:
        return 0.0
    if aggregate == "geometric":
        logs = [math.log(max(v, MIN_GEO_MEAN)) for v in values]
        logs += [math.log(MIN_GEO_MEAN)] * (n - len(values))
        return math.exp(math.fsum(logs) / n)
    return math.fsum(values) / n


def _first_docstring_line(func: object) -> str:
    doc = getattr(func, "__doc__", None) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


#: What a metric parameter may hold: ``bool``, ``int``, ``float``, ``str``, or ``dict`` (a
#: mapping of numbers to numbers, such as nDCG's ``gains``).
PARAM_TYPES: tuple[type, ...] = (bool, int, float, str, dict, list)

#: Names a parameter cannot take: the positional arguments of a metric function.
_RESERVED_PARAMS = frozenset({"ranked", "relevant", "k", "hits"})
_PARAM_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _check_param_name(name: object, kind: str, reserved: frozenset[str]) -> None:
    """A ``kind`` (``metric``, ``fusion``) parameter's name: an identifier in lower case, not
    one of the arguments its function takes already (``reserved``)."""
    if not isinstance(name, str) or not _PARAM_NAME.match(name):
        raise ValueError(
            f"a {kind} parameter's name must match {_PARAM_NAME.pattern}, got {name!r}"
        )
    if name in reserved:
        raise ValueError(
            f"{name!r} cannot name a {kind} parameter: the {kind} function already takes it "
            f"({', '.join(sorted(reserved))} are reserved)"
        )


#: The other tools whose measure names a :class:`Synonym` can give.
SYNTAXES = ("ir_measures", "trec_eval")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _any_tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


def _to_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"parameter {name!r} must be True or False, got {value!r}")
    return value


def _to_int(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"parameter {name!r} must be an int, got {value!r}")
    return value


def _to_float(name: str, value: object) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValueError(f"parameter {name!r} must be a number, got {value!r}")
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int past a float's range
        finite = False
    if not finite:
        raise ValueError(f"parameter {name!r} must be a finite number, got {reprlib.repr(value)}")
    return float(value)


def _to_str(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"parameter {name!r} must be a string, got {value!r}")
    return value


def _to_strings(name: str, value: object) -> tuple[str, ...] | None:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(
            f"parameter {name!r} must be a list of strings, e.g. ['unanswerable'], got {value!r}"
        )
    return tuple(value) or None  # an empty list sets nothing: the parameter is unset


def _to_pairs(name: str, value: object) -> tuple[tuple[float, float], ...]:
    return _frozen_gains(name, _thawed(value))


def _frozen_gains(name: str, value: object) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, Mapping):
        raise ValueError(f"parameter {name!r} must be a dict of numbers, got {value!r}")
    pairs = []
    for key, gain in value.items():
        if not (_is_number(key) and _is_number(gain)) or not all(
            math.isfinite(v) for v in (key, gain)
        ):
            raise ValueError(
                f"parameter {name!r} maps numbers to numbers, e.g. {{1: 1, 2: 3}}; "
                f"got {key!r}: {gain!r}"
            )
        pairs.append((float(key), float(gain)))
    return tuple(sorted(pairs))


@attrs.frozen
class MetricParam:
    """A parameter of a retrieval metric, set in a measure string: ``precision(rel=2)@5``.

    ``type`` is one of ``PARAM_TYPES``; ``default`` is the value when the measure string
    does not set it (``None`` only where the metric gives it a meaning). A ``dict`` value is
    held as sorted ``(key, value)`` pairs, so that a measure can be hashed, and handed to the
    metric function as a ``dict``; a ``list`` (of strings) is held as a tuple and handed over
    as a ``list``, and an empty one is ``None``. ``choices`` limits the values;
    ``check(value)`` may raise ``ValueError`` for any other rule (``p`` must lie in (0, 1)).

    >>> rel = MetricParam("rel", float, None, "the lowest grade that counts as relevant")
    >>> rel.convert(2), rel.convert(None)
    (2.0, None)
    >>> rel.convert("two")
    Traceback (most recent call last):
        ...
    ValueError: parameter 'rel' must be a number, got 'two'
    """

    name: str
    type: type
    default: Any = None
    description: str = ""
    choices: tuple[Any, ...] = attrs.field(default=(), converter=_any_tuple, kw_only=True)
    check: Callable[[Any], None] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )

    def __attrs_post_init__(self) -> None:
        _check_param_name(self.name, "metric", _RESERVED_PARAMS)
        if self.type not in PARAM_TYPES:
            kinds = ", ".join(t.__name__ for t in PARAM_TYPES)
            raise TypeError(f"parameter {self.name!r}: type must be one of {kinds}")
        if self.default is not None:
            object.__setattr__(self, "default", self.convert(self.default))

    def convert(self, value: object) -> Any:
        """``value`` checked and converted to this parameter's type; ValueError otherwise."""
        if value is None:
            if self.default is None:
                return None
            raise ValueError(f"parameter {self.name!r} cannot be None")
        converted = _CONVERTERS[self.type](self.name, value)
        if self.choices and converted not in self.choices:
            raise ValueError(
                f"parameter {self.name!r} must be one of {', '.join(map(repr, self.choices))}, "
                f"got {value!r}"
            )
        if self.check is not None:
            self.check(converted)
        return converted

    def as_argument(self, value: Any) -> Any:
        """The value as the metric function receives it (a ``dict`` for a dict parameter)."""
        if value is None:
            return None
        if self.type is dict:
            return dict(value)
        return list(value) if self.type is list else value


def _thawed(value: object) -> object:
    """A dict from the frozen form of one (pairs), else ``value`` unchanged."""
    if isinstance(value, tuple):
        try:
            return dict(value)
        except (TypeError, ValueError):
            return value  # _frozen_gains names the problem
    return value


def _params_tuple(value: Iterable[MetricParam]) -> tuple[MetricParam, ...]:
    return tuple(value)


def _synonyms_tuple(value: Iterable[Synonym]) -> tuple[Synonym, ...]:
    return tuple(value)


def _names_tuple(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


_CONVERTERS: dict[type, Callable[[str, object], Any]] = {
    bool: _to_bool,
    int: _to_int,
    float: _to_float,
    str: _to_str,
    dict: _to_pairs,
    list: _to_strings,
}


def _synonym_params(value: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple[Any, ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted(items))


@attrs.frozen
class Synonym:
    """A retrieval metric's name in another tool, so measure strings in its syntax resolve.

    ``syntax`` is ``"ir_measures"`` (``P(rel=2)@5``, ``nDCG@10``, ``AP``) or ``"trec_eval"``
    (``P.5,10``, ``ndcg_cut.10``, ``map``). ``cutoff`` says whether that tool's measure takes
    cutoffs: in trec_eval's syntax ``P.5,10`` (a cutoff family; bare ``P`` means every cutoff
    of ``k_values``) against ``set_P`` (the whole ranking); in ir_measures' syntax ``@k`` is
    optional when it does, refused when it does not. ``params`` fixes parameter values the
    other tool's measure implies (trec_eval's ``rbp`` has ``p=0.9``); a measure string may
    still override them.

    >>> Synonym("trec_eval", "set_P", cutoff=False)
    Synonym(syntax='trec_eval', name='set_P', cutoff=False, params=(), requires=(), selects=())
    """

    syntax: str = attrs.field(validator=_qualified(_V.in_(SYNTAXES)))
    name: str
    cutoff: bool = attrs.field(default=True, kw_only=True)
    params: tuple[tuple[str, Any], ...] = attrs.field(
        default=(), converter=_synonym_params, kw_only=True
    )
    #: The spelling means this metric only when the string sets these parameters
    #: (ir_measures' ``NumRet(rel=1)`` is ``num_rel_ret``, its bare ``NumRet`` is ``num_ret``).
    requires: tuple[str, ...] = attrs.field(default=(), converter=_names_tuple, kw_only=True)
    #: ... or sets these other tool's parameters to these values, which then say nothing more
    #: (ir_measures' ``SetP(relative=True)`` is ``r_cap@all``).
    selects: tuple[tuple[str, Any], ...] = attrs.field(
        default=(), converter=_synonym_params, kw_only=True
    )

    def matches(self, given: Mapping[str, Any]) -> bool:
        """Whether a string setting the parameters ``given`` means this synonym's metric."""
        return set(self.requires) <= set(given) and all(
            name in given and given[name] == value for name, value in self.selects
        )

    def __attrs_post_init__(self) -> None:
        # trec_eval's 11pt_avg starts with a digit; a name of digits alone would be a cutoff.
        if not isinstance(self.name, str) or not re.match(
            r"^(?=[0-9]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_]*$", self.name
        ):
            raise ValueError(
                "a synonym's name is letters, digits or '_', with a letter among its leading "
                f"characters (11pt_avg), got {self.name!r}"
            )


def _check_unique(owner: str, params: Iterable[MetricParam | FusionParam]) -> list[str]:
    """The names of ``params``, none twice; ``owner`` (``"retrieval metric 'ndcg'"``) names
    the declaration in the error."""
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"{owner} repeats a parameter: {names}")
    return names


def _check_params(
    instance: RetrievalMetric, attribute: attrs.Attribute[Any], value: tuple[Any, ...]
) -> None:
    _check_unique(f"retrieval metric {instance.name!r}", value)


def _check_synonyms(
    instance: RetrievalMetric, attribute: attrs.Attribute[Any], value: tuple[Any, ...]
) -> None:
    params = {p.name: p for p in instance.params}
    for synonym in value:
        for name in synonym.requires:
            if name not in params:
                raise ValueError(
                    f"retrieval metric {instance.name!r}: synonym {synonym.name!r} requires "
                    f"{name!r}, which is not one of its parameters"
                )
        for name, fixed in synonym.params:
            if name not in params:
                raise ValueError(
                    f"retrieval metric {instance.name!r}: synonym {synonym.name!r} sets "
                    f"{name!r}, which is not one of its parameters"
                )
            params[name].convert(fixed)


@attrs.frozen
class RetrievalMetric:
    """A per-query retrieval metric, computed at every cut-off ``k`` of an evaluation.

    ``func(ranked, relevant, k) -> float`` gets the ranked doc ids, the query's judgements
    ``{doc_id: grade}`` and the cut-off. Reports key it as ``"<name>@<k>"``.

    ``batch(hits, k) -> array``, optional, computes the metric for every query at once from a
    :class:`~ef.evaluation._hits.JudgedHits` (where each query's judged docs landed)
    and returns one value per query, in query order. It must equal ``func``; evaluations use
    it when it is there and call ``func`` query by query when it is not.

    ``batch_cutoffs(hits, ks) -> array``, optional, is ``batch`` at several cutoffs at once:
    one row per cutoff of the sequence ``ks`` (``None`` among them is the whole ranking),
    one column per query, each row equal to ``batch(hits, k)``. Evaluations call it once for
    the measures of one metric and parameters at several cutoffs (``ndcg@1``, ``ndcg@10``,
    ...), where ``batch`` would be called once each: what does not depend on the cutoff is
    computed once.

    ``expected(hits, k) -> array``, optional, is the metric's exact mean over every order of
    each group of tied docs (the ``expected`` tie policy; ``_hits.above`` and ``_hits.tied``
    give the groups). Without it, that policy averages ``batch`` or ``func`` over the
    distinct orders of the groups, which is exact too but grows with the size of mixed groups.

    The keyword-only fields describe the metric further; all are optional:

    * ``params``: the :class:`MetricParam` objects it takes. A measure string sets them
      (``precision(rel=2)@5``) and ``func`` and ``batch`` receive every one as a keyword
      argument, at its default when the string does not set it.
    * ``cutoff``: ``True`` (the default) when the bare name means every cutoff of
      ``k_values`` (``ndcg`` -> ``ndcg@1``, ``ndcg@5``, ...); ``False`` when it means the whole
      ranking (``rprec``, ``bpref``). ``k`` is ``None`` for the whole ranking
      (``"ndcg@all"``), so ``func`` must accept ``k=None`` to be asked for it.
    * ``synonyms``: its names in ir_measures' and trec_eval's syntax (:class:`Synonym`);
      ``aliases``: other names in ours (``hit_rate`` for ``success``).
    * ``aggregate``: ``"mean"`` (the default), ``"sum"`` over queries (trec_eval and
      ir_measures sum the counts ``num_ret``, ``num_rel``, ``num_rel_ret``) or
      ``"geometric"``: the geometric mean, each value floored at ``MIN_GEO_MEAN``
      first (trec_eval's ``gm_map``), see ``aggregate_values()``.
    * ``formula`` and ``citation``: one line each, for the metric catalogue.

    >>> from ef.evaluation import precision_at_k
    >>> metric = RetrievalMetric(name="p", func=precision_at_k)
    >>> metric.description
    'Fraction of the top ``k`` results that are relevant.'
    """

    name: str = attrs.field(validator=_name)
    func: Callable[..., float] = attrs.field(validator=_callable)
    #: One line for catalogues; defaults to the first line of ``func``'s docstring.
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.func), takes_self=True)
    )
    #: The vectorised form of ``func`` over every query at once, or None.
    batch: Callable[..., Iterable[float]] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )
    #: ``batch`` at several cutoffs at once, a row each, or None.
    batch_cutoffs: Callable[..., Any] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )
    #: The tie-averaged form of ``batch`` (McSherry and Najork, 2008), or None.
    expected: Callable[..., Iterable[float]] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )
    params: tuple[MetricParam, ...] = attrs.field(
        default=(),
        converter=_params_tuple,
        validator=[_qualified(_V.deep_iterable(_V.instance_of(MetricParam))), _check_params],
        kw_only=True,
    )
    cutoff: bool = attrs.field(default=True, kw_only=True)
    synonyms: tuple[Synonym, ...] = attrs.field(
        default=(),
        converter=_synonyms_tuple,
        validator=[_qualified(_V.deep_iterable(_V.instance_of(Synonym))), _check_synonyms],
        kw_only=True,
    )
    aliases: tuple[str, ...] = attrs.field(
        default=(), converter=_names_tuple, validator=_V.deep_iterable(_name), kw_only=True
    )
    aggregate: str = attrs.field(
        default="mean", validator=_qualified(_V.in_(AGGREGATES)), kw_only=True
    )
    formula: str = attrs.field(default="", kw_only=True)
    citation: str = attrs.field(default="", kw_only=True)

    kind: ClassVar[str] = "retrieval"

    def param(self, name: str) -> MetricParam:
        """The parameter called ``name``; ``UnknownNameError`` lists the valid ones.

        >>> from ef.evaluation import get_registry
        >>> get_registry().retrieval_metric("precision").param("rel").default is None
        True
        """
        return _param_named(f"retrieval metric {self.name!r}", self.params, name)


_Param = TypeVar("_Param", "MetricParam", "FusionParam")


def _param_named(owner: str, params: tuple[_Param, ...], name: str) -> _Param:
    """The parameter of ``owner`` (a metric or fusion method, as its errors name it) called
    ``name``; ``UnknownNameError`` lists the valid ones."""
    for param in params:
        if param.name == name:
            return param
    import difflib  # for a misspelt name only

    from ..errors import UnknownNameError

    valid = [p.name for p in params]
    message = f"{owner} has no parameter {name!r}"
    close = difflib.get_close_matches(str(name), valid, n=3)
    message += f"; did you mean {' or '.join(map(repr, close))}?" if close else "."
    listed = ", ".join(valid) if valid else "none"
    raise UnknownNameError(f"{message} Its parameters: {listed}.")


@attrs.frozen
class DatasetFormat:
    """A dataset format: how to recognise, read and write evaluation data on disk.

    Every capability is an optional callable; leave out what the format cannot hold:

    * ``read_qrels(path) -> Qrels`` and ``write_qrels(path, qrels)``;
    * ``read_run(path) -> {qid: {doc: score}}`` and ``write_run(path, run)`` (``run`` may
      also map query ids to ranked lists of doc ids);
    * ``read_run_columns(path)``: a fast reader of a whole run as plain columns (a
      ``RunColumns``), asked before ``read_run`` when
      a run is scored; it returns None to leave a file to ``read_run``, and must give the
      same run or leave it (the TREC format's polars reader is one);
    * ``read_queries(path) -> Queries`` and ``write_queries(path, queries)``;
    * ``read_corpus(path) -> Iterable[Document]`` and ``write_corpus(path, documents)``;
    * ``read_dataset(path) -> Dataset`` and ``write_dataset(path, dataset)``;
    * ``read_samples(path) -> list[dict]`` and ``write_samples(path, samples)``.

    ``detect(path) -> bool`` says whether ``path`` looks like this format. When a format is
    not named, the formats that have the wanted capability are asked (plugins' first, then the
    built-ins) and the first that says yes reads the file. Readers raise
    :class:`~ef.evaluation.DatasetFormatError` naming the file and line of bad input.

    Writers are atomic without their own help: the engine hands a writer a path with the
    target's name in a private folder beside the target, and moves what it wrote there into
    place only when it returns (a file replaces the target; a dataset folder fills it). An
    error, whatever it is, leaves the target as it was and nothing half-written; what a
    plugin raises becomes a :class:`~ef.evaluation.PluginError` naming the format, the
    plugin and the target. A writer must write the path it is given.

    >>> from pathlib import Path
    >>> def read_pairs(path):
    ...     lines = Path(path).read_text().split()
    ...     return {q: {d: 1} for q, d in (line.split(",") for line in lines)}
    >>> fmt = DatasetFormat(name="pairs", read_qrels=read_pairs)
    >>> fmt.capabilities
    ('read_qrels',)
    """

    name: str = attrs.field(validator=_name)
    read_dataset: Callable[[Path], Dataset] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    write_dataset: Callable[[Path, Dataset], None] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    read_samples: Callable[[Path], list[dict[str, Any]]] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    write_samples: Callable[[Path, Iterable[Mapping[str, Any]]], None] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    detect: Callable[[Path], bool] | None = attrs.field(default=None, validator=_optional_callable)
    description: str = ""
    read_qrels: Callable[[Path], Qrels] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    write_qrels: Callable[[Path, Qrels], None] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    read_run: Callable[[Path], Run] | None = attrs.field(default=None, validator=_optional_callable)
    read_run_columns: Callable[[Path], Any] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    write_run: Callable[[Path, RunInput], None] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    read_queries: Callable[[Path], Queries] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    write_queries: Callable[[Path, Queries], None] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    read_corpus: Callable[[Path], Iterable[Document]] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    write_corpus: Callable[[Path, Iterable[Document]], None] | None = attrs.field(
        default=None, validator=_optional_callable
    )

    kind: ClassVar[str] = "format"

    @property
    def capabilities(self) -> tuple[str, ...]:
        """The names of the capabilities this format has, e.g. ``('read_run', 'write_run')``."""
        return tuple(
            field.name
            for field in attrs.fields(type(self))
            if field.name.startswith(("read_", "write_")) and getattr(self, field.name) is not None
        )
