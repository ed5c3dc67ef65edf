"""Diversity measure strings and their scoring over subtopic qrels.

A measure string names a diversity measure in ours (``alpha_ndcg@20``,
``nrbp(alpha=0.3,beta=0.8)``), ir_measures' (``alpha_nDCG@20``, ``ERR_IA@20``, ``NRBP``,
``P_IA@10``, ``AP_IA``, ``StRecall@20``) or ndeval's spelling (``alpha-nDCG@20``, ``MAP-IA``,
``strec@20``); each name is declared once, in
:data:`~ef.evaluation.metrics.retrieval.diversity.DIVERSITY_MEASURES`. A bare name of a
measure with a cutoff means every cutoff of ``k_values`` (ndeval's are 5, 10 and 20).

>>> [m.key for m in parse_diversity_measure("alpha_nDCG@20", (5, 10, 20))]
['alpha_ndcg@20']
>>> [m.key for m in parse_diversity_measure("NRBP(beta=0.8)", (5, 10, 20))]
['nrbp(beta=0.8)']
>>> [m.key for m in parse_diversity_measure("strec", (5, 10))]
['subtopic_recall@5', 'subtopic_recall@10']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from ..errors import UnknownNameError
from ..metrics.retrieval.diversity import (
    ALPHA,
    BETA,
    DIVERSITY_MEASURES,
    DIVERSITY_NAMES,
    DiversityMeasure,
    IntentJudgements,
    check_nrbp,
    intent_judgements,
)
from .syntax.ours import SPEC, literal_params, params_text, parse_cutoff

__all__ = [
    "DEFAULT_DIVERSITY_K_VALUES",
    "DEFAULT_DIVERSITY_METRICS",
    "DiversitySpec",
    "diversity_entry",
    "is_diversity_spec",
    "parse_diversity_measure",
    "parse_diversity_measures",
    "score_diversity",
    "split_diversity",
]

#: ndeval's cutoffs.
DEFAULT_DIVERSITY_K_VALUES = (5, 10, 20)

#: What ndeval reports by default, in our names.
DEFAULT_DIVERSITY_METRICS = ("err_ia", "alpha_ndcg", "nrbp", "ap_ia", "p_ia", "subtopic_recall")

_DEFAULTS: Mapping[str, Any] = {"alpha": ALPHA, "beta": BETA, "rel": None}


@attrs.frozen
class DiversitySpec:
    """One parsed diversity measure: which, at which cutoff (None: the whole ranking) and
    with which parameters (those set away from their defaults, in a fixed order)."""

    measure: DiversityMeasure
    k: int | None
    params: tuple[tuple[str, Any], ...]

    @property
    def key(self) -> str:
        """The report's key: ``alpha_ndcg@20``, ``nrbp(beta=0.8)``."""
        at = f"@{self.k}" if self.k is not None else ""
        return f"{self.measure.name}{params_text(self.params)}{at}"

    @property
    def rel(self) -> float | None:
        value: float | None = dict(self.params).get("rel")
        return value

    def score(self, ranked: Sequence[str], judged: IntentJudgements) -> float:
        """The measure of one query's ranking; ``judged`` read at this spec's ``rel``."""
        kwargs = {n: v for n, v in self.params if n != "rel"}
        func: Callable[..., float] = self.measure.func  # type: ignore[assignment]
        if self.k is None:
            return func(ranked, judged, **kwargs)
        return func(ranked, judged, self.k, **kwargs)


def is_diversity_spec(spec: object) -> bool:
    """Whether ``spec`` names a diversity measure (in any of the three syntaxes).

    >>> is_diversity_spec("alpha_nDCG@20"), is_diversity_spec("ndcg@20")
    (True, False)
    """
    if not isinstance(spec, str):
        return False
    match = SPEC.match(spec.strip())
    return match is not None and match["name"] in DIVERSITY_NAMES


def split_diversity(specs: Sequence[str]) -> tuple[list[str], list[str]]:
    """``specs`` as (the ordinary measure strings, the diversity ones), each in order.

    >>> split_diversity(["ndcg@10", "NRBP", "P@5"])
    (['ndcg@10', 'P@5'], ['NRBP'])
    """
    ordinary = [s for s in specs if not is_diversity_spec(s)]
    return ordinary, [s for s in specs if is_diversity_spec(s)]


