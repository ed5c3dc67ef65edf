"""Our measure syntax, ``name(param=value, ...)@k``, and the values every syntax resolves to.

A *measure* is one retrieval metric at one cutoff (or over the whole ranking) with its
parameters set: a :class:`Measure`, whose :attr:`Measure.key` is the canonical spelling that
reports use. Here too are the defaults of an evaluation (:data:`DEFAULT_METRICS` at each of
:data:`DEFAULT_K_VALUES`), the check of cutoffs and the writing of parameter values, which the
other syntaxes (:mod:`.ir_measures`, :mod:`.trec_eval`, :mod:`.ranx`) share.

>>> split_key("ndcg@10"), params_text([("rel", 2)]), check_k_values([10, 1, 10])
(('ndcg', 10), '(rel=2)', (10, 1))
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, get_args

import attrs

from ...errors import ArgumentError, Keyword
from ...interfaces import MetricParam, RetrievalMetric
from ...types import Averaging, FrozenDict

__all__ = [
    "AVERAGING",
    "DEFAULT_K_VALUES",
    "DEFAULT_METRICS",
    "MAX_CUTOFF",
    "SPEC",
    "Measure",
    "Parameterised",
    "canonical_params",
    "check_k_values",
    "check_metric_names",
    "format_value",
    "literal_params",
    "our_measures",
    "param_problem",
    "params_text",
    "parse_cutoff",
    "split_key",
    "too_deep",
    "whole_number",
]


#: The cutoffs of a bare metric name when none are given.
DEFAULT_K_VALUES = (1, 5, 10, 100)


#: The metrics an evaluation computes when none are named (each at every cutoff).
DEFAULT_METRICS = ("ndcg", "recall", "precision", "mrr", "map")


#: The query-averaging policies of :func:`~ef.evaluation.evaluate_run`.
AVERAGING = get_args(Averaging)


#: A measure string in our syntax: its ``name``, the ``params`` in brackets, the ``k`` after @.
SPEC = re.compile(r"^(?P<name>[^()@\s]+)(?:\((?P<params>.*)\))?(?:@(?P<k>[^()@]*))?$", re.S)


#: The largest cutoff: a ranking's depth is an int64 (C's LONG_MAX, trec_eval's too).
MAX_CUTOFF = 2**63 - 1


def format_value(value: Any) -> str:
    """A parameter value as a measure string writes it.

    Whole numbers lose their ``.0``; other floats use Python's shortest repr; strings are
    quoted; a dict (held as pairs) is written ``{1:3,2:9}``, a list of strings (held as a
    tuple) ``['a','b']``.

    >>> format_value(2.0), format_value(0.8), format_value(True), format_value("exp-log2")
    ('2', '0.8', 'True', "'exp-log2'")
    >>> print(format_value(("unanswerable", "I don't know")))
    ['unanswerable',"I don't know"]

    >>> format_value(((1.0, 3.0), (2.0, 9.5)))
    '{1:3,2:9.5}'
    """
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
        return "[" + ",".join(map(repr, value)) + "]"  # a list of strings, held as a tuple
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
        raise ArgumentError(
            "k_values is empty; give at least one cutoff, e.g. ", Keyword("k_values", (10,))
        )
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

    # Worked out once a measure: scoring reads these for every metric of every report.
    @functools.cached_property
    def family(self) -> str:
        """The key without its cutoff: ``name`` and ``(params)``, the same for the measures
        of one metric and parameters at every cutoff (scored together where the metric has
        a form at several cutoffs).

        >>> from ef.evaluation import get_registry
        >>> Measure(get_registry().retrieval_metric("precision"), 5, (("rel", 2.0),)).family
        'precision(rel=2)'
        """
        return self.metric.name + params_text(self.params)

    @functools.cached_property
    def key(self) -> str:
        """The canonical spelling: ``name``, ``(params)``, then ``@k``, ``@all`` or nothing."""
        text = self.family
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

    @functools.cached_property
    def kwargs(self) -> FrozenDict[str, Any]:
        """Every declared parameter, at its value here or its default, for ``func``/``batch``
        (read-only: every call of the measure shares it)."""
        set_here = dict(self.params)
        return FrozenDict(
            {p.name: p.as_argument(set_here.get(p.name, p.default)) for p in self.metric.params}
        )


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
                f"False, a quoted string, a dict or a list), got {ast.unparse(keyword.value)!r}"
            ) from None
        params.append((str(keyword.arg), value))
    return params


def whole_number(text: str) -> int | None:
    """``text`` as a whole number of ASCII digits (``int`` would also take ``²``'s kin and
    ``1_000``), or None."""
    return int(text) if text.isascii() and text.isdigit() else None


def too_deep(spec: str, k: int) -> ValueError:
    return ValueError(
        f"{spec!r}: the cutoff {k} is beyond the largest, {MAX_CUTOFF}; name the metric "
        "with @all to score the whole ranking"
    )


def parse_cutoff(spec: str, text: str | None) -> int | str | None:
    """The cutoff after a measure string's ``@``: ``None`` (no ``@``), an int, or ``"all"``."""
    if text is None:
        return None
    if text == "all":
        return "all"
    k = whole_number(text)
    if k is None or k < 1:
        raise ValueError(
            f"{spec!r}: the cutoff after '@' must be a positive int or 'all', got {text!r}"
        )
    if k > MAX_CUTOFF:
        raise too_deep(spec, k)
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


def our_measures(
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
