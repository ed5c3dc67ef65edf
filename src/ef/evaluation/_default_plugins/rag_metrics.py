"""Registers the RAG metrics of evaluate_rag(): the lexical ones, DPR's has_answer@k, the
overlap ones of the ``text`` extra (their libraries are imported when a sample is scored, never
here), the nugget scores and RAGChecker's claim metrics; and the ``lexical`` nugget assigner,
the baseline that needs no model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..types import RagSample

if TYPE_CHECKING:
    from ..interfaces import NuggetAssigner, RagMetric

#: The class of what this plugin's ef_evaluation_metrics() returns, by name: the registry
#: calls it only when RAG metrics are asked for (scoring a run loads no RAG metric module, and
#: builds no RagMetric class).
PROVIDES = ("RagMetric",)


def _text_metric(
    name: str, func: Callable[..., float | None], *, answer: bool = False
) -> RagMetric:
    from ..interfaces import RagMetric
    from ..metrics import rag

    # The metrics that compare text take normalize= and lang=: token_f1(normalize=squad);
    # those that score the response also abstain=.
    params = rag.ANSWER_PARAMS if answer else rag.TEXT_PARAMS
    return RagMetric(name=name, func=func, params=params, check=rag.check_text_params)


@hookimpl
def ef_evaluation_metrics() -> list[RagMetric]:
    from ..interfaces import RagMetric
    from ..metrics import overlap, rag  # when the registry first resolves a metric
    from ..metrics._claims import CLAIM_METRICS
    from ..metrics._nuggets import NUGGET_METRICS
    from ..metrics.has_answer import HAS_ANSWER

    return [
        _text_metric("exact_match", rag.sample_exact_match, answer=True),
        _text_metric("token_f1", rag.sample_token_f1, answer=True),
        _text_metric("context_recall", rag.sample_context_recall),
        _text_metric("context_precision", rag.sample_context_precision),
        RagMetric(name="non_empty_rate", func=rag.sample_non_empty),
        HAS_ANSWER,
        RagMetric(
            name="bleu",
            func=overlap.sample_bleu,
            params=(overlap.LEVEL,),
            corpus=overlap.samples_corpus_bleu,
        ),
        RagMetric(
            name="chrf",
            func=overlap.sample_chrf,
            params=(overlap.LEVEL,),
            corpus=overlap.samples_corpus_chrf,
        ),
        RagMetric(name="rouge_l", func=overlap.sample_rouge_l),
        *NUGGET_METRICS,
        *CLAIM_METRICS,
    ]


def _lexical_assign(samples: Sequence[RagSample]) -> list[list[str]]:
    """Word overlap of each nugget with the response: a deterministic baseline, no judge."""
    from ..metrics._nuggets import NUGGETS_KEY, checked_nuggets, lexical_assignments

    return [
        lexical_assignments(
            sample.get("response"),
            checked_nuggets(sample.get(NUGGETS_KEY), assigned=False),
        )
        for sample in samples
    ]


@hookimpl
def ef_evaluation_nugget_assigners() -> list[NuggetAssigner]:
    from ..interfaces import NuggetAssigner

    return [NuggetAssigner(name="lexical", assign=_lexical_assign)]