def diversity_entry(spec: DiversitySpec) -> dict[str, Any]:
    """A diversity measure's entry in a report's manifest: as an ordinary measure's, every
    parameter's value with the defaults, and ``ndeval`` (not a plugin) as its source."""
    given = dict(spec.params)
    params = {n: given.get(n, _DEFAULTS[n]) for n in (*spec.measure.params, "rel")}
    return {
        "key": spec.key,
        "name": spec.measure.name,
        "k": spec.k,
        "params": params,
        "plugin": None,
        "kind": "diversity",
    }


def _param(spec: str, measure: DiversityMeasure, name: str, value: object) -> Any:
    allowed = ("rel", *measure.params)
    if name not in allowed:
        extra = " (judged_only is not offered for diversity)" if name == "judged_only" else ""
        raise ValueError(
            f"{spec!r}: {measure.name} takes the parameters {', '.join(allowed)}, "
            f"not {name!r}{extra}"
        )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{spec!r}: parameter {name!r} must be a number, got {value!r}")
    number = float(value)
    if name == "rel" and not number > 0:
        raise ValueError(f"{spec!r}: parameter 'rel' must be > 0, got {value!r}")
    if name in ("alpha", "beta") and not 0.0 <= number <= 1.0:
        raise ValueError(f"{spec!r}: parameter {name!r} must be in [0, 1], got {value!r}")
    return number


def parse_diversity_measure(spec: str, k_values: Sequence[int]) -> list[DiversitySpec]:
    """The measures ``spec`` names: one, or one per cutoff of ``k_values`` for a bare name
    of a measure with a cutoff. An unknown name is an ``UnknownNameError`` listing ours."""
    match = SPEC.match(spec.strip()) if isinstance(spec, str) else None
    if match is None:
        raise ValueError(f"{spec!r} is not a measure string (name(params)@k)")
    name = DIVERSITY_NAMES.get(match["name"])
    if name is None:
        raise UnknownNameError(
            f"unknown diversity measure {match['name']!r}; valid: "
            f"{', '.join(DIVERSITY_MEASURES)} (or ir_measures' and ndeval's names)"
        )
    measure = DIVERSITY_MEASURES[name]
    given = literal_params(spec, match["params"]) if match["params"] is not None else []
    values = {n: _param(spec, measure, n, v) for n, v in given}
    params = tuple(
        (n, values[n])
        for n in ("alpha", "beta", "rel")
        if n in values and values[n] != _DEFAULTS[n]
    )
    if "alpha" in measure.params and "beta" in measure.params:
        alpha, beta = values.get("alpha", ALPHA), values.get("beta", BETA)
        check_nrbp(repr(spec), alpha, beta)
    cutoff = parse_cutoff(spec, match["k"])
    if not measure.cutoff:
        if cutoff is not None:
            raise ValueError(f"{spec!r}: {measure.name} scores the whole ranking; it takes no @k")
        return [DiversitySpec(measure, None, params)]
    if cutoff == "all":
        raise ValueError(f"{spec!r}: {measure.name} needs a cutoff k (ndeval's are 5, 10, 20)")
    ks = list(k_values) if cutoff is None else [int(cutoff)]
    return [DiversitySpec(measure, k, params) for k in ks]


def parse_diversity_measures(specs: Sequence[str], k_values: Sequence[int]) -> list[DiversitySpec]:
    """Every measure of ``specs``, each key once, in the order given."""
    if isinstance(specs, str):
        raise TypeError(f"metrics must be a list of measure strings, not the str {specs!r}")
    for k in k_values:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k_values must be ints >= 1, got {k!r}")
    out: dict[str, DiversitySpec] = {}
    for spec in specs:
        for parsed in parse_diversity_measure(spec, k_values):
            out.setdefault(parsed.key, parsed)
    if not out:
        raise ValueError("no diversity measure to compute: metrics is empty")
    return list(out.values())


def score_diversity(
    rankings: Mapping[str, Sequence[str]],
    judgements: Mapping[str, Mapping[str, Mapping[str, float]]],
    specs: Sequence[DiversitySpec],
) -> dict[str, dict[str, float]]:
    """``{query_id: {key: value}}`` for each query of ``rankings``, read against its subtopic
    judgements (each query once per ``rel`` value)."""
    per_query: dict[str, dict[str, float]] = {}
    for query_id, ranked in rankings.items():
        read: dict[float | None, IntentJudgements] = {}
        values = {}
        for spec in specs:
            if spec.rel not in read:
                read[spec.rel] = intent_judgements(judgements[query_id], spec.rel)
            values[spec.key] = spec.score(ranked, read[spec.rel])
        per_query[query_id] = values
    return per_query
