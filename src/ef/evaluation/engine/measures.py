"""Measure strings: ``ndcg@10``, ``P(rel=2)@5``, ``ndcg_cut.10``, all resolved to one form.

A *measure* is one retrieval metric at one cutoff (or over the whole ranking) with its
parameters set. Three syntaxes name one:

* ours: ``name``, ``name@k``, ``name@all``, ``name(param=value, ...)@k``, with the names of
  the registry (``ndcg``, ``precision``, a plugin's ``hits``) or their aliases;
* ir_measures': ``nDCG@10``, ``P(rel=2)@5``, ``AP(judged_only=True)``, ``RBP(p=0.8)``;
* trec_eval's: ``ndcg_cut.10``, ``P.5,10``, ``map``, ``recip_rank``, ``ndcg.1=3,2=9``,
  ``iprec_at_recall.0.25,0.5``, ``utility.1,-1,0,0`` (each measure's parameters in the form
  trec_eval reads them, from :data:`~ef.evaluation.engine.trec_vocabulary.TREC_MEASURES`);
* and, read by their own functions, ranx's (``map@100-l2``, :func:`parse_ranx_measure`) and
  trec_eval's own reading of a bare name (``map`` is the whole ranking,
  :func:`parse_trec_eval_measure`).

Each resolves to :class:`Measure` objects whose :attr:`Measure.key` is the canonical
spelling that reports use: our name, the parameters that differ from their defaults in
declaration order, then ``@k``, ``@all`` (the whole ranking) or nothing (a metric that has
no cutoff by nature, such as ``rprec``):

>>> [m.key for m in parse_measure("P(rel=2)@5")]
['precision(rel=2)@5']
>>> [m.key for m in parse_measure("P.5,10")]
['precision@5', 'precision@10']
>>> parse_measure("AP") == parse_measure("map@all") == parse_measure("AP(judged_only=False)")
True

Parsing a canonical key gives back the same measure, so keys can be stored and read again.
Where the syntaxes disagree, ours wins: a bare ``ndcg`` or ``map`` is that metric at every
cutoff of ``k_values`` (trec_eval would read the whole ranking: write ``ndcg@all`` or
``nDCG``). A bare name of an ir_measures measure is the whole ranking (``AP``, ``nDCG``), as
in ir_measures; a bare trec_eval family that takes cutoffs (``P``, ``ndcg_cut``) is every
cutoff of ``k_values``. :func:`trec_eval_differences` says where that differs from trec_eval.

The names trec_eval prints are read too (``P_30``, ``ndcg_cut_10``, ``map_cut_5``,
``success_10``, ``ndcg_1=3,2=9``), so its output can be fed back, and so are its named sets
(``official``, ``all_trec``, ``set``; see :data:`TREC_EVAL_SETS`):

>>> [m.key for m in parse_measure("ndcg_cut_10")], [m.key for m in parse_measure("P_30")]
(['ndcg@10'], ['precision@30'])
>>> [m.key for m in parse_measure("iprec_at_recall.0.25,0.5")]
['iprec_at_recall(recall=0.25)', 'iprec_at_recall(recall=0.5)']
"""

from __future__ import annotations

import ast
import difflib
import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, get_args

import attrs

from ..errors import DuplicateNameError, UnknownNameError
from ..interfaces import MetricParam, RetrievalMetric, Synonym
from ..types import Averaging
from .trec_vocabulary import (
    TREC_BY_NAME,
    TREC_EVAL_CUTOFFS,
    TREC_EVAL_SETS,
    TREC_MEASURES,
    TrecMeasure,
)

if TYPE_CHECKING:
    from ..plugin_engine.registry import Registry

__all__ = [
    "AVERAGING",
    "DEFAULT_K_VALUES",
    "DEFAULT_METRICS",
    "MAX_CUTOFF",
    "RANX_NAMES",
    "SPEC",
    "TREC_EVAL_CUTOFFS",
    "TREC_EVAL_SETS",
    "Measure",
    "Parameterised",
    "canonical_params",
    "check_k_values",
    "check_metric_names",
    "format_value",
    "literal_params",
    "param_problem",
    "params_text",
    "parse_cutoff",
    "parse_measure",
    "parse_measures",
    "parse_ranx_measure",
    "parse_trec_eval_measure",
    "resolve_key",
    "split_key",
    "trec_eval_differences",
    "trec_eval_printed",
    "trec_eval_set",
]

#: The cutoffs of a bare metric name when none are given.
DEFAULT_K_VALUES = (1, 5, 10, 100)

#: The metrics an evaluation computes when none are named (each at every cutoff).
DEFAULT_METRICS = ("ndcg", "recall", "precision", "mrr", "map")

#: The query-averaging policies of :func:`~ef.evaluation.evaluate_run`.
AVERAGING = get_args(Averaging)

_CUT = ",".join(map(str, TREC_EVAL_CUTOFFS))

#: What each implemented member of a set means here, with trec_eval's default cutoffs; the
#: members not listed are not implemented (the names trec_eval prints, with no number).
#: ``ef-eval trec_eval`` prints every member as trec_eval does (runid and relstring too).
_SET_MEMBERS: Mapping[str, tuple[str, ...]] = {
    m.name: m.members for m in TREC_MEASURES if m.members and "9.0.8" in m.versions
}

#: trec_eval's measures ef-evaluation does not implement, for a clear "unknown" message.
_NOT_IMPLEMENTED = frozenset(
    name
    for members in TREC_EVAL_SETS.values()
    for name in members
    if name not in _SET_MEMBERS and name != "num_q"
) | {"P_avgjg", "map_avgjg", "Rprec_mult_avgjg", "yaap", "ndcg_p"}


