"""trec_eval's measure syntax and names: ``ndcg_cut.10``, ``P.5,10``, ``map``,
``ndcg.1=3,2=9``, ``iprec_at_recall.0.25,0.5``, ``utility.1,-1,0,0`` (each measure's
parameters in the form trec_eval reads them, from
:data:`~ef.evaluation._engine.trec_vocabulary.TREC_MEASURES`); the names it prints (``P_30``,
``ndcg_cut_10``), read back and written (:func:`trec_eval_printed`); its named sets
(:data:`TREC_EVAL_SETS`, :func:`trec_eval_set`); its own reading of a bare name
(:func:`parse_trec_eval_measure`) and where that differs from ours
(:func:`trec_eval_differences`).

>>> [m.key for m in parse_trec_eval_measure("map")]
['map@all']
>>> [trec_eval_printed(m) for m in parse_trec_eval_measure("ndcg_cut.10")]
['ndcg_cut_10']
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...interfaces import RetrievalMetric, Synonym
from ..trec_vocabulary import (
    TREC_BY_NAME,
    TREC_EVAL_CUTOFFS,
    TREC_EVAL_SETS,
    TREC_MEASURES,
    TrecMeasure,
)
from .ours import (
    MAX_CUTOFF,
    Measure,
    canonical_params,
    check_k_values,
    format_value,
    too_deep,
    whole_number,
)

if TYPE_CHECKING:
    from ..._plugin_engine.registry import Registry
    from .index import NameIndex

__all__ = [
    "NOT_IMPLEMENTED",
    "TREC_EVAL_CUTOFFS",
    "TREC_EVAL_SETS",
    "parse_trec_eval_measure",
    "trec_eval_differences",
    "trec_eval_printed",
    "trec_eval_set",
    "trec_eval_syntax",
]


_CUT = ",".join(map(str, TREC_EVAL_CUTOFFS))


#: What each implemented member of a set means here, with trec_eval's default cutoffs; the
#: members not listed are not implemented (the names trec_eval prints, with no number).
#: ``ef-eval trec_eval`` prints every member as trec_eval does (runid and relstring too).
_SET_MEMBERS: Mapping[str, tuple[str, ...]] = {
    m.name: m.members for m in TREC_MEASURES if m.members and "9.0.8" in m.versions
}


#: trec_eval's measures ef-evaluation does not implement, for a clear "unknown" message.
NOT_IMPLEMENTED = frozenset(
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


#: trec_eval's measures printed with a number that is a parameter: the metric and the parameter.
_POINTS = {m.name: (m.metric, m.point) for m in TREC_MEASURES if m.params == "cut_double"}


_POINT = re.compile(rf"(?P<name>{'|'.join(_POINTS)})_(?P<x>\d+\.\d+)")


def trec_eval_syntax(
    spec: str,
    match: re.Match[str] | None,
    *,
    index: NameIndex,
    k_values: Sequence[int],
    registry: Registry,
) -> list[Measure] | None:
    """The measures of trec_eval's syntax: a family with its cutoffs or parameters after a
    dot (``P.5,10``, ``ndcg.1=3``), else a named set or a printed name; None if ``spec`` is
    none of them (this is the last syntax tried)."""
    text = spec.strip()
    base, _, rest = text.partition(".")
    found = None
    if "(" not in text and "@" not in text and base in index.trec_eval:
        found = index.synonym("trec_eval", base, {})
    if found is not None:
        metric_name, synonym = found
        metric = registry.retrieval_metrics[metric_name]
        return _trec_eval_measures(spec, metric, synonym, rest, k_values)
    return _trec_eval_spelling(spec, match, index=index, k_values=k_values, registry=registry)


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


def _number(spec: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{spec!r}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{spec!r}: {text!r} is not a finite number")
    return value


def _cutoffs(spec: str, text: str) -> list[int]:
    ks = []
    for part in text.split(","):
        k = whole_number(part.strip())
        if k is None or k < 1:
            raise ValueError(
                f"{spec!r}: trec_eval's cutoffs after the dot must be positive ints, e.g. P.5,10"
            )
        if k > MAX_CUTOFF:
            raise too_deep(spec, k)
        ks.append(k)
    return ks


def _trec_eval_spelling(
    spec: str,
    match: re.Match[str] | None,
    *,
    index: NameIndex,
    k_values: Sequence[int],
    registry: Registry,
) -> list[Measure] | None:
    """The measures of a named set (``official``) or a printed name (``P_30``); else None."""
    from . import parse_measure  # the package's: a set or a printed name is read anew

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
    return None


def _printed_name(text: str, index: NameIndex) -> str | None:
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


def parse_trec_eval_measure(spec: str, *, registry: Registry | None = None) -> list[Measure]:
    """The measures ``spec`` names in trec_eval's ``-m`` syntax, as trec_eval (and
    pytrec_eval) reads it: a bare name is trec_eval's (``map`` the whole ranking, ``P`` its
    default cutoffs 5 to 1000), unlike :func:`parse_measure`, where ours wins.

    >>> [m.key for m in parse_trec_eval_measure("map")], len(parse_trec_eval_measure("P"))
    (['map@all'], 9)
    >>> [m.key for m in parse_trec_eval_measure("ndcg_cut.10")]
    ['ndcg@10']
    """
    from . import parse_measure

    text = spec.strip() if isinstance(spec, str) else spec
    members = _SET_MEMBERS.get(text, (spec,)) if isinstance(text, str) else (spec,)
    # TREC_EVAL_CUTOFFS: a bare cutoff family elsewhere (a plugin's) is cut as trec_eval's.
    return [
        measure
        for member in members
        for measure in parse_measure(member, k_values=TREC_EVAL_CUTOFFS, registry=registry)
    ]


def trec_eval_printed(measure: Measure) -> str | None:
    """The name trec_eval (and pytrec_eval) prints for ``measure``, from its metric's
    trec_eval synonyms; None if trec_eval has no name for it.

    trec_eval's names carry cutoffs, nDCG's gains (``ndcg_1=3,2=9``) and RBP's ``p``
    (``rbp_p=0.8``), not its global switches (``-l``, ``-J``): a measure with other
    parameters has no trec_eval name.

    >>> from ef.evaluation._engine.syntax import parse_measure
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
