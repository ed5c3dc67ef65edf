"""Whether :func:`~ef.evaluation.evaluate_run` may have been given subtopic qrels, told
without loading the diversity path (its scoring and the TREC readers behind it): ordinary
qrels, the common case, are scored without them.

>>> may_hold_subtopics({"q1": {"d1": 1}}, None, ["ndcg@10"])
False
>>> may_hold_subtopics({"q1": {"1": {"d1": 1}}}, None, ["ndcg@10"])
True
>>> may_hold_subtopics("qrels.txt", None, ["alpha_nDCG@20"])
True
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry

__all__ = ["may_hold_subtopics", "nested"]

#: The module of SubtopicQrels: a value of it exists only once this module is loaded.
_SUBTOPICS_MODULE = "ef.evaluation._formats.trec._subtopics"


def nested(qrels: object) -> bool:
    """``{qid: {subtopic: {doc: grade}}}``: a grade that is itself a mapping."""
    if not isinstance(qrels, Mapping):
        return False
    for judged in qrels.values():
        if isinstance(judged, Mapping):
            for value in judged.values():
                return isinstance(value, Mapping)
    return False


def may_hold_subtopics(
    qrels: object, qrels_format: str | None, metrics: object, registry: Registry | None = None
) -> bool:
    """Whether ``qrels`` may be subtopic qrels, as
    :func:`~ef.evaluation._evaluate._diversity.subtopic_qrels_of` tells them: a
    ``SubtopicQrels``, a nested mapping, ``qrels_format="subtopics"``, or a file when a
    diversity measure is asked for. False is certain; True sends them to that function.
    Measures that name ``registry``'s metrics are told without the diversity measures'
    module (:func:`~ef.evaluation._engine.syntax.is_metric_name`)."""
    loaded = sys.modules.get(_SUBTOPICS_MODULE)
    if loaded is not None and isinstance(qrels, loaded.SubtopicQrels):
        return True
    if nested(qrels):
        return True
    if qrels_format is not None:
        from .._formats.trec._subtopics import SUBTOPICS  # a format named: rare

        if qrels_format == SUBTOPICS:
            return True
    if isinstance(metrics, str) or not isinstance(metrics, Sequence):
        # Refused as evaluate_run refuses it, when its measures are read; an iterator is
        # not looked at (it would be used up: its names are read as ordinary ones).
        return False
    return _names_a_diversity_measure(metrics, registry)


def _names_a_diversity_measure(metrics: Sequence[object], registry: Registry | None) -> bool:
    if registry is not None:
        from .._engine.syntax import is_metric_name

        if all(is_metric_name(m, registry) for m in metrics):  # the common case
            return False
    from .._engine._diversity import is_diversity_spec

    return any(is_diversity_spec(m) for m in metrics)