def trec_eval_set(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The measure strings of trec_eval's named set ``name`` that ef-evaluation implements,
    at trec_eval's default cutoffs, and the members it leaves out (not implemented).

    >>> specs, left_out = trec_eval_set("official")
    >>> specs[:5], left_out
    (('num_ret', 'num_rel', 'num_rel_ret', 'map@all', 'gm_map'), ('runid',))
    """
    members = [m for m in TREC_EVAL_SETS[name] if m != "num_q"]  # every report counts them
    return (
        tuple(spec for m in members for spec in _SET_MEMBERS.get(m, ())),
        tuple(m for m in members if m not in _SET_MEMBERS),
    )


#: Bare names whose trec_eval meaning differs from ours, and how to ask for trec_eval's.
_TREC_MEANINGS = {
    m.name: (f"cut at {_CUT}", m.members[0], m.default)
    if m.params == "cut_long"
    else ("the whole ranking", m.members[0], None)
    for m in TREC_MEASURES
    if m.differs
}


def trec_eval_differences(specs: Iterable[str], k_values: Sequence[int]) -> str | None:
    """One sentence on the bare names of ``specs`` that trec_eval reads otherwise, or None.

    Ours wins (a bare name is every cutoff of ``k_values``); ``ef-eval evaluate`` prints this
    as a note so a trec_eval user learns how to ask for trec_eval's meaning.

    >>> print(trec_eval_differences(["map", "ndcg@10"], (1, 10)))
    bare map means the metric at each cutoff of k_values (1,10); trec_eval's map is the whole \
ranking: write map@all
    >>> trec_eval_differences(["P"], (5, 10, 15, 20, 30, 100, 200, 500, 1000)) is None
    True
    """
    ks = tuple(k_values)
    said = []
    for spec in dict.fromkeys(s.strip() for s in specs):
        if spec not in _TREC_MEANINGS:
            continue
        meaning, write, same_when = _TREC_MEANINGS[spec]
        if same_when is not None and tuple(sorted(set(ks))) == same_when:
            continue
        said.append((spec, meaning, write))
    if not said:
        return None
    names = " and ".join(spec for spec, _, _ in said)
    theirs = "; ".join(
        f"trec_eval's {spec} is {meaning}: write {write}" for spec, meaning, write in said
    )
    verb = "means" if len(said) == 1 else "mean"
    return (
        f"bare {names} {verb} the metric at each cutoff of k_values "
        f"({','.join(map(str, ks))}); {theirs}"
    )


def _printed_name(text: str, index: _Index) -> str | None:
    """trec_eval's printed name in its input syntax: ``P_30`` -> ``P.30``,
    ``ndcg_1=3,2=9`` -> ``ndcg.1=3,2=9``, ``rbp_p=0.8`` -> ``rbp.p=0.8``; None if it is not one."""
    for name in sorted(index.trec_eval, key=len, reverse=True):
        rest = text[len(name) + 1 :]
        if not rest or not text.startswith(f"{name}_"):
            continue
        cutoff = any(synonym.cutoff for _, synonym in index.trec_eval[name])
        if (rest.isdigit() and cutoff) or ("=" in rest and not cutoff):
            return f"{name}.{rest}"
    return None


#: A measure string in our syntax: its ``name``, the ``params`` in brackets, the ``k`` after @.
SPEC = re.compile(r"^(?P<name>[^()@\s]+)(?:\((?P<params>.*)\))?(?:@(?P<k>[^()@]*))?$", re.S)


def format_value(value: Any) -> str:
    """A parameter value as a measure string writes it.

    Whole numbers lose their ``.0``; other floats use Python's shortest repr; strings are
    quoted; a dict (held as pairs) is written ``{1:3,2:9}``.

    >>> format_value(2.0), format_value(0.8), format_value(True), format_value("exp-log2")
    ('2', '0.8', 'True', "'exp-log2'")
    >>> format_value(((1.0, 3.0), (2.0, 9.5)))
    '{1:3,2:9.5}'
    """
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value):
        return "{" + ",".join(f"{format_value(a)}:{format_value(b)}" for a, b in value) + "}"
    return repr(value)  # any other tuple too: the parameter's check then names it


def params_text(params: Iterable[tuple[str, Any]]) -> str:
    """Parameters as a key writes them after the name: ``(rel=2,judged_only=True)``, or
    nothing for none.

    >>> params_text([("normalize", "mlqa"), ("lang", "zh")]), params_text([])
    ("(normalize='mlqa',lang='zh')", '')
    """
    text = ",".join(f"{name}={format_value(value)}" for name, value in params)
    return f"({text})" if text else ""


def _pairs(value: Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple(value)


def split_key(key: str) -> tuple[str, int | None]:
    """``"ndcg@10"`` -> ``("ndcg", 10)``; a key without a cutoff -> ``(key, None)``."""
    name, at, k = key.rpartition("@")
    if not at or not k.isdigit():
        return key, None
    return name, int(k)


#: The largest cutoff: a ranking's depth is an int64 (C's LONG_MAX, trec_eval's too).
MAX_CUTOFF = 2**63 - 1


def check_metric_names(metrics: object) -> None:
    """Refuse ``metrics`` that is no sequence of names: one name alone (a str, read one
    letter at a time), or what cannot be iterated (``metrics=10``).

    >>> check_metric_names("ndcg")
    Traceback (most recent call last):
        ...
    TypeError: metrics must be a sequence of names, e.g. ('ndcg',), not a str
    """
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a sequence of names, e.g. ({metrics!r},), not a str")
    if not isinstance(metrics, Iterable):
        raise TypeError(
            f"metrics must be a sequence of names, e.g. ('ndcg@10', 'map'); got {metrics!r}"
        )


def check_k_values(k_values: Sequence[int]) -> tuple[int, ...]:
    """``k_values`` as a tuple of distinct positive ints; a clear ValueError otherwise, and a
    TypeError for one cutoff given alone (``k_values=10``) or a string.

    >>> check_k_values(10)
    Traceback (most recent call last):
        ...
    TypeError: k_values takes a sequence of cutoffs, e.g. k_values=(10,) or [1, 10]; got 10, \
an int
    """
    if isinstance(k_values, (str, bytes)) or not isinstance(k_values, Iterable):
        kind = type(k_values).__name__
        raise TypeError(
            "k_values takes a sequence of cutoffs, e.g. k_values=(10,) or [1, 10]; got "
            f"{k_values!r}, {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
        )
    ks = tuple(k_values)
    if not ks:
        raise ValueError("k_values is empty; give at least one cutoff, e.g. k_values=(10,)")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k_values must be positive ints, got {k!r} in {ks!r}")
        if k > MAX_CUTOFF:
            raise ValueError(
                f"k_values: {k} is beyond the largest cutoff, {MAX_CUTOFF}; a metric named "
                "with @all scores the whole ranking"
            )
    return tuple(dict.fromkeys(ks))  # duplicates would only repeat report keys


@attrs.frozen
class Measure:
    """One retrieval metric at one cutoff, with its parameters: what a report key stands for.

    ``k`` is the cutoff, or ``None`` for the whole ranking. ``params`` holds the parameters
    that differ from their defaults, in the metric's declaration order, as
    ``(name, value)`` pairs (see :meth:`MetricParam.convert
    <ef.evaluation.MetricParam.convert>`).

    >>> from ef.evaluation import get_registry
    >>> ndcg = get_registry().retrieval_metric("ndcg")
    >>> Measure(ndcg, 10).key, Measure(ndcg, None).key
    ('ndcg@10', 'ndcg@all')
    """

    metric: RetrievalMetric
    k: int | None
    params: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)

    @property
    def key(self) -> str:
        """The canonical spelling: ``name``, ``(params)``, then ``@k``, ``@all`` or nothing."""
        text = self.metric.name + params_text(self.params)
        if self.k is not None:
            return f"{text}@{self.k}"
        return f"{text}@all" if self.metric.cutoff else text

    def with_params(self, **values: Any) -> Measure:
        """This measure with the parameters ``values`` set (checked and converted; one set
        to its default is left out of the key, as a measure string would leave it).

        >>> from ef.evaluation import get_registry
        >>> Measure(get_registry().retrieval_metric("precision"), 5).with_params(rel=2).key
        'precision(rel=2)@5'
        """
        given = dict(self.params)
        for name, value in values.items():
            given[name] = self.metric.param(name).convert(value)
        params = tuple(
            (p.name, given[p.name])
            for p in self.metric.params
            if p.name in given and given[p.name] != p.default
        )
        return Measure(self.metric, self.k, params)

    @property
    def kwargs(self) -> dict[str, Any]:
        """Every declared parameter, at its value here or its default, for ``func``/``batch``."""
        set_here = dict(self.params)
        return {p.name: p.as_argument(set_here.get(p.name, p.default)) for p in self.metric.params}


@attrs.frozen
class _Index:
    """Every way to name a metric of one registry."""

    names: dict[str, str]  # our names and aliases -> metric name
    #: Spelling -> (metric name, synonym), the ones that require parameters first.
    ir_measures: dict[str, list[tuple[str, Synonym]]]
    trec_eval: dict[str, list[tuple[str, Synonym]]]

    def synonym(
        self, syntax: str, name: str, given: Mapping[str, Any]
    ) -> tuple[str, Synonym] | None:
        """The metric that ``name`` means in ``syntax`` with the parameters ``given``."""
        table = self.ir_measures if syntax == "ir_measures" else self.trec_eval
        for metric_name, synonym in table.get(name, ()):
            if synonym.matches(given):
                return metric_name, synonym
        return None


def _index(registry: Registry) -> _Index:
    # Derived data of the frozen registry, built once and cached on it.
    return registry.derived(_Index, _build_index)


def _who(registry: Registry, name: str) -> str:
    try:
        return f"{name!r} ({registry.plugin_info(registry.provider_name(name)).describe()})"
    except UnknownNameError:  # a registry built by hand
        return repr(name)


def _build_index(registry: Registry) -> _Index:
    metrics = registry.retrieval_metrics
    names = {name: name for name in metrics}
    syntaxes: dict[str, dict[str, list[tuple[str, Synonym]]]] = {
        "ir_measures": {},
        "trec_eval": {},
    }
    for name, metric in metrics.items():
        for alias in metric.aliases:
            other = names.get(alias)
            if other is not None and other != name:
                raise DuplicateNameError(
                    f"retrieval metric name {alias!r} is claimed by {_who(registry, other)} "
                    f"and by {_who(registry, name)} (as an alias)"
                )
            names[alias] = name
        for synonym in metric.synonyms:
            _add_synonym(syntaxes[synonym.syntax], name, synonym, registry)
    return _Index(names, syntaxes["ir_measures"], syntaxes["trec_eval"])


def _add_synonym(
    table: dict[str, list[tuple[str, Synonym]]], name: str, synonym: Synonym, registry: Registry
) -> None:
    """Add metric ``name``'s synonym to its syntax's table, the most specific first; the
    same spelling with the same requirements claimed by two metrics is refused."""
    entries = table.setdefault(synonym.name, [])
    for other, taken in entries:
        same = taken.requires == synonym.requires and taken.selects == synonym.selects
        if other != name and same:
            raise DuplicateNameError(
                f"the {synonym.syntax} name {synonym.name!r} is claimed by "
                f"{_who(registry, other)} and {_who(registry, name)}"
            )
    entries.append((name, synonym))
    entries.sort(key=lambda entry: -len(entry[1].requires) - len(entry[1].selects))


def literal_params(spec: str, text: str, *, bare_names: bool = False) -> list[tuple[str, Any]]:
    """``rel=2, judged_only=True`` -> ``[("rel", 2), ("judged_only", True)]``.

    A value is a Python literal; with ``bare_names`` a bare name is one too, standing for
    that string (the RAG metric strings' ``normalize=squad`` is ``normalize='squad'``).

    >>> literal_params("f(normalize=mlqa, lang='zh')", "normalize=mlqa, lang='zh'", bare_names=True)
    [('normalize', 'mlqa'), ('lang', 'zh')]
    """
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError as exc:
        raise ValueError(
            f"{spec!r}: cannot read the parameters {text!r} ({exc.msg}); write them as "
            "name=value, e.g. P(rel=2)@5"
        ) from None
    assert isinstance(call, ast.Call)
    if call.args or any(kw.arg is None for kw in call.keywords):
        raise ValueError(f"{spec!r}: parameters are name=value pairs, e.g. P(rel=2)@5")
    params = []
    for keyword in call.keywords:
        if bare_names and isinstance(keyword.value, ast.Name):
            params.append((str(keyword.arg), keyword.value.id))
            continue
        try:
            value = ast.literal_eval(keyword.value)
        except ValueError:
            raise ValueError(
                f"{spec!r}: the value of {keyword.arg!r} must be a literal (a number, True, "
                f"False, a quoted string or a dict), got {ast.unparse(keyword.value)!r}"
            ) from None
        params.append((str(keyword.arg), value))
    return params


def _number(spec: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{spec!r}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{spec!r}: {text!r} is not a finite number")
    return value


def _trec_eval_measures(
    spec: str, metric: RetrievalMetric, synonym: Synonym, rest: str, k_values: Sequence[int]
) -> list[Measure]:
    """The measures of trec_eval's ``name.rest``, its parameters read in the form trec_eval
    reads them for that measure (:data:`~.trec_vocabulary.TREC_MEASURES`): cutoffs
    (``P.5,10``), levels (``iprec_at_recall.0.25,0.5``), numbers (``utility.1,-1,0,0``) or
    name=value pairs (``ndcg.1=3,2=9``, ``rbp.p=0.8``, and any measure's own parameters)."""
    params = [*synonym.params]
    if synonym.cutoff:
        ks = list(check_k_values(k_values)) if not rest else list(_cutoffs(spec, rest))
        chosen = canonical_params(spec, metric, params)
        return [Measure(metric, k, chosen) for k in dict.fromkeys(ks)]
    entry = TREC_BY_NAME.get(synonym.name)
    positional = entry if rest and "=" not in rest else None  # numbers after the dot
    if positional is not None and positional.params == "cut_double":
        return _trec_points(spec, metric, positional, params, rest)
    if positional is not None and positional.params == "doubles" and positional.values:
        params += _trec_numbers(spec, positional, rest)
    elif rest:
        params += _trec_params(spec, metric, rest)
    return [Measure(metric, None, canonical_params(spec, metric, params))]


def _trec_points(
    spec: str,
    metric: RetrievalMetric,
    entry: TrecMeasure,
    params: list[tuple[str, Any]],
    text: str,
) -> list[Measure]:
    """A measure per point trec_eval reads after the dot (``iprec_at_recall.0.25,0.5``)."""
    points = dict.fromkeys(_number(spec, part) for part in text.split(","))
    return [
        Measure(metric, None, canonical_params(spec, metric, [*params, (str(entry.point), x)]))
        for x in points
    ]


def _trec_numbers(spec: str, entry: TrecMeasure, text: str) -> list[tuple[str, Any]]:
    """trec_eval's numbers after the dot (``utility.1,-1,0,0``) as the parameters they set."""
    numbers = [_number(spec, part) for part in text.split(",")]
    if entry.listed:  # 11pt_avg.0.2,0.8: one parameter holds them all
        return [(entry.values[0], ",".join(map(repr, numbers)))]
    if len(entry.values) > 1 and len(numbers) != len(entry.values):
        raise ValueError(
            f"{spec!r}: trec_eval's {entry.name} takes {len(entry.values)} numbers after the "
            f"dot ({', '.join(entry.values)}), e.g. {entry.name}."
            f"{','.join(map(format_value, entry.default))}"
        )
    return list(zip(entry.values, numbers, strict=False))  # set_F.0.5,2: the first, as trec_eval


def _trec_params(spec: str, metric: RetrievalMetric, text: str) -> list[tuple[str, Any]]:
    """trec_eval's parameters after the dot: ``1=3,2=9`` (gains) or ``p=0.8``."""
    pairs = []
    for part in text.split(","):
        name, equals, value = part.partition("=")
        if not equals or not name or not value:
            raise ValueError(
                f"{spec!r}: trec_eval's parameters are name=value pairs after the dot, e.g. "
                "ndcg.1=3,2=9 or rbp.p=0.8"
            )
        pairs.append((name.strip(), value.strip()))
    if all(re.fullmatch(r"[+-]?[0-9]+", name) for name, _ in pairs):
        param = metric.param("gains")  # the grade=gain pairs of trec_eval's ndcg
        return [(param.name, {int(name): _number(spec, value) for name, value in pairs})]
    params: list[tuple[str, Any]] = []
    for name, value in pairs:
        param = metric.param(name)
        params.append((name, value == "1" if param.type is bool else _number(spec, value)))
    return params


def _whole(text: str) -> int | None:
    """``text`` as a whole number of ASCII digits (``int`` would also take ``²``'s kin and
    ``1_000``), or None."""
    return int(text) if text.isascii() and text.isdigit() else None


def _too_deep(spec: str, k: int) -> ValueError:
    return ValueError(
        f"{spec!r}: the cutoff {k} is beyond the largest, {MAX_CUTOFF}; name the metric "
        "with @all to score the whole ranking"
    )


def _cutoffs(spec: str, text: str) -> list[int]:
    ks = []
    for part in text.split(","):
        k = _whole(part.strip())
        if k is None or k < 1:
            raise ValueError(
                f"{spec!r}: trec_eval's cutoffs after the dot must be positive ints, e.g. P.5,10"
            )
        if k > MAX_CUTOFF:
            raise _too_deep(spec, k)
        ks.append(k)
    return ks


def parse_cutoff(spec: str, text: str | None) -> int | str | None:
    """The cutoff after a measure string's ``@``: ``None`` (no ``@``), an int, or ``"all"``."""
    if text is None:
        return None
    if text == "all":
        return "all"
    k = _whole(text)
    if k is None or k < 1:
        raise ValueError(
            f"{spec!r}: the cutoff after '@' must be a positive int or 'all', got {text!r}"
        )
    if k > MAX_CUTOFF:
        raise _too_deep(spec, k)
    return k


def param_problem(metric: str, error: Exception) -> str:
    """A parameter's error as its metric's: ``parameter 'p' must ...`` becomes ``rbp's
    parameter 'p' must ...``, so that the message names the metric too."""
    text = str(error)
    return f"{metric}'s {text}" if text.startswith("parameter ") else f"{metric}: {text}"


class Parameterised(Protocol):
    """A metric that takes parameters: a :class:`RetrievalMetric` or a ``RagMetric``."""

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> tuple[MetricParam, ...]: ...

    def param(self, name: str) -> MetricParam: ...


def canonical_params(
    spec: str, metric: Parameterised, given: Iterable[tuple[str, Any]]
) -> tuple[tuple[str, Any], ...]:
    """The parameters ``given`` in a measure string, checked and converted, that differ from
    their defaults, in the metric's declaration order: what its report key shows."""
    values: dict[str, Any] = {}
    for name, value in given:
        param: MetricParam = metric.param(name)
        try:
            values[name] = param.convert(value)
        except ValueError as exc:
            raise ValueError(f"{spec!r}: {param_problem(metric.name, exc)}") from None
    return tuple(
        (p.name, values[p.name])
        for p in metric.params
        if p.name in values and values[p.name] != p.default
    )


def _unknown(spec: str, name: str, registry: Registry, index: _Index) -> UnknownNameError:
    if name in registry.rag_metrics:
        return UnknownNameError(f"{name!r} is a rag metric, not a retrieval metric.")
    family = re.sub(r"_[\d.,=_]+$", "", name)
    if name in _NOT_IMPLEMENTED or family in _NOT_IMPLEMENTED:
        return UnknownNameError(
            f"{spec!r} is trec_eval's {family}, which ef-evaluation does not implement. Valid "
            f"retrieval metrics: {', '.join(registry.retrieval_metrics)} (ef-eval metrics lists "
            "their trec_eval names)."
        )
    candidates = list(dict.fromkeys([*index.names, *index.ir_measures, *index.trec_eval]))
    folded = {c.lower(): c for c in reversed(candidates)}
    close = [folded[name.lower()]] if name.lower() in folded else []
    close += [c for c in difflib.get_close_matches(name, candidates, n=3) if c not in close]
    # One spelling per metric: rndcg, not rndcg and trec_eval's Rndcg too.
    named: dict[str, str] = {}
    for candidate in close:
        named.setdefault(_metric_named(candidate, index), candidate)
    close = list(named.values())
    message = f"unknown retrieval metric {name!r}"
    if close:
        message += f"; did you mean {' or '.join(map(repr, close[:3]))}?"
    else:
        message += "."
    return UnknownNameError(
        f"{message} Valid retrieval metrics: {', '.join(registry.retrieval_metrics)}; or their "
        "names in ir_measures' or trec_eval's syntax (ef-eval metrics lists them)."
    )


#: trec_eval's measures printed with a number that is a parameter: the metric and the parameter.
_POINTS = {m.name: (m.metric, m.point) for m in TREC_MEASURES if m.params == "cut_double"}
_POINT = re.compile(rf"(?P<name>{'|'.join(_POINTS)})_(?P<x>\d+\.\d+)")


def _metric_named(spelling: str, index: _Index) -> str:
    """The metric that ``spelling`` names in any syntax (the first, if it names several)."""
    if spelling in index.names:
        return index.names[spelling]
    for table in (index.ir_measures, index.trec_eval):
        if spelling in table:
            return table[spelling][0][0]
    return spelling


def _trec_eval_spelling(
    spec: str,
    match: re.Match[str] | None,
    name: str,
    *,
    index: _Index,
    k_values: Sequence[int],
    registry: Registry,
) -> list[Measure]:
    """The measures of a named set (``official``) or a printed name (``P_30``); else the
    error of an unknown name (this is the last syntax tried)."""
    text = spec.strip()
    if text in TREC_EVAL_SETS:  # trec_eval's -m official: its members at its cutoffs
        members = trec_eval_set(text)[0]
        return [m for member in members for m in parse_measure(member, registry=registry)]
    point = _POINT.fullmatch(text)
    if point is not None:  # iprec_at_recall_0.10, Rprec_mult_0.20, as trec_eval prints them
        metric, param = _POINTS[point["name"]]
        return parse_measure(f"{metric}({param}={float(point['x'])!r})", registry=registry)
    dotted = text.partition(".")[0] in index.trec_eval  # P.5, rbp_resid.p=0.5
    if match and match["params"] is None and match["k"] is None and not dotted:
        printed = _printed_name(text, index)
        if printed is not None:  # P_30, as trec_eval prints it
            return parse_measure(printed, k_values=k_values, registry=registry)
    raise _unknown(spec, name, registry, index)


def parse_measure(
    spec: str,
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> list[Measure]:
    """The measures one string names, in any of the three syntaxes.

    A name without a cutoff stands for every cutoff of ``k_values`` when its metric takes
    cutoffs (in our syntax and trec_eval's), so one string may give several measures.

    Raises:
        UnknownNameError: (a ``ValueError``) for an unknown metric or parameter, with the
            valid ones and a "did you mean".
        ValueError: for a malformed string or a bad parameter value.

    >>> [m.key for m in parse_measure("ndcg", k_values=(5, 10))]
    ['ndcg@5', 'ndcg@10']
    >>> [m.key for m in parse_measure("nDCG(dcg='exp-log2')@10")]
    ["ndcg(dcg='exp-log2')@10"]
    >>> [m.key for m in parse_measure("ndcg.1=3,2=9")], [m.key for m in parse_measure("Rprec")]
    (['ndcg(gains={1:3,2:9})@all'], ['rprec'])
    >>> parse_measure("P(rell=2)@5")
    Traceback (most recent call last):
        ...
    ef.evaluation.UnknownNameError: retrieval metric 'precision' has no parameter \
'rell'; did you mean 'rel'? Its parameters: rel, judged_only.
    """
    from ..plugin_engine.registry import registry_or_default

    if not isinstance(spec, str):
        raise TypeError(f"a measure is a string such as 'ndcg@10', got {spec!r}")
    registry = registry_or_default(registry)
    index = _index(registry)
    text = spec.strip()
    match = SPEC.match(text)
    name = match["name"] if match else text
    metrics = registry.retrieval_metrics

    if match and name in index.names:  # ours
        return _our_measures(spec, match, metrics[index.names[name]], k_values)

    if match and _is_ir_measures_name(match, name, index):
        return [_ir_measures_measure(spec, match, name, index=index, metrics=metrics)]
    return _trec_eval_syntax(spec, match, index=index, k_values=k_values, registry=registry)


def _is_ir_measures_name(match: re.Match[str], name: str, index: _Index) -> bool:
    """Whether ``name`` is ir_measures'. A bare name that is trec_eval's too is trec_eval's:
    ``P`` is every cutoff."""
    bare = match["params"] is None and match["k"] is None
    return name in index.ir_measures and not (bare and name in index.trec_eval)


def _trec_eval_syntax(
    spec: str,
    match: re.Match[str] | None,
    *,
    index: _Index,
    k_values: Sequence[int],
    registry: Registry,
) -> list[Measure]:
    """The measures of trec_eval's syntax: a family with its cutoffs or parameters after a
    dot (``P.5,10``, ``ndcg.1=3``), else a named set or a printed name."""
    text = spec.strip()
    base, _, rest = text.partition(".")
    found = None
    if "(" not in text and "@" not in text and base in index.trec_eval:
        found = index.synonym("trec_eval", base, {})
    if found is not None:
        metric_name, synonym = found
        metric = registry.retrieval_metrics[metric_name]
        return _trec_eval_measures(spec, metric, synonym, rest, k_values)
    name = match["name"] if match else base
    return _trec_eval_spelling(spec, match, name, index=index, k_values=k_values, registry=registry)


def _our_measures(
    spec: str, match: re.Match[str], metric: RetrievalMetric, k_values: Sequence[int]
) -> list[Measure]:
    """The measures of our syntax, ``name(params)@k``: without a cutoff, one per cutoff of
    ``k_values`` for a metric that takes cutoffs."""
    params = literal_params(spec, match["params"]) if match["params"] is not None else []
    cutoff = parse_cutoff(spec, match["k"])
    if cutoff is None:
        ks: list[int | None] = list(check_k_values(k_values)) if metric.cutoff else [None]
    else:
        ks = [None if cutoff == "all" else int(cutoff)]
    chosen = canonical_params(spec, metric, params)
    return [Measure(metric, k, chosen) for k in ks]


def _ir_measures_measure(
    spec: str,
    match: re.Match[str],
    name: str,
    *,
    index: _Index,
    metrics: Mapping[str, RetrievalMetric],
) -> Measure:
    """The measure of ir_measures' syntax, ``Name(params)@k``, through its synonym."""
    given = literal_params(spec, match["params"]) if match["params"] is not None else []
    found = index.synonym("ir_measures", name, dict(given))
    if found is None:
        raise ValueError(f"{spec!r}: ir_measures' {name} needs other parameters here")
    metric_name, synonym = found
    given = [(n, v) for n, v in given if n not in dict(synonym.selects)]
    metric = metrics[metric_name]
    cutoff = parse_cutoff(spec, match["k"])
    if cutoff is not None and not synonym.cutoff:
        raise ValueError(
            f"{spec!r}: ir_measures' {name} takes no cutoff; write "
            f"{metric_name}@{cutoff} for the ranking cut at {cutoff}"
        )
    k = cutoff if isinstance(cutoff, int) else None
    params = [*synonym.params, *given]
    return Measure(metric, k, canonical_params(spec, metric, params))


def parse_measures(
    specs: Iterable[str],
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> list[Measure]:
    """The measures of several strings, each once, in order (see :func:`parse_measure`).

    >>> [m.key for m in parse_measures(["P@5", "precision@5", "P.5,10"])]
    ['precision@5', 'precision@10']
    """
    check_metric_names(specs)
    measures: dict[str, Measure] = {}
    for spec in specs:
        for measure in parse_measure(spec, k_values=k_values, registry=registry):
            measures.setdefault(measure.key, measure)
    return list(measures.values())


def describe_syntaxes(metric: RetrievalMetric) -> Mapping[str, list[str]]:
    """How each syntax names ``metric``: ``{"ours": [...], "ir_measures": [...], ...}``.

    >>> from ef.evaluation import get_registry
    >>> dict(describe_syntaxes(get_registry().retrieval_metric("precision")))
    {'ours': ['precision@k', 'precision@all'], 'ir_measures': ['P@k', 'Precision@k', \
'SetP'], 'trec_eval': ['P.k', 'set_P']}
    """
    ours = [metric.name, *metric.aliases]
    described: dict[str, list[str]] = {
        "ours": [s for n in ours for s in (f"{n}@k", f"{n}@all")] if metric.cutoff else ours
    }
    for syntax in ("ir_measures", "trec_eval"):
        spelled = [_spelling(s) for s in metric.synonyms if s.syntax == syntax]
        if spelled:
            described[syntax] = spelled
    return described


def _spelling(synonym: Synonym) -> str:
    """How a synonym is written: its name, what it requires and selects, where its cutoff
    goes (``P@k``, ``P.k``)."""
    name = synonym.name
    said = [f"{n}=..." for n in synonym.requires]
    said += [f"{n}={format_value(v)}" for n, v in synonym.selects]
    if said:
        name += "(" + ",".join(said) + ")"
    if synonym.cutoff:
        name += "@k" if synonym.syntax == "ir_measures" else ".k"
    return name


def trec_eval_printed(measure: Measure) -> str | None:
    """The name trec_eval (and pytrec_eval) prints for ``measure``, from its metric's
    trec_eval synonyms; None if trec_eval has no name for it.

    trec_eval's names carry cutoffs, nDCG's gains (``ndcg_1=3,2=9``) and RBP's ``p``
    (``rbp_p=0.8``), not its global switches (``-l``, ``-J``): a measure with other
    parameters has no trec_eval name.

    >>> [trec_eval_printed(m) for m in parse_measure("P.5,10")]
    ['P_5', 'P_10']
    >>> [trec_eval_printed(parse_measure(key)[0]) for key in ("map@all", "mrr@10")]
    ['map', None]
    """
    for synonym in measure.metric.synonyms:
        extra = _params_beyond(synonym, measure)
        if extra is not None:
            return _printed_as(synonym, measure, extra)
    return None


def _params_beyond(synonym: Synonym, measure: Measure) -> dict[str, Any] | None:
    """The parameters ``measure`` sets beyond those of trec_eval's ``synonym``; None if the
    synonym does not name it (another syntax, a cutoff or not, other fixed parameters, or
    parameters its printed name cannot carry: another synonym may)."""
    if synonym.syntax != "trec_eval" or synonym.cutoff != (measure.k is not None):
        return None
    given = dict(measure.params)
    fixed = dict(synonym.params)
    if any(given.get(name) != value for name, value in fixed.items()):
        return None
    extra = {name: value for name, value in given.items() if name not in fixed}
    printable = not extra or list(extra) in (["gains"], ["p"])
    if measure.k is None and _point(synonym, extra) is None and not printable:
        return None
    return extra


def _point(synonym: Synonym, extra: Mapping[str, Any]) -> str | None:
    """The parameter a point measure prints in its name (``iprec_at_recall_0.50``), if
    ``synonym`` is one and ``extra`` sets no other."""
    point = _POINTS[synonym.name][1] if synonym.name in _POINTS else None
    return point if point is not None and set(extra) <= {point} else None


def _printed_as(synonym: Synonym, measure: Measure, extra: dict[str, Any]) -> str | None:
    """trec_eval's printed name of ``measure`` through ``synonym``, with the parameters it
    prints in the name (a point, a cutoff, nDCG's gains, RBP's p); None if it has none."""
    point = _point(synonym, extra)
    if point is not None:  # iprec_at_recall_0.50
        value = measure.kwargs[point]
        shown = f"{value:3.2f}"
        # trec_eval prints 2 decimals: a point it cannot print exactly keeps our name.
        return f"{synonym.name}_{shown}" if float(shown) == value else None
    if measure.k is not None:
        return None if extra else f"{synonym.name}_{measure.k}"
    if not extra:
        return synonym.name
    if list(extra) == ["gains"]:
        pairs = ",".join(f"{format_value(g)}={format_value(v)}" for g, v in extra["gains"])
        return f"{synonym.name}_{pairs}"
    return f"{synonym.name}_p={format_value(extra['p'])}"  # the only other it carries


def parse_trec_eval_measure(spec: str, *, registry: Registry | None = None) -> list[Measure]:
    """The measures ``spec`` names in trec_eval's ``-m`` syntax, as trec_eval (and
    pytrec_eval) reads it: a bare name is trec_eval's (``map`` the whole ranking, ``P`` its
    default cutoffs 5 to 1000), unlike :func:`parse_measure`, where ours wins.

    >>> [m.key for m in parse_trec_eval_measure("map")], len(parse_trec_eval_measure("P"))
    (['map@all'], 9)
    >>> [m.key for m in parse_trec_eval_measure("ndcg_cut.10")]
    ['ndcg@10']
    """
    text = spec.strip() if isinstance(spec, str) else spec
    members = _SET_MEMBERS.get(text, (spec,)) if isinstance(text, str) else (spec,)
    # TREC_EVAL_CUTOFFS: a bare cutoff family elsewhere (a plugin's) is cut as trec_eval's.
    return [
        measure
        for member in members
        for measure in parse_measure(member, k_values=TREC_EVAL_CUTOFFS, registry=registry)
    ]


#: ranx's metric names (``ranx.metrics.metric_switch``) and ours; None: not implemented here.
RANX_NAMES: Mapping[str, str | None] = {
    "hits": None,
    "hit_rate": "success",
    "precision": "precision",
    "recall": "recall",
    "f1": "f1",
    "r-precision": "rprec",
    "mrr": "mrr",
    "map": "map",
    "dcg": "dcg",
    "dcg_burges": "dcg(dcg='exp-log2')",
    "ndcg": "ndcg",
    "ndcg_burges": "ndcg(dcg='exp-log2')",
    "bpref": "bpref",
    "rbp": None,  # its gain is the raw grade: neither of ours (1, or the grade over the top one)
}
_RANX = re.compile(r"^(?P<name>[a-z][a-z0-9_-]*?)(?:(?P<sep>[.@])(?P<k>\d+))?(?:-l(?P<rel>\d+))?$")


def parse_ranx_measure(metric: str, *, registry: Registry | None = None) -> Measure:
    """The measure ranx's metric string names: ``name[@k][-l<level>]``. A name without
    ``@k`` is the whole ranking (ranx's ``k=0``), and ``-l2`` is the relevance level
    (``rel=2``; ranx's default level 1 is ours). ranx's ``rbp`` (its gains are the raw
    grades) and ``hits`` have no measure here.

    >>> [parse_ranx_measure(m).key for m in ("ndcg@10", "map@100-l2", "mrr", "r-precision")]
    ['ndcg@10', 'map(rel=2)@100', 'mrr@all', 'rprec']
    >>> parse_ranx_measure("ndcg_burges@5").key, parse_ranx_measure("hit_rate@5").key
    ("ndcg(dcg='exp-log2')@5", 'success@5')
    >>> parse_ranx_measure("dcg@10").key, parse_ranx_measure("dcg_burges-l2").key
    ('dcg@10', "dcg(dcg='exp-log2',rel=2)@all")
    >>> parse_ranx_measure("hits@10")
    Traceback (most recent call last):
        ...
    ef.evaluation.UnknownNameError: ranx's 'hits' is not implemented in ef-evaluation; \
ranx's metrics here: hit_rate, precision, recall, f1, r-precision, mrr, map, dcg, \
dcg_burges, ndcg, ndcg_burges, bpref
    """
    match = _RANX.match(metric.strip()) if isinstance(metric, str) else None
    ours = _ranx_ours(metric, match)
    assert match is not None  # _ranx_ours refuses a string that is no ranx metric
    if match["sep"] == ".":
        raise ValueError(
            f"{metric!r}: ranx writes the cutoff after '@', e.g. {match['name']}@{match['k']}"
        )
    (measure,) = parse_measure(_ranx_spec(ours, match, registry), registry=registry)
    return measure


def _ranx_ours(metric: str, match: re.Match[str] | None) -> str:
    """Our metric string for ranx's name; an error for a name ranx has that is not ours."""
    name = str(match["name"]) if match else ""
    known = ", ".join(n for n, ours in RANX_NAMES.items() if ours is not None)
    if match is None or name not in RANX_NAMES:
        raise UnknownNameError(
            f"{metric!r} is no ranx metric (name[@k][-l<level>], e.g. ndcg@10 or map@100-l2); "
            f"ranx's metrics here: {known}"
        )
    ours = RANX_NAMES[name]
    if ours is None:
        why = (
            " (its gain is the raw grade; ef-evaluation's rbp(p=...) gains 1, or with "
            "graded=True the grade over the query's highest)"
            if name == "rbp"
            else ""
        )
        raise UnknownNameError(
            f"ranx's {name!r} is not implemented in ef-evaluation{why}; ranx's metrics here: "
            f"{known}"
        )
    return ours


def _ranx_spec(ours: str, match: re.Match[str], registry: Registry | None) -> str:
    """Our measure string for ranx's: its parameters and relevance level in brackets, its
    cutoff, or ``@all`` (ranx's ``k=0``) for a metric that takes cutoffs."""
    from ..plugin_engine.registry import registry_or_default

    params = []
    if match["rel"] is not None and int(match["rel"]) != 1:
        params.append(f"rel={int(match['rel'])}")
    base, _, given = ours.partition("(")
    inside = [given.rstrip(")")] if given else []
    spec = base + (f"({','.join([*inside, *params])})" if inside or params else "")
    metric_def = registry_or_default(registry).retrieval_metric(base)
    if match["k"] is not None:
        spec += f"@{match['k']}"
    elif metric_def.cutoff:
        spec += "@all"
    return spec


#: BEIR's and MTEB's names of its own metrics' keys (``R_cap@10``), where they are neither
#: ours nor ir_measures' (``NDCG@10``, ``MAP@10``, ``Recall@10``, ``P@10``, ``MRR@10`` are).
_BEIR_NAMES = {"R_cap": "r_cap", "Hole": "hole", "Accuracy": "success"}


def _readings(
    name: str, k_values: Sequence[int], registry: Registry | None
) -> tuple[list[list[str]], list[Exception]]:
    """The report keys ``name`` means in each syntax that reads it, and why the others do not."""
    readings: list[list[str]] = []
    problems: list[Exception] = []
    base, at, rest = name.partition("@")
    attempts: list[Callable[[], list[Measure]]] = [
        lambda: parse_measure(name, k_values=k_values, registry=registry),
        lambda: parse_trec_eval_measure(name, registry=registry),
        lambda: [parse_ranx_measure(name, registry=registry)],
    ]
    if base in _BEIR_NAMES:
        attempts.append(
            lambda: parse_measure(
                _BEIR_NAMES[base] + at + rest, k_values=k_values, registry=registry
            )
        )
    for attempt in attempts:
        try:
            keys = [m.key for m in attempt()]
        except (ValueError, TypeError) as exc:  # UnknownNameError is a ValueError
            problems.append(exc)
            continue
        if keys not in readings:
            readings.append(keys)
    return readings, problems


def _key_read(name: str, readings: list[list[str]], present: list[str]) -> str | None:
    """The one key of ``present`` the readings of ``name`` stand for, those read as one
    measure first; None if none; an error if several."""
    singles = [r for r in readings if len(r) == 1]
    for group in (singles, [r for r in readings if len(r) > 1]):
        found = [key for key in dict.fromkeys(itertools.chain(*group)) if key in present]
        if len(found) == 1:
            return found[0]
        if found:
            raise KeyError(
                f"{name!r} could be any of {', '.join(found)} in this report; ask for one of them"
            )
    return None


def resolve_key(
    name: str,
    keys: Sequence[str],
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> str:
    """The key of ``keys`` (a report's, in our spelling) that ``name`` stands for, in any
    syntax: ours, ir_measures' (``nDCG@10``), trec_eval's and pytrec_eval's (``ndcg_cut.10``,
    ``ndcg_cut_10``, ``P_5``, a bare ``map`` for the whole ranking), ranx's (``map@100-l2``,
    ``ndcg_burges@10``) or BEIR's (``NDCG@10``, ``R_cap@10``). A name read one way as one
    measure wins over a bare name that stands for every cutoff of ``k_values``.

    Raises:
        KeyError: if ``name`` stands for no key of ``keys``, or for several; the message
            says which keys it would be in our spelling and lists ``keys``.

    >>> keys = ["ndcg@10", "precision@5", "map@all", "map(rel=2)@100"]
    >>> [resolve_key(n, keys) for n in ("nDCG@10", "ndcg_cut_10", "ndcg_cut.10", "P_5")]
    ['ndcg@10', 'ndcg@10', 'ndcg@10', 'precision@5']
    >>> resolve_key("map", keys), resolve_key("map@100-l2", keys)
    ('map@all', 'map(rel=2)@100')
    >>> resolve_key("ndcg_cut_20", keys)
    Traceback (most recent call last):
        ...
    KeyError: "'ndcg_cut_20' is ndcg@20 in ef-evaluation's spelling, which this report does \
not hold; it holds ndcg@10, precision@5, map@all, map(rel=2)@100"
    """
    present = list(keys)
    if name in present:
        return name
    holds = ", ".join(present) or "no metric"
    if not isinstance(name, str):
        raise KeyError(f"a metric name is a str such as 'ndcg@10', got {name!r}; it holds {holds}")
    readings, problems = _readings(name, k_values, registry)
    found = _key_read(name, readings, present)
    if found is not None:
        return found
    if not readings:
        raise KeyError(f"{name!r} names no measure ({problems[0]}); this report holds {holds}")
    meant = ", ".join(dict.fromkeys(key for reading in readings for key in reading))
    raise KeyError(
        f"{name!r} is {meant} in ef-evaluation's spelling, which this report does not hold; "
        f"it holds {holds}"
    )
