"""Scoring: the options that say how a run is scored, as one value.

:func:`~ef.evaluation.evaluate_run` takes them as keywords (its signature is the API's); it
builds one :class:`Scoring` of them, checked once, and hands that down the paths that score a
run (whole, in batches, or shard by shard) instead of five loose keywords each.

>>> Scoring(tie_policy="docno_asc")
Scoring(tie_policy='docno_asc', averaging='qrels', ignore_identical_ids=False, \
check_swapped=True, check_doc_ids=True)
>>> Scoring(averaging="all")
Traceback (most recent call last):
    ...
ValueError: averaging must be one of ('qrels', 'intersection', 'run'), got 'all'
>>> Scoring(check_swapped="no")
Traceback (most recent call last):
    ...
TypeError: check_swapped must be True or False, got 'no'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypedDict

import attrs

from .._runs.order import check_tie_policy
from .measures import AVERAGING

if TYPE_CHECKING:
    from ..types import Averaging, TiePolicy

__all__ = ["Rules", "Scoring"]


def _valid_policy(_: object, __: object, value: str) -> None:
    check_tie_policy(value)


def _valid_averaging(_: object, __: object, value: str) -> None:
    if value not in AVERAGING:
        raise ValueError(f"averaging must be one of {AVERAGING}, got {value!r}")


def _a_bool(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    # A str such as "no" is truthy: taken as True it would turn a check on silently.
    if not isinstance(value, bool):
        raise TypeError(f"{attribute.name} must be True or False, got {value!r}")


def _valid_check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not (isinstance(value, bool) or value == "warn"):
        raise ValueError(f"{attribute.name} must be True, False or 'warn', got {value!r}")


class Rules(TypedDict):
    """The two rules every scoring step takes as keywords: ``score_rankings`` and
    ``evaluation`` of :mod:`ef.evaluation._engine.scoring`."""

    tie_policy: str
    averaging: str


@attrs.frozen
class Scoring:
    """How a run is scored: the tie policy, the queries averaged over, the result that is the
    query itself dropped or not, and the checks of the inputs (swapped run and qrels, doc
    ids that do not meet the judged ones: ``"warn"`` warns instead of refusing). The
    meanings are :func:`~ef.evaluation.evaluate_run`'s keywords of the same names.

    Frozen and made of plain values, so it pickles to an executor's worker with a shard.
    """

    # The tie policy first: evaluate_run has always checked it before the averaging.
    tie_policy: TiePolicy = attrs.field(default="trec_eval", validator=_valid_policy)
    averaging: Averaging = attrs.field(default="qrels", validator=_valid_averaging)
    ignore_identical_ids: bool = attrs.field(default=False, validator=_a_bool)
    check_swapped: bool = attrs.field(default=True, validator=_a_bool)
    check_doc_ids: bool | Literal["warn"] = attrs.field(default=True, validator=_valid_check)

    @classmethod
    def given(
        cls,
        tie_policy: TiePolicy | None,
        averaging: Averaging | None,
        ignore_identical_ids: bool | None,
        check_swapped: bool = True,
        check_doc_ids: bool | Literal["warn"] = True,
    ) -> Scoring:
        """The rules of a call's keywords, ``None`` being each rule's default (the one place
        evaluate_run and evaluate_shards fill them in).

        >>> Scoring.given(None, "run", None)
        Scoring(tie_policy='trec_eval', averaging='run', ignore_identical_ids=False, \
check_swapped=True, check_doc_ids=True)
        """
        return cls(
            tie_policy or "trec_eval",
            averaging or "qrels",
            bool(ignore_identical_ids),
            check_swapped,
            check_doc_ids,
        )

    def rules(self) -> Rules:
        """The tie policy and the averaging, as the keywords of ``score_rankings`` and
        ``evaluation``: ``score_rankings(run, qrels, measures, **scoring.rules())``.

        >>> Scoring(averaging="run").rules()
        {'tie_policy': 'trec_eval', 'averaging': 'run'}
        """
        return {"tie_policy": self.tie_policy, "averaging": self.averaging}
