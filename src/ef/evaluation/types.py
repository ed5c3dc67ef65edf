"""The data shapes of the public API: plain mappings, so any dict fits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

__all__ = ["Corpus", "Qrels", "Queries", "RagSample", "Run", "RunInput"]

#: Graded relevance judgements: ``{query_id: {doc_id: relevance}}``. A relevance of 0 means
#: judged non-relevant; > 0 means relevant (graded judgements feed ndcg_at_k(), binary
#: relevance the rest). This is the in-memory form of a BEIR qrels.tsv.
Qrels = Mapping[str, Mapping[str, float]]

#: Documents: ``{doc_id: text}``.
Corpus = Mapping[str, str]

#: Query texts: ``{query_id: text}``.
Queries = Mapping[str, str]

#: A scored run: ``{query_id: {doc_id: score}}``, as TREC run files hold it. Docs are ranked
#: by trec_eval's rule: score descending, ties broken by doc id descending.
Run = Mapping[str, Mapping[str, float]]

#: What run-taking functions accept: a scored run, or ranked lists ``{query_id: [doc_id, ...]}``
#: used in the order given.
RunInput = Mapping[str, Mapping[str, float] | Sequence[str]]


class RagSample(TypedDict, total=False):
    """One end-to-end RAG interaction: the unit :func:`~ef.evaluation.evaluate_rag` scores.

    The field names match Ragas' ``SingleTurnSample`` exactly, so a RagSample is the
    interchange shape RAG applications produce and
    :func:`~ef.evaluation.as_ragas_dataset` forwards unchanged. ``response`` is the caller's
    LLM output; ef never synthesizes it. Every key is optional: a metric skips the samples that
    lack what it needs. Keys beyond these (an ``id``, say) are kept by ef's readers, writers
    and the Ragas bridge, and ignored by the metrics.

    Keys:

    * ``user_input``: the user's question.
    * ``response``: the generated answer (the caller's LLM produced it).
    * ``retrieved_contexts``: the context passages handed to the LLM, as text.
    * ``reference``: the ground-truth answer, if known.
    * ``reference_contexts``: the ground-truth context passages, if known.
    * ``retrieved_context_ids`` / ``reference_context_ids``: ids of those passages (str or int).
    * ``multi_responses``, ``rubrics``, ``persona_name``, ``query_style``, ``query_length``:
      the rest of Ragas' SingleTurnSample, carried through unchanged.

    >>> sample: RagSample = {"user_input": "capital of France?", "response": "Paris"}
    >>> sorted(sample)
    ['response', 'user_input']
    """

    user_input: str
    response: str
    retrieved_contexts: list[str]
    reference: str
    reference_contexts: list[str]
    retrieved_context_ids: list[str | int]
    reference_context_ids: list[str | int]
    multi_responses: list[str]
    rubrics: dict[str, str]
    persona_name: str
    query_style: str
    query_length: str
