"""Every way a registry names its retrieval metrics: our names and aliases, and the
spellings of ir_measures and trec_eval (each metric's synonyms), built once per registry.

>>> from ef.evaluation import get_registry
>>> index = name_index(get_registry())
>>> index.names["map"], index.synonym("ir_measures", "P", {"rel": 2})[0]
('map', 'precision')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from ...errors import DuplicateNameError, UnknownNameError
from ...interfaces import Synonym

if TYPE_CHECKING:
    from ..._plugin_engine.registry import Registry

__all__ = ["NameIndex", "name_index"]


@attrs.frozen
class NameIndex:
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


def name_index(registry: Registry) -> NameIndex:
    # Derived data of the frozen registry, built once and cached on it.
    return registry.derived(NameIndex, _build_index)


def _who(registry: Registry, name: str) -> str:
    try:
        return f"{name!r} ({registry.plugin_info(registry.provider_name(name)).describe()})"
    except UnknownNameError:  # a registry built by hand
        return repr(name)


def _build_index(registry: Registry) -> NameIndex:
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
    _refuse_diversity_spellings(registry)
    return NameIndex(names, syntaxes["ir_measures"], syntaxes["trec_eval"])


def _refuse_diversity_spellings(registry: Registry) -> None:
    """Refuse a plugin's metric named, in our syntax or ir_measures', as a diversity measure
    is (``alpha_ndcg``, ``NRBP``): the name would mean two measures. A measure string that
    names a metric is then never a diversity measure (:func:`~ef.evaluation._engine.syntax.
    is_metric_name`). No built-in metric is spelt as one (a test holds it), so the diversity
    measures' module loads here only where a plugin provides a retrieval metric."""
    metrics = registry.retrieval_metrics
    plugins = [name for name in metrics if not _built_in(registry, name)]
    if not plugins:
        return
    from ...metrics.retrieval.diversity import DIVERSITY_NAMES  # a plugin's metric: rare

    for name in plugins:
        metric = metrics[name]
        irm = [synonym.name for synonym in metric.synonyms if synonym.syntax == "ir_measures"]
        for spelling in (name, *metric.aliases, *irm):
            if spelling in DIVERSITY_NAMES:
                raise DuplicateNameError(
                    f"retrieval metric {_who(registry, name)} is spelt {spelling!r}, as the "
                    f"diversity measure {DIVERSITY_NAMES[spelling]!r} is: rename it"
                )


def _built_in(registry: Registry, name: str) -> bool:
    try:
        return registry.plugin_info(registry.provider_name(name)).builtin
    except UnknownNameError:  # a registry built by hand
        return False


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
