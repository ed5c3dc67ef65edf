"""Measure strings: ``ndcg@10``, ``P(rel=2)@5``, ``ndcg_cut.10``, all resolved to one form.

One module per tool's vocabulary: :mod:`.ours`, :mod:`.ir_measures`, :mod:`.trec_eval`,
:mod:`.ranx` and :mod:`.beir` (these two loaded only by :func:`resolve_key` and the ranx shim);
this package tries each syntax in turn and says "did you mean" when none reads a string.

A *measure* is one retrieval metric at one cutoff (or over the whole ranking) with its
parameters set. Three syntaxes name one:

* ours: ``name``, ``name@k``, ``name@all``, ``name(param=value, ...)@k``, with the names of
  the registry (``ndcg``, ``precision``, a plugin's ``hits``) or their aliases;
* ir_measures': ``nDCG@10``, ``P(rel=2)@5``, ``AP(judged_only=True)``, ``RBP(p=0.8)``;
* trec_eval's: ``ndcg_cut.10``, ``P.5,10``, ``map``, ``recip_rank``, ``ndcg.1=3,2=9``,
  ``iprec_at_recall.0.25,0.5``, ``utility.1,-1,0,0`` (each measure's parameters in the form
  trec_eval reads them, from :data:`~ef.evaluation._engine.trec_vocabulary.TREC_MEASURES`);
* and, read by their own functions, ranx's (``map@100-l2``, :func:`.ranx.parse_ranx_measure`) and
  trec_eval's own reading of a bare name (``map`` is the whole ranking,
  :func:`.trec_eval.parse_trec_eval_measure`).

Each resolves to :class:`.ours.Measure` objects whose :attr:`~.ours.Measure.key` is the canonical
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
cutoff of ``k_values``. :func:`.trec_eval.trec_eval_differences` says where that differs
from trec_eval.

The names trec_eval prints are read too (``P_30``, ``ndcg_cut_10``, ``map_cut_5``,
``success_10``, ``ndcg_1=3,2=9``), so its output can be fed back, and so are its named sets
(``official``, ``all_trec``, ``set``; see :data:`.trec_eval.TREC_EVAL_SETS`):

>>> [m.key for m in parse_measure("ndcg_cut_10")], [m.key for m in parse_measure("P_30")]
(['ndcg@10'], ['precision@30'])
>>> [m.key for m in parse_measure("iprec_at_recall.0.25,0.5")]
['iprec_at_recall(recall=0.25)', 'iprec_at_recall(recall=0.5)']
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...errors import UnknownNameError
from ...interfaces import RetrievalMetric, Synonym
from .index import NameIndex, name_index
from .ir_measures import ir_measures_measure, is_ir_measures_name
from .ours import DEFAULT_K_VALUES, SPEC, Measure, check_metric_names, format_value, our_measures

if TYPE_CHECKING:
    from ..._plugin_engine.registry import Registry

__all__ = [
    "describe_syntaxes",
    "is_metric_name",
    "parse_measure",
    "parse_measures",
    "resolve_key",
]


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
    from ..._plugin_engine.registry import registry_or_default

    if not isinstance(spec, str):
        raise TypeError(f"a measure is a string such as 'ndcg@10', got {spec!r}")
    registry = registry_or_default(registry)
    index = name_index(registry)
    text = spec.strip()
    match = SPEC.match(text)
    name = match["name"] if match else text
    metrics = registry.retrieval_metrics

    if match and name in index.names:  # ours
        return our_measures(spec, match, metrics[index.names[name]], k_values)

    if match and is_ir_measures_name(match, name, index):
        return [ir_measures_measure(spec, match, name, index=index, metrics=metrics)]
    from .trec_eval import trec_eval_syntax  # trec_eval's vocabulary: for its names only

    found = trec_eval_syntax(spec, match, index=index, k_values=k_values, registry=registry)
    if found is None:
        raise _unknown(spec, match["name"] if match else text.partition(".")[0], registry, index)
    return found


def is_metric_name(spec: object, registry: Registry) -> bool:
    """Whether ``spec`` names one of ``registry``'s retrieval metrics, by our name, an alias
    or ir_measures' spelling (trec_eval's are not looked at: that would load its vocabulary).
    Such a string is never a diversity measure's: no built-in metric is spelt as one, and
    the name index refuses a plugin's that is, so the diversity measures need not load to
    tell.

    >>> from ef.evaluation import get_registry
    >>> [is_metric_name(s, get_registry()) for s in ("ndcg@10", "nDCG@10", "alpha_nDCG@20")]
    [True, True, False]
    """
    if not isinstance(spec, str):
        return False
    match = SPEC.match(spec.strip())
    if match is None:
        return False
    index = name_index(registry)
    return match["name"] in index.names or match["name"] in index.ir_measures


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


def _unknown(spec: str, name: str, registry: Registry, index: NameIndex) -> UnknownNameError:
    from ...metrics.retrieval.diversity import DIVERSITY_NAMES  # for a name not found only
    from .trec_eval import NOT_IMPLEMENTED

    if name in registry.rag_metrics:
        return UnknownNameError(f"{name!r} is a rag metric, not a retrieval metric.")
    if name in DIVERSITY_NAMES:
        return UnknownNameError(
            f"{spec!r} is a diversity measure: it needs subtopic qrels (a SubtopicQrels, or "
            "a qid subtopic docno grade file) and a run read whole; score it with "
            f"evaluate_run(run, subtopic_qrels, metrics=[{spec!r}]) (or evaluate_diversity)."
        )
    family = re.sub(r"_[\d.,=_]+$", "", name)
    if name in NOT_IMPLEMENTED or family in NOT_IMPLEMENTED:
        return UnknownNameError(
            f"{spec!r} is trec_eval's {family}, which ef-evaluation does not implement. Valid "
            f"retrieval metrics: {', '.join(registry.retrieval_metrics)} (ef-eval metrics lists "
            "their trec_eval names)."
        )
    import difflib  # for an unknown name only

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


def _metric_named(spelling: str, index: NameIndex) -> str:
    """The metric that ``spelling`` names in any syntax (the first, if it names several)."""
    if spelling in index.names:
        return index.names[spelling]
    for table in (index.ir_measures, index.trec_eval):
        if spelling in table:
            return table[spelling][0][0]
    return spelling


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


def _readings(
    name: str, k_values: Sequence[int], registry: Registry | None
) -> tuple[list[list[str]], list[Exception]]:
    """The report keys ``name`` means in each syntax that reads it, and why the others do not."""
    from .beir import our_spelling  # ranx's and BEIR's names: read only here
    from .ranx import parse_ranx_measure
    from .trec_eval import parse_trec_eval_measure

    readings: list[list[str]] = []
    problems: list[Exception] = []
    beir = our_spelling(name)
    attempts: list[Callable[[], list[Measure]]] = [
        lambda: parse_measure(name, k_values=k_values, registry=registry),
        lambda: parse_trec_eval_measure(name, registry=registry),
        lambda: [parse_ranx_measure(name, registry=registry)],
    ]
    if beir is not None:
        attempts.append(lambda: parse_measure(beir, k_values=k_values, registry=registry))
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
